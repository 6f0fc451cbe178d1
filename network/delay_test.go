package network

import (
	"math"
	"slices"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// The two-state process spends a fraction (MinStay_i+Mean_i)/Σ of the time
// in state i and changes state on average once per mean stay.
func TestTwoStateTimeFractionsAndSwitchRate(t *testing.T) {
	cases := []struct {
		name               string
		mean1, mean2       sim.Time
		minStay1, minStay2 sim.Time
	}{
		{"markov 1:3", 100 * sim.Millisecond, 300 * sim.Millisecond, 0, 0},
		// Abouzeid & Roy: V_i = T_i + X_i, E[X_i] = h·T_i with T1=0.1, T2=0.3, h=1.
		{"abouzeid h=1", 100 * sim.Millisecond, 300 * sim.Millisecond, 100 * sim.Millisecond, 300 * sim.Millisecond},
	}
	const d1, d2 = 50 * sim.Millisecond, 150 * sim.Millisecond
	const step, horizon = sim.Millisecond, 20000 * sim.Second
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewTwoState(d1, d2, c.mean1, c.mean2, sim.Stream(2, "delay/"+c.name))
			s.MinStay1, s.MinStay2 = c.minStay1, c.minStay2
			in2, n, changes := 0, 0, 0
			last := d1
			for now := sim.Time(0); now < horizon; now += step {
				d := s.Delay(now)
				switch d {
				case d2:
					in2++
				case d1:
				default:
					t.Fatalf("delay %v is neither D1 nor D2", d)
				}
				if d != last {
					changes++
					last = d
				}
				n++
			}
			stay1, stay2 := (c.minStay1 + c.mean1).Seconds(), (c.minStay2 + c.mean2).Seconds()
			want := stay2 / (stay1 + stay2)
			got := float64(in2) / float64(n)
			// Renewal-reward CLT over ≥ 25k cycles: σ of the fraction is
			// about 0.2% relative (2ab/((a+b)³T) for the Markov case); allow 1%.
			t.Logf("fraction in state 2: %.4f, want %.4f; %d changes", got, want, changes)
			if math.Abs(got/want-1) > 0.01 {
				t.Errorf("fraction in state 2 %v, want %v", got, want)
			}
			// 1 ms sampling misses a stay shorter than 1 ms only when MinStay
			// is 0, with probability ≤ 1−e^(−1/100) ≈ 1%; allow 3%.
			wantChanges := 2 * horizon.Seconds() / (stay1 + stay2)
			if math.Abs(float64(changes)/wantChanges-1) > 0.03 {
				t.Errorf("%d changes, want about %.0f", changes, wantChanges)
			}
		})
	}
}

func TestTwoStateStartsInStateOneAndHoldsMinStay(t *testing.T) {
	s := NewTwoState(10, 20, 1, 1, sim.Stream(1, "x"))
	s.MinStay1, s.MinStay2 = sim.Second, sim.Second
	if s.Delay(0) != 10 || s.Delay(sim.Second-1) != 10 {
		t.Fatal("left state 1 before its minimum stay")
	}
	if s.Delay(sim.Second+1) != 20 {
		t.Fatal("still in state 1 after its stay (mean excess 1 ns)")
	}
}

func TestScheduleStepsAtTheirTimes(t *testing.T) {
	s := &Schedule{Initial: 100, Steps: []Step{{At: 10, Delay: 50}, {At: 20, Delay: 5}, {At: 20, Delay: 7}, {At: 40, Delay: 80}}}
	cases := []struct{ now, want sim.Time }{
		{0, 100}, {9, 100}, {10, 50}, {19, 50},
		{20, 7}, // two steps at one time: the later one stands
		{39, 7}, {40, 80}, {1000, 80},
	}
	for _, c := range cases {
		if got := s.Delay(c.now); got != c.want {
			t.Errorf("Delay(%v) = %v, want %v", c.now, got, c.want)
		}
	}
}

func TestJitterStaysInRange(t *testing.T) {
	j := &Jitter{Base: 10 * sim.Millisecond, Spread: 2 * sim.Millisecond, Rand: sim.Stream(1, "jitter")}
	lo, hi := sim.Never, sim.Time(0)
	for range 100000 {
		d := j.Delay(0)
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo < 10*sim.Millisecond || hi >= 12*sim.Millisecond || hi-lo < 1990*sim.Microsecond {
		t.Fatalf("jitter range [%v, %v], want to fill [10ms, 12ms)", lo, hi)
	}
}

// A route change that cuts the delay lets later packets overtake earlier
// ones still propagating on the old route (Abouzeid & Roy §III-B: a falling
// RTT causes reordering and spurious duplicate ACKs).
func TestFallingDelayReordersThroughLink(t *testing.T) {
	// 1000 B at 8 Mb/s: packet i finishes transmission at (i+1) ms. The
	// delay drops from 10 ms to 1 ms at t = 3 ms, so packets 0–1 leave
	// at 1, 2 ms and arrive at 11, 12 ms; packets 2–9 leave at 3..10 ms and
	// arrive at 4..11 ms, overtaking both.
	n, a, b, ab, r := pair(8e6, 0, 100)
	ab.SetDelayProcess(&Schedule{Initial: 10 * sim.Millisecond, Steps: []Step{{At: 3 * sim.Millisecond, Delay: sim.Millisecond}}})
	for range 10 {
		a.Send(dataPacket(n, a, b, r, 1000))
	}
	n.Run(sim.Second)
	// IDs are 1-based in allocation order. Packet 10 arrives at 11 ms,
	// with packet 1; it was pushed later, and equal times keep push order.
	wantIDs := []uint64{3, 4, 5, 6, 7, 8, 9, 1, 10, 2}
	wantAt := []sim.Time{4, 5, 6, 7, 8, 9, 10, 11, 11, 12}
	if !slices.Equal(r.ids(), wantIDs) {
		t.Fatalf("arrival order %v, want %v", r.ids(), wantIDs)
	}
	for i, g := range r.got {
		if g.at != wantAt[i]*sim.Millisecond {
			t.Errorf("packet %d arrived at %v, want %vms", g.id, g.at, wantAt[i])
		}
	}
}
