package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// parseErrors parses src and returns its error lines; it fails the test if
// parsing succeeded or returned something other than Errors.
func parseErrors(t *testing.T, src string, sets ...string) []string {
	t.Helper()
	s, err := Parse("x.yaml", []byte(src), sets)
	if err == nil {
		t.Fatalf("parsed without error")
	}
	if s != nil {
		t.Fatalf("a scenario was returned with errors: %v", err)
	}
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error is %T, not Errors: %v", err, err)
	}
	return strings.Split(err.Error(), "\n")
}

func checkLines(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// The lines of each case are numbered from 1 as in the messages.
func TestBadScenariosNameFileLineAndField(t *testing.T) {
	cases := []struct {
		name string
		src  string
		want []string
	}{
		{"negative bandwidth", `duration: 10s
nodes: [A, B]
links:
  - name: bottleneck
    from: A
    to: B
    bandwidth: -2Mbps
    delay: 10ms
`, []string{`x.yaml:7: links[bottleneck].bandwidth: negative bandwidth "-2Mbps"`}},
		{"bandwidth without unit", `duration: 10s
nodes: [A, B]
links: [{name: l, from: A, to: B, bandwidth: 2, delay: 10ms}]
`, []string{`x.yaml:3: links[l].bandwidth: bad bandwidth "2": want a number and a unit (Gbps, Mbps, kbps, Kbps, bps), e.g. "2Mbps"`}},
		{"bad duration unit", `duration: 10 parsecs
nodes: [A]
`, []string{`x.yaml:1: duration: bad duration "10 parsecs": want a number and a unit (min, ms, us, µs, ns, s), e.g. "50ms"`}},
		{"loss rate above 1", `duration: 10s
nodes: [A, B]
links:
  - {name: l, from: A, to: B, bandwidth: 1Mbps, delay: 1ms,
     loss: {rate: 1.5}}
`, []string{`x.yaml:5: links[l].loss.rate: rate "1.5" outside [0, 1]`}},
		{"loss percentage below 0", `duration: 10s
nodes: [A, B]
links:
  - {name: l, from: A, to: B, bandwidth: 1Mbps, delay: 1ms, loss: {rate: -2%}}
`, []string{`x.yaml:4: links[l].loss.rate: rate "-2%" outside [0, 1]`}},
		{"unknown field with a suggestion", `duration: 10s
nodes: [A, B]
links:
  - name: l
    from: A
    to: B
    bandwith: 1Mbps
    delay: 1ms
`, []string{
			`x.yaml:4: links[l].bandwidth: missing (e.g. "bandwidth: 10Mbps")`,
			`x.yaml:7: links[l].bandwith: unknown field (did you mean "bandwidth"?)`,
		}},
		{"unknown top-level field", `duration: 10s
nodes: [A]
topology: star
`, []string{`x.yaml:3: topology: unknown field (known: description, duration, flows, links, name, nodes, routing, seed, trace, wireless)`}},
		{"unknown routing protocol", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
routing: olsr
`, []string{`x.yaml:4: routing.protocol: unknown routing protocol "olsr" (have aodv, dsr, static)`}},
		{"on-demand routing on a wired topology", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
routing:
  protocol: aodv
`, []string{`x.yaml:5: routing.protocol: aodv finds routes over a wireless channel and this scenario has none (no wireless section): use static routes on a wired topology`}},
		{"bad routing parameter", `duration: 10s
nodes: [{name: "n{i}", count: 2}]
wireless: {line: {nodes: "n{i}", count: 2, spacing: 200m}}
routing:
  protocol: aodv
  hello_interval: 0s
  ttl_threshold: 40
  helo: false
`, []string{
			`x.yaml:6: routing.hello_interval: want a positive time, have 0s`,
			`x.yaml:7: routing.ttl_threshold: 40 is beyond the network diameter 35`,
			`x.yaml:8: routing.helo: unknown field (did you mean "hello"?)`,
		}},
		{"a node's own routing that cannot apply", `duration: 10s
nodes:
  - {name: "n{i}", count: 2}
  - {name: n3, routing: aodv}
  - {name: wired, routing: {protocol: dsr, send_buffer: 10}}
  - {name: n4, routing: {protocol: dsr, send_buffer: 0}}
wireless: {line: {nodes: "n{i}", count: 4, spacing: 200m}}
links: [{from: n1, to: wired, bandwidth: 1Mbps, delay: 1ms}]
routing: dsr
`, []string{
			`x.yaml:4: nodes[n3].routing.protocol: node n3 runs aodv but the scenario routes by dsr, and on-demand protocols do not interoperate: give the node dsr's settings`,
			`x.yaml:5: nodes[wired].routing: node wired has no radio: routing settings apply to the wireless channel's nodes`,
			`x.yaml:6: nodes[n4].routing.send_buffer: want 1 to 1048576, have 0`,
		}},
		{"a node's own routing under static routes", `duration: 10s
nodes:
  - {name: "n{i}", count: 2, routing: {protocol: dsr}}
wireless: {line: {nodes: "n{i}", count: 2, spacing: 200m}}
`, []string{
			`x.yaml:3: nodes[n1].routing: node n1 has its own routing settings but the scenario routes by static routes: set the scenario's routing to the protocol`,
			`x.yaml:3: nodes[n2].routing: node n2 has its own routing settings but the scenario routes by static routes: set the scenario's routing to the protocol`,
		}},
		{"bad mobility", `duration: 10s
nodes: [{name: "n{i}", count: 3}, far]
wireless:
  nodes: [{node: n1, x: 0m, y: 0m}, {node: far, x: 5000m, y: 0m}]
  mobility:
    - {node: far, model: random_waypoint, area: {width: 1500, height: 300}, max_speed: 20, pause: 1s}
    - {nodes: "n{i}", count: 3, model: random_waypoint, area: {width: 1500, height: 300}, max_speed: 0, pause: 60s}
    - {node: n9, model: teleport}
`, []string{
			`x.yaml:6: wireless.mobility[0]: node "far" is placed at (5000 m, 0 m), outside the mobility area`,
			`x.yaml:7: wireless.mobility[1].max_speed: a non-positive speed (0 m/s): nodes would never move`,
			`x.yaml:8: wireless.mobility[2].model: unknown mobility model "teleport" (have constant_velocity, random_waypoint)`,
		}},
		{"a bad speed is the only error its nodes' flows see", `duration: 10s
nodes: [{name: "n{i}", count: 3}]
wireless:
  mobility:
    - {nodes: "n{i}", count: 3, model: random_waypoint, area: {width: 1500, height: 300}, min_speed: -1, max_speed: 20}
routing: aodv
flows:
  - {name: f, src: n1, dst: n3}
`, []string{`x.yaml:5: wireless.mobility[0].min_speed: want 0 ≤ min_speed ≤ max_speed, have -1`}},
		{"a movement file that cannot be read is the only error", `duration: 10s
nodes: [{name: "n{i}", count: 3}]
wireless:
  movements: {file: /nonexistent/moves.tcl, nodes: "n{i}"}
routing: aodv
flows:
  - {name: f, src: n1, dst: n3}
`, []string{`x.yaml:4: wireless.movements.file: open /nonexistent/moves.tcl: no such file or directory`}},
		{"mobility pause longer than the run", `duration: 10s
nodes: [{name: "n{i}", count: 3}]
wireless:
  mobility:
    - nodes: "n{i}"
      count: 3
      model: random_waypoint
      area: {width: 1500, height: 300}
      max_speed: 20
      pause: 60s
`, []string{`x.yaml:10: wireless.mobility[0].pause: 1m0s is longer than the run (10s): no node would ever move`}},
		{"a moving node with nowhere to start", `duration: 10s
nodes: [a, b]
wireless:
  nodes: [{node: a, x: 0m, y: 0m}]
  mobility:
    - {node: b, model: constant_velocity, vx: 5}
`, []string{`x.yaml:6: wireless.mobility[0].node: node "b" has no position for constant_velocity to start from (place it under wireless.line or wireless.nodes)`}},
		{"on-demand routing to a wired node", `duration: 10s
nodes: [{name: "n{i}", count: 2}, server]
links: [{from: n1, to: server, bandwidth: 10Mbps, delay: 1ms}]
wireless: {line: {nodes: "n{i}", count: 2, spacing: 200m}}
routing: aodv
flows:
  - {name: f, src: n2, dst: server}
`, []string{`x.yaml:7: flows[f].dst: server has no radio: aodv routes among the wireless channel's nodes only (a flow to or from a wired node needs static routing)`}},
		{"unknown tcp field", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - name: f
    src: A
    dst: B
    transport:
      profile: ns2
      windwo: 3
`, []string{`x.yaml:10: flows[f].transport.windwo: unknown field (did you mean "window"?)`}},
		{"a mapping written without a space after its colon", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - {name: f, src: A, dst: B, transport: {profile:linux}}
`, []string{`x.yaml:5: flows[f].transport.profile:linux: unknown field: write "profile: linux", with a space after the colon`}},
		{"undefined node", `duration: 10s
nodes: [A, B]
links:
  - {name: l, from: A, to: Z, bandwidth: 1Mbps, delay: 1ms}
flows:
  - {name: f, src: Q, dst: B, transport: udp, app: {type: cbr, rate: 1Mbps, packet_size: 100B}}
`, []string{
			`x.yaml:4: links[l].to: undefined node "Z"`,
			`x.yaml:6: flows[f].src: undefined node "Q"`,
		}},
		{"flow between unconnected nodes", `duration: 10s
nodes: [A, B, C, D]
links:
  - {from: A, to: B, bandwidth: 1Mbps, delay: 1ms}
  - {from: C, to: D, bandwidth: 1Mbps, delay: 1ms}
flows:
  - name: f
    src: A
    dst: D
`, []string{`x.yaml:9: flows[f].dst: no path from A to D: the nodes are not connected by links`}},
		{"every error, not just the first", `duration: 10s
nodes: [A, B]
links:
  - {name: l, from: A, to: B, bandwidth: 0.5Gbps, delay: -1ms}
flows:
  - {name: f, src: A, dst: B, start: 20s}
  - {name: f, src: A, dst: B, app: {type: transfer}}
`, []string{
			`x.yaml:4: links[l].delay: negative duration "-1ms"`,
			`x.yaml:6: flows[f].start: starts at 20s, not before the end of the run (10s)`,
			`x.yaml:6: flows[f].stop: stops at 10s, not after its start (20s)`,
			`x.yaml:7: flows[f].name: flow "f" defined twice`,
			`x.yaml:7: flows[f].app.size: missing: application transfer needs it`,
		}},
		{"syntax error", "duration: 10s\nnodes: a: b\n", []string{`x.yaml:2: syntax error: mapping values are not allowed in this context`}},
		{"unclosed bracket", "duration: 10s\nnodes: [A, B\nlinks: []\n", []string{`x.yaml:2: syntax error: this "[" is never closed`}},
		{"unclosed brace in a list", "duration: 10s\nnodes: [A]\nlinks:\n  - {from: A, to: \"B]\"\n  - {from: B}\n", []string{`x.yaml:4: syntax error: this "{" is never closed`}},
		{"NUL byte", "duration: 10s\nnodes: [A\x00]\n", []string{`x.yaml:2: syntax error: control character U+0000 at column 10 is not allowed in YAML (a binary or corrupted file?)`}},
		{"tab indentation", "duration: 10s\nnodes:\n\t- A\n", []string{`x.yaml:3: syntax error: found character that cannot start any token`}},
		{"duplicate key", "duration: 10s\nduration: 20s\nnodes: [A]\n", []string{`x.yaml:2: duration: duplicate key`}},
		{"alias", "duration: &d 10s\nnodes: [A]\nlinks: *d\n", []string{`x.yaml:3: links: aliases (*name) are not supported`}},
		{"wrong kind", "duration: [10s]\nnodes: {A: 1}\n", []string{
			`x.yaml:1: duration: want a single value, got a list`,
			`x.yaml:2: nodes: want a list, got a mapping`,
		}},
		{"missing duration and nodes", "seed: 3\n", []string{
			`x.yaml:1: duration: missing (e.g. "duration: 10s")`,
			`x.yaml:1: nodes: no nodes`,
		}},
		{"unknown profile", `duration: 1s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows: [{name: f, src: A, dst: B, transport: {profile: ns4}}]
`, []string{`x.yaml:4: flows[f].transport.profile: unknown profile "ns4" (have linux, ns2, ns3)`}},
		{"parameter of another loss model", `duration: 1s
nodes: [A, B]
links:
  - from: A
    to: B
    bandwidth: 1Mbps
    delay: 1ms
    loss: {model: bernoulli, rate: 1%, ber: 1e-6}
`, []string{`x.yaml:8: links[0].loss.ber: not a parameter of loss model bernoulli (it takes: rate)`}},
		{"cbr over tcp", `duration: 1s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - name: f
    src: A
    dst: B
    transport: {profile: ns2}
    app: {type: cbr, rate: 1Mbps, packet_size: 1000B}
`, []string{`x.yaml:8: flows[f].transport: cbr runs over UDP; write "transport: udp" or leave transport out`}},
		{"bad count", `duration: 1s
nodes: [{name: "n{i}", count: -1}]
`, []string{`x.yaml:2: nodes[n{i}].count: count must be an integer from 0 to 1000000, got "-1"`}},
		{"start_step without count", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows: [{name: f, src: A, dst: B, start_step: 1s}]
`, []string{`x.yaml:4: flows[f].start_step: start_step applies only to an entry with a count`}},
		{"placeholder outside a count", `duration: 10s
nodes: [A, B]
links: [{from: A, to: "B{i}", bandwidth: 1Mbps, delay: 1ms}]
`, []string{`x.yaml:3: links[0].to: undefined node "B{i}" ({i} is replaced only in entries with a count)`}},
		{"counted copies are checked one by one", `duration: 10s
nodes: [A, {name: "B{i}", count: 3}]
links:
  - {name: "l{i}", count: 2, from: A, to: "B{i}", bandwidth: 1Mbps, delay: 1ms}
flows:
  - {name: "f{i}", count: 3, src: A, dst: "B{i}"}
`, []string{`x.yaml:6: flows[f3].dst: no path from A to B3: the nodes are not connected by links`}},
		{"tcp settings checked by the tcp package", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - name: f
    src: A
    dst: B
    transport:
      variant: renoo
      rto: {k: -1}
`, []string{
			`x.yaml:9: flows[f].transport.variant: unknown variant "renoo" (have ` + fmt.Sprint(tcp.VariantNames()) + `)`,
			`x.yaml:10: flows[f].transport.rto.k: must be in (0, 1e6]`,
		}},
		{"pacing settings", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - name: f
    src: A
    dst: B
    transport: {variant: bbr, pacing_quantum: -2, pacing_ca_ratio: 0}
`, []string{
			`x.yaml:8: flows[f].transport.pacing_quantum: must be in [0, 16777216] segments (0: sized from the rate, as Linux), got -2`,
			`x.yaml:8: flows[f].transport.pacing_ca_ratio: must be in (0, 1e6] percent of cwnd per RTT, got 0`,
		}},
		{"variant params and named choices checked before the run", `duration: 10s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - name: f
    src: A
    dst: B
    transport:
      variant: veno
      params: {betta: 3}
      recovery_exit: deflate
      header_bytes: 2147483648
`, []string{
			`x.yaml:10: flows[f].transport.params.betta: variant veno has no param "betta" (have [beta])`,
			`x.yaml:11: flows[f].transport.recovery_exit: "deflate" is not one of ssthresh, ssthresh_grow, grow`,
			`x.yaml:12: flows[f].transport.header_bytes: must be in [0, 65535], got 2147483648`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLines(t, parseErrors(t, c.src), c.want)
		})
	}
}

func TestDefaultsAndExpansion(t *testing.T) {
	s, err := Parse("x.yaml", []byte(`duration: 10s
nodes: [R, {name: "S{i}", count: 3}]
links:
  - {name: "l{i}", count: 3, from: "S{i}", to: R, bandwidth: 1Mbps, delay: 1ms}
flows:
  - {name: "f{i}", count: 3, src: "S{i}", dst: R, start: 1s, start_step: 250ms,
     transport: {profile: ns2, window: 7}}
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Seed != 1 || len(s.Nodes) != 4 || len(s.Links) != 3 || len(s.Flows) != 3 {
		t.Fatalf("seed %d, %d nodes, %d links, %d flows", s.Seed, len(s.Nodes), len(s.Links), len(s.Flows))
	}
	for k, f := range s.Flows {
		want := sim.Second + sim.Time(k)*250*sim.Millisecond
		if f.Start != want || f.Stop != 10*sim.Second {
			t.Errorf("%s: start %v stop %v, want %v and 10s", f.Name, f.Start, f.Stop, want)
		}
		// Unwritten fields keep the profile's values.
		if f.Transport.TCP.Segments.Window != 7 || f.Transport.TCP.Segments.MSS != 1000 || f.Transport.TCP.Open.Mode != tcp.HandshakeSYN {
			t.Errorf("%s: tcp config %+v", f.Name, f.Transport.TCP)
		}
	}
	if q := s.Links[2].Queue; q.Type != "droptail" || q.Limit() != 50 {
		t.Errorf("default queue %+v, want droptail 50", q)
	}
	if s.Links[1].Name != "l2" || s.Links[1].From != "S2" {
		t.Errorf("copy 2 is %+v", s.Links[1])
	}
}

// Copies of a counted entry share the values that have no "{i}": an
// override of one copy, or its staggered start, must not reach the others.
func TestOverridingOneCopyLeavesTheOthers(t *testing.T) {
	src := `duration: 10s
nodes: [R, {name: "S{i}", count: 3}]
links:
  - {name: "l{i}", count: 3, from: "S{i}", to: R, bandwidth: 1Mbps, delay: 1ms}
flows:
  - {name: "f{i}", count: 3, src: "S{i}", dst: R, start: 1s, start_step: 1s,
     transport: {profile: ns2, variant: newreno, window: 7}}
`
	cases := []struct {
		name    string
		sets    []string
		variant [3]string
		window  [3]int
		start   [3]sim.Time
	}{
		{"none", nil, [3]string{"newreno", "newreno", "newreno"}, [3]int{7, 7, 7}, [3]sim.Time{1 * sim.Second, 2 * sim.Second, 3 * sim.Second}},
		{"one copy's variant and window", []string{"flows.f2.transport.variant=reno", "flows.f2.transport.window=9"},
			[3]string{"newreno", "reno", "newreno"}, [3]int{7, 9, 7}, [3]sim.Time{1 * sim.Second, 2 * sim.Second, 3 * sim.Second}},
		{"one copy's start", []string{"flows.f1.start=5s"},
			[3]string{"newreno", "newreno", "newreno"}, [3]int{7, 7, 7}, [3]sim.Time{5 * sim.Second, 2 * sim.Second, 3 * sim.Second}},
		{"the template's window", []string{"flows.f{i}.transport.window=11"},
			[3]string{"newreno", "newreno", "newreno"}, [3]int{11, 11, 11}, [3]sim.Time{1 * sim.Second, 2 * sim.Second, 3 * sim.Second}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("x.yaml", []byte(src), c.sets)
			if err != nil {
				t.Fatal(err)
			}
			for k, f := range s.Flows {
				if f.Transport.TCP.Variant != c.variant[k] || f.Transport.TCP.Segments.Window != c.window[k] || f.Start != c.start[k] {
					t.Errorf("%s: variant %s window %d start %v, want %s %d %v", f.Name, f.Transport.TCP.Variant,
						f.Transport.TCP.Segments.Window, f.Start, c.variant[k], c.window[k], c.start[k])
				}
			}
		})
	}
}

// count: 0 removes an entry, so that a sweep can switch it on with --set.
func TestCountZeroRemovesTheEntry(t *testing.T) {
	src := `duration: 1s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - {name: "f{i}", count: 1, src: A, dst: B}
  - {name: "x{i}", count: 0, src: A, dst: B, app: {type: cbr, rate: 1Mbps, packet_size: 500B}}
`
	for _, c := range []struct {
		sets []string
		want int
	}{{nil, 1}, {[]string{"flows.x{i}.count=2"}, 3}} {
		s, err := Parse("x.yaml", []byte(src), c.sets)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Flows) != c.want {
			t.Errorf("sets %v: %d flows, want %d", c.sets, len(s.Flows), c.want)
		}
	}
}

func TestExamplesAreFoundFromAnyDirectory(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, err := Load("examples/dumbbell-lossy.yaml", nil); err != nil {
		t.Fatalf("built-in example: %v", err)
	}
	// A file on disk wins over the built-in copy.
	os.Mkdir("examples", 0o755)
	os.WriteFile("examples/dumbbell-lossy.yaml", []byte("name: mine\n"), 0o644)
	if _, err := Load("examples/dumbbell-lossy.yaml", nil); err == nil {
		t.Fatal("the edited file on disk was not the one read")
	}
	for _, p := range []string{"examples/none.yaml", "elsewhere/dumbbell-lossy.yaml"} {
		if _, err := Load(p, nil); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: want a not-exist error, got %v", p, err)
		}
	}
}

