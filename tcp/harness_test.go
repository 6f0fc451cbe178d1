package tcp

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// bernoulli is a minimal error model for engine tests, kept here so the
// engine's tests do not depend on the network package's models.
type bernoulli struct {
	p float64
	r *rand.Rand
}

func (b *bernoulli) Drop(p *network.Packet, _ sim.Time) network.DropCause {
	if p.IsData() && b.r.Float64() < b.p {
		return network.ChannelError
	}
	return network.NotDropped
}

// dropSeqs drops chosen transmissions of data segments: the nth
// transmission (1-based) of the segment starting at seq.
type dropSeqs struct {
	want map[[2]int64]bool // {seq, transmission number}
	seen map[int64]int64
}

func (d *dropSeqs) Drop(p *network.Packet, _ sim.Time) network.DropCause {
	if p.Payload == 0 {
		return network.NotDropped
	}
	d.seen[p.Seq]++
	if d.want[[2]int64{p.Seq, d.seen[p.Seq]}] {
		return network.ChannelError
	}
	return network.NotDropped
}

// dumbbell builds scenario A of the anchors: S -100Mbps,6ms- R1 -2Mbps,50ms-
// R2 -9Mbps,1ms- D, DropTail 50 everywhere; the error model sits on R2->D.
func dumbbell(t testing.TB, seed uint64, cfg Config, em network.ErrorModel) (*network.Net, *Flow) {
	t.Helper()
	n := network.New(seed)
	s, r1, r2, d := n.AddNode("S"), n.AddNode("R1"), n.AddNode("R2"), n.AddNode("D")
	q := func() network.Queue { return network.NewDropTail(50, 0) }
	n.Connect("access", s, r1, network.LinkConfig{Bandwidth: 100e6, Delay: 6 * sim.Millisecond}, q)
	n.Connect("bottleneck", r1, r2, network.LinkConfig{Bandwidth: 2e6, Delay: 50 * sim.Millisecond}, q)
	ab, _ := n.Connect("lossy", r2, d, network.LinkConfig{Bandwidth: 9e6, Delay: sim.Millisecond}, q)
	ab.SetErrorModel(em)
	n.ComputeRoutes()
	f, err := NewFlow(n, 0, "f", cfg, s, d)
	if err != nil {
		t.Fatal(err)
	}
	f.Start(0)
	return n, f
}

func ns2Config(t testing.TB, variant string, mss, window int) Config {
	t.Helper()
	c, err := Profile("ns2")
	if err != nil {
		t.Fatal(err)
	}
	c.Variant, c.Segments.MSS, c.Segments.Window = variant, mss, window
	return c
}

func TestCleanPathDeliversLineRate(t *testing.T) {
	cfg := ns2Config(t, "newreno", 1024, 32)
	n, f := dumbbell(t, 1, cfg, nil)
	n.Run(200 * sim.Second)
	r := f.Result(n.Now())
	// ns-2 delivers 1919.8 kbit/s here (anchors table A, p=0).
	if r.GoodputBps < 1.90e6 || r.GoodputBps > 1.95e6 {
		t.Fatalf("goodput %.1f kbit/s, want about 1919.8", r.GoodputBps/1e3)
	}
	if r.Timeouts != 0 || r.RetransmittedPackets != 0 {
		t.Fatalf("clean path: %d timeouts, %d retransmissions", r.Timeouts, r.RetransmittedPackets)
	}
}

// dumbbellN builds scenario C of the anchors: nflows sources and sinks
// around a bottleneck of bw bit/s with loss p, flow i starting at
// i·stagger.
func dumbbellN(t testing.TB, seed uint64, nflows int, bw float64, p float64, mk func() Config, stagger sim.Time) (*network.Net, []*Flow) {
	n := network.New(seed)
	r1, r2 := n.AddNode("R1"), n.AddNode("R2")
	q := func() network.Queue { return network.NewDropTail(50, 0) }
	ab, _ := n.Connect("bn", r1, r2, network.LinkConfig{Bandwidth: bw, Delay: 50 * sim.Millisecond}, q)
	ab.SetErrorModel(&bernoulli{p: p, r: sim.Stream(seed, "loss")})
	var fl []*Flow
	var ss, ds []*network.Node
	for i := 0; i < nflows; i++ {
		s, d := n.AddNode(fmt.Sprint("S", i)), n.AddNode(fmt.Sprint("D", i))
		n.Connect(fmt.Sprint("a", i), s, r1, network.LinkConfig{Bandwidth: 100e6, Delay: sim.Millisecond}, q)
		n.Connect(fmt.Sprint("b", i), r2, d, network.LinkConfig{Bandwidth: 100e6, Delay: sim.Millisecond}, q)
		ss, ds = append(ss, s), append(ds, d)
	}
	n.ComputeRoutes()
	for i := 0; i < nflows; i++ {
		f, err := NewFlow(n, int32(i), fmt.Sprint("f", i), mk(), ss[i], ds[i])
		if err != nil {
			t.Fatal(err)
		}
		f.Start(sim.Time(i) * stagger)
		fl = append(fl, f)
	}
	return n, fl
}
