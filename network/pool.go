package network

// pool is a free list of packets. A simulation runs on one goroutine, so no
// locking is needed; sync.Pool would also lose determinism of IDs.
type pool struct {
	free  *Packet
	count int // packets ever allocated from the heap
}

func (q *pool) get() *Packet {
	p := q.free
	if p == nil {
		q.count++
		return new(Packet)
	}
	q.free = p.next
	*p = Packet{}
	return p
}

func (q *pool) put(p *Packet) {
	p.next = q.free
	q.free = p
}
