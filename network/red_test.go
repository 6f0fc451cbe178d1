package network

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

func TestREDDropProbCurve(t *testing.T) {
	base := REDConfig{MinTh: 5, MaxTh: 15, MaxP: 0.1, Wq: 0.002}
	gentle := base
	gentle.Gentle = true
	cases := []struct {
		name string
		cfg  REDConfig
		avg  float64
		want float64
	}{
		{"below min_th", base, 4.9, 0},
		{"at min_th", base, 5, 0},
		{"quarter way", base, 7.5, 0.025},
		{"midway", base, 10, 0.05},
		{"just under max_th", base, 14.999, 0.1 * 9.999 / 10},
		{"at max_th jumps to 1", base, 15, 1},
		{"far above", base, 100, 1},
		{"gentle at max_th", gentle, 15, 0.1},
		{"gentle halfway to 2·max_th", gentle, 22.5, 0.55},
		{"gentle at 2·max_th", gentle, 30, 1},
		{"gentle below min_th", gentle, 1, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := NewRED(c.cfg, nil).DropProb(c.avg); math.Abs(got-c.want) > 1e-12 {
				t.Fatalf("DropProb(%v) = %v, want %v", c.avg, got, c.want)
			}
		})
	}
}

// holdAt preloads backlog packets of size bytes so that, with w_q = 1,
// every arrival sees the same queue; drive then offers n packets, taking
// one out after each accepted one, and returns the gaps (in arrivals)
// between successive drops.
func holdAt(t *testing.T, q *RED, backlog int, size int32, n int) (gaps []int, causes map[DropCause]int) {
	t.Helper()
	for range backlog {
		q.q.push(&Packet{Size: size})
	}
	causes = map[DropCause]int{}
	since := 0
	for range n {
		since++
		c := q.Enqueue(&Packet{Size: size}, 0)
		causes[c]++
		if c == NotDropped {
			q.Dequeue(0)
			continue
		}
		gaps = append(gaps, since)
		since = 0
	}
	return gaps, causes
}

// F&J §7: with p_a = p_b/(1 − count·p_b) the number of arrivals between
// drops is uniform on {1, …, 1/p_b} (mean (1+1/p_b)/2, never above 1/p_b),
// where independent drops would be geometric with mean 1/p_b and an
// unbounded tail. In byte mode p_b is first scaled by size/mean_pktsize.
func TestREDCountCorrectionMakesDropGapsUniform(t *testing.T) {
	cases := []struct {
		name     string
		byteMode bool
		size     int32
		backlog  int // queue that puts avg at 10 (mean-sized) packets
		maxGap   int // 1/p_b after scaling
	}{
		{"packet mode", false, 1000, 10, 32},
		{"packet mode ignores size", false, 4000, 10, 32},
		{"byte mode, mean size", true, 1000, 10, 32},
		{"byte mode, double size", true, 2000, 5, 16},
		{"byte mode, half size", true, 500, 20, 64},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// avg 10 is midway between 5 and 15: p_b = max_p/2 = 1/32.
			cfg := REDConfig{MinTh: 5, MaxTh: 15, MaxP: 1.0 / 16, Wq: 1, ByteMode: c.byteMode, MeanPktSize: 1000}
			q := NewRED(cfg, sim.Stream(9, "red/"+c.name))
			gaps, causes := holdAt(t, q, c.backlog, c.size, 300_000)
			if causes[QueueOverflow] != 0 || causes[AQMDrop] != len(gaps) {
				t.Fatalf("causes %v", causes)
			}
			lo, hi, sum := math.MaxInt, 0, 0
			for _, g := range gaps {
				lo, hi, sum = min(lo, g), max(hi, g), sum+g
			}
			k := float64(c.maxGap)
			mean := float64(sum) / float64(len(gaps))
			want := (1 + k) / 2
			sd := math.Sqrt((k*k - 1) / 12 / float64(len(gaps)))
			t.Logf("%d drops, gaps in [%d, %d], mean %.3f (uniform: %.1f ± %.3f)", len(gaps), lo, hi, mean, want, sd)
			if lo != 1 || hi != c.maxGap {
				t.Errorf("gaps span [%d, %d], want [1, %d]", lo, hi, c.maxGap)
			}
			if math.Abs(mean-want) > 4*sd {
				t.Errorf("mean gap %v, want %v ± %v", mean, want, 4*sd)
			}
		})
	}
}

