package sim

// Scheduler runs events in time order. Events with equal times run in the
// order they were scheduled (FIFO), which makes every run reproducible.
//
// Following htsim, every event is a Timer owned by a long-lived object (a
// link, a TCP sender); the heaps hold at most one live entry per timer, so
// the pending set stays O(components), not O(packets in flight).
type Scheduler struct {
	now  Time
	seq  uint64
	heap queue // entries due within farAfter of their push
	// far holds the entries pushed for later than that (retransmission
	// timeouts, mostly, that rarely fire): kept apart, they do not deepen
	// the heap that every event sifts. The next event is the earlier of
	// the two roots, so the split changes no order.
	far    queue
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

// farAfter is how far ahead an entry must be to go to the far heap.
const farAfter = 100 * Millisecond

type queue []entry

type entry struct {
	at  Time
	seq uint64
	t   *Timer
}

// NewScheduler returns a scheduler at time zero.
func NewScheduler() *Scheduler {
	return &Scheduler{heap: make(queue, 0, 1024), stop: Never}
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

// Pending is the number of entries in the heaps (live and stale).
func (s *Scheduler) Pending() int { return len(s.heap) + len(s.far) }

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
	q := &s.heap
	if len(s.far) > 0 && (len(s.heap) == 0 || less(&s.far[0], &s.heap[0])) {
		q = &s.far
	}
	if len(*q) == 0 {
		return false
	}
	e := (*q)[0]
	if e.at > s.stop {
		return false
	}
	t := e.t
	if t.pendingAt != e.at || t.pendingSeq != e.seq {
		q.pop()
		return true // stale entry from an earlier arming
	}
	t.pendingAt = Never
	if t.deadline == Never {
		q.pop()
		return true // cancelled
	}
	s.now = e.at
	if t.deadline > e.at {
		// Re-armed later since this entry was pushed: move it lazily.
		q.pop()
		s.firing = nil
		s.push(t, t.deadline)
		return true
	}
	t.deadline = Never
	s.events++
	s.firing, s.reArming = t, false
	t.fn()
	switch {
	case !s.reArming:
		q.pop()
	case s.queueFor(s.reArm.at) == q:
		// The entry the function's arming would have pushed takes the
		// root's place: same time and sequence number, so the order of
		// events is exactly that of a pop and a push.
		q.siftDown(0, s.reArm)
	default:
		q.pop()
		s.queueFor(s.reArm.at).push(s.reArm)
	}
	return true
}

// queueFor is the heap an entry for time at goes to.
func (s *Scheduler) queueFor(at Time) *queue {
	if at-s.now > farAfter {
		return &s.far
	}
	return &s.heap
}

func (s *Scheduler) push(t *Timer, at Time) {
	s.seq++
	t.pendingAt, t.pendingSeq = at, s.seq
	e := entry{at: at, seq: s.seq, t: t}
	if t == s.firing {
		// Its root entry is still in the heap: hold the new one until the
		// function returns (a later arming supersedes an earlier one,
		// whose pushed entry would only have been skipped as stale).
		s.reArm, s.reArming = e, true
		return
	}
	s.queueFor(at).push(e)
}

func (q *queue) push(e entry) {
	h := append(*q, e)
	// Sift up.
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !less(&e, &h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = e
	*q = h
}

func (q *queue) pop() {
	h := *q
	n := len(h) - 1
	last := h[n]
	h[n] = entry{}
	h = h[:n]
	*q = h
	if n == 0 {
		return
	}
	q.siftDown(0, last)
}

// siftDown puts last in the heap, starting from the slot at i (whose
// entry it replaces) and moving it down to its place.
func (q *queue) siftDown(i int, last entry) {
	h := *q
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
