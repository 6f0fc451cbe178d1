package alltcp

import (
	"fmt"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// benchFlows runs 100 Reno flows for 10 s over S - R1 - R2 - D (100, 20,
// 100 Mbit/s; 1% loss on the middle link), with an agent at R1 in the given
// mode ("" for none): the agent's cost per packet is the difference.
func benchFlows(b *testing.B, mode Mode) {
	for b.Loop() {
		net := network.New(1)
		s, r1, r2, d := net.AddNode("S"), net.AddNode("R1"), net.AddNode("R2"), net.AddNode("D")
		q := func() network.Queue { return network.NewDropTail(200, 0) }
		net.Connect("a", s, r1, network.LinkConfig{Bandwidth: 100e6, Delay: 5 * sim.Millisecond}, q)
		mid, _ := net.Connect("m", r1, r2, network.LinkConfig{Bandwidth: 20e6, Delay: 20 * sim.Millisecond}, q)
		mid.SetErrorModel(network.NewBernoulli(0.01, net.Stream("m")))
		net.Connect("b", r2, d, network.LinkConfig{Bandwidth: 100e6, Delay: 5 * sim.Millisecond}, q)
		net.ComputeRoutes()
		cfg, _ := tcp.Profile("ns2")
		var flows []*tcp.Flow
		for i := range 100 {
			f, err := tcp.NewFlow(net, int32(i), fmt.Sprint("f", i), cfg, s, d)
			if err != nil {
				b.Fatal(err)
			}
			f.Start(sim.Time(i) * sim.Millisecond)
			flows = append(flows, f)
		}
		if mode != "" {
			a, err := New(net, r1, Config{Mode: mode, Predictor: "ewma"}.Defaults(), NewIDs(100))
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range flows {
				a.Watch(f)
			}
		}
		net.Run(10 * sim.Second)
	}
}

// BenchmarkAgent100Flows: the agent's overhead on a 100-flow run. Observe
// classifies every packet and forecasts the level; split also runs two
// connections per long-lived flow.
func BenchmarkAgent100Flows(b *testing.B) {
	for _, m := range []Mode{"", Observe, Regulate, Split} {
		name := string(m)
		if name == "" {
			name = "none"
		}
		b.Run(name, func(b *testing.B) { benchFlows(b, m) })
	}
}