func TestREDAboveMaxThreshold(t *testing.T) {
	cases := []struct {
		name        string
		gentle      bool
		backlog     int
		allDropped  bool
		someDropped bool
	}{
		{"forced drop at max_th", false, 15, true, true},
		{"gentle between max_th and 2·max_th drops some", true, 20, false, true},
		{"gentle drops all at 2·max_th", true, 30, true, true},
		{"below min_th drops none", false, 4, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := REDConfig{MinTh: 5, MaxTh: 15, MaxP: 0.1, Wq: 1, Gentle: c.gentle}
			q := NewRED(cfg, sim.Stream(1, "red"))
			const n = 10000
			gaps, _ := holdAt(t, q, c.backlog, 1000, n)
			if all := len(gaps) == n; all != c.allDropped {
				t.Errorf("%d of %d dropped; want all: %v", len(gaps), n, c.allDropped)
			}
			if some := len(gaps) > 0; some != c.someDropped {
				t.Errorf("%d of %d dropped; want some: %v", len(gaps), n, c.someDropped)
			}
		})
	}
}

// With ECN on, an early drop of an ECN-capable packet becomes a CE mark
// (RFC 3168 §7); forced drops and non-ECT packets are still dropped.
func TestREDECNMarksInsteadOfEarlyDrops(t *testing.T) {
	cases := []struct {
		name      string
		ecn, ect  bool
		backlog   int
		wantCause DropCause
		wantCE    bool
	}{
		{"early, ECT", true, true, 10, NotDropped, true},
		{"early, not ECT", true, false, 10, AQMDrop, false},
		{"early, ECN off", false, true, 10, AQMDrop, false},
		{"forced, ECT", true, true, 15, AQMDrop, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// max_p = 1 at avg 10 of [5,15] makes p_b = 1/2; count makes the
			// second arrival after a non-drop certain, so two arrivals give
			// exactly one early decision.
			cfg := REDConfig{MinTh: 5, MaxTh: 15, MaxP: 1, Wq: 1, ECN: c.ecn}
			q := NewRED(cfg, sim.Stream(1, "ecn"))
			for range c.backlog {
				q.q.push(&Packet{Size: 1000})
			}
			var decided *Packet
			var cause DropCause
			for range 2 {
				p := &Packet{Size: 1000, ECT: c.ect}
				cause = q.Enqueue(p, 0)
				if cause != NotDropped || p.CE {
					decided = p
					break
				}
				q.Dequeue(0)
			}
			if decided == nil || cause != c.wantCause || decided.CE != c.wantCE {
				t.Fatalf("cause %v, CE %v; want %v, %v", cause, decided != nil && decided.CE, c.wantCause, c.wantCE)
			}
			if c.wantCE && q.Marks != 1 {
				t.Errorf("Marks = %d", q.Marks)
			}
		})
	}
}

func TestREDHardLimitTailDrops(t *testing.T) {
	cases := []struct {
		name string
		cfg  REDConfig
		size int32
		fits int
	}{
		{"packets", REDConfig{MinTh: 50, MaxTh: 100, MaxP: 0.1, Wq: 0.002, Limit: 8}, 1000, 8},
		{"bytes", REDConfig{MinTh: 50, MaxTh: 100, MaxP: 0.1, Wq: 0.002, LimitBytes: 5500}, 1000, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := NewRED(c.cfg, sim.Stream(1, "lim"))
			for i := range c.fits + 3 {
				got := q.Enqueue(&Packet{Size: c.size}, 0)
				want := NotDropped
				if i >= c.fits {
					want = QueueOverflow
				}
				if got != want {
					t.Fatalf("packet %d: %v, want %v", i+1, got, want)
				}
			}
			if q.Len() != c.fits || q.Bytes() != c.fits*int(c.size) || q.Overflows != 3 {
				t.Fatalf("len %d bytes %d overflows %d", q.Len(), q.Bytes(), q.Overflows)
			}
		})
	}
}

