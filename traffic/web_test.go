package traffic

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// Object sizes are Pareto with the configured mean (a shape with finite
// variance, so that 2·10^5 draws pin the mean within 2%).
func TestWebObjectSizesHaveTheirMean(t *testing.T) {
	for _, shape := range []float64{2.5, 4} {
		w := &Web{cfg: WebConfig{ObjectSize: 10000, Shape: shape}, rand: rand.New(rand.NewPCG(1, 2))}
		var sum float64
		const n = 200000
		for range n {
			sum += float64(w.object())
		}
		if m := sum / n; math.Abs(m/10000-1) > 0.02 {
			t.Errorf("shape %g: mean object %.0f bytes, want 10000 ± 2%%", shape, m)
		}
	}
}

// A session alternates pages and think times: with 1 s thinks and pages
// of a few hundred ms over a 50 ms path, a minute holds 30-80 pages, each
// at least one RTT per object long, and every byte offered is delivered.
func TestWebSessionAlternatesPagesAndThinking(t *testing.T) {
	net := network.New(1)
	a, b := net.AddNode("S"), net.AddNode("C")
	q := func() network.Queue { return network.NewDropTail(1000, 0) }
	net.Connect("l", a, b, network.LinkConfig{Bandwidth: 10e6, Delay: 25 * sim.Millisecond}, q)
	net.ComputeRoutes()
	cfg, err := tcp.Profile("linux")
	if err != nil {
		t.Fatal(err)
	}
	f, err := tcp.NewFlow(net, 0, "w", cfg, a, b)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWeb(net, f, WebConfig{Objects: 3, ObjectSize: 8000, Shape: 2.5, Think: sim.Second}, net.Stream("web"))
	f.Start(0)
	net.Run(60 * sim.Second)
	pages, mean := w.Pages()
	if pages < 30 || pages > 80 {
		t.Fatalf("%d pages in 60 s", pages)
	}
	if mean < 3*50*sim.Millisecond {
		t.Fatalf("mean page time %v, shorter than three round trips", mean)
	}
	if r := f.Result(net.Now()); r.DeliveredBytes == 0 || r.CompletionSeconds != 0 {
		t.Fatalf("delivered %d, completion %v: a session never completes", r.DeliveredBytes, r.CompletionSeconds)
	}
}
