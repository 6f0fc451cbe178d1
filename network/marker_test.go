package network

import (
	"math"
	"math/rand/v2"
	"testing"
)

// With w_q = 1 the average is the queue each arrival finds, so filling an
// empty buffer marks exactly the arrivals that find ≥ Fraction·Limit.
func TestMarkerInstantaneousMarksAtThreshold(t *testing.T) {
	cases := []struct {
		name      string
		limit     int
		fraction  float64
		firstMark int // 1-based arrival that first finds fraction·limit queued
	}{
		{"NewJersey 30%", 10, 0.3, 4},
		{"T-DLRP 90%", 10, 0.9, 10},
		{"T-DLRP 90% of 50", 50, 0.9, 46},
		{"zero marks everything", 10, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewMarker(c.limit, c.fraction, 1)
			for i := 1; i <= c.limit+2; i++ {
				p := &Packet{Size: 1000}
				cause := m.Enqueue(p, 0)
				if i > c.limit {
					if cause != QueueOverflow {
						t.Fatalf("arrival %d: %v, want overflow", i, cause)
					}
					continue
				}
				if cause != NotDropped {
					t.Fatalf("arrival %d dropped: %v", i, cause)
				}
				if want := i >= c.firstMark; p.CW != want {
					t.Errorf("arrival %d (queue %d): CW %v, want %v", i, i-1, p.CW, want)
				}
			}
			if want := int64(c.limit - c.firstMark + 1); m.Marked != want {
				t.Errorf("Marked = %d, want %d", m.Marked, want)
			}
		})
	}
}

// With RED's averaging, a queue held at Q makes the average approach Q as
// Q·(1 − (1−w)^n) after n arrivals, and a queue then held at 0 makes it
// decay as A·(1−w)^n. Marking must start and stop at exactly the arrivals
// where these closed forms cross Fraction·Limit.
func TestMarkerMarksExactlyWhileAverageIsAboveFraction(t *testing.T) {
	cases := []struct {
		name     string
		limit    int
		fraction float64
		wq       float64
		hold     int // queue length held during the rise
		rise     int // arrivals during the rise
	}{
		{"NewJersey 30%, default w_q", 10, 0.3, 0, 9, 1000},
		{"T-DLRP 90%, default w_q", 100, 0.9, 0, 99, 3000},
		{"T-DLRP 90%, w_q 0.05", 50, 0.9, 0.05, 49, 200},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewMarker(c.limit, c.fraction, c.wq)
			w := c.wq
			if w == 0 {
				w = DefaultMarkerWq
			}
			th := c.fraction * float64(c.limit)
			q := float64(c.hold)
			for range c.hold {
				m.q.push(&Packet{Size: 1000})
			}
			offer := func() bool {
				p := &Packet{Size: 1000}
				if m.Enqueue(p, 0) != NotDropped {
					t.Fatal("dropped")
				}
				return p.CW
			}
			// Rise: each arrival finds hold packets (one in, one out).
			firstMark := 0
			for n := 1; n <= c.rise; n++ {
				got := offer()
				m.Dequeue(0)
				want := q*(1-math.Pow(1-w, float64(n))) >= th
				if got != want {
					t.Fatalf("rise arrival %d: CW %v, want %v (avg %v, threshold %v)", n, got, want, m.Avg(), th)
				}
				if got && firstMark == 0 {
					firstMark = n
				}
			}
			if firstMark == 0 {
				t.Fatal("never marked: rise too short for the test")
			}
			peak := q * (1 - math.Pow(1-w, float64(c.rise)))
			// Fall: drain, then each arrival finds an empty queue.
			for m.Len() > 0 {
				m.Dequeue(0)
			}
			lastMark := 0
			for n := 1; n <= 5*c.rise; n++ {
				got := offer()
				m.Dequeue(0)
				want := peak*math.Pow(1-w, float64(n)) >= th
				if got != want {
					t.Fatalf("fall arrival %d: CW %v, want %v (avg %v)", n, got, want, m.Avg())
				}
				if got {
					lastMark = n
				}
			}
			t.Logf("marking began at rise arrival %d, ended after fall arrival %d", firstMark, lastMark)
		})
	}
}

// A fast retransmission is dropped (as congestion) only while the marker
// marks, with probability RetxDrop; other packets and uncongested
// retransmissions pass.
func TestMarkerDropsFastRetransmissionsOnlyWhileCongested(t *testing.T) {
	cases := []struct {
		name      string
		queued    int     // packets already queued (w_q = 1: the average)
		fastRetx  bool    // the arrival is a fast retransmission
		retxDrop  float64 // the marker's RetxDrop
		wantCause DropCause
	}{
		{"congested fast retransmission", 9, true, 1, AQMDrop},
		{"uncongested fast retransmission", 8, true, 1, NotDropped},
		{"congested new segment", 9, false, 1, NotDropped},
		{"congested, RetxDrop 0", 9, true, 0, NotDropped},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewMarker(10, 0.9, 1)
			m.RetxDrop, m.Rand = c.retxDrop, rand.New(rand.NewPCG(1, 2))
			for range c.queued {
				m.Enqueue(&Packet{Size: 1000}, 0)
			}
			p := &Packet{Size: 1000, Retx: c.fastRetx, FastRetx: c.fastRetx}
			if got := m.Enqueue(p, 0); got != c.wantCause {
				t.Fatalf("cause %v, want %v", got, c.wantCause)
			}
			if !c.wantCause.Congestive() && c.wantCause != NotDropped {
				t.Fatalf("%v is not a congestion loss", c.wantCause)
			}
		})
	}
	// The drop probability is RetxDrop: 10^5 congested fast
	// retransmissions at 0.3 lose 30000 ± 3σ.
	m := NewMarker(10, 0, 1)
	m.RetxDrop, m.Rand = 0.3, rand.New(rand.NewPCG(3, 4))
	const n = 100000
	for range n {
		m.Enqueue(&Packet{Size: 1000, Retx: true, FastRetx: true}, 0)
		m.Dequeue(0)
	}
	sigma := math.Sqrt(n * 0.3 * 0.7)
	if d := math.Abs(float64(m.RetxDropped) - n*0.3); d > 3*sigma {
		t.Errorf("dropped %d of %d, want %.0f ± %.0f", m.RetxDropped, n, n*0.3, 3*sigma)
	}
}
