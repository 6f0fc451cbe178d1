package tcp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// The windowed maximum forgets a maximum once it is older than the window,
// falling back to the best of what came after (win_minmax.c), and a new
// maximum replaces everything at once.
func TestMaxFilterKeepsTheWindowsMaximum(t *testing.T) {
	type in struct {
		t int64
		v float64
	}
	cases := []struct {
		name string
		win  int64
		seq  []in
		want float64
	}{
		{"rising samples", 10, []in{{0, 1}, {1, 2}, {2, 3}}, 3},
		{"a maximum within the window stays", 10, []in{{0, 5}, {3, 1}, {9, 2}}, 5},
		{"an expired maximum gives way to the next best", 10, []in{{0, 5}, {3, 4}, {6, 1}, {11, 1}}, 4},
		{"everything expired: the newest sample", 10, []in{{0, 5}, {1, 4}, {2, 3}, {30, 1}}, 1},
		{"the quarter-window refresh keeps a second best", 8, []in{{0, 9}, {3, 2}, {5, 3}, {9, 1}}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m maxFilter
			m.reset(c.seq[0].t, c.seq[0].v)
			for _, s := range c.seq[1:] {
				m.update(c.win, s.t, s.v)
			}
			if got := m.get(); got != c.want {
				t.Errorf("max %v, want %v", got, c.want)
			}
		})
	}
}

// A hand-worked delivery-rate trace (the draft's §3): four 1000-byte
// segments sent 1 ms apart from an idle connection, acknowledged one by
// one 100 ms later. Each sample divides the bytes delivered since the
// acknowledged segment left by the longer of its send interval and its
// ACK interval.
func TestRateSamplesAsTheDraftComputes(t *testing.T) {
	ms := sim.Millisecond
	var r rateEstimator
	snaps := make([]rateSnap, 4)
	for i := range snaps {
		r.onSend(&snaps[i], sim.Time(i)*ms, i == 0)
	}
	want := []struct {
		delivered int64
		interval  sim.Time
	}{
		// seg 0: 1000 B over the ACK interval 0..100 ms.
		{1000, 100 * ms},
		// seg 1: snapshot delivered 0 at 0 ms: 2000 B over 101 ms.
		{2000, 101 * ms},
		{3000, 102 * ms},
		{4000, 103 * ms},
	}
	for i, w := range want {
		now := 100*ms + sim.Time(i)*ms
		r.begin(0)
		r.onDelivered(&snaps[i], 1000, sim.Time(i)*ms, now, true)
		rs := r.finish(now, 100*ms, 0)
		if rs.Delivered != w.delivered || rs.Interval != w.interval {
			t.Fatalf("ACK %d: %d bytes over %v, want %d over %v", i, rs.Delivered, rs.Interval, w.delivered, w.interval)
		}
		if got, exp := rs.DeliveryRate, float64(w.delivered)/w.interval.Seconds(); math.Abs(got-exp) > 1e-9*exp {
			t.Fatalf("ACK %d: rate %v, want %v", i, got, exp)
		}
		if rs.RTT != 100*ms {
			t.Fatalf("ACK %d: RTT %v, want 100ms", i, rs.RTT)
		}
	}
	// A segment counted once: delivered again (SACKed, then covered by
	// the cumulative ACK) it adds nothing.
	r.begin(0)
	r.onDelivered(&snaps[3], 1000, 3*ms, 200*ms, true)
	if rs := r.finish(200*ms, 100*ms, 0); rs.Acked != 0 || rs.DeliveryRate != 0 {
		t.Fatalf("a segment delivered twice: acked %d, rate %v", rs.Acked, rs.DeliveryRate)
	}
	// An interval shorter than the minimum RTT is no sample (ACK
	// compression).
	var c rateEstimator
	var s0 rateSnap
	c.onSend(&s0, 0, true)
	c.begin(0)
	c.onDelivered(&s0, 1000, 0, 10*ms, true)
	if rs := c.finish(10*ms, 50*ms, 0); rs.DeliveryRate != 0 || rs.Interval != 0 {
		t.Fatalf("a 10 ms interval under a 50 ms min RTT gave rate %v", rs.DeliveryRate)
	}
}

