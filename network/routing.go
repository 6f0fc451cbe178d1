package network

// ComputeRoutes makes every node's next-hop table stale, to be rebuilt on
// first use (call it once the topology is complete, or after changing it).
// A node's table holds shortest paths by link cost (Dijkstra; cost 1 per
// link unless set, i.e. hop count, as ns-2's static routing); a radio's
// neighbours count as links of cost 1, after the node's wired links. Ties
// go to the node reached first in link order, so routes never depend on
// map order. Building a table only for the nodes that send or forward
// keeps set-up proportional to the traffic, not to the square of the
// nodes (a 10 000-node star with one flow builds three tables).
func (n *Net) ComputeRoutes() {
	for _, nd := range n.Nodes {
		nd.route, nd.stubTo = nil, nil
	}
	n.routesFor = len(n.Nodes)
}

// routes builds src's next-hop table.
func (n *Net) routes(src *Node) []hop {
	const inf = int64(1) << 62
	nn := len(n.Nodes)
	if len(n.dist) < nn {
		n.dist = make([]int64, nn)
		n.done = make([]bool, nn)
	}
	dist, done := n.dist[:nn], n.done[:nn]
	for i := range dist {
		dist[i], done[i] = inf, false
	}
	first := make([]hop, nn) // first hop on the path from src
	dist[src.ID] = 0
	q := &n.queue
	q.reset()
	q.push(nodeItem{node: src.ID})
	for q.len() > 0 {
		it := q.pop()
		u := it.node
		if done[u] {
			continue
		}
		done[u] = true
		relax := func(v NodeID, c int64, h hop) {
			if d := dist[u] + c; d < dist[v] {
				dist[v] = d
				if u == src.ID {
					first[v] = h
				} else {
					first[v] = first[u]
				}
				q.push(nodeItem{node: v, dist: d})
			}
		}
		for _, l := range n.Nodes[u].out {
			c := l.Cost
			if c <= 0 {
				c = 1
			}
			relax(l.To.ID, c, hop{link: l})
		}
		if r := n.Nodes[u].radio; r != nil {
			for _, v := range r.Neighbours() {
				relax(v.ID, 1, hop{via: v})
			}
		}
	}
	return first
}

type nodeItem struct {
	node NodeID
	dist int64
	seq  int // insertion order, for deterministic ties
}

// nodeQueue is a binary min-heap of nodeItems by (dist, seq), typed so
// that pushing does not box each item.
type nodeQueue struct {
	items []nodeItem
	seq   int
}

func (q *nodeQueue) reset()   { q.items, q.seq = q.items[:0], 0 }
func (q *nodeQueue) len() int { return len(q.items) }

func (q *nodeQueue) less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	return a.dist < b.dist || a.dist == b.dist && a.seq < b.seq
}

func (q *nodeQueue) push(it nodeItem) {
	it.seq = q.seq
	q.seq++
	q.items = append(q.items, it)
	for i := len(q.items) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

func (q *nodeQueue) pop() nodeItem {
	top := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= last {
			break
		}
		if c+1 < last && q.less(c+1, c) {
			c++
		}
		if !q.less(c, i) {
			break
		}
		q.items[i], q.items[c] = q.items[c], q.items[i]
		i = c
	}
	return top
}

// Reachable reports whether b can be reached from a (after ComputeRoutes).
func (n *Net) Reachable(a, b *Node) bool { return a == b || a.NextNode(b.ID) != nil }
