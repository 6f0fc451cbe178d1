package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestEqualTimesRunInCreationOrder(t *testing.T) {
	s := NewScheduler()
	var got []int
	for i := range 5 {
		s.At(10*Millisecond, func() { got = append(got, i) })
	}
	s.At(5*Millisecond, func() { got = append(got, -1) })
	s.Run()
	want := []int{-1, 0, 1, 2, 3, 4}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// Entries for far times wait in a heap of their own; events of both heaps
// at the same time still run in their timers' creation order, whenever
// each was armed.
func TestEqualTimesAcrossHeapsRunInCreationOrder(t *testing.T) {
	const at = 500 * Millisecond
	s := NewScheduler()
	var got []string
	far := NewTimer(s, func() { got = append(got, "far, created first") })
	late := NewTimer(s, func() { got = append(got, "near, created second, armed at 450 ms") })
	early := NewTimer(s, func() { got = append(got, "near, created third, armed at 420 ms") })
	far.Arm(at) // 500 ms ahead: the far heap
	s.At(450*Millisecond, func() { late.Arm(at) })
	s.At(420*Millisecond, func() { early.Arm(at) })
	s.Run()
	want := []string{"far, created first", "near, created second, armed at 450 ms", "near, created third, armed at 420 ms"}
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

// The order at equal times depends on what is armed, not on when: a timer
// armed early, re-armed, or armed for the current instant from another's
// callback runs at its place among the timers tied with it. An older timer
// armed for the current instant while a newer one fires from the root of
// a heap runs next, and the firing timer's own re-arming is kept (the
// root is given up, not overwritten).
func TestEqualTimesIgnoreWhenTimersWereArmed(t *testing.T) {
	cases := []struct {
		name string
		arm  func(s *Scheduler, tms []*Timer)
		want []int
	}{
		{"armed newest first", func(s *Scheduler, tms []*Timer) {
			for i := len(tms) - 1; i >= 0; i-- {
				tms[i].Arm(Millisecond)
			}
		}, []int{0, 1, 2, 3}},
		{"re-armed later then back", func(s *Scheduler, tms []*Timer) {
			for _, tm := range tms {
				tm.Arm(Millisecond)
			}
			tms[0].Arm(2 * Millisecond) // moved lazily: its entry surfaces at 1 ms
			tms[0].Arm(Millisecond)
		}, []int{0, 1, 2, 3}},
		{"older armed for now from a newer one's callback", func(s *Scheduler, tms []*Timer) {
			tms[3].Arm(Millisecond)
			tms[2].Arm(Millisecond)
		}, []int{2, 3, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScheduler()
			var got []int
			tms := make([]*Timer, 4)
			for i := range tms {
				tms[i] = NewTimer(s, func() {
					got = append(got, i)
					if i == 3 && c.name == "older armed for now from a newer one's callback" && s.Now() == Millisecond {
						tms[0].Arm(s.Now())
						tms[1].Arm(s.Now())
						tms[3].Arm(s.Now() + Millisecond) // its own re-arming, held while it runs
					}
				})
			}
			c.arm(s, tms)
			s.Run()
			want := c.want
			if c.name == "older armed for now from a newer one's callback" {
				want = append(want, 3)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("order %v, want %v", got, want)
			}
		})
	}
}

func TestTimerRearm(t *testing.T) {
	cases := []struct {
		name  string
		arms  []Time // successive Arm calls at time 0
		fires []Time // when the callback ran
	}{
		{"once", []Time{10}, []Time{10}},
		{"later replaces earlier", []Time{10, 30}, []Time{30}},
		{"earlier replaces later", []Time{30, 10}, []Time{10}},
		{"back and forth", []Time{30, 10, 20}, []Time{20}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewScheduler()
			var fired []Time
			tm := NewTimer(s, func() { fired = append(fired, s.Now()) })
			for _, a := range c.arms {
				tm.Arm(a)
			}
			s.Run()
			if !slices.Equal(fired, c.fires) {
				t.Fatalf("fired at %v, want %v", fired, c.fires)
			}
		})
	}
}

func TestTimerCancelAndRearmFromCallback(t *testing.T) {
	s := NewScheduler()
	var n int
	var tm *Timer
	tm = NewTimer(s, func() {
		n++
		if n < 3 {
			tm.ArmAfter(Second)
		}
	})
	tm.Arm(Second)
	c := NewTimer(s, func() { t.Fatal("cancelled timer fired") })
	c.Arm(2 * Second)
	c.Cancel()
	s.Run()
	if n != 3 || s.Now() != 3*Second {
		t.Fatalf("n=%d now=%v, want 3 firings ending at 3s", n, s.Now())
	}
}

func TestStopLeavesTimeAtStop(t *testing.T) {
	s := NewScheduler()
	ran := false
	s.At(5*Second, func() { ran = true })
	s.Stop(2 * Second)
	s.Run()
	if ran || s.Now() != 2*Second {
		t.Fatalf("ran=%v now=%v", ran, s.Now())
	}
}

// The heap must behave as a priority queue for any interleaving of arms.
func TestRandomArmsFireInOrder(t *testing.T) {
	s := NewScheduler()
	r := rand.New(rand.NewPCG(1, 2))
	var last Time
	timers := make([]*Timer, 200)
	for i := range timers {
		timers[i] = NewTimer(s, func() {
			if s.Now() < last {
				t.Fatalf("time went back: %v after %v", s.Now(), last)
			}
			last = s.Now()
			timers[i].ArmAfter(Time(1 + r.IntN(1000)))
			if r.IntN(3) == 0 {
				timers[r.IntN(len(timers))].ArmAfter(Time(r.IntN(1000)))
			}
		})
		timers[i].Arm(Time(r.IntN(1000)))
	}
	s.Stop(100000)
	s.Run()
	if s.Events() < 1000 {
		t.Fatalf("only %d events", s.Events())
	}
}

func TestStreamsAreIndependentAndReproducible(t *testing.T) {
	a1 := Stream(7, "link/bottleneck").Uint64()
	a2 := Stream(7, "link/bottleneck").Uint64()
	b := Stream(7, "link/access").Uint64()
	c := Stream(8, "link/bottleneck").Uint64()
	if a1 != a2 {
		t.Fatal("same seed and name gave different draws")
	}
	if a1 == b || a1 == c {
		t.Fatal("different names or seeds gave the same draw")
	}
}

// BenchmarkHoldModel measures schedule+run throughput with a steady
// population of pending timers, each re-armed when it fires (the classic
// hold model). Reported: ns/op is per event; allocs/op must be 0.
func BenchmarkHoldModel(b *testing.B) {
	for _, pop := range []int{100, 1000, 100000} {
		b.Run(itoa(pop), func(b *testing.B) {
			s := NewScheduler()
			r := rand.New(rand.NewPCG(1, 1))
			timers := make([]Timer, pop)
			for i := range timers {
				tm := &timers[i]
				tm.Init(s, func() { tm.ArmAfter(Time(1 + r.IntN(1000000))) })
				tm.Arm(Time(r.IntN(1000000)))
			}
			// Run (which lets the queues adapt between events) until b.N
			// events have run, give or take the 4096 between checks.
			s.SetCheck(func() bool { return s.events < uint64(b.N) })
			b.ReportAllocs()
			b.ResetTimer()
			s.Run()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Mevents/s")
		})
	}
}

// BenchmarkRearmLater is TCP's RTO pattern: a timer pushed later on every
// ACK, firing rarely.
func BenchmarkRearmLater(b *testing.B) {
	s := NewScheduler()
	tm := NewTimer(s, func() {})
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tm.Arm(Time(i + 1000))
	}
}

func itoa(n int) string {
	switch n {
	case 100:
		return "pending=100"
	case 1000:
		return "pending=1000"
	}
	return "pending=100000"
}

// The heap finds a timer by its own address: a copy of an initialised
// timer, given its own function and armed, runs that function and not the
// original's (a table of timers by id, tried for smaller heap entries,
// would have run the original's).
func TestCopiedTimerFiresItself(t *testing.T) {
	s := NewScheduler()
	type holder struct {
		tm  Timer
		hit int
	}
	a := &holder{}
	a.tm.Init(s, func() { a.hit++ })
	b := &holder{}
	*b = *a
	b.tm.fn = func() { b.hit++ }
	b.tm.Arm(5)
	s.Run()
	if a.hit != 0 || b.hit != 1 {
		t.Fatalf("original fired %d times, copy %d; want 0 and 1", a.hit, b.hit)
	}
}
