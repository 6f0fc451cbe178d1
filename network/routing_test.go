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
				n.Connect(fmt.Sprintf("l%d-%d", a, b), n.Nodes[a], n.Nodes[b], LinkConfig{Bandwidth: 1e6}, func() Queue { return &DropTail{} })
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
// that send or forward: set-up stays far under a second and a few MB.
func TestStarBuildsOnlyTheRoutesItUses(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	n := New(1)
	hub := n.AddNode("hub")
	for i := range 10000 {
		leaf := n.AddNode(fmt.Sprintf("leaf%d", i))
		n.Connect(fmt.Sprintf("l%d", i), hub, leaf, LinkConfig{Bandwidth: 1e6}, func() Queue { return &DropTail{LimitPackets: 10} })
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
	if built != 3 {
		t.Errorf("%d route tables built, want 3 (two leaves and the hub)", built)
	}
	t.Logf("10001-node star: set-up and three route tables in %v, %.0f MB allocated", took.Round(time.Millisecond), float64(after.TotalAlloc-before.TotalAlloc)/1e6)
	if took > 5*time.Second {
		t.Errorf("set-up took %v", took)
	}
}
