package wireless

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// randomField places n radios uniformly in a square side metres wide and
// starts flows bulk TCP transfers between random pairs that have a path.
func randomField(tb testing.TB, n, flows int, side float64, seed uint64) (*network.Net, *Channel) {
	net := network.New(seed)
	ch, err := NewChannel(net, DefaultConfig())
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	nodes := make([]*network.Node, n)
	for i := range nodes {
		nodes[i] = net.AddNode(fmt.Sprintf("w%d", i))
		ch.Attach(nodes[i], rng.Float64()*side, rng.Float64()*side)
	}
	if err := ch.Build(); err != nil {
		tb.Fatal(err)
	}
	net.ComputeRoutes()
	cfg, _ := tcp.Profile("ns3")
	for made := 0; made < flows; {
		a, b := nodes[rng.IntN(n)], nodes[rng.IntN(n)]
		if a == b || !net.Reachable(a, b) {
			continue
		}
		f, err := tcp.NewFlow(net, int32(made), fmt.Sprintf("f%d", made), cfg, a, b)
		if err != nil {
			tb.Fatal(err)
		}
		f.Start(sim.Time(made) * 10 * sim.Millisecond)
		made++
	}
	return net, ch
}

// A 1000-node random field (5 km square, about 8 neighbours each) with 50
// TCP flows: the interference lists come from a spatial grid, so set-up
// stays linear in the nodes; run time and memory are printed
// (TCPLAB_LONG=1 runs 60 simulated seconds, else 5).
func TestThousandNodeField(t *testing.T) {
	secs := 5
	if os.Getenv("TCPLAB_LONG") != "" {
		secs = 60
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	net, ch := randomField(t, 1000, 50, 5000, 1)
	setup := time.Since(t0)
	net.Run(sim.Time(secs) * sim.Second)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	var frames int64
	for _, r := range ch.Radios() {
		frames += r.Stats.DataFrames
	}
	if frames == 0 {
		t.Fatal("no frames sent")
	}
	t.Logf("1000 nodes, 50 flows, %d s simulated: set-up %v, run %v, %d events, %d data frames, heap %.0f MB (total allocated %.0f MB)",
		secs, setup.Round(time.Millisecond), time.Since(t0).Round(time.Millisecond), net.Sched.Events(), frames,
		float64(after.HeapAlloc)/1e6, float64(after.TotalAlloc-before.TotalAlloc)/1e6)
}
