package routing

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// AODVParams are AODV's parameters (RFC 3561 §10) with ns-3.37's
// defaults, where ns-3 differs from the RFC noted at the field.
type AODVParams struct {
	// Hello enables hello messages (RFC 3561 §6.9; on in ns-3.37): every
	// node broadcasts one each HelloInterval unless it sent a route
	// request in it, and a neighbour not heard for AllowedHelloLoss
	// intervals is a broken link.
	Hello            bool     `yaml:"hello"`
	HelloInterval    sim.Time `yaml:"hello_interval"`
	AllowedHelloLoss int      `yaml:"allowed_hello_loss"`
	// LinkFeedback: the MAC's retry-limit failure breaks the link to the
	// next hop at once (RFC 3561 §6.11). ns-3.37 does so only when its
	// ARP cache can name the neighbour: with static ARP entries it never
	// does, and only hellos find broken links.
	LinkFeedback bool `yaml:"link_feedback"`
	// FeedbackNeighboursOnly: a MAC failure breaks the link only to a
	// next hop in the neighbour table (ns-3.37: ProcessTxError looks the
	// neighbour up there, so a source whose next hop it has not heard from
	// lately keeps sending into the failure); false breaks it whatever the
	// table says (RFC 3561 §6.11, ns-2.35's rt_ll_failed).
	FeedbackNeighboursOnly bool `yaml:"feedback_neighbours_only"`
	// TrafficNeighbours: a node heard by a request, or forwarded through,
	// is a neighbour for a while (ALLOWED_HELLO_LOSS × HELLO_INTERVAL,
	// ACTIVE_ROUTE_TIMEOUT), and one that lapses is a broken link, hellos
	// or not (ns-3.37: Neighbors::Update runs its purge, which re-arms its
	// timer); false keeps neighbours from hellos only (ns-2.35, whose
	// link-layer detection sends none: no link lapses).
	TrafficNeighbours bool `yaml:"traffic_neighbours"`
	// PurgeQueue: on a broken link not repaired locally, the packets queued
	// at the MAC for that neighbour are dropped with the failed one
	// (ns-2.35's rt_ll_failed, ifqueue->filter); ns-3.37 leaves them to
	// the MAC, each to fail its retries in turn.
	PurgeQueue         bool     `yaml:"purge_queue"`
	ActiveRouteTimeout sim.Time `yaml:"active_route_timeout"` // 3s
	// MyRouteTimeout is the lifetime a destination gives its replies; 0
	// derives it as ns-3.37 does (myRouteTimeout). ns-2.35 fixes it at 10 s.
	MyRouteTimeout    sim.Time `yaml:"my_route_timeout"`
	NodeTraversalTime sim.Time `yaml:"node_traversal_time"` // 40ms
	NetDiameter       int      `yaml:"net_diameter"`        // 35
	// RREQRetries: route requests sent at the network diameter before a
	// discovery is given up (ns-3.37 sends this many, the RFC one more).
	RREQRetries   int `yaml:"rreq_retries"`
	RREQRateLimit int `yaml:"rreq_rate_limit"` // requests a node originates per second
	RERRRateLimit int `yaml:"rerr_rate_limit"` // route errors per second
	// The expanding ring search (RFC 3561 §6.4): TTLs TTLStart,
	// +TTLIncrement, ... up to TTLThreshold, then NetDiameter.
	TTLStart      int `yaml:"ttl_start"`
	TTLIncrement  int `yaml:"ttl_increment"`
	TTLThreshold  int `yaml:"ttl_threshold"`
	TimeoutBuffer int `yaml:"timeout_buffer"`
	// The buffer of packets waiting for a route (ns-3's request queue).
	QueueLen  int      `yaml:"queue_len"`
	QueueTime sim.Time `yaml:"queue_time"`
	// LocalRepair: a node whose next hop failed while forwarding a packet
	// that has come further than it has left to go (ns-2.35's condition)
	// buffers it and seeks the destination itself, without a route error
	// unless the repair fails (RFC 3561 §6.12, a "may"; ns-2.35 repairs,
	// ns-3.37 does not).
	LocalRepair bool `yaml:"local_repair"`
	// RepairTimer: how a local repair ends without a reply (rfc or ns2;
	// RepairTimer's constants).
	RepairTimer RepairTimer `yaml:"repair_timer"`
	// RequestTimer paces a source's discovery: rfc (ns-3.37's) or ns2
	// (ns-2.35's sendRequest; RequestTimer).
	RequestTimer RequestTimer `yaml:"request_timer"`
	// DestinationSeq: when the destination raises its sequence number to
	// answer a request (rfc or ns2; DestinationSeq's constants).
	DestinationSeq DestinationSeq `yaml:"destination_seq"`
	// InvalidatedSeq: what an invalidated route does to its destination's
	// sequence number (ns3, rfc or ns2; InvalidatedSeq's constants).
	InvalidatedSeq InvalidatedSeq `yaml:"invalidated_seq"`
	// RevalidateReverse: a request whose originator's number is newer (or
	// as new, over fewer hops) makes the reverse route to it valid again
	// (RFC 3561 §6.5; ns-2.35's rt_update); ns-3.37 updates an invalid
	// one and leaves it invalid.
	RevalidateReverse bool `yaml:"revalidate_reverse"`
	// RefreshReverse: forwarding a packet also refreshes the routes to its
	// source and to both neighbours on its way (RFC 3561 §6.2, ns-3.37);
	// false refreshes only the route to its destination (ns-2.35's
	// forward), so that a route back used only by retransmissions expires.
	RefreshReverse bool `yaml:"refresh_reverse"`
	// GratuitousReply: an intermediate node that answers a request also
	// tells the destination (RFC 3561 §6.6.3; on in ns-3.37).
	GratuitousReply bool `yaml:"gratuitous_reply"`
	// DestinationOnly: only the destination answers requests.
	DestinationOnly bool `yaml:"destination_only"`
	// Jitter bounds the random delay of broadcasts and of route errors
	// (ns-3.37: a whole number of milliseconds, 0 to 10).
	Jitter sim.Time `yaml:"jitter"`
	// ReleaseSpacing spaces the packets a reply to the source's request
	// releases, from the reply on (ns-2.35's recvReply: ARP_DELAY, 10 ms,
	// "to keep ARP happy"); 0 sends them together (ns-3.37, the RFC).
	ReleaseSpacing sim.Time `yaml:"release_spacing"`
}

