package sim

import (
	"container/heap"
	"math/rand/v2"
	"slices"
	"testing"
)

// A reference for the scheduler's order: the same timer rules (an entry
// per earlier arming, a later arming moved when its entry surfaces, a
// cancelled entry skipped) over container/heap, a queue written apart
// from the calendar and the far heap. Entries sort by time, then by timer
// (the tests create timer i i-th), then by arming: so the next to fire is
// the armed timer with the earliest deadline, the oldest of those tied.
type refEntry struct {
	at  Time
	seq uint64
	id  int
}

type refQueue []refEntry

func (q refQueue) Len() int { return len(q) }
func (q refQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.id != b.id {
		return a.id < b.id
	}
	return a.seq < b.seq
}
func (q refQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *refQueue) Push(x any)   { *q = append(*q, x.(refEntry)) }
func (q *refQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

type refTimer struct {
	deadline, pendingAt Time
	pendingSeq          uint64
}

type refScheduler struct {
	now    Time
	seq    uint64
	q      refQueue
	timers []refTimer
}

func (r *refScheduler) arm(id int, at Time) {
	at = max(at, r.now)
	t := &r.timers[id]
	t.deadline = at
	if at < t.pendingAt {
		r.push(id, at)
	}
}

func (r *refScheduler) push(id int, at Time) {
	r.seq++
	r.timers[id].pendingAt, r.timers[id].pendingSeq = at, r.seq
	heap.Push(&r.q, refEntry{at, r.seq, id})
}

// next runs entries until one fires and returns its timer, or -1.
func (r *refScheduler) next() int {
	for r.q.Len() > 0 {
		e := heap.Pop(&r.q).(refEntry)
		t := &r.timers[e.id]
		if t.pendingAt != e.at || t.pendingSeq != e.seq {
			continue
		}
		t.pendingAt = Never
		if t.deadline == Never {
			continue
		}
		r.now = e.at
		if t.deadline > e.at {
			r.push(e.id, t.deadline)
			continue
		}
		t.deadline = Never
		return e.id
	}
	return -1
}

// workload is what a firing timer does next, drawn from r: delays that
// tie exactly, that crowd a bucket, that span the ring and that go past
// it, re-armings earlier and later, cancellations, and quiet spells in
// which few timers stay armed.
type workload struct {
	r      *rand.Rand
	timers int
	phase  func(fired int) int // which mix of delays, by events so far
}

type action struct {
	target int
	delay  Time
	cancel bool
}

func (w *workload) delay(mix int) Time {
	switch mix {
	case 0: // crowded: thousands of timers within a few microseconds
		return Time(w.r.IntN(4000))
	case 1: // exact ties on a microsecond grid
		return Microsecond * Time(w.r.IntN(50))
	case mostlyNear: // crowded, and one in 1 024 past the ring's reach
		if w.r.IntN(1024) == 0 {
			return 400*Microsecond + Time(w.r.IntN(int(100*Microsecond)))
		}
		return Time(w.r.IntN(4000))
	default: // sparse: milliseconds to seconds, past any ring's reach
		switch w.r.IntN(5) {
		case 0:
			return Time(w.r.IntN(int(Millisecond)))
		case 1:
			return Millisecond * Time(1+w.r.IntN(200))
		case 2:
			return Second * Time(1+w.r.IntN(3))
		case 3: // about the wheel's reach, within and past it
			return Second*60 + Time(w.r.IntN(int(20*Second)))
		}
		return 0
	}
}

// quiet is the mix in which only the first quietTimers timers re-arm;
// mostlyNear a crowded one with a few entries past the ring's reach (a few
// hundred pending: too few for the wheel).
const (
	quiet       = 3
	quietTimers = 20
	mostlyNear  = 4
)

func (w *workload) actions(self, fired int) []action {
	mix, targets := w.phase(fired), w.timers
	if mix == quiet {
		if self >= quietTimers {
			return nil
		}
		mix, targets = 2, quietTimers
	}
	acts := []action{{target: self, delay: w.delay(mix)}}
	switch w.r.IntN(6) {
	case 0:
		acts = append(acts, action{target: w.r.IntN(targets), delay: w.delay(mix)})
	case 1:
		acts = append(acts, action{target: w.r.IntN(targets), cancel: true})
	case 2: // re-armed twice in one callback
		acts = append(acts, action{target: self, delay: w.delay(mix)})
	}
	return acts
}

// The calendar, its adapting shape, the wheel and the far heap together
// fire timers in exactly the reference's order, through phases that make
// the ring grow, its buckets narrow and widen, the wheel fill and empty
// into the ring, and the ring give way to the heap alone and come back.
func TestCalendarFiresInTheReferenceOrder(t *testing.T) {
	phase := func(fired int) int {
		switch {
		case fired < 100000:
			return 0
		case fired < 200000:
			return 1
		case fired < 280000:
			return 2
		case fired < 340000:
			return quiet
		}
		return 0
	}
	shifts, rings, on := map[uint]bool{}, map[int]bool{}, map[bool]bool{}
	s := firesInTheReferenceOrder(t, 12000, 400000, phase, initial, func(s *Scheduler) {
		shifts[s.cal.shift], rings[len(s.cal.heads)], on[s.cal.on] = true, true, true
	})
	// The phases must have changed the calendar's shape, or the test
	// would not cover its changes.
	if len(shifts) < 3 || len(rings) < 2 || len(on) < 2 || s.wheel.cascades < 100 {
		t.Fatalf("bucket spans %v, rings %v, ring on %v, %d wheel buckets moved: the calendar did not adapt",
			keys(shifts), keys(rings), keys(on), s.wheel.cascades)
	}
	if testing.Verbose() {
		t.Logf("bucket spans %v, rings %v, ring on %v, %d wheel buckets moved", keys(shifts), keys(rings), keys(on), s.wheel.cascades)
	}
}

// With a far heap too small for the wheel, entries armed past the ring's
// reach from the ring's own events go to the far heap while the calendar
// runs, and still fire in the reference's order: a regime the test above
// does not reach (its far heap is large, and the wheel takes such
// entries). The scheduler bound's two rules have tests of their own
// (TestARingEntryTiedWithTheFarHeapRunsInCreationOrder and
// TestAFarEntryArmedWhileTheCalendarRunsFiresOnTime), which fail under
// mutations this one does not see.
func TestCalendarWithASmallFarHeapFiresInTheReferenceOrder(t *testing.T) {
	farWhileOn := 0
	s := firesInTheReferenceOrder(t, 300, 200000, func(int) int { return mostlyNear },
		func(int, *rand.Rand) Time { return 0 }, func(s *Scheduler) {
			if s.cal.on {
				farWhileOn = max(farWhileOn, len(s.far))
			}
		})
	if farWhileOn < 20 || s.wheel.cascades != 0 {
		t.Fatalf("at most %d entries in the far heap while the calendar ran, %d wheel buckets moved: want a far heap, no wheel",
			farWhileOn, s.wheel.cascades)
	}
	if testing.Verbose() {
		t.Logf("at most %d entries in the far heap while the calendar ran", farWhileOn)
	}
}

// firesInTheReferenceOrder runs timers under the workload's phases, first
// on a Scheduler, calling observe in every callback, then on the
// reference, and requires the same firings in the same order.
func firesInTheReferenceOrder(t *testing.T, timers, events int, phase func(int) int,
	initial func(int, *rand.Rand) Time, observe func(*Scheduler)) *Scheduler {
	t.Helper()
	type firing struct {
		id int
		at Time
	}

	// The scheduler.
	s := NewScheduler()
	w := &workload{r: rand.New(rand.NewPCG(7, 9)), timers: timers, phase: phase}
	var got []firing
	tms := make([]*Timer, timers)
	for i := range tms {
		tms[i] = NewTimer(s, func() {
			got = append(got, firing{i, s.Now()})
			observe(s)
			for _, a := range w.actions(i, len(got)) {
				if a.cancel {
					tms[a.target].Cancel()
				} else {
					tms[a.target].Arm(s.Now() + a.delay)
				}
			}
		})
	}
	init := rand.New(rand.NewPCG(1, 1))
	for i, tm := range tms {
		tm.Arm(initial(i, init))
	}
	// Run adapts the queues every 4096 events; it stops at the first
	// check after events firings.
	s.SetCheck(func() bool { return len(got) < events })
	s.Run()

	// The reference.
	ref := &refScheduler{timers: make([]refTimer, timers)}
	for i := range ref.timers {
		ref.timers[i] = refTimer{deadline: Never, pendingAt: Never}
	}
	w = &workload{r: rand.New(rand.NewPCG(7, 9)), timers: timers, phase: phase}
	init = rand.New(rand.NewPCG(1, 1))
	for i := range timers {
		ref.arm(i, initial(i, init))
	}
	var want []firing
	for len(want) < len(got) {
		id := ref.next()
		if id < 0 {
			break
		}
		want = append(want, firing{id, ref.now})
		for _, a := range w.actions(id, len(want)) {
			if a.cancel {
				ref.timers[a.target].deadline = Never
			} else {
				ref.arm(a.target, ref.now+a.delay)
			}
		}
	}

	if len(got) != len(want) {
		t.Fatalf("%d firings, reference %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("firing %d: timer %d at %v, reference timer %d at %v",
				i, got[i].id, got[i].at, want[i].id, want[i].at)
		}
	}
	return s
}

