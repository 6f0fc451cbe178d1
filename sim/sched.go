package sim

// Scheduler runs events in time order. Events with equal times run in the
// order their timers were created: the next event is always the armed
// timer with the earliest deadline, and of those due at the same time the
// oldest. The order is a convention (docs/design.md, "Equal times"): it
// depends only on what is armed, not on when or how often it was armed, so
// an event skipped or armed earlier by an optimisation cannot move
// another.
//
// Following htsim, every event is a Timer owned by a long-lived object (a
// link, a TCP sender); the queues hold at most one live entry per timer, so
// the pending set stays O(components), not O(packets in flight).
type Scheduler struct {
	now     Time
	created uint64 // timers created: the next one's creation number
	// cal holds, while many entries are pending, those due soon: the
	// links' next arrivals, the near timers; wheel those due later, up to
	// about a minute ahead (retransmission timeouts, mostly).
	cal   calendar
	wheel wheel
	// While the calendar is off (few entries pending: see calendarAbove)
	// two binary heaps hold the entries: near those due within farAfter of
	// their push, far the later ones (retransmission timeouts, mostly,
	// that rarely fire), which kept apart do not deepen the heap every
	// event sifts. While it is on, near is empty and far holds what the
	// ring does not reach. The next event is the earlier of the firsts,
	// so no split changes the order.
	near, far queue
	// firing is the timer whose function runHeap is running, its entry
	// still the root of heap firingQ unless rootGone; reArm is the entry
	// its re-arming would have pushed into a heap.
	firing   *Timer
	firingQ  *queue
	rootGone bool
	reArm    entry
	reArming bool
	scratch  []entry // the calendar's entries while it changes its shape
	events   uint64  // timer callbacks run
	// check, if set, is asked every 4096 events whether to go on.
	check       func() bool
	interrupted bool
	stop        Time
	// bound, while the calendar is on, is the earliest of the wheel's
	// first bucket, the far heap's first entry and the first time past
	// stop: the calendar's first entry runs at once if it is due before
	// bound (one comparison per event for the three).
	bound Time
}

// NewScheduler returns a scheduler at time zero.
func NewScheduler() *Scheduler {
	return &Scheduler{cal: newCalendar(), wheel: newWheel(), stop: Never, bound: Never}
}

// Now is the current simulated time.
func (s *Scheduler) Now() Time { return s.now }

// SetCheck makes Run ask fn, every 4096 events, whether to go on; a
// false answer stops the run where it is (Interrupted reports it).
func (s *Scheduler) SetCheck(fn func() bool) { s.check = fn }

// Interrupted reports whether a check stopped the last Run.
func (s *Scheduler) Interrupted() bool { return s.interrupted }

// Events is the number of events run so far.
func (s *Scheduler) Events() uint64 { return s.events }

// Pending is the number of entries queued (live and stale).
func (s *Scheduler) Pending() int { return s.cal.n + s.wheel.n + len(s.near) + len(s.far) }

// Stop makes Run return once time would pass t.
func (s *Scheduler) Stop(t Time) {
	s.stop = t
	s.setBound()
}

// At runs fn once at time t. It allocates a timer, so it is meant for
// set-up (flow starts, scripted changes), not the per-packet path.
func (s *Scheduler) At(t Time, fn func()) *Timer {
	tm := NewTimer(s, fn)
	tm.Arm(t)
	return tm
}

// Run executes events until none are left or the stop time is reached.
// Time is left at the stop time (or the last event) so that statistics can
// be read "at the end of the run".
func (s *Scheduler) Run() {
	for {
		// Most events are the calendar's first entry, due before bound:
		// they run from here, one call fewer than through runOne.
		if e := s.cal.first(s.now); e != nil && e.at < s.bound {
			s.runCalendar(e)
		} else if !s.runOne() {
			break
		}
		// Every 4096 events, let the queues adapt to what is pending and
		// ask whether to go on (a budget, progress).
		if s.events&(adaptWindow-1) == 0 {
			s.adapt()
			if s.check != nil && !s.check() {
				s.interrupted = true
				return
			}
		}
	}
	if s.stop != Never && s.now < s.stop {
		s.now = s.stop
	}
}

// runOne takes the earliest entry and runs it if live; it reports false
// when nothing is left before the stop time.
func (s *Scheduler) runOne() bool {
	if !s.cal.on {
		q := &s.near
		if len(s.far) > 0 && (len(s.near) == 0 || less(&s.far[0], &s.near[0])) {
			q = &s.far
		}
		if len(*q) == 0 {
			return false
		}
		return s.runHeap(q)
	}
	e := s.cal.first(s.now)
	if e == nil || e.at >= s.bound {
		// The far heap's first entry, the wheel's first bucket or the
		// stop time may come first (bound is the earliest of the three).
		if len(s.far) > 0 && (e == nil || less(&s.far[0], e)) {
			if s.far[0].at >= s.wheel.at {
				s.cascade()
				return true
			}
			r := s.runHeap(&s.far)
			s.setBound()
			return r
		}
		if e == nil || e.at >= s.wheel.at || e.at > s.stop {
			return s.beyond(e)
		}
	}
	s.runCalendar(e)
	return true
}

