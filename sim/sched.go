package sim

// Scheduler runs events in time order. Events with equal times run in the
// order they were scheduled (FIFO), which makes every run reproducible.
//
// Following htsim, every event is a Timer owned by a long-lived object (a
// link, a TCP sender); the heap holds at most one live entry per timer, so
// the pending set stays O(components), not O(packets in flight).
type Scheduler struct {
	now    Time
	seq    uint64
	heap   []entry
	events uint64 // timer callbacks run
	// check, if set, is asked every 4096 events whether to go on.
	check       func() bool
	interrupted bool
	stop        Time
	// firing is the timer whose function is running. Its heap entry stays
	// at the root meanwhile; if the function re-arms it (most do: a link
	// re-arms its own arrival timer), the entry is rewritten in place and
	// sifted down once, instead of popped and pushed again.
	firing *Timer
	// reArm is the entry the firing timer's re-arming would have pushed.
	reArm    entry
	reArming bool
}

type entry struct {
	at  Time
	seq uint64
	t   *Timer
}

// NewScheduler returns a scheduler at time zero.
func NewScheduler() *Scheduler {
	return &Scheduler{heap: make([]entry, 0, 1024), stop: Never}
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

// Pending is the number of entries in the heap (live and stale).
func (s *Scheduler) Pending() int { return len(s.heap) }

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
	// firing keeps the last timer fired until the next one, rather than
	// being cleared after each: cleared here, once, and before the only
	// push between events (a lazily moved entry).
	defer func() { s.firing = nil }()
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

// runOne pops one heap entry and runs it if live; it reports false when
// nothing is left before the stop time.
func (s *Scheduler) runOne() bool {
	{
		if len(s.heap) == 0 {
			return false
		}
		e := s.heap[0]
		if e.at > s.stop {
			return false
		}
		t := e.t
		if t.pendingAt != e.at || t.pendingSeq != e.seq {
			s.pop()
			return true // stale entry from an earlier arming
		}
		t.pendingAt = Never
		if t.deadline == Never {
			s.pop()
			return true // cancelled
		}
		s.now = e.at
		if t.deadline > e.at {
			// Re-armed later since this entry was pushed: move it lazily.
			s.pop()
			s.firing = nil
			s.push(t, t.deadline)
			return true
		}
		t.deadline = Never
		s.events++
		s.firing, s.reArming = t, false
		t.fn()
		if s.reArming {
			// The entry the function's arming would have pushed takes the
			// root's place: same time and sequence number, so the order of
			// events is exactly that of a pop and a push.
			s.siftDown(0, s.reArm)
		} else {
			s.pop()
		}
		return true
	}
}

func (s *Scheduler) push(t *Timer, at Time) {
	s.seq++
	t.pendingAt, t.pendingSeq = at, s.seq
	if t == s.firing {
		// Its root entry is still in the heap: hold the new one until the
		// function returns (a later arming supersedes an earlier one,
		// whose pushed entry would only have been skipped as stale).
		s.reArm, s.reArming = entry{at: at, seq: s.seq, t: t}, true
		return
	}
	h := append(s.heap, entry{at: at, seq: s.seq, t: t})
	// Sift up.
	i := len(h) - 1
	e := h[i]
	for i > 0 {
		p := (i - 1) / 2
		if !less(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	s.heap = h
}

func (s *Scheduler) pop() {
	h := s.heap
	n := len(h) - 1
	last := h[n]
	h[n] = entry{}
	h = h[:n]
	s.heap = h
	if n == 0 {
		return
	}
	s.siftDown(0, last)
}

// siftDown puts last in the heap, starting from the slot at i (whose
// entry it replaces) and moving it down to its place.
func (s *Scheduler) siftDown(i int, last entry) {
	h := s.heap
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && less(&h[c+1], &h[c]) {
			c++
		}
		if !less(&h[c], &last) {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = last
}

func less(a, b *entry) bool {
	return a.at < b.at || (a.at == b.at && a.seq < b.seq)
}
