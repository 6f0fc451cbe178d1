package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A driver that sleeps until Next and runs to it (a real-time clock) sees
// the events of one Run, in the same order at the same times, and Next is
// never later than the event that runs next — with thousands pending
// (calendar and wheel on), re-arming and cancelling.
func TestSteppingToNextRunsWhatRunRuns(t *testing.T) {
	type ev struct {
		at Time
		id int
	}
	build := func(s *Scheduler, got *[]ev) {
		r := rand.New(rand.NewPCG(7, 9))
		timers := make([]*Timer, 3000)
		for i := range timers {
			i := i
			timers[i] = NewTimer(s, func() {
				*got = append(*got, ev{s.Now(), i})
				switch k := r.IntN(10); {
				case k < 8 && s.Now() < 20*Second:
					timers[i].Arm(s.Now() + Time(r.IntN(int(2*Second))))
				case k == 8:
					timers[r.IntN(len(timers))].Cancel()
				case k == 9 && s.Now() < 20*Second:
					timers[r.IntN(len(timers))].Arm(s.Now() + Time(r.IntN(int(90*Second))))
				}
			})
			timers[i].Arm(Time(r.IntN(int(3 * Second))))
		}
	}
	var want []ev
	s := NewScheduler()
	build(s, &want)
	s.Run()

	var got []ev
	s = NewScheduler()
	build(s, &got)
	for {
		next := s.Next()
		if next == Never {
			break
		}
		before := len(got)
		s.RunUntil(next)
		if len(got) > before && got[before].at < next {
			t.Fatalf("Next said %v, but an event ran at %v", next, got[before].at)
		}
	}
	if len(want) < 10000 {
		t.Fatalf("only %d events: the test does not reach the calendar and wheel", len(want))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("stepping ran %d events, Run %d; they differ", len(got), len(want))
	}
}