// runCalendar takes the calendar's first entry e and runs it if live.
func (s *Scheduler) runCalendar(e *entry) {
	at, t := e.at, e.t
	stale := t.pendingAt != at || t.key != e.seq
	s.cal.popFirst()
	if stale {
		return // from an earlier arming
	}
	t.pendingAt = Never
	if t.deadline == Never {
		return // cancelled
	}
	s.now = at
	if t.deadline > at {
		// Re-armed later since this entry was pushed: move it lazily.
		s.push(t, t.deadline)
		return
	}
	t.deadline = Never
	s.events++
	t.fn()
}

// beyond handles a first entry e (nil: none) at or past bound: the run
// stops, or the wheel's first bucket, which may hold an earlier entry or
// one due at the same time with a lower sequence number, is moved out.
func (s *Scheduler) beyond(e *entry) bool {
	if s.wheel.n == 0 || s.wheel.at > s.stop || e != nil && e.at < s.wheel.at {
		return false // past the stop time, or nothing left
	}
	s.cascade()
	return true
}

// setBound makes bound the earliest of the wheel's first bucket, the far
// heap's first entry and the first time past the stop time.
func (s *Scheduler) setBound() {
	s.bound = s.wheel.at
	if s.stop < Never && s.stop+1 < s.bound {
		s.bound = s.stop + 1
	}
	if len(s.far) > 0 && s.far[0].at < s.bound {
		s.bound = s.far[0].at
	}
}

// runHeap runs the root of heap q, which is the earliest entry. The entry
// stays at the root while the timer's function runs; if the function
// re-arms the timer into the same heap (most do: a link re-arms its own
// arrival timer), the new entry takes the root's place and is sifted down
// once, instead of a pop and a push. It has the push's time and key, so
// the order is exactly that of a pop and a push. An entry pushed into q
// that sorts before the root (an older timer armed for this instant) pops
// the root first (push).
func (s *Scheduler) runHeap(q *queue) bool {
	e := (*q)[0]
	if e.at > s.stop {
		return false
	}
	t := e.t
	if t.pendingAt != e.at || t.key != e.seq {
		q.pop()
		return true // from an earlier arming
	}
	t.pendingAt = Never
	if t.deadline == Never {
		q.pop()
		return true // cancelled
	}
	s.now = e.at
	if t.deadline > e.at {
		q.pop()
		s.push(t, t.deadline)
		return true
	}
	t.deadline = Never
	s.events++
	s.firing, s.firingQ, s.rootGone, s.reArming = t, q, false, false
	t.fn()
	s.firing = nil
	switch {
	case s.rootGone:
		// An older timer armed for this instant took the root's place.
		if s.reArming {
			s.heapFor(s.reArm.at).push(s.reArm)
		}
	case !s.reArming:
		q.pop()
	case s.heapFor(s.reArm.at) == q:
		q.siftDown(0, s.reArm)
	default:
		q.pop()
		s.heapFor(s.reArm.at).push(s.reArm)
	}
	return true
}

// farAfter is how far ahead an entry must be to go to the far heap while
// the calendar is off.
const farAfter = 100 * Millisecond

// heapFor is the heap an entry for time at goes to if the calendar does
// not take it.
func (s *Scheduler) heapFor(at Time) *queue {
	if s.cal.on || at-s.now > farAfter {
		return &s.far
	}
	return &s.near
}

func (s *Scheduler) push(t *Timer, at Time) {
	t.key = t.key&^(1<<32-1) | (t.key+1)&(1<<32-1)
	t.pendingAt = at
	e := entry{at: at, seq: t.key, t: t}
	if s.cal.on {
		if s.cal.push(s.now, e) {
			return
		}
		s.cal.farPush++
		if s.toWheel(e) {
			s.bound = min(s.bound, s.wheel.at)
			return
		}
	}
	if t == s.firing {
		// Its entry is still a heap's root: hold the new one until the
		// function returns (a later arming supersedes an earlier one,
		// whose entry would only have been skipped as stale).
		s.reArm, s.reArming = e, true
		return
	}
	q := s.heapFor(at)
	if s.firing != nil && q == s.firingQ && !s.rootGone && less(&e, &(*q)[0]) {
		q.pop()
		s.rootGone = true
	}
	q.push(e)
	if s.cal.on {
		s.bound = min(s.bound, at) // the far heap's
	}
}

// Next returns a time at or before the next pending event, or Never when
// nothing is pending: a driver that runs the scheduler against a clock
// sleeps until it. An entry left stale by re-arming may make it earlier
// than the event it stands for, never later, so a driver wakes at worst
// once for nothing.
func (s *Scheduler) Next() Time {
	t := Never
	if e := s.cal.first(s.now); e != nil {
		t = e.at
	}
	if s.wheel.n > 0 && s.wheel.at < t {
		t = s.wheel.at
	}
	if len(s.near) > 0 && s.near[0].at < t {
		t = s.near[0].at
	}
	if len(s.far) > 0 && s.far[0].at < t {
		t = s.far[0].at
	}
	return t
}

// RunUntil runs every event due at or before t and leaves time at t; a
// driver against a clock calls it with the clock's reading (its stop
// time: Stop, Run).
func (s *Scheduler) RunUntil(t Time) {
	s.Stop(t)
	s.Run()
}
