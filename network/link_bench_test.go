package network

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// chainSource feeds a 3-hop chain n0→n1→n2→n3 with 1000-byte packets at
// the links' line rate, using an embedded timer so that sending does not
// allocate; sink counts and frees what arrives.
type chainSource struct {
	net       *Net
	src, dst  *Node
	port      int32
	tick      sim.Timer
	gap       sim.Time
	sent, got int64
}

func (c *chainSource) send() {
	p := c.net.Alloc()
	p.Src, p.Dst, p.Port = c.src.ID, c.dst.ID, c.port
	p.Size, p.Payload = 1000, 960
	c.src.Send(p)
	c.sent++
	c.tick.ArmAfter(c.gap)
}

func (c *chainSource) Receive(p *Packet) {
	c.got++
	c.net.Free(p)
}

// newChain builds the chain with the given queues; setup, if not nil,
// equips each forward link (error model, delay process).
func newChain(queue func(*Net) Queue, setup func(*Link, *Net)) *chainSource {
	const bw = 100e6
	n := New(1)
	nodes := []*Node{n.AddNode("n0"), n.AddNode("n1"), n.AddNode("n2"), n.AddNode("n3")}
	for i := range 3 {
		ab, _ := n.Connect(fmt.Sprint("hop", i), nodes[i], nodes[i+1], LinkConfig{Bandwidth: bw, Delay: sim.Millisecond},
			func() Queue { return queue(n) })
		if setup != nil {
			setup(ab, n)
		}
	}
	n.ComputeRoutes()
	c := &chainSource{net: n, src: nodes[0], dst: nodes[3], gap: sim.TxTime(1000, bw)}
	c.port = n.Bind(c)
	c.tick.Init(n.Sched, c.send)
	c.tick.Arm(0)
	return c
}

// BenchmarkChain3Hops is packets/s through three links, each a DropTail
// queue, a transmitter and a 1 ms pipe, with Bernoulli(1%) loss on each.
// One op is one packet sent (about six events); allocs/op must be 0.
func BenchmarkChain3Hops(b *testing.B) {
	cases := []struct {
		name  string
		setup func(*Link, *Net)
	}{
		{"droptail", nil},
		{"droptail+bernoulli1%", func(l *Link, n *Net) { l.SetErrorModel(NewBernoulli(0.01, n.Stream("errors/"+l.Name))) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			ch := newChain(func(*Net) Queue { return NewDropTail(100, 0) }, c.setup)
			ch.net.Run(100 * sim.Millisecond) // warm up pool, rings and heap
			sent0 := ch.sent
			b.ReportAllocs()
			b.ResetTimer()
			for ch.sent-sent0 < int64(b.N) {
				ch.net.Sched.Stop(ch.net.Now() + 10*sim.Millisecond)
				ch.net.Sched.Run()
			}
			b.ReportMetric(float64(ch.sent-sent0)/b.Elapsed().Seconds(), "pkts/s")
		})
	}
}

// The per-packet path of every queue, error model and delay process must
// not allocate once warmed up (DESIGN: "The hot path does not allocate").
func TestPerPacketPathDoesNotAllocate(t *testing.T) {
	type queueCase struct {
		name string
		q    func(*Net) Queue
	}
	queues := []queueCase{
		{"droptail", func(*Net) Queue { return NewDropTail(100, 0) }},
		{"red", func(n *Net) Queue {
			return NewRED(REDConfig{MinTh: 5, MaxTh: 15, MaxP: 0.1, Wq: 0.002, Gentle: true, ECN: true, Limit: 100, Bandwidth: 100e6}, n.Stream("q"))
		}},
		{"marker", func(*Net) Queue { return NewMarker(100, 0.9, 0) }},
	}
	// Every other registered discipline with its defaults (CoDel, PIE and
	// those added later).
	for _, name := range Queues.Names() {
		if slices.ContainsFunc(queues, func(q queueCase) bool { return q.name == name }) {
			continue
		}
		queues = append(queues, queueCase{name, func(n *Net) Queue {
			p, _ := Queues.New(name)
			return p.NewQueue(n, "q", 100e6)
		}})
	}
	setups := []struct {
		name  string
		setup func(*Link, *Net)
	}{
		{"plain", nil},
		{"errors+delay", func(l *Link, n *Net) {
			r := n.Stream("e/" + l.Name)
			l.SetErrorModel(Chain{
				NewBernoulli(0.01, r), NewBitError(1e-6, r), NewOnOff(sim.Second, 10*sim.Millisecond, r),
				&Filter{Kind: DataOnly, Inner: NewDropList(5, 50)}, NewTargeted(0.5, true, r),
			})
			l.SetDelayProcess(NewTwoState(sim.Millisecond, 3*sim.Millisecond, 20*sim.Millisecond, 20*sim.Millisecond, r))
		}},
	}
	for _, q := range queues {
		for _, s := range setups {
			t.Run(q.name+"/"+s.name, func(t *testing.T) {
				ch := newChain(q.q, s.setup)
				ch.net.Run(200 * sim.Millisecond)
				allocs := testing.AllocsPerRun(20, func() {
					ch.net.Sched.Stop(ch.net.Now() + 10*sim.Millisecond)
					ch.net.Sched.Run()
				})
				if allocs != 0 || ch.got == 0 {
					t.Fatalf("%v allocations per 10 ms (%d packets delivered)", allocs, ch.got)
				}
			})
		}
	}
}