// DefaultAODV is ns-3.37's aodv::RoutingProtocol with link-layer
// feedback working.
func DefaultAODV() *AODVParams {
	return &AODVParams{
		Hello: true, HelloInterval: sim.Second, AllowedHelloLoss: 2, LinkFeedback: true, FeedbackNeighboursOnly: true, TrafficNeighbours: true,
		ActiveRouteTimeout: 3 * sim.Second, NodeTraversalTime: 40 * sim.Millisecond, NetDiameter: 35,
		RREQRetries: 2, RREQRateLimit: 10, RERRRateLimit: 10,
		TTLStart: 1, TTLIncrement: 2, TTLThreshold: 7, TimeoutBuffer: 2,
		QueueLen: 64, QueueTime: 30 * sim.Second, GratuitousReply: true, RefreshReverse: true,
		Jitter: 10 * sim.Millisecond,
	}
}

func init() { Protocols.Register("aodv", func() Params { return DefaultAODV() }) }

// Validate implements component.Params.
func (p *AODVParams) Validate() error {
	var es component.Errors
	pos := func(key string, v sim.Time) {
		if v <= 0 {
			es = append(es, component.Errorf(key, "want a positive time, have %v", v))
		}
	}
	pos("hello_interval", p.HelloInterval)
	pos("active_route_timeout", p.ActiveRouteTimeout)
	pos("node_traversal_time", p.NodeTraversalTime)
	pos("queue_time", p.QueueTime)
	for _, c := range []struct {
		key string
		v   int
		min int
	}{{"allowed_hello_loss", p.AllowedHelloLoss, 1}, {"net_diameter", p.NetDiameter, 1},
		{"rreq_retries", p.RREQRetries, 0}, {"rreq_rate_limit", p.RREQRateLimit, 1}, {"rerr_rate_limit", p.RERRRateLimit, 1},
		{"ttl_start", p.TTLStart, 1}, {"ttl_increment", p.TTLIncrement, 1}, {"ttl_threshold", p.TTLThreshold, 1},
		{"timeout_buffer", p.TimeoutBuffer, 0}, {"queue_len", p.QueueLen, 1}} {
		if c.v < c.min {
			es = append(es, component.Errorf(c.key, "want at least %d, have %d", c.min, c.v))
		}
	}
	if p.TTLThreshold > p.NetDiameter {
		es = append(es, component.Errorf("ttl_threshold", "%d is beyond the network diameter %d", p.TTLThreshold, p.NetDiameter))
	}
	if p.ReleaseSpacing < 0 {
		es = append(es, component.Errorf("release_spacing", "want a time of at least 0, have %v", p.ReleaseSpacing))
	}
	if p.Jitter < 0 {
		es = append(es, component.Errorf("jitter", "want a time of at least 0, have %v", p.Jitter))
	}
	if p.MyRouteTimeout < 0 {
		es = append(es, component.Errorf("my_route_timeout", "want a time of at least 0 (0: derived), have %v", p.MyRouteTimeout))
	}
	return es.Err()
}

