package alltcp

import (
	"fmt"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// chain builds the paper's Fig. 4 network: H1 - R1 - R2 - R3 - R4 - H2, each
// link bw and 50 ms (the middle one midBw), DropTail 100 packets, loss
// probability p on every link both ways; the agent sits at R2.
type chain struct {
	net    *network.Net
	nodes  []*network.Node
	links  []*network.Link // forward directions, H1 side first
	flow   *tcp.Flow
	agents []*Agent
}

func newChain(t testing.TB, seed uint64, profile string, p, bw, midBw float64, packets int64, agentAt []int, cfg Config) *chain {
	t.Helper()
	c := &chain{net: network.New(seed)}
	for _, name := range []string{"H1", "R1", "R2", "R3", "R4", "H2"} {
		c.nodes = append(c.nodes, c.net.AddNode(name))
	}
	q := func() network.Queue { return network.NewDropTail(100, 0) }
	for i := 0; i+1 < len(c.nodes); i++ {
		b := bw
		if i == 2 {
			b = midBw
		}
		ab, ba := c.net.Connect(fmt.Sprintf("l%d", i), c.nodes[i], c.nodes[i+1],
			network.LinkConfig{Bandwidth: b, Delay: 50 * sim.Millisecond}, q)
		if p > 0 {
			ab.SetErrorModel(network.NewBernoulli(p, c.net.Stream("err/"+ab.Name)))
			ba.SetErrorModel(network.NewBernoulli(p, c.net.Stream("err/"+ba.Name)))
		}
		c.links = append(c.links, ab)
	}
	c.net.ComputeRoutes()
	tc, err := tcp.Profile(profile)
	if err != nil {
		t.Fatal(err)
	}
	f, err := tcp.NewFlow(c.net, 0, "f", tc, c.nodes[0], c.nodes[5])
	if err != nil {
		t.Fatal(err)
	}
	f.SetLimit(packets * int64(tc.Segments.MSS))
	f.Start(0)
	c.flow = f
	ids := NewIDs(1)
	for _, at := range agentAt {
		a, err := New(c.net, c.nodes[at], cfg.Defaults(), ids)
		if err != nil {
			t.Fatal(err)
		}
		a.Watch(f)
		c.agents = append(c.agents, a)
	}
	return c
}

// watch checks, at the destination, that every data byte it receives was
// sent by the source (the relay invents nothing) and, at the source, that
// no ACK covers a byte the first agent has not received.
type watch struct {
	c          *chain
	violations []string
}

func (w *watch) Intercept(at *network.Node, p *network.Packet, _ *network.Link) bool {
	f := w.c.flow
	switch {
	case at == w.c.nodes[5] && p.Payload > 0:
		if end := p.Seq + int64(p.Payload); end > f.Snapshot().High {
			w.violations = append(w.violations, fmt.Sprintf("%v: byte %d at the destination, the source sent to %d", w.c.net.Now(), end, f.Snapshot().High))
		}
	case at == w.c.nodes[0] && p.Payload == 0 && p.Ack > f.DataStart():
		if len(w.c.agents) > 0 {
			if cn := w.c.agents[0].conn(f.ID); cn.st == splitting && p.Ack > cn.seen {
				w.violations = append(w.violations, fmt.Sprintf("%v: ACK %d at the source, the agent holds to %d", w.c.net.Now(), p.Ack, cn.seen))
			}
		}
	}
	return false
}

// TestSplitDeliversEveryByteOnceInOrder is the invariant of a split
// connection: with losses on both segments, a buffer small enough to push
// back, and the agent switching between split and end to end every
// 1.5 s, the destination receives every byte of the transfer once, in
// order (its cumulative count reaches the size and the transfer
// completes), nothing it receives was not sent, and the agent's buffer
// stays within its bound.
func TestSplitDeliversEveryByteOnceInOrder(t *testing.T) {
	cases := []struct {
		name    string
		profile string
		p       float64
		midBw   float64
		buffer  int64
		flip    bool
	}{
		{"tahoe-no-loss", "ns2", 0, 4e6, 0, false},
		{"tahoe-loss-5%", "ns2", 0.05, 4e6, 0, false},
		{"tahoe-loss-5%-flipping", "ns2", 0.05, 4e6, 0, true},
		{"sack-loss-3%-backpressure", "linux", 0.03, 0.5e6, 8000, false},
		{"sack-loss-3%-backpressure-flipping", "linux", 0.03, 0.5e6, 8000, true},
		{"ns3-loss-2%-flipping", "ns3", 0.02, 1e6, 6000, true},
	}
	for _, tc := range cases {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("%s/seed%d", tc.name, seed), func(t *testing.T) {
				c := newChain(t, seed, tc.profile, tc.p, 4e6, tc.midBw, 600, []int{2}, Config{Mode: Split, Buffer: tc.buffer})
				w := &watch{c: c}
				c.nodes[0].Hook, c.nodes[5].Hook = w, w
				a := c.agents[0]
				var flips int
				if tc.flip {
					var tm sim.Timer
					tm.Init(c.net.Sched, func() {
						if a.cfg.Mode == Split {
							a.cfg.Mode = Observe
						} else {
							a.cfg.Mode = Split
						}
						if cn := a.conn(c.flow.ID); cn != nil && cn.long {
							cn.decide()
							flips++
						}
						tm.Arm(c.net.Now() + 1500*sim.Millisecond)
					})
					tm.Arm(1500 * sim.Millisecond)
				}
				size := 600 * int64(c.flow.Config().Segments.MSS)
				done := func() bool { return c.flow.Result(c.net.Now()).CompletionSeconds > 0 }
				for end := 50 * sim.Second; end <= 3000*sim.Second && !done(); end += 50 * sim.Second {
					c.net.Run(end)
				}
				if got := c.flow.Snapshot().Delivered; got != size {
					t.Fatalf("delivered %d bytes in order, want %d (splits %d, unsplits %d)", got, size, a.Stats.Splits, a.Stats.Unsplits)
				}
				if r := c.flow.Result(c.net.Now()); r.CompletionSeconds == 0 {
					t.Errorf("the source never saw its last byte acknowledged")
				}
				if len(w.violations) > 0 {
					t.Errorf("%d violations, first: %s", len(w.violations), w.violations[0])
				}
				if a.Stats.Splits == 0 || a.Stats.Relayed == 0 {
					t.Errorf("never split: %+v", a.Stats)
				}
				if tc.flip && a.Stats.Unsplits == 0 {
					t.Errorf("flipped %d times but never unsplit", flips)
				}
				bound := a.cfg.Buffer + 2*int64(c.flow.Config().Segments.MSS)
				if a.Stats.BufferMax > bound {
					t.Errorf("buffer reached %d bytes, bound %d", a.Stats.BufferMax, bound)
				}
				if tc.buffer > 0 && a.Stats.WindowUpdates == 0 {
					t.Errorf("a %d-byte buffer before a slow link never pushed back", tc.buffer)
				}
			})
		}
	}
}
