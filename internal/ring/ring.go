// Package ring is a growable FIFO ring buffer: the queues in front of
// links, the packets propagating on them and the sender's per-segment
// scoreboard are all windows that fill at the back and drain at the front.
//
// The capacity is a power of two so that wrapping an index is a mask, and
// the buffer only grows (doubling), so that a queue in steady state never
// allocates: the per-packet path stays allocation-free.
package ring

// Buffer holds values in FIFO order. The zero value is an empty buffer.
type Buffer[T any] struct {
	buf  []T
	head int
	n    int
}

// Len is the number of values held.
func (b *Buffer[T]) Len() int { return b.n }

// PushBack appends v at the back.
func (b *Buffer[T]) PushBack(v T) {
	if b.n == len(b.buf) {
		b.grow()
	}
	b.buf[(b.head+b.n)&(len(b.buf)-1)] = v
	b.n++
}

// PopFront removes and returns the front value; the buffer must not be
// empty. Its slot is cleared so that the buffer keeps no pointer alive.
func (b *Buffer[T]) PopFront() T {
	var zero T
	v := b.buf[b.head]
	b.buf[b.head] = zero
	b.head = (b.head + 1) & (len(b.buf) - 1)
	b.n--
	return v
}

// At returns a pointer to the i-th value from the front (0 is the front);
// i must be in [0, Len()). The pointer is valid until the next PushBack.
func (b *Buffer[T]) At(i int) *T { return &b.buf[(b.head+i)&(len(b.buf)-1)] }

func (b *Buffer[T]) grow() {
	nb := make([]T, max(16, 2*len(b.buf)))
	for i := range b.n {
		nb[i] = b.buf[(b.head+i)&(len(b.buf)-1)]
	}
	b.buf, b.head = nb, 0
}
