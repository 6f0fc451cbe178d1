package scenario

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// manetYAML is n nodes moving by random waypoint (0-20 m/s, 30 s pauses)
// in a field of the 50-node example's density, routed by AODV, with
// flows bulk TCP transfers between random pairs.
func manetYAML(n, flows int, secs int) string {
	rng := rand.New(rand.NewPCG(7, 7))
	var b strings.Builder
	w, h := 1500*float64(n)/50, 300.0
	if n > 50 {
		w, h = 3000*float64(n)/200, 600
	}
	fmt.Fprintf(&b, "name: manet\nduration: %ds\nseed: 1\nnodes: [{name: \"m{i}\", count: %d}]\n", secs, n)
	fmt.Fprintf(&b, "wireless:\n  mobility:\n    - {nodes: \"m{i}\", count: %d, model: random_waypoint, area: {width: %g, height: %g}, min_speed: 0, max_speed: 20, pause: 30s}\n", n, w, h)
	fmt.Fprintf(&b, "routing: aodv\nflows:\n")
	for k := range flows {
		a := 1 + rng.IntN(n)
		c := 1 + (a+rng.IntN(n-1))%n
		fmt.Fprintf(&b, "  - {name: tcp%d, src: m%d, dst: m%d, start: %.1fs, transport: {profile: ns3, variant: newreno, sack: true, mss: 1024, window: 32}}\n",
			k+1, a, c, 10+0.2*float64(k))
	}
	return b.String()
}

// 200 mobile nodes with AODV and 50 TCP flows (the routing issue's
// scale point: 300 simulated seconds in under a minute and 100 MB);
// TCPLAB_LONG=1 runs the 300 s, else 30 s. Time and memory are printed.
func TestTwoHundredMobileNodesWithAODV(t *testing.T) {
	secs := 30
	if os.Getenv("TCPLAB_LONG") != "" {
		secs = 300
	}
	s, err := Parse("manet.yaml", []byte(manetYAML(200, 50, secs)), nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	t0 := time.Now()
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	var delivered int64
	for _, f := range res.Flows {
		delivered += f.DeliveredBytes
	}
	if delivered == 0 || res.Routing == nil || res.Routing.Discoveries == 0 || res.Routing.LinkBreaks == 0 {
		t.Fatalf("delivered %d bytes, routing %+v: nothing moved", delivered, res.Routing)
	}
	t.Logf("200 nodes, AODV, 50 TCP flows, %d s simulated: %v, %d events, %.1f MB delivered, %d discoveries, %d link breaks, heap %.0f MB, from the system %.0f MB",
		secs, time.Since(t0).Round(time.Millisecond), res.Events, float64(delivered)/1e6, res.Routing.Discoveries, res.Routing.LinkBreaks,
		float64(m.HeapAlloc)/1e6, float64(m.Sys)/1e6)
}

// A node's own routing settings apply to it alone: on a three-node line
// without hellos, one node with hello: true sends them (one a second,
// RFC 3561 §6.9), and the others send none.
func TestANodesOwnRoutingSettingsApplyToItAlone(t *testing.T) {
	for _, c := range []struct {
		own  string
		want int64
	}{
		{"", 0},
		{", routing: {protocol: aodv, hello: true}", 10},
	} {
		yaml := fmt.Sprintf(`name: own
duration: 10s
nodes: [n1, {name: n2%s}, n3]
wireless: {line: {nodes: "n{i}", count: 3, spacing: 200m}}
routing: {protocol: aodv, hello: false}
`, c.own)
		sc, err := Parse("own.yaml", []byte(yaml), nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sc.Run()
		if err != nil {
			t.Fatal(err)
		}
		var hellos int64
		if h := res.Routing.Sent["hello"]; h != nil {
			hellos = h.Packets
		}
		if hellos < c.want-1 || hellos > c.want {
			t.Errorf("n2 with %q: %d hellos in 10 s, want %d", c.own, hellos, c.want)
		}
	}
}