// initial is timer i's first time: within a microsecond, or for one in
// four seconds ahead, so that the far heap is large when the calendar
// turns on and its entries move to the wheel.
func initial(i int, r *rand.Rand) Time {
	if i%4 == 0 {
		return Time(r.IntN(int(5 * Second)))
	}
	return Time(r.IntN(int(Microsecond)))
}

func keys[K comparable](m map[K]bool) []K {
	var ks []K
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// With few entries (the calendar off) entries near and far, in the near
// and the far heap, still fire in time order and leave nothing pending.
func TestFewEntriesFireInOrderAcrossTheHeaps(t *testing.T) {
	s := NewScheduler()
	var got []Time
	for _, at := range []Time{3 * Second, 2 * Microsecond, 40 * Millisecond, 1 * Microsecond, 3 * Second, 500 * Millisecond} {
		s.At(at, func() { got = append(got, s.Now()) })
	}
	s.Run()
	want := []Time{1 * Microsecond, 2 * Microsecond, 40 * Millisecond, 500 * Millisecond, 3 * Second, 3 * Second}
	if !slices.Equal(got, want) || s.Pending() != 0 {
		t.Fatalf("fired at %v, pending %d; want %v, none pending", got, s.Pending(), want)
	}
}

// Entries due at the very start of a wheel bucket, some waiting in the
// wheel and some in the ring fire in creation order (here their arming
// order too): the wheel's bucket is
// moved into the ring before the ring's entry at the same time runs, and
// the run goes on past them. With far, the first is armed before the run,
// into the far heap, and the wheel's bucket moves out before it runs.
func TestTiesAtAWheelBucketStartFireInCreationOrder(t *testing.T) {
	for _, far := range []bool{false, true} {
		tiesAtAWheelBucketStart(t, far)
	}
}

func tiesAtAWheelBucketStart(t *testing.T, far bool) {
	s := NewScheduler()
	for i := range 100 { // a busy background keeps the calendar on
		var tm *Timer
		tm = NewTimer(s, func() { tm.Arm(s.Now() + Microsecond*Time(1+i%7)) })
		tm.Arm(0)
	}
	for range wheelAbove { // a far heap large enough for the wheel
		s.At(3600*Second, func() {})
	}
	at := Time(8) << wheelShift // 134 ms
	var got []string
	var inWheel int
	arm := func(name string, when Time) {
		s.At(when, func() {
			s.At(at, func() { got = append(got, name) })
			if name == "wheel" {
				inWheel = s.wheel.n
			}
		})
	}
	want := []string{"wheel", "ring"}
	if far {
		s.At(at, func() { got = append(got, "far") }) // armed at 0: past farAfter
		want = append([]string{"far"}, want...)
	}
	arm("wheel", at-60*Millisecond) // past the ring's reach
	arm("ring", at-Microsecond)
	s.Stop(at + Millisecond)
	s.Run()
	if inWheel == 0 || !s.cal.on {
		t.Fatalf("set-up: %d entries in the wheel, calendar on %v", inWheel, s.cal.on)
	}
	if !slices.Equal(got, want) || s.Now() != at+Millisecond {
		t.Fatalf("fired %v, stopped at %v; want %v, stopped at %v", got, s.Now(), want, at+Millisecond)
	}
}

// A ring entry due at the same time as the far heap's first entry but
// created (and armed) before it runs first, and the run goes on: the far heap's first
// time is part of the scheduler's bound, and reaching the bound is not
// the end of the run. The ring entry gets there out of the wheel, armed
// while the far heap was large; the far one is armed later, once the far
// heap has shrunk below the wheel's threshold.
func TestARingEntryTiedWithTheFarHeapRunsInCreationOrder(t *testing.T) {
	s := NewScheduler()
	for i := range 100 { // a busy background keeps the calendar on
		var tm *Timer
		tm = NewTimer(s, func() { tm.Arm(s.Now() + Microsecond*Time(1+i%7)) })
		tm.Arm(0)
	}
	for range wheelAbove { // the far heap, for the wheel until 200 ms
		s.At(200*Millisecond, func() {})
	}
	// Just after the start of a wheel bucket (302 ms), so that the entry
	// moved out of the wheel falls within the ring's reach.
	at := Time(18)<<wheelShift + Microsecond
	var got []string
	var inWheel, inFar int
	s.At(150*Millisecond, func() {
		s.At(at, func() {
			got = append(got, "ring")
			inFar = len(s.far) // the far one only: this one ran from the ring
		})
		inWheel = s.wheel.n
	})
	s.At(250*Millisecond, func() {
		s.At(at, func() { got = append(got, "far") })
	})
	s.Stop(at + Millisecond)
	s.Run()
	if inWheel != 1 || inFar != 1 || !s.cal.on {
		t.Fatalf("set-up: %d entries in the wheel, %d in the far heap, calendar on %v", inWheel, inFar, s.cal.on)
	}
	if want := []string{"ring", "far"}; !slices.Equal(got, want) || s.Now() != at+Millisecond {
		t.Fatalf("fired %v, stopped at %v; want %v, stopped at %v", got, s.Now(), want, at+Millisecond)
	}
}

// An entry armed past the ring's reach while the calendar runs goes to
// the far heap (small: no wheel) and fires at its time, before the ring's
// later entries: arming it lowers the scheduler's bound.
func TestAFarEntryArmedWhileTheCalendarRunsFiresOnTime(t *testing.T) {
	s := NewScheduler()
	var latest Time      // of the background's events
	for i := range 100 { // a busy background keeps the calendar on
		var tm *Timer
		tm = NewTimer(s, func() {
			latest = s.Now()
			tm.Arm(s.Now() + Microsecond*Time(1+i%7))
		})
		tm.Arm(0)
	}
	// The ring reaches a few milliseconds (8 192 buckets, narrowed by the
	// background's pushes to 256 ns); at is past that, and near enough
	// that the ring does not change its shape before it.
	at := 460 * Millisecond
	fired, before := Time(-1), Time(-1)
	inFar := -1
	var tm *Timer
	tm = NewTimer(s, func() { // a ring entry, in the background's rhythm
		if s.Now() < 450*Millisecond {
			tm.Arm(s.Now() + 3*Microsecond)
			return
		}
		s.At(at, func() { fired, before = s.Now(), latest })
		inFar = len(s.far)
	})
	tm.Arm(0)
	s.Stop(at + Millisecond)
	s.Run()
	if inFar != 1 || !s.cal.on {
		t.Fatalf("set-up: %d entries in the far heap, calendar on %v", inFar, s.cal.on)
	}
	if fired != at || before > at {
		t.Fatalf("fired at %v after an event at %v; want at %v, after none later", fired, before, at)
	}
}

// Thousands of timers due at one instant, whether queued before the
// calendar turns on, armed in one callback, or moved out of the wheel, go
// each after the last entry or before the first of their bucket: the
// pushes walk past a few entries each, not all the others (which made a
// scenario of 100 000 flows starting together run for minutes), and the
// timers fire in time and creation order.
func TestTimersDueAtOneInstantDoNotWalkTheirBucket(t *testing.T) {
	const n = 30000
	s := NewScheduler()
	// A busy background keeps the calendar on; its pushes, each the
	// latest so far, walk nothing.
	for i := range 100 {
		var tm *Timer
		tm = NewTimer(s, func() { tm.Arm(s.Now() + 10*Microsecond) })
		tm.Arm(Time(i))
	}
	for range wheelAbove { // a far heap large enough for the wheel
		s.At(3600*Second, func() {})
	}
	var fired []int
	queued := make([]*Timer, n) // queued before the run: the near heap
	armed := make([]*Timer, n)  // armed in one callback: the ring
	far := make([]*Timer, n)    // armed in one callback: the wheel
	for i := range n {
		queued[i] = NewTimer(s, func() { fired = append(fired, i) })
		// Three instants a nanosecond apart, so that the heap's array
		// is not in time order when it moves.
		queued[i].Arm(Millisecond + Time(i%3))
		armed[i] = NewTimer(s, func() { fired = append(fired, n+i) })
		far[i] = NewTimer(s, func() { fired = append(fired, 2*n+i) })
	}
	var inRing, inWheel int
	farAt := Time(6) << wheelShift // 101 ms: past the ring's reach
	s.At(500*Microsecond, func() {
		pending, wheeled := s.cal.n, s.wheel.n
		for _, tm := range armed {
			tm.Arm(2 * Millisecond)
		}
		for _, tm := range far {
			tm.Arm(farAt)
		}
		inRing, inWheel = s.cal.n-pending, s.wheel.n-wheeled
	})
	s.Stop(farAt + Millisecond)
	s.Run()
	if inRing != n || inWheel != n {
		t.Fatalf("set-up: of %d timers each, %d went to the ring and %d to the wheel", n, inRing, inWheel)
	}
	// At most one step a push, and one for each background timer (older
	// than all of them) due at one of their instants.
	if limit := n + 100; s.cal.walked > limit {
		t.Errorf("pushes walked past %d entries in all; want at most %d", s.cal.walked, limit)
	}
	if len(fired) != 3*n {
		t.Fatalf("%d timers fired, want %d", len(fired), 3*n)
	}
	var want []int // by time, then in creation order
	for r := range 3 {
		for i := r; i < n; i += 3 {
			want = append(want, i)
		}
	}
	for i := n; i < 3*n; i++ {
		want = append(want, i)
	}
	for i, id := range fired {
		if id != want[i] {
			t.Fatalf("firing %d was timer %d, want %d", i, id, want[i])
		}
	}
}
