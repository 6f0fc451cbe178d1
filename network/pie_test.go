package network

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

func newPIE(t *testing.T, reference string) *PIE {
	t.Helper()
	p, _ := Queues.New("pie")
	p.(*PIEParams).Reference = reference
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	return p.NewQueue(New(1), "q", 1e7).(*PIE)
}

// The drop probability's steps, worked by hand from RFC 8033 §4.2 for a
// queueing delay held at 30 ms against the 15 ms reference: the first
// step is α·0.015 + β·0.030 = 0.039375, scaled by 1/2048 as the
// probability is below 10⁻⁶; then α·0.015 = 0.001875 a step, by 1/128
// while it is below 10⁻⁴. From 10% on a step is capped at 2%.
func TestPIEStepsItsProbabilityByRFC8033(t *testing.T) {
	q := newPIE(t, "rfc")
	q.qdelay = 30 * sim.Millisecond
	for i, want := range []float64{1.922607421875e-05, 3.3874511718749996e-05, 4.852294921875e-05,
		6.317138671875e-05, 7.781982421875e-05, 9.246826171875e-05} {
		q.update()
		if math.Abs(q.prob-want) > 1e-15 {
			t.Fatalf("step %d: probability %g, want %g", i+1, q.prob, want)
		}
	}
	q.prob, q.qdelayOld, q.qdelay = 0.3, 30*sim.Millisecond, 200*sim.Millisecond
	if q.update(); math.Abs(q.prob-0.32) > 1e-12 {
		t.Fatalf("a step of 0.2356 from 30%%: probability %g, want 0.32 (capped at 2%%)", q.prob)
	}
	q.prob, q.qdelayOld, q.qdelay = 0.5, 0, 0
	// An empty queue: 0.5 − α·0.015 = 0.498125, decayed by 2%.
	if q.update(); math.Abs(q.prob-0.4881625) > 1e-12 {
		t.Fatalf("an empty queue: probability %g, want 0.4881625", q.prob)
	}
}

// Arrivals are dropped with the probability, except during a burst
// allowance, while the delay is low and the probability below 20%, and
// from a queue of at most two mean-sized packets (RFC 8033 §4.1).
func TestPIEDropsArrivalsWithItsProbability(t *testing.T) {
	const n = 20000
	for _, c := range []struct {
		name      string
		queued    int
		qdelayOld sim.Time
		prob      float64
		burst     sim.Time
		want      float64
	}{
		{"at its probability", 3, 30 * sim.Millisecond, 0.3, 0, 0.3},
		{"low delay and probability", 3, 5 * sim.Millisecond, 0.15, 0, 0},
		{"low delay, high probability", 3, 5 * sim.Millisecond, 0.3, 0, 0.3},
		{"a short queue", 2, 30 * sim.Millisecond, 0.3, 0, 0},
		{"a burst allowed", 3, 30 * sim.Millisecond, 0.3, 15 * sim.Millisecond, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := newPIE(t, "rfc")
			for i := range c.queued {
				q.q.push(&Packet{ID: uint64(i), Size: 1000})
				q.since.PushBack(0)
			}
			q.qdelayOld, q.prob, q.burst = c.qdelayOld, c.prob, c.burst
			drops := 0
			for range n {
				if q.dropEarly() {
					drops++
				}
			}
			// Within four standard deviations of a binomial.
			if got, sd := float64(drops)/n, math.Sqrt(c.want*(1-c.want)/n); math.Abs(got-c.want) > 4*sd+1e-12 {
				t.Fatalf("dropped %.4f of arrivals, want %.4f", got, c.want)
			}
		})
	}
}

// The burst allowance: the RFC's starts full and is refilled whenever the
// queue is calm; ns-3.37's is armed by the first arrival and refilled only
// after 100 calm updates (1.5 s).
func TestPIEBurstAllowance(t *testing.T) {
	rfc := newPIE(t, "rfc")
	if rfc.burst != 150*sim.Millisecond {
		t.Fatalf("a new queue allows %v, want 150ms", rfc.burst)
	}
	rfc.qdelay = 30 * sim.Millisecond
	for range 10 {
		rfc.update()
	}
	if rfc.burst != 0 {
		t.Fatalf("after 10 busy updates %v left, want 0", rfc.burst)
	}
	ns3 := newPIE(t, "ns3")
	if ns3.burst != 0 || ns3.dropEarly() || ns3.burst != 150*sim.Millisecond {
		t.Fatalf("ns-3: allowance %v after the first arrival, want 150ms armed by it", ns3.burst)
	}
	for range 10 {
		ns3.update() // calm: 0 delay, 0 probability
	}
	if ns3.burstState != 2 {
		t.Fatalf("state %d after the allowance ran out calmly, want 2 (in burst)", ns3.burstState)
	}
	for range 101 {
		ns3.update()
	}
	if ns3.burstState != 0 {
		t.Fatalf("state %d after 111 calm updates, want 0 (armed again by the next arrival)", ns3.burstState)
	}
}