// OnDemand implements Params.
func (*AODVParams) OnDemand() bool { return true }

// NewRouter implements Params.
func (p *AODVParams) NewRouter(nd *network.Node, stats *Stats) network.Router {
	return newAODV(p, nd, stats)
}

// The RFC 3561 §10 times derived from the others, as ns-3.37 derives them.
func (p *AODVParams) netTraversalTime() sim.Time {
	return 2 * sim.Time(p.NetDiameter) * p.NodeTraversalTime
}
func (p *AODVParams) pathDiscoveryTime() sim.Time { return 2 * p.netTraversalTime() }

// myRouteTimeout is the lifetime a destination gives its replies: ns-3.37
// takes 2·max(PATH_DISCOVERY_TIME, ACTIVE_ROUTE_TIMEOUT) (11.2 s), the RFC
// 2·ACTIVE_ROUTE_TIMEOUT (6 s).
func (p *AODVParams) myRouteTimeout() sim.Time {
	if p.MyRouteTimeout > 0 {
		return p.MyRouteTimeout
	}
	return 2 * max(p.pathDiscoveryTime(), p.ActiveRouteTimeout)
}
func (p *AODVParams) deletePeriod() sim.Time {
	return 5 * max(p.ActiveRouteTimeout, p.HelloInterval)
}

// Message sizes (RFC 3561 §5) as IP packets: the AODV message, UDP 8 and
// IPv4 20 bytes.
const (
	ipUDP     = 28
	rreqBytes = 24 + ipUDP
	rrepBytes = 20 + ipUDP
	ackBytes  = 2 + ipUDP
)

func rerrBytes(dests int) int32 { return int32(4 + 8*dests + ipUDP) }

// aodvMsg is an AODV message, the Body of a Control packet. A message
// on the air is never changed: a node that forwards one sends a copy.
type aodvMsg struct {
	kind Kind
	ttl  int // the IP TTL it was sent with
	// RREQ and RREP.
	dst, orig   network.NodeID
	dstSeq      uint32
	origSeq     uint32 // RREQ
	unknownSeq  bool   // RREQ: U flag
	gratuitous  bool   // RREQ: G flag
	destOnly    bool   // RREQ: D flag
	ackRequired bool   // RREP: A flag
	id          uint32 // RREQ id
	hops        int
	lifetime    sim.Time // RREP
	stamp       sim.Time // RREQ: when it was originated; RREP: the request's (ns-2.35's timestamps)
	unreachable []unreachableDst
	hello       bool // an RREP that is a hello
}

