package network

import (
	"fmt"
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// Endpoint receives packets addressed to a port. A delivered packet belongs
// to the endpoint, which must hand it back with Net.Free when done.
type Endpoint interface {
	Receive(p *Packet)
}

// DropFunc observes a drop: the packet (still intact), its cause and the
// link it was lost on (nil if lost at a node).
type DropFunc func(p *Packet, cause DropCause, on *Link)

// Net is one simulated network: its scheduler, nodes, links and endpoints.
type Net struct {
	Sched *sim.Scheduler
	Seed  uint64
	Nodes []*Node
	Links []*Link

	endpoints []Endpoint
	pool      pool
	nextID    uint64
	dropFns   []DropFunc
	flowDrop  []DropFunc // by flow index; nil entries are skipped
	// Drops counts drops by cause over the whole network.
	Drops [NumDropCauses]int64

	// Route building (routing.go): scratch reused across sources.
	routesFor int // nodes when ComputeRoutes ran; 0: never
	dist      []int64
	done      []bool
	queue     nodeQueue

	shared  map[any]any // Shared
	routers []Router    // by NodeID; nil (or a nil entry): static routes
}

// New makes an empty network whose random streams derive from seed.
func New(seed uint64) *Net {
	return &Net{Sched: sim.NewScheduler(), Seed: seed}
}

// Now is the current simulated time.
func (n *Net) Now() sim.Time { return n.Sched.Now() }

// Stream is the random stream of the named component.
func (n *Net) Stream(name string) *rand.Rand { return sim.Stream(n.Seed, name) }

// Shared returns what the layers above keep in the network under key,
// made by mk on first use: state that objects of one run share, such as
// the TCP configurations its flows have in common.
func (n *Net) Shared(key any, mk func() any) any {
	v, ok := n.shared[key]
	if !ok {
		if n.shared == nil {
			n.shared = map[any]any{}
		}
		v = mk()
		n.shared[key] = v
	}
	return v
}

// Alloc takes a zeroed packet from the pool and gives it a fresh ID.
func (n *Net) Alloc() *Packet {
	p := n.pool.get()
	n.nextID++
	p.ID = n.nextID
	p.SentAt = n.Sched.Now()
	return p
}

// Free returns a packet to the pool.
func (n *Net) Free(p *Packet) { n.pool.put(p) }

// PacketsAllocated is how many packets the pool ever took from the heap:
// in steady state it stops growing.
func (n *Net) PacketsAllocated() int { return n.pool.count }

// OnDrop registers an observer of every drop.
func (n *Net) OnDrop(f DropFunc) { n.dropFns = append(n.dropFns, f) }

// OnFlowDrop registers an observer of the drops of one flow's packets.
// Per-flow dispatch keeps the cost of a drop independent of the number of
// flows.
func (n *Net) OnFlowDrop(flow int32, f DropFunc) {
	for int(flow) >= len(n.flowDrop) {
		n.flowDrop = append(n.flowDrop, nil)
	}
	n.flowDrop[flow] = f
}

// Drop records the loss of p with its cause and frees it.
func (n *Net) Drop(p *Packet, cause DropCause, on *Link) {
	p.Cause = cause
	n.Drops[cause]++
	if on != nil {
		on.Stats.Drops[cause]++
	}
	for _, f := range n.dropFns {
		f(p, cause, on)
	}
	if i := int(p.Flow); i >= 0 && i < len(n.flowDrop) && n.flowDrop[i] != nil {
		n.flowDrop[i](p, cause, on)
	}
	n.Free(p)
}

// AddNode adds a node with a unique name.
func (n *Net) AddNode(name string) *Node {
	nd := &Node{ID: NodeID(len(n.Nodes)), Name: name, net: n}
	n.Nodes = append(n.Nodes, nd)
	return nd
}

// Node returns the node with the given name, or nil.
func (n *Net) Node(name string) *Node {
	for _, nd := range n.Nodes {
		if nd.Name == name {
			return nd
		}
	}
	return nil
}

// Bind registers an endpoint and returns its port number.
func (n *Net) Bind(e Endpoint) int32 {
	n.endpoints = append(n.endpoints, e)
	return int32(len(n.endpoints) - 1)
}

// Run runs the simulation until time end.
func (n *Net) Run(end sim.Time) {
	n.Sched.Stop(end)
	n.Sched.Run()
}

// Connect adds a full-duplex link between a and b; both directions get the
// same configuration and their own queue (from newQueue).
func (n *Net) Connect(name string, a, b *Node, cfg LinkConfig, newQueue func() Queue) (ab, ba *Link) {
	ab = n.addLink(name+"/"+a.Name+">"+b.Name, a, b, cfg, newQueue())
	ba = n.addLink(name+"/"+b.Name+">"+a.Name, b, a, cfg, newQueue())
	ab.Reverse, ba.Reverse = ba, ab
	return ab, ba
}

func (n *Net) addLink(name string, from, to *Node, cfg LinkConfig, q Queue) *Link {
	if cfg.Bandwidth <= 0 {
		panic(fmt.Sprintf("network: link %s: bandwidth %v", name, cfg.Bandwidth))
	}
	l := &Link{Name: name, From: from, To: to, LinkConfig: cfg, net: n}
	l.SetQueue(q)
	// A function literal, not the method value l.onArrive: profile-guided
	// optimisation inlines onArrive into it (one call less per event),
	// which it does not do into a method value's generated wrapper.
	l.arrive.Init(n.Sched, func() { l.onArrive() })
	from.out = append(from.out, l)
	from.stubTo = nil // it may no longer be a stub
	n.Links = append(n.Links, l)
	return l
}
