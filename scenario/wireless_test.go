package scenario

import "testing"

// Wireless settings, positions and paths are checked before the run, each
// problem at its line and field.
func TestBadWirelessScenariosNameLineAndField(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"no wireless path", `duration: 1s
nodes: [A, B]
wireless:
  nodes: [{node: A, x: 0m}, {node: B, x: 300m}]
flows: [{name: f, src: A, dst: B}]
`, []string{`x.yaml:5: flows[f].dst: no path from A to B: the nodes are not connected by links or radios in decode range`}},
		{"rate not in 802.11b", `duration: 1s
nodes: [A, B]
wireless:
  rate: 54Mbps
  nodes: [{node: A, x: 0m}, {node: B, x: 100m}]
`, []string{`x.yaml:4: wireless.rate: 54 Mbit/s is not an 802.11b rate (1, 2, 5.5 or 11 Mbit/s)`}},
		{"overlapping positions", `duration: 1s
nodes: [A, B]
wireless:
  nodes:
    - {node: A, x: 10m, y: 5m}
    - {node: B, x: 10m, y: 5m}
`, []string{`x.yaml:6: wireless.nodes[1]: nodes A and B are at the same position (10 m, 5 m)`}},
		{"a line spacing without a unit is the one error", `duration: 1s
nodes: [{name: "n{i}", count: 3}]
wireless:
  line: {nodes: "n{i}", count: 3, spacing: 300}
`, []string{`x.yaml:4: wireless.line.spacing: bad length "300": want a number and a unit (km, m), e.g. "200m"`}},
		{"decode range beyond the sensing range", `duration: 1s
nodes: [A, B]
wireless:
  propagation: friis
  decode_range: 300m
  sense_range: 200m
  nodes: [{node: A, x: 0m}, {node: B, x: 100m}]
`, []string{`x.yaml:6: wireless.sense_range: 200 m is shorter than the decode range 300 m: frames would be decoded where the medium is not even sensed`}},
		{"unknown propagation and bad loss placement", `duration: 1s
nodes: [A, B, C]
wireless:
  propagation: rayleigh
  line: {nodes: "n{i}", count: 2, spacing: 0m}
  nodes: [{node: A, x: 0m}]
  loss: [{node: C, at: ip, rate: 1%}]
`, []string{
			`x.yaml:4: wireless.propagation: unknown profile "rayleigh" (want range, friis or tworay)`,
			`x.yaml:5: wireless.line.spacing: want a positive spacing (two nodes at one position)`,
			`x.yaml:5: wireless.line.nodes: undefined node "n1"`,
			`x.yaml:7: wireless.loss[0].node: node "C" has no radio (place it under wireless.line or wireless.nodes)`,
			`x.yaml:7: wireless.loss[0].at: want phy (frames corrupted, retried by the MAC) or mac (packets lost after the MAC's ACK), got "ip"`,
		}},
		{"bad length", `duration: 1s
nodes: [A]
wireless:
  nodes: [{node: A, x: 10 furlongs}]
`, []string{`x.yaml:4: wireless.nodes[0].x: bad length "10 furlongs": want a number and a unit (km, m), e.g. "200m"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLines(t, parseErrors(t, c.src), c.want)
		})
	}
}

// A chain carries TCP end to end over the radios, and the run reports
// every radio's MAC counters.
func TestWirelessChainCarriesTCP(t *testing.T) {
	s, err := Parse("chain.yaml", []byte(`duration: 10s
nodes: [{name: "n{i}", count: 5}]
wireless:
  line: {nodes: "n{i}", count: 5, spacing: 200m}
flows: [{name: f, src: n1, dst: n5, transport: {profile: ns3, sack: true, mss: 1024}}]
`), nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if g := res.Flows[0].GoodputBps; g < 500e3 || g > 5e6 {
		t.Errorf("4-hop goodput %.0f bit/s, want between 0.5 and 5 Mbit/s", g)
	}
	if len(res.Wireless) != 5 || res.Wireless["n3"].DataFrames == 0 || res.Wireless["n5"].DataFrames == 0 {
		t.Errorf("MAC counters: %+v", res.Wireless)
	}
}

// A coded flow's settings are checked before the run: R below 1, an
// unknown key, and a TCP the coding layer cannot carry.
func TestBadCodingSettingsNameLineAndField(t *testing.T) {
	src := `duration: 1s
nodes: [A, B]
links: [{from: A, to: B, bandwidth: 1Mbps, delay: 1ms}]
flows:
  - {name: a, src: A, dst: B, coding: {redundancy: 0.9}}
  - {name: b, src: A, dst: B, coding: {redundancy: 1.1, windw: 8}}
  - {name: c, src: A, dst: B, transport: {profile: linux, variant: newreno}, coding: {redundancy: 1.1}}
`
	checkLines(t, parseErrors(t, src), []string{
		`x.yaml:5: flows[a].coding.redundancy: 0.9: want 1 to 100 (below 1 the code cannot carry every packet)`,
		`x.yaml:6: flows[b].coding.windw: unknown field (did you mean "window"?)`,
		`x.yaml:7: flows[c].coding: coding acknowledges packets seen, without SACK blocks or timestamps: set transport.sack: false and transport.timestamps: false`,
	})
}
