package sim

import (
	"math/bits"
	"slices"
)

// calendar is a calendar queue (R. Brown, "Calendar queues: a fast O(1)
// priority queue implementation for the simulation event set problem",
// CACM 31(10), 1988) for the entries due soon: a ring of buckets, each
// spanning 2^shift ns and holding a list sorted by (time, sequence).
// Pushing and taking the first entry cost a few steps whatever the number
// pending, where a binary heap sifts through log n levels with a
// hard-to-predict branch at each; the order is the heap's exactly, as both
// sort by the same unique key.
//
// Entries admitted are due less than a ring's length of buckets after the
// bucket of the current time (Scheduler.push sends the rest to the far
// heap), and none is due before the current time, so a ring position never
// holds entries of two laps: scanning the ring from the current time's
// bucket finds the earliest entry. A bitmap of the non-empty buckets makes
// the scan a word per 64 buckets.
//
// As in Brown's queue the ring adapts (Scheduler.adapt): it keeps at least
// twice as many buckets as entries, and its buckets narrow when pushes walk
// past entries sharing their bucket, and widen when the ring's reach sends
// entries to the far heap. The shape changes only the cost, never the
// order.
type calendar struct {
	heads []int32  // per bucket, the node of its earliest entry; 0 if empty
	occ   []uint64 // bit i set iff bucket i is not empty
	mask  uint64   // the number of buckets, a power of two, less one
	pool           // the lists' nodes
	found uint64   // the bucket of the entry first returned
	shift uint     // a bucket spans 2^shift ns
	n     int
	// on is false while few entries are pending (see calendarAbove): then
	// the Scheduler's heaps hold every entry, as a heap of a few dozen
	// entries costs less than the ring, whose scans would cross mostly
	// empty buckets.
	on bool

	// What pushes cost, for adapt: walked counts the entries pushes walked
	// past since the start, walkedSeen its value when adapt last looked;
	// farPush the pushes beyond the ring's reach since then.
	walked, walkedSeen int
	farPush            int
}

const (
	minBuckets = 1 << 13
	// initialShift makes a bucket 4.1 µs, the first ring 33.6 ms: a few
	// buckets per 1500-byte transmission at 100 Mbps and more, and every
	// arrival of a path with less than 33 ms of delay in the ring.
	initialShift = 12
	minShift     = 0       // 1 ns buckets
	maxShift     = 30      // 1.07 s buckets, a ring of 2.4 hours
	adaptWindow  = 1 << 12 // Run's check interval
	// The ring is used while at least calendarAbove entries are pending,
	// until fewer than calendarBelow are.
	calendarAbove = 64
	calendarBelow = 32
)

func newCalendar() calendar {
	return calendar{shift: initialShift}
}

// setBuckets gives the empty calendar a ring of n buckets (a power of two,
// at least 64).
func (c *calendar) setBuckets(n int) {
	c.heads = make([]int32, n)
	c.occ = make([]uint64, n/64)
	c.mask = uint64(n - 1)
}

// bucket is the absolute bucket number of time at. The shift is masked
// so that the compiler need not handle shifts past 63.
func (c *calendar) bucket(at Time) uint64 { return uint64(at) >> (c.shift & 63) }

// push adds e and reports true if e is due less than a ring's length of
// buckets after now's bucket (now <= e.at); if not, it reports false and
// leaves e to the caller.
func (c *calendar) push(now Time, e entry) bool {
	b := c.bucket(e.at)
	if b-c.bucket(now) > c.mask {
		return false
	}
	k := c.get()
	i := b & c.mask
	w, bit := &c.occ[i>>6], uint64(1)<<(i&63)
	if *w&bit == 0 {
		// An empty bucket, known from the bitmap (hot in the cache)
		// without reading its head (often not).
		c.heads[i] = k
		c.nodes[k] = node{e: e, last: k}
		*w |= bit
		c.n++
		return true
	}
	h := c.heads[i]
	t := c.nodes[h].last
	for c.nodes[t].next != 0 {
		t = c.nodes[t].next
	}
	switch {
	case less(&c.nodes[t].e, &e):
		// After the last: a new entry usually goes there.
		c.nodes[t].next = k
		c.nodes[h].last = k
		c.nodes[k] = node{e: e, last: k}
	case less(&e, &c.nodes[h].e):
		c.nodes[k] = node{e: e, next: h, last: t}
		c.heads[i] = k
	default:
		// In between: before the last, so the walk ends there.
		p := &c.nodes[h].next
		for less(&c.nodes[*p].e, &e) {
			p = &c.nodes[*p].next
			c.walked++
		}
		c.nodes[k] = node{e: e, next: *p, last: k}
		*p = k
	}
	c.n++
	return true
}

