package network

import "container/heap"

// ComputeRoutes fills every node's next-hop table with shortest paths by
// link cost (Dijkstra; cost 1 per link unless set, i.e. hop count, as
// ns-2's static routing). Ties go to the node reached first in link order,
// so routes never depend on map order.
func (n *Net) ComputeRoutes() {
	const inf = int64(1) << 62
	nn := len(n.Nodes)
	dist := make([]int64, nn)
	done := make([]bool, nn)
	for _, src := range n.Nodes {
		first := make([]*Link, nn) // first link on the path from src
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
			for _, l := range n.Nodes[u].out {
				c := l.Cost
				if c <= 0 {
					c = 1
				}
				v := l.To.ID
				if d := dist[u] + c; d < dist[v] {
					dist[v] = d
					if u == src.ID {
						first[v] = l
					} else {
						first[v] = first[u]
					}
					heap.Push(q, nodeItem{node: v, dist: d, seq: q.seq})
					q.seq++
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
func (n *Net) Reachable(a, b *Node) bool { return a == b || a.NextHop(b.ID) != nil }
