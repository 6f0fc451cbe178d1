package network

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// TwoState is Abouzeid & Roy's abrupt-delay process (§II): the propagation
// delay switches between Delay1 (τ1) and Delay2 (τ2); each stay in state i
// lasts MinStay_i + X_i with X_i exponential of mean Mean_i. The paper
// takes V_i = T_i + X_i, E[X_i] = h·T_i (h the holding-time factor), so that
// the RTT changes at most once per round trip: set MinStay_i = T_i and
// Mean_i = h·T_i for that; MinStay 0 gives a plain two-state Markov
// process. It starts in state 1 at time 0 and advances lazily from the
// packet times (no events).
type TwoState struct {
	Delay1, Delay2     sim.Time
	Mean1, Mean2       sim.Time
	MinStay1, MinStay2 sim.Time
	Rand               *rand.Rand

	inTwo bool
	next  sim.Time // end of the current stay
	begun bool
}

// NewTwoState is a two-state delay process with exponential stays of the
// given means and no minimum stay.
func NewTwoState(d1, d2, mean1, mean2 sim.Time, r *rand.Rand) *TwoState {
	return &TwoState{Delay1: d1, Delay2: d2, Mean1: mean1, Mean2: mean2, Rand: r}
}

func (s *TwoState) stay() sim.Time {
	minStay, mean := s.MinStay1, s.Mean1
	if s.inTwo {
		minStay, mean = s.MinStay2, s.Mean2
	}
	// At least 1 ns, so that advancing always terminates.
	return max(1, minStay+sim.Time(s.Rand.ExpFloat64()*float64(mean)))
}

// InStateTwo reports whether the process is in state 2 at time now (now
// must not decrease between calls).
func (s *TwoState) InStateTwo(now sim.Time) bool {
	if !s.begun {
		s.begun = true
		s.next = s.stay()
	}
	for now >= s.next {
		s.inTwo = !s.inTwo
		s.next += s.stay()
	}
	return s.inTwo
}

// Delay implements DelayProcess.
func (s *TwoState) Delay(now sim.Time) sim.Time {
	if s.InStateTwo(now) {
		return s.Delay2
	}
	return s.Delay1
}

// Step is one change of a Schedule: from time At on, the delay is Delay.
type Step struct {
	At    sim.Time
	Delay sim.Time
}

// Schedule is a scripted delay: Initial until the first step, then each
// step's delay from its time on (a route change at time t). Steps must be
// in increasing time order.
type Schedule struct {
	Initial sim.Time
	Steps   []Step
	next    int // index of the first step not yet reached
}

// Delay implements DelayProcess. Times must not decrease between calls,
// which holds for one link; a cursor makes each call O(1) amortized.
func (s *Schedule) Delay(now sim.Time) sim.Time {
	for s.next < len(s.Steps) && s.Steps[s.next].At <= now {
		s.next++
	}
	if s.next == 0 {
		return s.Initial
	}
	return s.Steps[s.next-1].Delay
}

// Jitter is Base plus a delay uniform on [0, Spread). Packets may overtake
// each other when Spread exceeds their spacing, as on a path with
// per-packet load balancing.
type Jitter struct {
	Base, Spread sim.Time
	Rand         *rand.Rand
}

// Delay implements DelayProcess.
func (j *Jitter) Delay(sim.Time) sim.Time {
	if j.Spread <= 0 {
		return j.Base
	}
	return j.Base + sim.Time(j.Rand.Int64N(int64(j.Spread)))
}
