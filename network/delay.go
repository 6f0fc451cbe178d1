package network

import (
	"fmt"
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
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

// The delay processes' parameters, as a scenario's delay_process "model"
// names them.

// TwoStateParams: model "two_state" (Abouzeid & Roy): delay τ1 (the
// link's delay if not given) and τ2; each stay lasts min_stay + an
// exponential of mean.
type TwoStateParams struct {
	Delay1   *sim.Time `yaml:"delay1"`
	Delay2   sim.Time  `yaml:"delay2" required:"true"`
	Mean1    sim.Time  `yaml:"mean1" required:"true"`
	Mean2    sim.Time  `yaml:"mean2" required:"true"`
	MinStay1 sim.Time  `yaml:"min_stay1"`
	MinStay2 sim.Time  `yaml:"min_stay2"`
}

// ScheduleParams: model "schedule": the link's delay until the first
// step, then each step's.
type ScheduleParams struct {
	Steps []StepParams `yaml:"steps" required:"true"`
}

// StepParams is one step of a schedule; both keys are required.
type StepParams struct {
	At    *sim.Time `yaml:"at"`
	Delay *sim.Time `yaml:"delay"`
}

// JitterParams: model "jitter": the link's delay plus a uniform delay in
// [0, spread).
type JitterParams struct {
	Spread sim.Time `yaml:"spread" required:"true"`
}

func init() {
	Delays.Register("two_state", func() DelayParams { return &TwoStateParams{} })
	Delays.Register("schedule", func() DelayParams { return &ScheduleParams{} })
	Delays.Register("jitter", func() DelayParams { return &JitterParams{} })
}

// Validate implements component.Params.
func (p *TwoStateParams) Validate() error {
	if p.Mean1 == 0 && p.MinStay1 == 0 || p.Mean2 == 0 && p.MinStay2 == 0 {
		return component.Errors{component.Errorf("", "each state needs a positive mean or min_stay")}
	}
	return nil
}

// NewDelayProcess implements DelayParams.
func (p *TwoStateParams) NewDelayProcess(net *Net, base sim.Time, stream string) DelayProcess {
	d1 := base
	if p.Delay1 != nil {
		d1 = *p.Delay1
	}
	t := NewTwoState(d1, p.Delay2, p.Mean1, p.Mean2, net.Stream(stream))
	t.MinStay1, t.MinStay2 = p.MinStay1, p.MinStay2
	return t
}

// Validate implements component.Params.
func (p *ScheduleParams) Validate() error {
	var es component.Errors
	for i := 1; i < len(p.Steps); i++ {
		if a, b := p.Steps[i-1].At, p.Steps[i].At; a != nil && b != nil && *b <= *a {
			es = append(es, component.Errorf(fmt.Sprintf("steps[%d].at", i), "steps must be in increasing time order"))
		}
	}
	for i, st := range p.Steps {
		if st.At == nil {
			es = append(es, component.Errorf(fmt.Sprintf("steps[%d].at", i), "missing"))
		}
		if st.Delay == nil {
			es = append(es, component.Errorf(fmt.Sprintf("steps[%d].delay", i), "missing"))
		}
	}
	return es.Err()
}

// NewDelayProcess implements DelayParams.
func (p *ScheduleParams) NewDelayProcess(_ *Net, base sim.Time, _ string) DelayProcess {
	steps := make([]Step, len(p.Steps))
	for i, st := range p.Steps {
		steps[i] = Step{At: *st.At, Delay: *st.Delay}
	}
	return &Schedule{Initial: base, Steps: steps}
}

// Validate implements component.Params.
func (p *JitterParams) Validate() error { return nil }

// NewDelayProcess implements DelayParams.
func (p *JitterParams) NewDelayProcess(net *Net, base sim.Time, stream string) DelayProcess {
	return &Jitter{Base: base, Spread: p.Spread, Rand: net.Stream(stream)}
}