type unreachableDst struct {
	dst network.NodeID
	seq uint32
}

// aodv is one node's AODV.
type aodv struct {
	p     *AODVParams
	nd    *network.Node
	net   *network.Net
	radio network.Radio
	stats *Stats
	rng   *rand.Rand

	seq    uint32 // own sequence number
	rreqID uint32
	table  routeTable
	seen   map[rreqKey]sim.Time // (originator, id) of requests seen, until when
	// seenKept is how many ids the last sweep of seen kept.
	seenKept int
	nbrs     []neighbour
	buf      buffer

	lastBcast sim.Time // a route request sent since the last hello check (0: none)
	hello     sim.Timer
	purge     sim.Timer // neighbours

	// Rate limits count in one-second windows from the start.
	window           int64
	rreqCount, rerrs int
}

type rreqKey struct {
	orig network.NodeID
	id   uint32
}

func newAODV(p *AODVParams, nd *network.Node, stats *Stats) *aodv {
	net := nd.Net()
	a := &aodv{p: p, nd: nd, net: net, radio: nd.Radio(), stats: stats,
		rng:   net.Stream("routing/" + nd.Name),
		table: make(routeTable, len(net.Nodes)), seen: map[rreqKey]sim.Time{},
		buf: buffer{net: net, limit: p.QueueLen, maxAge: p.QueueTime}}
	a.hello.Init(net.Sched, a.helloCheck)
	a.purge.Init(net.Sched, a.purgeNeighbours)
	if p.Hello {
		// ns-3.37 starts each node's hello timer at a whole number of
		// milliseconds from 0 to 100.
		a.hello.Arm(sim.Time(a.rng.IntN(101)) * sim.Millisecond)
	}
	return a
}

func (a *aodv) now() sim.Time { return a.net.Now() }

// jitter is a broadcast's random delay: a whole number of milliseconds
// up to the configured bound, as ns-3.37 draws it.
func (a *aodv) jitter() sim.Time {
	ms := int(a.p.Jitter / sim.Millisecond)
	if ms <= 0 {
		return 0
	}
	return sim.Time(a.rng.IntN(ms+1)) * sim.Millisecond
}

// rateWindow resets the per-second counters when a new second begins.
func (a *aodv) rateWindow() {
	if w := int64(a.now() / sim.Second); w != a.window {
		a.window, a.rreqCount, a.rerrs = w, 0, 0
	}
}

// transmit sends message m, after delay, to every neighbour (to nil) or
// to node to. AODV's messages are IP packets (RFC 3561 §4): a unicast one
// goes by this node's route to its addressee, as data does, and with no
// valid route it waits for a discovery (ns-3.37: a reply to a node the
// replier holds no route to starts a route request of its own).
func (a *aodv) transmit(m *aodvMsg, size int32, to *network.Node, delay sim.Time) {
	send := func() {
		p := a.net.Alloc()
		p.Proto, p.Flow, p.Src, p.Size, p.Body = network.Control, -1, a.nd.ID, size, m
		if to == nil {
			p.Dst = network.Broadcast
			a.count(p)
			a.radio.Send(p, nil)
			return
		}
		p.Dst = to.ID
		a.output(p)
	}
	if delay <= 0 {
		send()
		return
	}
	a.net.Sched.At(a.now()+delay, send)
}

// count records a control packet put on the radio.
func (a *aodv) count(p *network.Packet) {
	m := p.Body.(*aodvMsg)
	k := m.kind
	if m.hello {
		k = Hello
	}
	a.stats.count(k, p.Size)
}

func (a *aodv) node(id network.NodeID) *network.Node { return a.net.Nodes[id] }

// Send implements network.Router: data originated here or forwarded.
func (a *aodv) Send(p *network.Packet) {
	if p.Src == a.nd.ID {
		a.output(p)
		return
	}
	a.forward(p)
}