// first returns the earliest entry, or nil if there is none; now is the
// current time, before every entry.
func (c *calendar) first(now Time) *entry {
	if c.n == 0 {
		return nil
	}
	i := c.bucket(now) & c.mask
	w := i >> 6
	if word := c.occ[w] >> (i & 63); word != 0 {
		i += uint64(bits.TrailingZeros64(word))
	} else {
		// The ring is on with at least calendarBelow entries in at
		// most max(minBuckets, 8n) buckets: a few words apart.
		m := uint64(len(c.occ) - 1)
		for {
			w = (w + 1) & m
			if c.occ[w] != 0 {
				i = w<<6 + uint64(bits.TrailingZeros64(c.occ[w]))
				break
			}
		}
	}
	c.found = i
	return &c.nodes[c.heads[i]].e
}

// popFirst removes the entry first returned; nothing may be pushed
// between the two calls.
func (c *calendar) popFirst() {
	i := c.found
	k := c.heads[i]
	next := c.nodes[k].next
	c.heads[i] = next
	// Clear the bucket's bit if it is now empty, without a branch: whether
	// it is follows no pattern a predictor could learn.
	var empty uint64
	if next == 0 {
		empty = 1
	}
	c.occ[i>>6] &^= empty << (i & 63)
	// The node keeps its timer pointer until reused: timers live as long
	// as their owners, and clearing it would cost a store per event.
	c.put(k)
	c.n--
}

// drain removes every entry, appending them to dst in no particular order.
func (c *calendar) drain(dst []entry) []entry {
	for i := range c.heads {
		for k := c.heads[i]; k != 0; k = c.nodes[k].next {
			dst = append(dst, c.nodes[k].e)
		}
		c.heads[i] = 0
	}
	clear(c.occ)
	c.reset()
	c.n = 0
	return dst
}

// adapt is called by Run between events, every adaptWindow events. It
// turns the calendar on when calendarAbove entries are pending and off
// below calendarBelow. While on, it keeps the ring's buckets at least twice
// the entries (growing to the next power of two past that; shrinking to a
// quarter when they are more than eight times the entries) and moves the
// bucket span if the last window's pushes walked more than one entry each
// (narrower: by the walk's order of magnitude, in powers of two) or,
// walking little, an eighth of them went past the ring (wider, by one).
// The thresholds are far apart, so the shape does not swing.
func (s *Scheduler) adapt() {
	c := &s.cal
	steps, far := c.walked-c.walkedSeen, c.farPush
	c.walkedSeen, c.farPush = c.walked, 0
	switch pending := s.Pending(); {
	case !c.on && pending >= calendarAbove:
		// The near heap's entries move to the ring (or, past its reach,
		// to the wheel or the far heap).
		c.on = true
		if c.heads == nil {
			c.pool = newPool()
			c.setBuckets(minBuckets)
		}
		s.toCalendar(s.near)
		clear(s.near)
		s.near = s.near[:0]
		return
	case !c.on:
		return
	case pending < calendarBelow:
		s.scratch = s.wheel.drain(c.drain(s.scratch[:0]))
		s.setBound()
		c.on = false
		for _, e := range s.scratch {
			s.heapFor(e.at).push(e)
		}
		clear(s.scratch)
		return
	}
	buckets := len(c.heads)
	switch {
	case 2*c.n > buckets:
		buckets = max(minBuckets, 1<<bits.Len(uint(2*c.n-1)))
	case 8*c.n < buckets && buckets > minBuckets:
		buckets = max(minBuckets, buckets/4)
	}
	shift := c.shift
	switch {
	case steps > adaptWindow:
		shift -= min(uint(bits.Len(uint(steps/adaptWindow))), shift-minShift)
	case steps < adaptWindow/8 && far > adaptWindow/8:
		shift = min(shift+1, maxShift)
	}
	if shift == c.shift && buckets == len(c.heads) {
		return
	}
	s.scratch = c.drain(s.scratch[:0])
	c.shift = shift
	if buckets != len(c.heads) {
		c.setBuckets(buckets)
	}
	s.toCalendar(s.scratch)
	clear(s.scratch) // drop the timer pointers
	c.walkedSeen = c.walked
}

// toCalendar queues entries in the calendar, or past its reach in the
// wheel or the far heap. It sorts them first, so that each goes after the
// last of its bucket (see node.last) however many share a time.
func (s *Scheduler) toCalendar(entries []entry) {
	slices.SortFunc(entries, compare)
	for _, e := range entries {
		if !s.cal.push(s.now, e) && !s.toWheel(e) {
			s.far.push(e)
		}
	}
	s.setBound()
}

// toWheel queues e, past the ring's reach, in the wheel if the far heap is
// large and e is within the wheel's reach, and reports whether it did.
func (s *Scheduler) toWheel(e entry) bool {
	return len(s.far) >= wheelAbove && s.wheel.push(s.now, e)
}

// cascade moves the wheel's first bucket into the ring, or past its reach
// into the far heap; never back into the wheel, whose first bucket is now
// a later one.
func (s *Scheduler) cascade() {
	// In take's order, newest first: entries due at one instant go, each,
	// before the first of their bucket (sorting them measured dearer).
	s.scratch = s.wheel.take(s.scratch[:0])
	for _, e := range s.scratch {
		if !s.cal.push(s.now, e) {
			s.far.push(e)
		}
	}
	clear(s.scratch) // drop the timer pointers
	s.setBound()
}