// A template with a bad value makes one problem per copy: the message
// names the first ones and counts the rest instead of printing them all.
func TestManyProblemsAreCounted(t *testing.T) {
	cases := []struct {
		count int // flows, each with two problems (start and stop)
		lines int
		last  string
	}{
		{5, 10, ""},
		{10, 20, ""},
		{1000, 21, "... and 1980 more problems (2000 in all)"},
	}
	for _, c := range cases {
		src := fmt.Sprintf(`duration: 1s
nodes: [R, {name: "S{i}", count: %d}]
links:
  - {name: "l{i}", count: %d, from: "S{i}", to: R, bandwidth: 1Mbps, delay: 1ms}
flows:
  - {name: "f{i}", count: %d, src: "S{i}", dst: R, start: 2s}
`, c.count, c.count, c.count)
		_, err := Parse("x.yaml", []byte(src), nil)
		var es Errors
		if !errors.As(err, &es) || len(es) != 2*c.count {
			t.Fatalf("count %d: want %d problems, got %v", c.count, 2*c.count, err)
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != c.lines || (c.last != "" && lines[len(lines)-1] != c.last) {
			t.Errorf("count %d: %d lines ending %q, want %d ending %q", c.count, len(lines), lines[len(lines)-1], c.lines, c.last)
		}
	}
}

// A count past the limits is one problem, at the count: the entries it
// leaves unexpanded are not decoded into problems of their own.
func TestCountPastTheLimitIsOneProblem(t *testing.T) {
	src := `duration: 1s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - {name: "f{i}", count: 1000000, src: "A{i}", dst: "B{i}", start: "{i}ms", stop: "{i}s",
     transport: {profile: "ns{i}", variant: "v{i}", mss: "{i}", window: "{i}"}}
`
	_, err := Parse("x.yaml", []byte(src), nil)
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Line != 5 || es[0].Field != "flows[f{i}].count" {
		t.Fatalf("want one problem at x.yaml:5 flows[f{i}].count, got %v", err)
	}
}

// A loss rate written as a bare 1 means every packet; the run goes on,
// with a warning in words at its line.
func TestABareOneLossRateWarns(t *testing.T) {
	tests := []struct {
		rate string
		warn bool
	}{{"1", true}, {"1%", false}, {"100%", false}, {"0.01", false}}
	for _, tc := range tests {
		t.Run(tc.rate, func(t *testing.T) {
			src := "duration: 1s\nnodes: [A, B]\nlinks:\n  - {from: A, to: B, bandwidth: 1Mbps, delay: 1ms, loss: {rate: " + tc.rate + "}}\n"
			s, err := Parse("x.yaml", []byte(src), nil)
			if err != nil {
				t.Fatal(err)
			}
			want := "x.yaml:4: links[0].loss.rate: rate 1 means 100% (every packet); write 1% for one in a hundred, or 100% to keep it and silence this"
			if got := len(s.warnings) == 1 && s.warnings[0] == want; got != tc.warn {
				t.Fatalf("warnings %q", s.warnings)
			}
		})
	}
}
