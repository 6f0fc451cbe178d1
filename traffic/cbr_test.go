package traffic

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// dumbbell is src ─(100 Mb/s, 1 ms)─ router ─(bottleneck, 10 ms)─ dst
// with drop-tail queues of 50 packets.
func dumbbell(bottleneck float64) (n *network.Net, src, dst *network.Node, bl *network.Link) {
	n = network.New(1)
	src, r, dst := n.AddNode("src"), n.AddNode("r"), n.AddNode("dst")
	dt := func() network.Queue { return network.NewDropTail(50, 0) }
	n.Connect("access", src, r, network.LinkConfig{Bandwidth: 100e6, Delay: sim.Millisecond}, dt)
	bl, _ = n.Connect("bottleneck", r, dst, network.LinkConfig{Bandwidth: bottleneck, Delay: 10 * sim.Millisecond}, dt)
	n.ComputeRoutes()
	return n, src, dst, bl
}

// Acceptance: a CBR flow over a bottleneck delivers min(rate, bandwidth)
// within 1%, and loses packets (to queue overflow) only when it offers
// more than the bottleneck carries.
func TestCBRDeliversMinOfRateAndBottleneck(t *testing.T) {
	const bw, size = 10e6, 1000
	const start, stop = sim.Second, 11 * sim.Second
	cases := []struct {
		name string
		rate float64
	}{
		{"10% load", 1e6},
		{"50% load", 5e6},
		{"99% load", 9.9e6},
		{"110% load", 11e6},
		{"200% load", 20e6},
		{"1000% load", 100e6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, src, dst, bl := dumbbell(bw)
			f := NewCBR(n, 7, src, dst, c.rate, size)
			f.Start(start)
			f.StopAt(stop)
			n.Run(stop + sim.Second) // let the queue drain
			res := f.Result(n.Now())

			payload := float64(size-UDPHeader) / size
			wantWire := math.Min(c.rate, bw)
			wire := float64(f.Sink.WireBytes) * 8 / (stop - start).Seconds()
			overflow := f.Dropped(network.QueueOverflow)
			t.Logf("rate %.1f Mb/s: delivered %.4f Mb/s on the wire, goodput %.4f Mb/s, sent %d, overflow drops %d",
				c.rate/1e6, wire/1e6, res.GoodputBps/1e6, res.SentPackets, overflow)

			if math.Abs(wire/wantWire-1) > 0.01 {
				t.Errorf("delivered %v b/s on the wire, want %v within 1%%", wire, wantWire)
			}
			if math.Abs(res.GoodputBps/(wantWire*payload)-1) > 0.01 {
				t.Errorf("goodput %v, want %v within 1%%", res.GoodputBps, wantWire*payload)
			}
			if math.Abs(res.ThroughputBps/c.rate-1) > 0.001 {
				t.Errorf("throughput (sent) %v, want the offered %v", res.ThroughputBps, c.rate)
			}
			if overloaded := c.rate > bw; (overflow > 0) != overloaded {
				t.Errorf("%d overflow drops at %v load", overflow, c.rate/bw)
			}
			// Every packet sent is either delivered or dropped, and the
			// flow's drop counts match the bottleneck's.
			if res.SentPackets != f.Sink.Packets+overflow {
				t.Errorf("sent %d ≠ delivered %d + dropped %d", res.SentPackets, f.Sink.Packets, overflow)
			}
			if overflow != bl.Stats.Drops[network.QueueOverflow] || res.Dropped["queue_overflow"] != overflow {
				t.Errorf("flow counts %d overflows (result %v), bottleneck %d",
					overflow, res.Dropped, bl.Stats.Drops[network.QueueOverflow])
			}
			if res.Transport != "udp" || res.Src != "src" || res.Dst != "dst" ||
				res.StartSeconds != 1 || res.StopSeconds != 11 {
				t.Errorf("result %+v", res)
			}
		})
	}
}

