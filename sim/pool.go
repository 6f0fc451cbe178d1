package sim

// node is an entry in one of the lists of the calendar's ring or the wheel.
type node struct {
	e    entry
	next int32
	// last, in the ring, is a node at or after this one in its bucket;
	// for the bucket's first node, mostly its last: a new entry (the
	// highest sequence number so far) due no earlier than the bucket's
	// last goes after it without walking the bucket. Without it,
	// thousands of timers due at one instant (the flows of a scenario
	// starting together, their first transmissions) walked a bucket
	// each, quadratic in their number. A node leaves a bucket only from
	// its front, so the nodes after it, which last may name, are still
	// there. The field fills the node's padding.
	last int32
}

// pool holds the list nodes of the calendar or the wheel, by index: node 0
// is never used, so that 0 means none, and spent nodes are kept for reuse,
// so that a push allocates nothing once the pool has grown.
type pool struct {
	nodes []node
	free  int32 // a spent node to reuse, 0 if none
}

func newPool() pool { return pool{nodes: make([]node, 1, 256)} }

// get returns a node to fill.
func (p *pool) get() int32 {
	if k := p.free; k != 0 {
		p.free = p.nodes[k].next
		return k
	}
	p.nodes = append(p.nodes, node{})
	return int32(len(p.nodes) - 1)
}

// put keeps node k for reuse; its entry is left as it is.
func (p *pool) put(k int32) {
	p.nodes[k].next = p.free
	p.free = k
}

// reset drops every node.
func (p *pool) reset() {
	clear(p.nodes)
	p.nodes = p.nodes[:1]
	p.free = 0
}
