package network

import "container/heap"

// ComputeRoutes fills every node's next-hop table with shortest paths by
// link cost (Dijkstra; cost 1 per link unless set, i.e. hop count, as
// ns-2's static routing). A radio's neighbours count as links of cost 1,
// after the node's wired links. Ties go to the node reached first in link
// order, so routes never depend on map order.
func (n *Net) ComputeRoutes() {
	const inf = int64(1) << 62
	nn := len(n.Nodes)
	dist := make([]int64, nn)
	done := make([]bool, nn)
	for _, src := range n.Nodes {
		first := make([]hop, nn) // first hop on the path from src
		for i := range dist {
			dist[i], done[i] = inf, false
		}
		dist[src.ID] = 0
		q := &nodeQueue{items: []nodeItem{{node: src.ID}}}
		for q.Len() > 0 {
			it := heap.Pop(q).(nodeItem)
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
					heap.Push(q, nodeItem{node: v, dist: d, seq: q.seq})
					q.seq++
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
		src.route = first
	}
}

type nodeItem struct {
	node NodeID
	dist int64
	seq  int // insertion order, for deterministic ties
}

type nodeQueue struct {
	items []nodeItem
	seq   int
}

func (q *nodeQueue) Len() int { return len(q.items) }
func (q *nodeQueue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	return a.dist < b.dist || a.dist == b.dist && a.seq < b.seq
}
func (q *nodeQueue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *nodeQueue) Push(x any)    { q.items = append(q.items, x.(nodeItem)) }
func (q *nodeQueue) Pop() any {
	it := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return it
}

// Reachable reports whether b can be reached from a (after ComputeRoutes).
func (n *Net) Reachable(a, b *Node) bool { return a == b || a.NextNode(b.ID) != nil }
