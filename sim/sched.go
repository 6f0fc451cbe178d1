package sim

// Scheduler runs events in time order. Events with equal times run in the
// order they were scheduled (FIFO), which makes every run reproducible.
//
// Following htsim, every event is a Timer owned by a long-lived object (a
// link, a TCP sender); the queues hold at most one live entry per timer, so
// the pending set stays O(components), not O(packets in flight).
type Scheduler struct {
	now Time
	seq uint64
	// cal holds the entries due soon: the links' next arrivals, the
	// near timers.
	cal calendar
	// far holds the entries pushed for later than the calendar reaches
	// (retransmission timeouts, mostly, that rarely fire): kept apart in a
	// heap, they do not crowd the calendar's buckets. The next event is
	// the earlier of the two firsts, so the split changes no order.
	far     queue
	scratch []entry // the calendar's entries while it changes its span
	events  uint64  // timer callbacks run
	// check, if set, is asked every 4096 events whether to go on.
	check       func() bool
	interrupted bool
	stop        Time
}

// NewScheduler returns a scheduler at time zero.
func NewScheduler() *Scheduler {
	return &Scheduler{cal: newCalendar(), stop: Never}
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
func (s *Scheduler) Pending() int { return s.cal.n + len(s.far) }

// Stop makes Run return once time would pass t.
func (s *Scheduler) Stop(t Time) { s.stop = t }

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
	for s.runOne() {
		// Every 4096 events, ask whether to go on (a budget, progress).
		if s.check != nil && s.events&(1<<12-1) == 0 && !s.check() {
			s.interrupted = true
			return
		}
	}
	if s.stop != Never && s.now < s.stop {
		s.now = s.stop
	}
}

// runOne takes the earliest entry and runs it if live; it reports false
// when nothing is left before the stop time.
func (s *Scheduler) runOne() bool {
	e := s.cal.first(s.now)
	fromFar := false
	if len(s.far) > 0 && (e == nil || less(&s.far[0], e)) {
		e, fromFar = &s.far[0], true
	}
	if e == nil || e.at > s.stop {
		return false
	}
	at, t := e.at, e.t
	stale := t.pendingAt != at || t.pendingSeq != e.seq
	if fromFar {
		s.far.pop()
	} else {
		s.cal.popFirst()
	}
	if stale {
		return true // from an earlier arming
	}
	t.pendingAt = Never
	if t.deadline == Never {
		return true // cancelled
	}
	s.now = at
	if t.deadline > at {
		// Re-armed later since this entry was pushed: move it lazily.
		s.push(t, t.deadline)
		return true
	}
	t.deadline = Never
	s.events++
	t.fn()
	return true
}

func (s *Scheduler) push(t *Timer, at Time) {
	s.seq++
	t.pendingAt, t.pendingSeq = at, s.seq
	if e := (entry{at: at, seq: s.seq, t: t}); !s.cal.push(s.now, e) {
		s.far.push(e)
		s.cal.farPush++
	}
	if s.cal.untilAdapt--; s.cal.untilAdapt == 0 {
		s.adapt()
	}
}
