package scenario

import (
	"fmt"
	"time"

	"github.com/tcplab/tcplab/sim"
)

// Budget bounds a run. A run that reaches a bound stops cleanly and
// returns a *BudgetError (with the partial result's time in it); zero
// fields are unbounded.
type Budget struct {
	MaxEvents uint64
	MaxWall   time.Duration
	// Progress, if set, is called about every 4096 events with the
	// simulated time reached and the events run.
	Progress func(now sim.Time, events uint64)
}

// BudgetError says which bound stopped a run, and where.
type BudgetError struct {
	What    string // "events" or "wall time"
	Limit   string
	SimTime sim.Time // simulated time reached
	Events  uint64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("stopped at %v of simulated time after %d events: the %s budget (%s) was reached; raise --max-events/--max-wall or shorten the run",
		e.SimTime, e.Events, e.What, e.Limit)
}

// RunWithin is Run under a budget.
func (r *Run) RunWithin(b Budget) (*Result, error) {
	var over *BudgetError
	if b.MaxEvents > 0 || b.MaxWall > 0 || b.Progress != nil {
		t0 := time.Now()
		sched := r.Net.Sched
		sched.SetCheck(func() bool {
			ev := sched.Events()
			if b.Progress != nil {
				b.Progress(sched.Now(), ev)
			}
			switch {
			case b.MaxEvents > 0 && ev >= b.MaxEvents:
				over = &BudgetError{What: "events", Limit: fmt.Sprint(b.MaxEvents)}
			case b.MaxWall > 0 && time.Since(t0) >= b.MaxWall:
				over = &BudgetError{What: "wall time", Limit: b.MaxWall.String()}
			}
			return over == nil
		})
	}
	res, err := r.Run()
	if over != nil {
		over.SimTime, over.Events = r.Net.Now(), r.Net.Sched.Events()
		return res, over
	}
	return res, err
}
