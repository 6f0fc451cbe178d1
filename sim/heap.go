package sim

import "cmp"

// queue is a binary min-heap of entries by (time, key): the Scheduler's
// near and far heaps.
type queue []entry

// entry is one arming of a timer: due at; seq is the timer's key when
// pushed (its creation number, then which arming), unique per entry.
type entry struct {
	at  Time
	seq uint64
	t   *Timer
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

// compare orders entries as less does, for sorting.
func compare(a, b entry) int {
	if a.at != b.at {
		return cmp.Compare(a.at, b.at)
	}
	return cmp.Compare(a.seq, b.seq)
}
