package routing

import (
	"math/rand/v2"
	"slices"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// DSRParams are DSR's parameters (RFC 4728 §9) with ns-2.35's (the CMU
// Monarch DSR's) defaults where the RFC leaves a choice.
type DSRParams struct {
	// The send buffer of packets waiting for a route (RFC 4728 §4.2): ns-2
	// holds 64 packets 30 s (T-DLRP's runs: 50) and checks it every 30 to
	// 60 ms.
	SendBuffer     int      `yaml:"send_buffer"`
	SendBufferTime sim.Time `yaml:"send_buffer_time"`
	BufferCheck    sim.Time `yaml:"buffer_check"`
	// Route discovery (RFC 4728 §8.2): a non-propagating request first,
	// answered within NonpropTimeout or followed by a flood; a new round
	// after RequestPeriod, 4×, 16×... capped at MaxRequestPeriod (ns-2's
	// backoff; the RFC doubles).
	RingZero         bool     `yaml:"nonpropagating_first"`
	NonpropTimeout   sim.Time `yaml:"nonprop_timeout"`
	RequestPeriod    sim.Time `yaml:"request_period"`
	MaxRequestPeriod sim.Time `yaml:"max_request_period"`
	MaxRouteLen      int      `yaml:"max_route_len"` // addresses, source and destination included
	// ReplyFromCache: a node with a cached route to the target answers a
	// request itself (RFC 4728 §8.2.3).
	ReplyFromCache bool `yaml:"reply_from_cache"`
	// The path caches (ns-2.35's MobiCache): routes learnt from replies,
	// and routes seen in forwarded or received packets.
	PrimaryCache   int `yaml:"primary_cache"`
	SecondaryCache int `yaml:"secondary_cache"`
	// CacheArrived: a packet's destination caches the route it came by,
	// reversed (RFC 4728 lets a node learn from any source route it
	// sees; ns-2.35's destination does not, only forwarders and the tap).
	CacheArrived bool `yaml:"cache_arrived"`
	// Salvaging (RFC 4728 §8.3.6): a forwarder whose next hop failed
	// sends the packet on by a cached route of its own, at most
	// MaxSalvage times a packet.
	Salvage    bool `yaml:"salvage"`
	MaxSalvage int  `yaml:"max_salvage"`
	// SalvageRequests: a forwarder with no cached route for a packet it
	// must salvage keeps it in its send buffer and asks its neighbours
	// (non-propagating requests only) for this many request rounds before
	// it gives up (ns-2.35's NEW_SALVAGE_LOGIC, dsr_salvage_max_requests
	// 1: one round, given up when the next would start, about 2 s on). 0
	// drops it at once (RFC 4728 §8.3.6 salvages from the cache only).
	SalvageRequests int `yaml:"salvage_requests"`
	// WithdrawQueued: on a broken link, the packets queued at the MAC for
	// that neighbour are taken back and salvaged too (ns-2.35).
	WithdrawQueued bool `yaml:"withdraw_queued"`
	// Tap: the node listens promiscuously (RFC 4728 "may"; ns-2.35's tap,
	// on there): it caches the source routes of packets it overhears
	// between other nodes (dsragent_snoop_source_routes,
	// cache_use_overheard_routes), learns from the route errors it
	// overhears, and with GratuitousReply shortens routes (RFC 4728
	// §8.4: a node that overhears a packet whose route lists it further on
	// tells the packet's source, by a reply, the route without the hops
	// in between; one reply per route a second, ns-2's hold-down).
	Tap             bool `yaml:"tap"`
	GratuitousReply bool `yaml:"gratuitous_reply"`
	// ErrorHold: a route error the node received rides on its route
	// requests for this long (RFC 4728 §8.2.1), until a flood carried it.
	ErrorHold sim.Time `yaml:"error_hold"`
	// Jitter bounds the uniform delay of a forwarded request and of the
	// target's reply; with JitterOwnRequests, of the node's own requests
	// too (ns-2.35 delays every request it sends, RREQ_JITTER in
	// sendOutPacketWithRoute; RFC 4728 §8.2.2 jitters forwarded ones and
	// leaves the originator's open).
	Jitter            sim.Time `yaml:"jitter"`
	JitterOwnRequests bool     `yaml:"jitter_own_requests"`
	// ReleaseSpacing spaces the packets a reply releases from the send
	// buffer: ns-2.35 sends them 30 ms apart from the reply on (a
	// work-around it names for its ARP); 0 sends them together (the
	// RFC). Packets a look at the buffer finds a route for go at once.
	ReleaseSpacing sim.Time `yaml:"release_spacing"`
}

// DefaultDSR is ns-2.35's DSR, with the RFC where ns-2's choice is an
// artefact of the simulator (the release spacing).
func DefaultDSR() *DSRParams {
	return &DSRParams{
		SendBuffer: 64, SendBufferTime: 30 * sim.Second, BufferCheck: 30 * sim.Millisecond,
		RingZero: true, NonpropTimeout: 30 * sim.Millisecond,
		RequestPeriod: 500 * sim.Millisecond, MaxRequestPeriod: 10 * sim.Second, MaxRouteLen: 16,
		ReplyFromCache: true, PrimaryCache: 30, SecondaryCache: 64,
		Salvage: true, MaxSalvage: 15, SalvageRequests: 1, WithdrawQueued: true, Tap: true, GratuitousReply: true,
		ErrorHold: sim.Second, Jitter: 10 * sim.Millisecond, JitterOwnRequests: true,
	}
}

func init() { Protocols.Register("dsr", func() Params { return DefaultDSR() }) }

// Validate implements component.Params.
func (p *DSRParams) Validate() error {
	var es component.Errors
	for _, c := range []struct {
		key string
		v   sim.Time
	}{{"send_buffer_time", p.SendBufferTime}, {"buffer_check", p.BufferCheck}, {"nonprop_timeout", p.NonpropTimeout},
		{"request_period", p.RequestPeriod}, {"max_request_period", p.MaxRequestPeriod}} {
		if c.v <= 0 {
			es = append(es, component.Errorf(c.key, "want a positive time, have %v", c.v))
		}
	}
	for _, c := range []struct {
		key string
		v   sim.Time
	}{{"error_hold", p.ErrorHold}, {"jitter", p.Jitter}, {"release_spacing", p.ReleaseSpacing}} {
		if c.v < 0 {
			es = append(es, component.Errorf(c.key, "want a time of at least 0, have %v", c.v))
		}
	}
	for _, c := range []struct {
		key       string
		v, lo, hi int
	}{{"send_buffer", p.SendBuffer, 1, 1 << 20}, {"max_route_len", p.MaxRouteLen, 2, 255},
		{"primary_cache", p.PrimaryCache, 1, 1 << 20}, {"secondary_cache", p.SecondaryCache, 1, 1 << 20},
		{"max_salvage", p.MaxSalvage, 0, 15}, {"salvage_requests", p.SalvageRequests, 0, 15}} {
		if c.v < c.lo || c.v > c.hi {
			es = append(es, component.Errorf(c.key, "want %d to %d, have %d", c.lo, c.hi, c.v))
		}
	}
	if p.MaxRequestPeriod < p.RequestPeriod {
		es = append(es, component.Errorf("max_request_period", "%v is below request_period %v", p.MaxRequestPeriod, p.RequestPeriod))
	}
	return es.Err()
}

// OnDemand implements Params.
func (*DSRParams) OnDemand() bool { return true }

// NewRouter implements Params.
func (p *DSRParams) NewRouter(nd *network.Node, stats *Stats) network.Router {
	return newDSR(p, nd, stats)
}

// dsrMsg is a DSR control packet's content (the Body of a Control
// packet), never changed once sent.
type dsrMsg struct {
	kind Kind
	// RREQ: the originator, its id, the target, the route so far (the
	// originator first), how far it may spread (0: neighbours only), and
	// a route error it carries.
	orig, target network.NodeID
	id           uint32
	route        []network.NodeID
	maxProp      int
	// RREP: route is the route found, from the requester to the target.
	// RERR (or the error a request carries): the link from→to broke; tell
	// is who it is for.
	err *linkError
}

type linkError struct{ from, to, tell network.NodeID }

// discovery is a node's route discovery state for one target (ns-2.35's
// request table entry).
type discovery struct {
	outstanding int      // request rounds since the last reply
	lastReq     sim.Time // start of the last round
	flooded     bool     // the round's flood went out
	lastArp     sim.Time // the round's non-propagating request
}

// dsr is one node's DSR.
type dsr struct {
	p      *DSRParams
	nd     *network.Node
	net    *network.Net
	radio  network.Radio
	stats  *Stats
	rng    *rand.Rand
	paths  *pathTable
	cache  [2]pathCache // primary, secondary
	reqID  uint32
	seen   map[network.NodeID]uint32 // the highest request id seen from each originator
	disc   map[network.NodeID]*discovery
	buf    buffer
	check  sim.Timer
	noted  int32    // the last path added to the secondary cache from a forwarded packet
	tapped [4]int32 // the routes of the last packets overheard (a ring: data and ACK routes alternate)
	tapAt  int
	grat   [10]shortened // the gratuitous replies sent last (ns-2.35's hold-down table)
	gratAt int
	err    *linkError
	errAt  sim.Time
}

func newDSR(p *DSRParams, nd *network.Node, stats *Stats) *dsr {
	net := nd.Net()
	d := &dsr{p: p, nd: nd, net: net, radio: nd.Radio(), stats: stats, rng: net.Stream("routing/" + nd.Name),
		paths: sharedPaths(net), seen: map[network.NodeID]uint32{}, disc: map[network.NodeID]*discovery{},
		buf: buffer{net: net, limit: p.SendBuffer, maxAge: p.SendBufferTime}}
	d.cache[0].size, d.cache[1].size = p.PrimaryCache, p.SecondaryCache
	d.check.Init(net.Sched, d.checkBuffer)
	return d
}

func (d *dsr) now() sim.Time { return d.net.Now() }

// findRoute is the shortest cached route to dst (primary first on equal
// length); a secondary route used is promoted to the primary cache.
func (d *dsr) findRoute(dst network.NodeID) []network.NodeID {
	r0, _ := d.cache[0].find(dst)
	r1, i1 := d.cache[1].find(dst)
	if r1 != nil && (r0 == nil || len(r1) < len(r0)) {
		d.cache[1].paths = slices.Delete(d.cache[1].paths, i1, i1+1)
		r1 = slices.Clone(r1)
		d.cache[0].add(r1)
		return r1
	}
	return r0
}

// cut forgets the link a→b in both caches.
func (d *dsr) cut(a, b network.NodeID) {
	d.cache[0].cut(a, b)
	d.cache[1].cut(a, b)
}

// Send implements network.Router.
func (d *dsr) Send(p *network.Packet) {
	if p.SR != 0 {
		d.forward(p)
		return
	}
	if p.Src != d.nd.ID {
		d.net.Drop(p, network.NoRoute, nil) // a forwarded packet without a route
		return
	}
	d.originate(p)
}

// originate sends a packet on a cached route from this node, or buffers
// it and seeks one. The packet is this node's own, or another's waiting
// to be salvaged (it keeps its salvage count); the search for the
// latter starts at the next look at the buffer, as in ns-2.35.
func (d *dsr) originate(p *network.Packet) {
	if r := d.findRoute(p.Dst); r != nil {
		d.attach(p, r, salvaged(p))
		d.radio.Send(p, d.net.Nodes[r[1]])
		return
	}
	d.buf.add(p)
	if p.Src == d.nd.ID {
		d.seek(p.Dst, false)
	}
	if !d.check.Armed() {
		d.armCheck()
	}
}

// attach gives p the source route r (from this node), salvaged n times,
// and the header bytes it adds.
func (d *dsr) attach(p *network.Packet, r []network.NodeID, n int) {
	if old := d.paths.route(p); old != nil {
		p.Size -= srHeader(len(old))
	}
	p.SR = d.paths.intern(r) | int32(n)<<srHandleBits
	p.Size += srHeader(len(r))
}

// forward sends a source-routed packet to its next hop, noting the rest
// of its route (ns-2.35: the secondary cache holds routes forwarded).
func (d *dsr) forward(p *network.Packet) {
	r := d.paths.route(p)
	i := slices.Index(r, d.nd.ID)
	if i < 0 || i+1 >= len(r) {
		d.net.Drop(p, network.NoRoute, nil)
		return
	}
	if h := p.SR & srHandleMask; h != d.noted && i > 0 {
		d.noted = h
		d.cache[1].add(r[i:])
	}
	if p.Proto == network.Control {
		d.count(p)
	}
	d.radio.Send(p, d.net.Nodes[r[i+1]])
}

// Arrived implements network.Router: with CacheArrived the destination
// notes the route back.
func (d *dsr) Arrived(p *network.Packet) {
	if !d.p.CacheArrived {
		return
	}
	if r := d.paths.route(p); len(r) > 1 && r[len(r)-1] == d.nd.ID {
		if h := p.SR & srHandleMask; h != d.noted {
			d.noted = h
			d.cache[1].add(reversed(r))
		}
	}
}

func (d *dsr) count(p *network.Packet) {
	if m, ok := p.Body.(*dsrMsg); ok {
		d.stats.count(m.kind, p.Size)
	}
}

// control makes a control packet carrying m of size bytes.
func (d *dsr) control(m *dsrMsg, size int32) *network.Packet {
	p := d.net.Alloc()
	p.Proto, p.Flow, p.Src, p.Size, p.Body = network.Control, -1, d.nd.ID, size, m
	return p
}

// sendRouted sends control packet p along route r (from this node),
// after delay.
func (d *dsr) sendRouted(p *network.Packet, r []network.NodeID, delay sim.Time) {
	p.Dst = r[len(r)-1]
	d.attach(p, r, 0)
	send := func() { d.count(p); d.radio.Send(p, d.net.Nodes[r[1]]) }
	if delay <= 0 {
		send()
		return
	}
	d.net.Sched.At(d.now()+delay, send)
}

// jitter is a uniform delay up to the configured bound.
func (d *dsr) jitter() sim.Time { return sim.Time(d.rng.Float64() * float64(d.p.Jitter)) }

// Receive implements network.Router.
func (d *dsr) Receive(p *network.Packet) {
	m, ok := p.Body.(*dsrMsg)
	if !ok {
		d.net.Free(p)
		return
	}
	if m.kind == RREQ {
		d.recvRequest(m)
		d.net.Free(p)
		return
	}
	if m.err != nil {
		d.recvError(m.err) // forwarders and the addressee learn of the break
	}
	if p.Dst != d.nd.ID {
		d.forward(p)
		return
	}
	if m.kind == RREP {
		d.acceptReply(m.route)
	}
	d.net.Free(p)
}
