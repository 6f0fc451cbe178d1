package network

// ComputeRoutes fills every node's next-hop table with shortest paths by
// link cost (Dijkstra; cost 1 per link unless set, i.e. hop count, as
// ns-2's static routing). Ties go to the lower node ID, then the link
// added first, so routes never depend on map order.
func (n *Net) ComputeRoutes() {
	const inf = int64(1) << 62
	nn := len(n.Nodes)
	for _, src := range n.Nodes {
		dist := make([]int64, nn)
		first := make([]*Link, nn) // first link on the path from src
		done := make([]bool, nn)
		for i := range dist {
			dist[i] = inf
		}
		dist[src.ID] = 0
		for {
			u := -1
			for i := 0; i < nn; i++ {
				if !done[i] && dist[i] < inf && (u < 0 || dist[i] < dist[u]) {
					u = i
				}
			}
			if u < 0 {
				break
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
					if u == int(src.ID) {
						first[v] = l
					} else {
						first[v] = first[u]
					}
				}
			}
		}
		src.route = first
	}
}

// Reachable reports whether b can be reached from a (after ComputeRoutes).
func (n *Net) Reachable(a, b *Node) bool { return a == b || a.NextHop(b.ID) != nil }
