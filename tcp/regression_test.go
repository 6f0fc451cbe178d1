package tcp

import (
	"fmt"
	"runtime"
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
				func() network.Queue { return network.NewDropTail(50, 0) })
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

// A timeout that T-DLRP answers with IRTOR (no CW mark) keeps cwnd and
// the initial, unbounded ssthresh of the linux profile; leaving the
// repair must not deflate cwnd to that ssthresh. It did: cwnd became the
// 2^20-segment clamp and one ACK sent a million segments, whose
// scoreboard entries took 105 MB by 50 s on a 12.63 kbit/s link (NewReno:
// 16 MB). cwnd stays within what the path can hold and the run allocates
// a few megabytes, for one flow and for five.
func TestIRTORKeepsTheWindowAndTheMemoryOfAFlowBounded(t *testing.T) {
	for _, flows := range []int{1, 5} {
		t.Run(fmt.Sprintf("%d flows", flows), func(t *testing.T) {
			cfg, err := Profile("linux")
			if err != nil {
				t.Fatal(err)
			}
			cfg.Variant, cfg.Recovery.SACK, cfg.TS.Echo = "tdlrp", true, EchoLatest
			n := network.New(1)
			c, h, srv := n.AddNode("C"), n.AddNode("H"), n.AddNode("S")
			n.Connect("slow", c, h, network.LinkConfig{Bandwidth: 12630, Delay: 90 * sim.Millisecond},
				func() network.Queue { return network.NewDropTail(50, 0) })
			n.Connect("fast", h, srv, network.LinkConfig{Bandwidth: 2e6, Delay: sim.Millisecond},
				func() network.Queue { return network.NewDropTail(50, 0) })
			n.ComputeRoutes()
			maxCwnd := 0.0
			for i := range flows {
				f, err := NewFlow(n, int32(i), fmt.Sprintf("f%d", i), cfg, c, srv)
				if err != nil {
					t.Fatal(err)
				}
				f.SetProbe(func(s *Sample) {
					// Stop at once rather than send a million segments.
					if maxCwnd = max(maxCwnd, s.Cwnd); maxCwnd > 1e6 {
						t.Fatalf("cwnd %.3g bytes at %v", maxCwnd, s.Time)
					}
				})
				f.Start(sim.Time(i) * 100 * sim.Millisecond)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			n.Run(200 * sim.Second)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			if maxCwnd > 1e6 || alloc > 8<<20 {
				t.Fatalf("max cwnd %.3g bytes, %d bytes allocated in the run", maxCwnd, alloc)
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
		func() network.Queue { return network.NewDropTail(50, 0) })
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

// The tail of a transfer lost (nothing SACKed above it): the timeout's
// first ACK under F-RTO has no new data to probe with, so RFC 5682 §2.1
// sends the sender on with conventional RTO recovery. It used to wait in
// step 3 for an ACK that never came and repair one segment per timeout.
func TestFRTOWithNoNewDataFallsBackToGoBackN(t *testing.T) {
	cfg, err := Profile("linux")
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	drop := &dropSeqs{want: map[[2]int64]bool{}, seen: map[int64]int64{}}
	mss := int64(cfg.Segments.MSS)
	for k := int64(n - 4); k < n; k++ {
		drop.want[[2]int64{1 + k*mss, 1}] = true // the last four, first transmission
	}
	net := network.New(1)
	a, b := net.AddNode("A"), net.AddNode("B")
	q := func() network.Queue { return network.NewDropTail(100, 0) }
	ab, _ := net.Connect("ab", a, b, network.LinkConfig{Bandwidth: 10e6, Delay: 10 * sim.Millisecond}, q)
	ab.SetErrorModel(drop)
	net.ComputeRoutes()
	f, err := NewFlow(net, 0, "f", cfg, a, b)
	if err != nil {
		t.Fatal(err)
	}
	f.SetLimit(n * mss)
	f.Start(0)
	net.Run(10 * sim.Second)
	r := f.Result(net.Now())
	if r.DeliveredBytes != n*mss || r.CompletionSeconds > 1.5 || r.Timeouts > 1 {
		t.Fatalf("delivered %d of %d bytes, completion %.3fs, %d timeouts: want all, within 1.5s, one timeout",
			r.DeliveredBytes, n*mss, r.CompletionSeconds, r.Timeouts)
	}
}

// RFC 5681 §4.1: a connection idle for longer than the RTO restarts from
// min(IW, cwnd) when the application offers data again; without the
// option it keeps its window.
func TestIdleRestartResetsCwnd(t *testing.T) {
	for _, restart := range []bool{true, false} {
		cfg, err := Profile("linux")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Growth.IdleRestart = restart
		net := network.New(1)
		a, b := net.AddNode("A"), net.AddNode("B")
		q := func() network.Queue { return network.NewDropTail(1000, 0) }
		net.Connect("ab", a, b, network.LinkConfig{Bandwidth: 100e6, Delay: 10 * sim.Millisecond}, q)
		net.ComputeRoutes()
		f, err := NewFlow(net, 0, "f", cfg, a, b)
		if err != nil {
			t.Fatal(err)
		}
		mss := int64(cfg.Segments.MSS)
		drains := 0
		f.OnDrained(func(sim.Time) { drains++ })
		f.Offer(200 * mss)
		f.Start(0)
		net.Run(2 * sim.Second)
		grown := f.Cwnd()
		f.Offer(200 * mss) // after 2 s idle, far more than the RTO
		iw := cfg.Segments.InitialWindow * float64(mss)
		if drains != 1 || grown <= iw {
			t.Fatalf("restart %v: %d drains, cwnd %v before the pause: want one drain and a grown window", restart, drains, grown)
		}
		if got := f.Cwnd(); restart && got != iw || !restart && got != grown {
			t.Errorf("restart %v: cwnd %v after the pause (before %v, IW %v)", restart, got, grown, iw)
		}
		net.Run(4 * sim.Second)
		if drains != 2 || f.Result(net.Now()).DeliveredBytes != 400*mss {
			t.Errorf("restart %v: %d drains, %d bytes delivered", restart, drains, f.Result(net.Now()).DeliveredBytes)
		}
	}
}
