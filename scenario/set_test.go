package scenario

import (
	"strings"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

const setBase = `duration: 10s
nodes: [A, B, {name: "C{i}", count: 2}]
links:
  - {name: bottleneck, from: A, to: B, bandwidth: 2Mbps, delay: 10ms, loss: {rate: 1%}}
  - {name: "c{i}", count: 2, from: B, to: "C{i}", bandwidth: 1Mbps, delay: 1ms}
flows:
  - {name: f1, src: A, dst: B, transport: {profile: ns2, variant: newreno}}
  - {name: "g{i}", count: 2, src: A, dst: "C{i}", start: 1s, start_step: 1s}
`

func TestSetOverridesFields(t *testing.T) {
	cases := []struct {
		name  string
		sets  []string
		check func(s *Scenario) bool
	}{
		{"percentage", []string{"links.bottleneck.loss.rate=2%"},
			func(s *Scenario) bool { return lossRate(s.Links[0].Loss[0]) == 0.02 }},
		{"bracket path as in messages", []string{"links[bottleneck].loss.rate=0.5"},
			func(s *Scenario) bool { return lossRate(s.Links[0].Loss[0]) == 0.5 }},
		{"tcp field", []string{"flows.f1.transport.variant=reno"},
			func(s *Scenario) bool { return s.Flows[0].Transport.TCP.Variant == "reno" }},
		{"nested tcp field", []string{"flows.f1.transport.rto.min=1s"},
			func(s *Scenario) bool { return s.Flows[0].Transport.TCP.Timer.RTO.Min == sim.Second }},
		{"top level", []string{"duration=20s", "seed=7"},
			func(s *Scenario) bool { return s.Duration == 20*sim.Second && s.Seed == 7 }},
		{"by index", []string{"links.1.delay=5ms"},
			func(s *Scenario) bool { return s.Links[1].Delay == 5*sim.Millisecond }},
		{"a copy of a counted entry", []string{"flows.g2.start=5s"},
			func(s *Scenario) bool { return s.Flows[1].Start == sim.Second && s.Flows[2].Start == 5*sim.Second }},
		{"the template of a counted entry", []string{"flows.g{i}.start_step=3s"},
			func(s *Scenario) bool { return s.Flows[2].Start == 4*sim.Second }},
		{"the count itself", []string{"nodes.C{i}.count=3", "links.c{i}.count=3"},
			func(s *Scenario) bool { return len(s.Nodes) == 5 && len(s.Links) == 4 }},
		{"adds a missing mapping", []string{"links.c1.loss.rate=3%"},
			func(s *Scenario) bool { return len(s.Links[1].Loss) == 1 && lossRate(s.Links[1].Loss[0]) == 0.03 }},
		{"a whole mapping", []string{"links.c2.queue={type: red, limit: 20}"},
			func(s *Scenario) bool {
				return s.Links[2].Queue.Type == "red" && s.Links[2].Queue.Params.(*network.REDParams).MaxTh == 15 && s.Links[2].Queue.Limit() == 20
			}},
		{"a loss model by its name", []string{"links.c2.loss=[{name: random, rate: 1%}, {name: late, rate: 2%}]", "links.c2.loss.random.rate=4%"},
			func(s *Scenario) bool {
				return s.Links[2].Loss[0].Name == "random" && lossRate(s.Links[2].Loss[0]) == 0.04 && lossRate(s.Links[2].Loss[1]) == 0.02
			}},
		{"null removes", []string{"links.bottleneck.loss=null"},
			func(s *Scenario) bool { return len(s.Links[0].Loss) == 0 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Parse("x.yaml", []byte(setBase), c.sets)
			if err != nil {
				t.Fatal(err)
			}
			if !c.check(s) {
				t.Errorf("--set %v did not take effect", c.sets)
			}
		})
	}
}

func TestSetErrorsNameTheFlag(t *testing.T) {
	cases := []struct {
		name string
		sets []string
		want []string
	}{
		{"bad value", []string{"links.bottleneck.loss.rate=200%"},
			[]string{`--set links.bottleneck.loss.rate=200%: links[bottleneck].loss.rate: rate "200%" outside [0, 1]`}},
		{"bad unit", []string{"links.bottleneck.bandwidth=-2Mbps"},
			[]string{`--set links.bottleneck.bandwidth=-2Mbps: links[bottleneck].bandwidth: negative bandwidth "-2Mbps"`}},
		{"unknown element", []string{"flows.f9.start=1s"},
			[]string{`--set flows.f9.start=1s: flows has no element "f9" (have f1, g1, g2)`}},
		{"unknown field", []string{"links.bottleneck.colour=red"},
			[]string{`--set links.bottleneck.colour=red: links[bottleneck].colour: unknown field (known: bandwidth, cost, delay, delay_process, from, loss, name, queue, to)`}},
		{"into a single value", []string{"duration.unit=s"},
			[]string{`--set duration.unit=s: duration is a single value, not a mapping or list`}},
		{"no equals sign", []string{"duration"},
			[]string{`--set duration: want PATH=VALUE`}},
		{"bad path", []string{"links..delay=1ms"},
			[]string{`--set links..delay=1ms: bad path "links..delay": empty key`}},
		{"bad yaml value", []string{"duration=[1s"},
			[]string{`--set duration=[1s: duration: bad value: line 1: did not find expected ',' or ']'`}},
		{"in flag order", []string{"seed=-1", "duration=0"},
			[]string{
				`--set seed=-1: seed: want a non-negative integer, got "-1"`,
				`--set duration=0: duration: must be positive`,
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkLines(t, parseErrors(t, setBase, c.sets...), c.want)
		})
	}
}

// An override's problem is listed before the file's: it is the latest
// change, and a long list of the file's must not push it out of sight.
func TestSetErrorsComeBeforeTheFiles(t *testing.T) {
	src := strings.Replace(setBase, "delay: 10ms", "delay: 10 parsecs", 1)
	got := parseErrors(t, src, "duration=0")
	want := []string{
		`--set duration=0: duration: must be positive`,
		`x.yaml:4: links[bottleneck].delay: bad duration "10 parsecs": want a number and a unit (min, ms, us, µs, ns, s), e.g. "50ms"`,
	}
	checkLines(t, got, want)
}

// lossRate is a Bernoulli model's rate.
func lossRate(l LossSpec) units.Fraction { return l.Params.(*network.BernoulliParams).Rate }
