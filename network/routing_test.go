package network

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// Following next hops from any node reaches any reachable destination by
// a shortest path (hop count), on random graphs.
func TestRoutesAreShortestPaths(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := New(seed)
		const size = 40
		for i := range size {
			n.AddNode(fmt.Sprintf("n%d", i))
		}
		for range 60 {
			a, b := rng.IntN(size), rng.IntN(size)
			if a != b {
				n.Connect(fmt.Sprintf("l%d-%d", a, b), n.Nodes[a], n.Nodes[b], LinkConfig{Bandwidth: 1e6}, func() Queue { return NewDropTail(0, 0) })
			}
		}
		n.ComputeRoutes()
		for _, src := range n.Nodes {
			// Breadth-first distances from src, independently.
			dist := make([]int, size)
			for i := range dist {
				dist[i] = -1
			}
			dist[src.ID] = 0
			for q := []*Node{src}; len(q) > 0; q = q[1:] {
				for _, l := range q[0].out {
					if dist[l.To.ID] < 0 {
						dist[l.To.ID] = dist[q[0].ID] + 1
						q = append(q, l.To)
					}
				}
			}
			for _, dst := range n.Nodes {
				hops, at := 0, src
				for at != dst && hops <= size {
					next := at.NextNode(dst.ID)
					if next == nil {
						break
					}
					at, hops = next, hops+1
				}
				switch {
				case dist[dst.ID] < 0 && n.Reachable(src, dst):
					t.Fatalf("seed %d: %s reaches unreachable %s", seed, src.Name, dst.Name)
				case dist[dst.ID] >= 0 && (at != dst || hops != dist[dst.ID]):
					t.Fatalf("seed %d: %s to %s in %d hops (ended at %s), shortest is %d", seed, src.Name, dst.Name, hops, at.Name, dist[dst.ID])
				}
			}
		}
	}
}

// A star of 10 001 nodes with one flow builds routes only for the nodes
// that forward with a choice: set-up stays far under a second and a few MB.
func TestStarBuildsOnlyTheRoutesItUses(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	n := New(1)
	hub := n.AddNode("hub")
	for i := range 10000 {
		leaf := n.AddNode(fmt.Sprintf("leaf%d", i))
		n.Connect(fmt.Sprintf("l%d", i), hub, leaf, LinkConfig{Bandwidth: 1e6}, func() Queue { return NewDropTail(10, 0) })
	}
	n.ComputeRoutes()
	a, b := n.Nodes[1], n.Nodes[10000]
	if !n.Reachable(a, b) || !n.Reachable(b, a) || hub.NextNode(b.ID) != b {
		t.Fatal("star routes wrong")
	}
	took := time.Since(t0)
	runtime.ReadMemStats(&after)
	built := 0
	for _, nd := range n.Nodes {
		if nd.route != nil {
			built++
		}
	}
	if built != 1 {
		t.Errorf("%d route tables built, want 1 (the hub's; leaves route by their only link)", built)
	}
	t.Logf("10001-node star: set-up and the hub's route table in %v, %.0f MB allocated", took.Round(time.Millisecond), float64(after.TotalAlloc-before.TotalAlloc)/1e6)
	if took > 5*time.Second {
		t.Errorf("set-up took %v", took)
	}
}

// A stub (one link, no radio) routes without a table; its next hop must be
// the one its own shortest-path table would give, for every destination,
// reachable or not, on random graphs with leaves, a pair on its own and
// an isolated node.
func TestStubRoutesMatchTheirTables(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		n := New(seed)
		q := func() Queue { return NewDropTail(10, 0) }
		core := 3 + r.IntN(8)
		for i := range core {
			n.AddNode(fmt.Sprintf("c%d", i))
		}
		for i := 1; i < core; i++ { // a random tree, then a few extra links
			n.Connect(fmt.Sprintf("t%d", i), n.Nodes[i], n.Nodes[r.IntN(i)], LinkConfig{Bandwidth: 1e6, Cost: int64(1 + r.IntN(3))}, q)
		}
		for i := range r.IntN(4) {
			a, b := n.Nodes[r.IntN(core)], n.Nodes[r.IntN(core)]
			if a != b {
				n.Connect(fmt.Sprintf("x%d", i), a, b, LinkConfig{Bandwidth: 1e6}, q)
			}
		}
		for i := range 5 + r.IntN(10) { // leaves
			leaf := n.AddNode(fmt.Sprintf("leaf%d", i))
			n.Connect(fmt.Sprintf("lf%d", i), leaf, n.Nodes[r.IntN(core)], LinkConfig{Bandwidth: 1e6}, q)
		}
		p1, p2 := n.AddNode("p1"), n.AddNode("p2")
		n.Connect("pair", p1, p2, LinkConfig{Bandwidth: 1e6}, q)
		n.AddNode("alone")
		n.ComputeRoutes()
		stubs := 0
		for _, nd := range n.Nodes {
			if !nd.stub() {
				continue
			}
			stubs++
			table := n.routes(nd)
			for _, dst := range n.Nodes {
				if got, want := nd.stubHop(dst.ID), table[dst.ID]; got != want {
					t.Fatalf("seed %d: %s to %s: stub hop %+v, table %+v", seed, nd.Name, dst.Name, got, want)
				}
			}
		}
		if stubs < 7 {
			t.Fatalf("seed %d: only %d stubs", seed, stubs)
		}
	}
}
