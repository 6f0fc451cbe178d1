package sim

import "math/bits"

// wheel holds, while the calendar is on and the far heap is large, the
// entries past the ring's reach and less than wheelBuckets of its buckets
// ahead: a timing wheel (G. Varghese and T. Lauck, "Hashed and
// hierarchical timing wheels", SOSP 1987) of buckets spanning
// 2^wheelShift ns, each an unsorted list. A push is a few steps whatever
// the number pending, where the far heap sifts through log n levels that
// no longer fit the caches: with 100 000 flows, 200 000 retransmission
// timers waited there, and sifting them cost 400 M instructions and 2.9 M
// cache misses in a 20 s run.
//
// Every entry in the wheel is due at or after at, the start of its first
// non-empty bucket; before running anything due at or after at, the
// Scheduler moves that bucket's entries into the ring, or past its reach
// into the far heap (cascade). The ring and the heap sort by (time,
// sequence), so the order is exactly theirs.
type wheel struct {
	heads []int32  // per bucket, a list of nodes; 0 if empty
	occ   []uint64 // bit i set iff bucket i is not empty
	pool           // the lists' nodes
	first uint64   // the absolute number of the first non-empty bucket
	at    Time     // its start; Never while the wheel is empty
	n     int
	// cascades counts the buckets moved out (for tests).
	cascades int
}

const (
	wheelShift   = 24      // 16.8 ms buckets
	wheelBuckets = 1 << 12 // 68.7 s
	// The wheel takes entries once the far heap holds wheelAbove: below,
	// the heap lives in the first-level cache and a push and a pop cost
	// less than the wheel's push, its move into the ring and the ring's
	// pop (C-big, 100 flows: +0.5% instructions with the wheel always on).
	wheelAbove = 1024
)

func newWheel() wheel { return wheel{at: Never} }

// push adds e and reports true if e is due less than wheelBuckets buckets
// after now's; if not, it reports false and leaves e to the caller.
func (w *wheel) push(now Time, e entry) bool {
	b := uint64(e.at) >> wheelShift
	if b-uint64(now)>>wheelShift >= wheelBuckets {
		return false
	}
	if w.heads == nil {
		w.heads = make([]int32, wheelBuckets)
		w.occ = make([]uint64, wheelBuckets/64)
		w.pool = newPool()
	}
	k := w.get()
	i := b & (wheelBuckets - 1)
	w.nodes[k] = node{e: e, next: w.heads[i]}
	w.heads[i] = k
	w.occ[i>>6] |= 1 << (i & 63)
	w.n++
	if w.n == 1 || b < w.first {
		w.first, w.at = b, Time(b<<wheelShift)
	}
	return true
}

// take removes the entries of the first bucket, appending them to dst
// newest first, and moves at to the next non-empty bucket.
func (w *wheel) take(dst []entry) []entry {
	i := w.first & (wheelBuckets - 1)
	for k := w.heads[i]; k != 0; {
		next := w.nodes[k].next
		dst = append(dst, w.nodes[k].e)
		w.nodes[k] = node{} // drop the timer pointer
		w.put(k)
		w.n--
		k = next
	}
	w.heads[i] = 0
	w.occ[i>>6] &^= 1 << (i & 63)
	w.cascades++
	if w.n == 0 {
		w.at = Never
		return dst
	}
	// The next non-empty bucket, scanning the bitmap round the ring from
	// i+1: every entry is less than a ring's length ahead of now, so the
	// first bit found is the earliest bucket.
	j := (i + 1) & (wheelBuckets - 1)
	word := w.occ[j>>6] >> (j & 63)
	for word == 0 {
		j = ((j | 63) + 1) & (wheelBuckets - 1)
		word = w.occ[j>>6]
	}
	j += uint64(bits.TrailingZeros64(word))
	w.first += (j - i) & (wheelBuckets - 1)
	w.at = Time(w.first << wheelShift)
	return dst
}

// drain removes every entry, appending them to dst in no particular order.
func (w *wheel) drain(dst []entry) []entry {
	for w.n > 0 {
		dst = w.take(dst)
	}
	return dst
}