// ProbeBW never starts in the 3/4 phase (Linux: any of the other seven;
// ns-3.37 draws from six: not phase 2 either).
func TestBBRGainCycleStartsAnywhereButDraining(t *testing.T) {
	for _, c := range []struct {
		ns3       bool
		forbidden []int
	}{{false, []int{1}}, {true, []int{1, 2}}} {
		b := &BBR{ns3: c.ns3, rnd: rand.New(rand.NewPCG(1, 2))}
		seen := map[int]bool{}
		for range 2000 {
			b.resetProbeBW(&State{})
			seen[b.cycleIdx] = true
		}
		for _, f := range c.forbidden {
			if seen[f] {
				t.Errorf("ns3=%v: started in phase %d", c.ns3, f)
			}
		}
		if len(seen) != bbrCycleLen-len(c.forbidden) {
			t.Errorf("ns3=%v: started in %d phases, want %d", c.ns3, len(seen), bbrCycleLen-len(c.forbidden))
		}
	}
}

// On a clean 2 Mbit/s path with a deep window BBR leaves Startup, drains,
// settles in ProbeBW with its bandwidth estimate and pacing rate at the
// bottleneck's payload rate, keeps the queue short (unlike a loss-based
// sender, which fills the 50 packets), and enters ProbeRTT once its 10 s
// min-RTT window expires, cwnd 4 segments there.
func TestBBRFindsTheBottleneckAndProbesRTT(t *testing.T) {
	for _, variant := range []string{"bbr", "bbr-ns3"} {
		t.Run(variant, func(t *testing.T) {
			cfg, _ := Profile("ns3")
			cfg.Variant, cfg.Segments.MSS, cfg.Segments.Window = variant, 1000, 500
			n, f := dumbbell(t, 1, cfg, nil)
			b := f.snd.cc.(*BBR)
			modes := map[string]sim.Time{}
			var minProbeCwnd = math.Inf(1)
			var maxRTT sim.Time
			f.SetAckProbe(func(s *Sample) {
				m := b.Mode()
				if _, ok := modes[m]; !ok {
					modes[m] = s.Time
				}
				if m == "probe_rtt" {
					minProbeCwnd = min(minProbeCwnd, s.Cwnd)
				}
				// The queue in ProbeBW; in ProbeRTT a lone segment waits for
				// the receiver's delayed-ACK timer (200 ms), and its RTT
				// measures the timer, not a queue.
				if s.Time > 5*sim.Second && m == "probe_bw" {
					maxRTT = max(maxRTT, f.snd.LastRTT)
				}
			})
			n.Run(25 * sim.Second)
			for _, m := range []string{"startup", "drain", "probe_bw", "probe_rtt"} {
				if _, ok := modes[m]; !ok {
					t.Fatalf("never in %s (modes %v)", m, modes)
				}
			}
			if modes["probe_bw"] > 3*sim.Second {
				t.Errorf("ProbeBW only from %v", modes["probe_bw"])
			}
			if at := modes["probe_rtt"]; at < 10*sim.Second || at > 13*sim.Second {
				t.Errorf("ProbeRTT first at %v, want 10-13 s", at)
			}
			if minProbeCwnd != 4*1000 {
				t.Errorf("cwnd in ProbeRTT %v bytes, want 4 segments", minProbeCwnd)
			}
			// 2 Mbit/s carries 1000-byte payloads in 1040-byte packets
			// (ns3 profile: 42 header bytes, no options without timestamps
			// here: timestamps on add 12).
			payload := 2e6 / 8 * 1000 / float64(1000+cfg.Segments.HeaderBytes+12)
			if bw := b.bandwidth(); bw < 0.9*payload || bw > 1.1*payload {
				t.Errorf("bandwidth estimate %.0f B/s, bottleneck payload rate %.0f", bw, payload)
			}
			// A standing queue of 50 packets would add 200 ms to the 114 ms
			// base RTT; BBR's 2·BDP cwnd allows about one BDP of queue in
			// ProbeBW, a little more as its min RTT (124 ms: a packet's
			// serialization and a delayed ACK above the base) makes its BDP
			// larger than the path's: 258 ms at most here, depending on
			// where Startup's losses left the gain cycle.
			if maxRTT > 114*sim.Millisecond+150*sim.Millisecond {
				t.Errorf("RTT up to %v after 5 s: a standing queue", maxRTT)
			}
			r := f.Result(n.Now())
			if r.GoodputBps < 0.9*payload*8 {
				t.Errorf("goodput %.0f bit/s, want at least 90%% of %.0f", r.GoodputBps, payload*8)
			}
		})
	}
}
