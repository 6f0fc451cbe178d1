package sim

// Timer calls a fixed function at an armed time. Re-arming is cheap: moving
// the deadline later (what TCP does to its RTO on most ACKs) only updates a
// field, and the queued entry is moved when it surfaces. Moving it earlier
// pushes a fresh entry and leaves the old one stale.
type Timer struct {
	s         *Scheduler
	fn        func()
	deadline  Time // when fn should run; Never if idle
	pendingAt Time // time of this timer's live queued entry; Never if none
	// key orders this timer's entries among others due at the same time
	// and tells its live entry from stale ones: the timer's creation
	// number in the high 32 bits (equal times run in creation order), the
	// number of its armings, wrapping, in the low 32.
	key uint64
}

// NewTimer makes an idle timer that calls fn when it fires. fn is bound
// once, so arming never allocates.
func NewTimer(s *Scheduler, fn func()) *Timer {
	t := new(Timer)
	t.Init(s, fn)
	return t
}

// Init prepares a Timer embedded in another struct (no allocation).
func (t *Timer) Init(s *Scheduler, fn func()) {
	s.created++
	*t = Timer{s: s, fn: fn, deadline: Never, pendingAt: Never, key: s.created << 32}
}

// Arm sets the timer to fire at time at, replacing any earlier arming.
// A time in the past fires at the current time.
func (t *Timer) Arm(at Time) {
	if at < t.s.now {
		at = t.s.now
	}
	t.deadline = at
	if at < t.pendingAt {
		t.s.push(t, at)
	}
}

// ArmAfter fires the timer d after the current time.
func (t *Timer) ArmAfter(d Time) { t.Arm(t.s.now + d) }

// Cancel disarms the timer.
func (t *Timer) Cancel() { t.deadline = Never }

// Armed reports whether the timer will fire.
func (t *Timer) Armed() bool { return t.deadline != Never }

// Deadline is when the timer fires, or Never.
func (t *Timer) Deadline() Time { return t.deadline }

// Now is the current time of the timer's scheduler: for an owner that
// keeps the timer in a cache line it touches anyway, one load nearer than
// its scheduler's.
func (t *Timer) Now() Time { return t.s.now }
