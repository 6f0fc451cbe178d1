package coding

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// tandem is the TCP-NC paper's Fig. 4a: a 4-hop chain of 1 Mbit/s, 100 ms
// links, each erasing data packets with probability p; one Reno flow of
// 1000-byte segments with a window of 50, coded with redundancy r (0: no
// coding). It returns the flow and the layer after secs seconds.
func tandem(t *testing.T, p, r float64, secs int, seed uint64) (*tcp.Flow, *Layer) {
	t.Helper()
	net := network.New(seed)
	var nodes []*network.Node
	for i := range 5 {
		nodes = append(nodes, net.AddNode(fmt.Sprintf("n%d", i)))
	}
	for i := range 4 {
		ab, _ := net.Connect(fmt.Sprintf("l%d", i), nodes[i], nodes[i+1], network.LinkConfig{Bandwidth: 1e6, Delay: 100 * sim.Millisecond},
			func() network.Queue { return network.NewDropTail(100, 0) })
		if p > 0 {
			ab.SetErrorModel(&network.Filter{Kind: network.DataOnly, Inner: network.NewBernoulli(p, net.Stream(fmt.Sprintf("loss%d", i)))})
		}
	}
	net.ComputeRoutes()
	cfg, err := tcp.Profile("ns2")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Variant, cfg.Segments.MSS, cfg.Segments.Window = "reno", 1000, 50
	f, err := tcp.NewFlow(net, 0, "nc", cfg, nodes[0], nodes[4])
	if err != nil {
		t.Fatal(err)
	}
	var l *Layer
	if r > 0 {
		if l, err = Attach(net, f, Config{Redundancy: r}); err != nil {
			t.Fatal(err)
		}
	}
	f.Start(0)
	net.Run(sim.Time(secs) * sim.Second)
	return f, l
}

// Through TCP, the coded transfer delivers every byte as sent, in order
// (the receiver's in-order delivery counts only consecutive bytes), and
// masks random erasures that cripple plain Reno: at 5% per hop (19% end to
// end) with R = 1.3, TCP-NC runs several times faster.
func TestCodedTCPDeliversExactBytesAndMasksLoss(t *testing.T) {
	const secs = 100
	plain, _ := tandem(t, 0.05, 0, secs, 1)
	coded, l := tandem(t, 0.05, 1.3, secs, 1)
	if l.Stats.Mismatched != 0 {
		t.Fatalf("%d packets delivered with the wrong bytes", l.Stats.Mismatched)
	}
	if l.Stats.Delivered == 0 || l.Stats.Innovative < l.Stats.Delivered {
		t.Fatalf("stats %+v", l.Stats)
	}
	now := sim.Time(secs) * sim.Second
	gp, gc := plain.Result(now).GoodputBps, coded.Result(now).GoodputBps
	if got := coded.Result(now).DeliveredBytes; got != l.Stats.Delivered*1000 {
		t.Errorf("TCP delivered %d bytes, the decoder %d packets", got, l.Stats.Delivered)
	}
	t.Logf("Reno %.0f kbit/s, TCP-NC (R 1.3) %.0f kbit/s; layer %+v", gp/1e3, gc/1e3, l.Stats)
	if gc < 3*gp {
		t.Errorf("TCP-NC %.0f kbit/s is not well above Reno's %.0f at 5%% loss per hop", gc/1e3, gp/1e3)
	}
}

// The decoding delay is at least the one-way trip (four 100 ms hops and a
// segment's transmission on each) and, without loss, close to it: every
// coded packet is innovative and decodes the packet it completes (a queue
// adds the rest as the window fills the 1 Mbit/s path).
func TestDecodeDelayIsAtLeastTheOneWayTrip(t *testing.T) {
	const oneWay = 0.4 + 4*1040*8/1e6
	for _, tc := range []struct {
		p, r, most float64
	}{{0, 1, 2 * oneWay}, {0.05, 1.3, 100}} {
		_, l := tandem(t, tc.p, tc.r, 50, 1)
		st := l.Stats
		if st.Delivered == 0 || st.DecodeDelayMean < oneWay-1e-6 || st.DecodeDelayMax < st.DecodeDelayMean || st.DecodeDelayMean > tc.most {
			t.Errorf("p %g R %g: decode delay mean %.3f s, max %.3f s over %d packets (one way %.3f s)",
				tc.p, tc.r, st.DecodeDelayMean, st.DecodeDelayMax, st.Delivered, oneWay)
		}
	}
}

// Once warm (the decoder's rows all made, the free lists filled), a coded
// flow without loss allocates nothing per packet: coded packets are
// reused, payloads regenerated in place, delivery calls no new closure.
// The count is process-wide, and on a loaded machine the runtime makes a
// few objects of its own (6 were seen once in CI): the run is measured in
// two windows and the quieter one judged; a per-packet allocation would
// show thousands in both.
func TestCodedSteadyStateDoesNotAllocate(t *testing.T) {
	_, l := tandem(t, 0, 1.25, 200, 1)
	least, packets := uint64(1<<63), uint64(0)
	for _, until := range []sim.Time{250 * sim.Second, 300 * sim.Second} {
		sent := l.Stats.CodedSent
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		l.net.Run(until)
		runtime.ReadMemStats(&b)
		n := uint64(l.Stats.CodedSent - sent)
		t.Logf("%d allocations, %d coded packets", b.Mallocs-a.Mallocs, n)
		least = min(least, b.Mallocs-a.Mallocs)
		packets += n
	}
	if packets < 5000 || least > 2 {
		t.Errorf("%d allocations in the quieter window while sending %d coded packets", least, packets)
	}
}