// output sends a packet this node originated (ns-3's RouteOutput): on a
// valid route, refreshing it; otherwise it waits in the buffer while a
// discovery runs.
func (a *aodv) output(p *network.Packet) {
	if rt := a.valid(p.Dst); rt != nil {
		a.refresh(p.Dst)
		a.refresh(rt.next)
		if p.Proto == network.Control {
			a.count(p)
		}
		a.radio.Send(p, a.node(rt.next))
		return
	}
	a.buf.add(p)
	if rt := a.lookup(p.Dst); rt == nil || rt.state != inSearch && rt.state != inRepair ||
		a.p.RequestTimer == RequestNS2 && rt.state == inSearch {
		a.request(p.Dst) // ns-2.35 asks with every packet (rt_resolve)
	}
}

// forward relays a packet for another node (RFC 3561 §6.2: each use of
// an active route refreshes it, and the routes back to the source).
func (a *aodv) forward(p *network.Packet) {
	rt := a.valid(p.Dst)
	if r := a.lookup(p.Dst); rt == nil && r != nil && r.state == inRepair {
		a.buf.add(p) // it waits for the repair
		return
	}
	if rt == nil {
		// RFC 3561 §6.11 (ii): data for a destination without an
		// active route: a route error toward the source, and the packet
		// is lost.
		a.errorNoRoute(p.Dst, p.Src)
		a.net.Drop(p, network.BrokenLink, nil)
		return
	}
	if a.p.RefreshReverse {
		a.refresh(p.Src)
	}
	a.refresh(p.Dst)
	if a.p.RefreshReverse {
		a.refresh(rt.next)
	}
	if back := a.lookup(p.Src); back != nil { // in any state, as ns-3.37
		if a.p.RefreshReverse {
			a.refresh(back.next)
		}
		a.trafficHeard(rt.next, a.p.ActiveRouteTimeout)
		a.trafficHeard(back.next, a.p.ActiveRouteTimeout)
	} else {
		a.trafficHeard(rt.next, a.p.ActiveRouteTimeout)
	}
	a.radio.Send(p, a.node(rt.next))
}

// Arrived implements network.Router: data for this node refreshes the
// route back to its source.
func (a *aodv) Arrived(p *network.Packet) {
	a.refresh(p.Src)
	if back := a.valid(p.Src); back != nil {
		a.refresh(back.next)
		a.trafficHeard(back.next, a.p.ActiveRouteTimeout)
	}
}

// Receive implements network.Router.
func (a *aodv) Receive(p *network.Packet) {
	m, ok := p.Body.(*aodvMsg)
	from := p.Src
	// The message is an IP packet delivered here (ns-3.37's RouteInput,
	// before AODV reads it): a unicast one refreshes the route to its
	// sender and that route's next hop as a neighbour, as data arriving
	// does; a broadcast one the route to its sender.
	if p.Dst == a.nd.ID {
		a.Arrived(p)
	} else {
		a.refresh(from)
	}
	a.net.Free(p)
	if !ok {
		return
	}
	a.neighbourRoute(from)
	switch {
	case m.kind == RREQ:
		a.recvRequest(m, from)
	case m.kind == RREP:
		a.recvReply(m, from)
	case m.kind == RERR:
		a.recvError(m, from)
	case m.kind == RREPAck:
		// ns-3.37 never arms the timer an RREP-ACK would stop.
	}
}

// LinkFailed implements network.Router: the MAC gave up on a frame to a
// neighbour. AODV does not salvage: the packet is the MAC's to drop,
// unless a local repair takes it.
func (a *aodv) LinkFailed(p *network.Packet, to *network.Node) bool {
	if a.p.LocalRepair && to != nil && a.repairs(p, to.ID) {
		return true
	}
	if a.p.PurgeQueue && to != nil {
		if w, ok := a.radio.(withdrawer); ok {
			w.Withdraw(to, func(q *network.Packet) { a.net.Drop(q, network.BrokenLink, nil) })
		}
	}
	if a.p.LinkFeedback && to != nil && !a.closeNeighbour(to.ID) && !a.p.FeedbackNeighboursOnly {
		a.linkBroken(to.ID)
	}
	return false
}
