package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// A random-loss verdict keeps cwnd and ssthresh. With no window cap the
// initial ssthresh is unbounded; the window must still come out of
// recovery as it went in, not at ssthresh (which was a run that never
// ended: cwnd 1.8e308). The scenario that showed it: two nodes, one
// 2 Mbps 10 ms link, the ns3 profile, no marking router (every loss
// looks random to these variants).
func TestKeptWindowStaysFinite(t *testing.T) {
	for _, variant := range []string{"cerl", "tdlrp"} {
		t.Run(variant, func(t *testing.T) {
			cfg, err := Profile("ns3")
			if err != nil {
				t.Fatal(err)
			}
			cfg.Variant, cfg.TS.Echo = variant, EchoLatest
			n := network.New(1)
			a, b := n.AddNode("A"), n.AddNode("B")
			n.Connect("l", a, b, network.LinkConfig{Bandwidth: 2e6, Delay: 10 * sim.Millisecond},
				func() network.Queue { return &network.DropTail{LimitPackets: 50} })
			n.ComputeRoutes()
			f, err := NewFlow(n, 0, "f", cfg, a, b)
			if err != nil {
				t.Fatal(err)
			}
			f.Start(0)
			maxCwnd := 0.0
			f.SetProbe(func(s *Sample) { maxCwnd = max(maxCwnd, s.Cwnd) })
			n.Run(10 * sim.Second)
			r := f.Result(n.Now())
			if maxCwnd > 1e7 || r.FastRetransmits == 0 || r.GoodputBps < 3e5 {
				t.Fatalf("max cwnd %.3g bytes, %d fast retransmits, goodput %.0f bit/s", maxCwnd, r.FastRetransmits, r.GoodputBps)
			}
		})
	}
}

// A flow that stops before the end of the run reports rates over its
// active time, counting what was delivered by then: never more than its
// slowest link carries (it was 76.8 kbit/s on a 64 kbit/s link when the
// data still in flight at the stop was counted too).
func TestStoppedFlowCountsItsActiveTimeOnly(t *testing.T) {
	n := network.New(1)
	a, b := n.AddNode("A"), n.AddNode("B")
	n.Connect("l", a, b, network.LinkConfig{Bandwidth: 64e3, Delay: 10 * sim.Millisecond},
		func() network.Queue { return &network.DropTail{LimitPackets: 50} })
	n.ComputeRoutes()
	f, err := NewFlow(n, 0, "f", ns2Config(t, "newreno", 1000, 20), a, b)
	if err != nil {
		t.Fatal(err)
	}
	f.Start(0)
	f.StopAt(10 * sim.Second)
	n.Run(20 * sim.Second)
	r := f.Result(n.Now())
	if r.GoodputBps > 64e3 || r.GoodputBps < 50e3 {
		t.Fatalf("goodput %.0f, throughput %.0f bit/s over 10 s of a 64 kbit/s link", r.GoodputBps, r.ThroughputBps)
	}
	if r.DeliveredBytes*8 <= int64(r.GoodputBps*10) {
		t.Fatalf("delivered %d bytes by the end, no more than by the stop", r.DeliveredBytes)
	}
}