// The average follows avg ← (1−w_q)·avg + w_q·q; after the transmitter
// has been idle for I, the next arrival first decays it by (1−w_q)^m with
// m = ⌊I/pktTime⌋ (ns-2), pktTime being a mean packet's transmission time.
func TestREDAverageDecaysOverIdleTime(t *testing.T) {
	cases := []struct {
		name string
		bw   float64
		idle sim.Time
		want float64
	}{
		// Four arrivals at t=0 see queues 0,1,2,3 with w_q=1/2: avg 0, 0.5,
		// 1.25, 2.125. The next arrival sees 0: avg = 2.125·(1/2)^m·(1/2).
		{"idle under one packet time", 8e6, 500 * sim.Microsecond, 2.125 / 2},
		{"idle one packet time", 8e6, sim.Millisecond, 2.125 / 4},
		{"idle 3.5 packet times", 8e6, 3500 * sim.Microsecond, 2.125 / 16},
		{"no bandwidth: no decay", 0, 3500 * sim.Microsecond, 2.125 / 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// 1000 B at 8 Mb/s: pktTime = 1 ms.
			cfg := REDConfig{MinTh: 100, MaxTh: 200, MaxP: 0.1, Wq: 0.5, MeanPktSize: 1000, Bandwidth: c.bw}
			q := NewRED(cfg, sim.Stream(1, "idle"))
			for range 4 {
				q.Enqueue(&Packet{Size: 1000}, 0)
			}
			if q.Avg() != 2.125 {
				t.Fatalf("avg %v after 4 arrivals, want 2.125", q.Avg())
			}
			for range 4 {
				q.Dequeue(0)
			}
			idleFrom := sim.Millisecond
			if q.Dequeue(idleFrom) != nil { // the transmitter finds nothing: idle
				t.Fatal("queue not empty")
			}
			q.Enqueue(&Packet{Size: 1000}, idleFrom+c.idle)
			if got := q.Avg(); got != c.want {
				t.Fatalf("avg %v, want %v", got, c.want)
			}
		})
	}
}

// RED on a real link under 2× overload: drops are the queue's, counted as
// AQMDrop, and the average settles between the thresholds' neighbourhood
// rather than at the hard limit.
func TestREDOnOverloadedLink(t *testing.T) {
	n := New(4)
	a, b := n.AddNode("a"), n.AddNode("b")
	var red *RED
	ab, _ := n.Connect("l", a, b, LinkConfig{Bandwidth: 8e6, Delay: sim.Millisecond}, func() Queue {
		red = NewRED(REDConfig{MinTh: 5, MaxTh: 15, MaxP: 0.1, Wq: 0.002, Gentle: true, Limit: 100, Bandwidth: 8e6}, n.Stream("queue/l"))
		return red
	})
	red = ab.Queue().(*RED)
	n.ComputeRoutes()
	r := newRecorder(n)
	// 1000 B every 0.5 ms: 16 Mb/s offered to 8 Mb/s.
	var tick *sim.Timer
	tick = n.Sched.At(0, func() {
		a.Send(dataPacket(n, a, b, r, 1000))
		if n.Now() < 10*sim.Second {
			tick.ArmAfter(500 * sim.Microsecond)
		}
	})
	n.Run(11 * sim.Second)
	aqm, overflow := ab.Stats.Drops[AQMDrop], ab.Stats.Drops[QueueOverflow]
	t.Logf("delivered %d, AQM drops %d, overflows %d, final avg %.2f", len(r.got), aqm, overflow, red.Avg())
	if aqm == 0 || overflow != 0 {
		t.Errorf("AQM drops %d, overflows %d: want RED to drop before the hard limit", aqm, overflow)
	}
	// The link stays busy: about 10 s × 1000 packets/s delivered.
	if d := len(r.got); d < 9900 || d > 10100 {
		t.Errorf("delivered %d, want about 10000", d)
	}
}