func TestCBRSendsOnScheduleWithinStartStop(t *testing.T) {
	// 1000 B at 1 Mb/s: one packet every 8 ms. [0.5 s, 0.9 s) holds 50
	// send times (0.5 s + k·8 ms, k = 0..49); each arrives 0.08 ms + 1 ms
	// (access) + 0.8 ms + 10 ms (bottleneck) after its send.
	n, src, dst, _ := dumbbell(10e6)
	f := NewCBR(n, 1, src, dst, 1e6, 1000)
	f.Start(500 * sim.Millisecond)
	f.StopAt(900 * sim.Millisecond)
	n.Run(2 * sim.Second)
	if f.SentPackets() != 50 || f.Sink.Packets != 50 {
		t.Fatalf("sent %d, received %d; want 50", f.SentPackets(), f.Sink.Packets)
	}
	first := 500*sim.Millisecond + 80*sim.Microsecond + sim.Millisecond + 800*sim.Microsecond + 10*sim.Millisecond
	last := first + 49*8*sim.Millisecond
	if f.Sink.First != first || f.Sink.Last != last {
		t.Errorf("arrivals %v..%v, want %v..%v", f.Sink.First, f.Sink.Last, first, last)
	}
	if f.Sink.Bytes != 50*(1000-UDPHeader) {
		t.Errorf("payload bytes %d", f.Sink.Bytes)
	}
}

// Drops of other flows are not counted against this one.
func TestCBRCountsOnlyItsOwnDrops(t *testing.T) {
	n, src, dst, _ := dumbbell(1e6)
	a := NewCBR(n, 1, src, dst, 2e6, 1000)
	b := NewCBR(n, 2, src, dst, 0.1e6, 1000)
	a.Start(0)
	b.Start(0)
	a.StopAt(sim.Second)
	b.StopAt(sim.Second)
	n.Run(3 * sim.Second)
	total := n.Drops[network.QueueOverflow]
	da, db := a.Dropped(network.QueueOverflow), b.Dropped(network.QueueOverflow)
	if da+db != total || da == 0 {
		t.Fatalf("flow drops %d + %d, network %d", da, db, total)
	}
	if a.SentPackets() != a.Sink.Packets+da || b.SentPackets() != b.Sink.Packets+db {
		t.Fatalf("conservation: a %d/%d/%d, b %d/%d/%d",
			a.SentPackets(), a.Sink.Packets, da, b.SentPackets(), b.Sink.Packets, db)
	}
}

// BenchmarkCBRBottleneck is packets/s of a CBR flow at 2× a bottleneck's
// rate through a 2-hop path (half dropped at the queue).
func BenchmarkCBRBottleneck(b *testing.B) {
	n, src, dst, _ := dumbbell(10e6)
	f := NewCBR(n, 1, src, dst, 20e6, 1000)
	f.Start(0)
	n.Run(sim.Second) // warm up: pool, queues and pipes at size
	b.ReportAllocs()
	b.ResetTimer()
	sent0 := f.SentPackets()
	// 2500 packets sent per simulated second at 20 Mb/s.
	n.Run(n.Now() + sim.Time(float64(b.N)/2500*float64(sim.Second)))
	b.ReportMetric(float64(f.SentPackets()-sent0)/b.Elapsed().Seconds(), "pkts/s")
}

// TestOnOffSendsItsDutyCycle checks a Pareto on/off source against its
// definition: over a long run it sends rate · on/(on+off) on average.
func TestOnOffSendsItsDutyCycle(t *testing.T) {
	for _, tc := range []struct {
		on, off sim.Time
		shape   float64
	}{{sim.Second, sim.Second, 1.4}, {500 * sim.Millisecond, 1500 * sim.Millisecond, 1.9}} {
		net := network.New(1)
		a, b := net.AddNode("a"), net.AddNode("b")
		net.Connect("l", a, b, network.LinkConfig{Bandwidth: 100e6, Delay: sim.Millisecond}, func() network.Queue { return network.NewDropTail(1000, 0) })
		net.ComputeRoutes()
		c := NewCBR(net, 0, a, b, 1e6, 1000)
		if err := c.SetOnOff(tc.on, tc.off, tc.shape, net.Stream("onoff")); err != nil {
			t.Fatal(err)
		}
		c.Start(0)
		const secs = 20000
		net.Run(secs * sim.Second)
		got := float64(c.sentByte) * 8 / secs
		want := 1e6 * float64(tc.on) / float64(tc.on+tc.off)
		// Heavy tails converge slowly: 10% over 20 000 s.
		if math.Abs(got/want-1) > 0.1 {
			t.Errorf("on %v off %v shape %g: %.0f bit/s, want %.0f", tc.on, tc.off, tc.shape, got, want)
		}
	}
}
