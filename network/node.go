package network

// Middlebox intercepts packets arriving at a node (ALL-TCP's edge router is
// one). Returning true means it took the packet: it now owns it and may
// free it, hold it, or inject packets of its own with Node.Send.
type Middlebox interface {
	Intercept(at *Node, p *Packet, from *Link) bool
}

// Radio is a node's wireless interface (package wireless): it carries a
// packet to a neighbour in one hop over a shared medium, and names the
// neighbours it can reach so that routes can use it.
type Radio interface {
	Send(p *Packet, to *Node)
	Neighbours() []*Node
}

// Router chooses the next hop of a node's packets when routes are not the
// static shortest paths of this package: an on-demand protocol (package
// routing) discovers routes with packets of its own, holds data while it
// does, and learns of broken links from the MAC.
type Router interface {
	// Send takes p toward p.Dst, whether the node originated it or
	// forwards it: over a link or the radio, held for a route, or dropped.
	Send(p *Packet)
	// Receive takes a routing packet (Proto Control) the node received,
	// addressed to it or broadcast.
	Receive(p *Packet)
	// Arrived tells the router a data packet reached its destination,
	// this node, before it is delivered (AODV refreshes the route back).
	Arrived(p *Packet)
	// LinkFailed is the MAC giving up on p toward neighbour to after its
	// retry limit (RFC 3561 §6.11, RFC 4728 §8.3: link-layer feedback).
	// It reports whether the router took p (to salvage it); if not, the
	// MAC drops it.
	LinkFailed(p *Packet, to *Node) bool
}

// Overhearer is a Router that listens promiscuously: the MAC hands it
// every unicast data frame it decodes between two other nodes (sent by
// from). p is the sender's packet, on its way to its receiver: the
// router reads it and keeps nothing of it.
type Overhearer interface {
	Overheard(p *Packet, from *Node)
}

// Node is a host or router. It forwards by a static next-hop table, or
// by its Router (SetRouter).
type Node struct {
	// What a packet reads at a node fills the first cache line (a Node is
	// 128 bytes, a size class of whole lines, so that line is the first
	// line of the object; TestNodeHotFieldsFillOneCacheLine): with
	// thousands of hosts they no longer fit in the caches and each line
	// is a miss.
	ID NodeID
	// A stub's last answer (stubHop): a host sends to one or a few
	// destinations, and the answer costs a look into the neighbour's
	// table. Cleared by ComputeRoutes, and when the node gains a link or
	// a radio (it is then no longer a stub).
	stubDst NodeID
	stubTo  *Link
	Hook    Middlebox // nil: plain forwarding
	net     *Net
	route   []hop // next hop by destination NodeID

	Name  string
	out   []*Link
	radio Radio
	_     [8]byte // to 128 bytes
}

// hop is where a packet leaves a node: a link, or its radio toward a
// neighbour.
type hop struct {
	link *Link
	via  *Node
}

// Net is the network the node is in.
func (nd *Node) Net() *Net { return nd.net }

// Out lists the node's outgoing links.
func (nd *Node) Out() []*Link { return nd.out }

// SetRouter makes r choose the node's routes (nil: static tables).
func (nd *Node) SetRouter(r Router) {
	n := nd.net
	for len(n.routers) <= int(nd.ID) {
		n.routers = append(n.routers, nil)
	}
	n.routers[nd.ID] = r
}

// Router is the node's routing protocol, or nil for static routes.
func (nd *Node) Router() Router {
	if int(nd.ID) < len(nd.net.routers) {
		return nd.net.routers[nd.ID]
	}
	return nil
}

// LinkFailed tells the node's router that its MAC gave up on p toward to;
// it reports whether the router took p.
func (nd *Node) LinkFailed(p *Packet, to *Node) bool {
	if r := nd.Router(); r != nil {
		return r.LinkFailed(p, to)
	}
	return false
}

// SetRadio gives the node a wireless interface (before ComputeRoutes).
func (nd *Node) SetRadio(r Radio) { nd.radio, nd.stubTo = r, nil }

// Radio is the node's wireless interface, or nil.
func (nd *Node) Radio() Radio { return nd.radio }

// hop returns the next hop toward dst, building the node's table on
// first use (the zero hop: unreachable).
func (nd *Node) hop(dst NodeID) hop {
	if nd.stubTo != nil && nd.stubDst == dst {
		return hop{link: nd.stubTo}
	}
	if nd.route == nil && nd.net.routesFor > 0 {
		if nd.stub() {
			h := nd.stubHop(dst)
			nd.stubDst, nd.stubTo = dst, h.link
			return h
		}
		nd.route = nd.net.routes(nd)
	}
	if int(dst) >= len(nd.route) {
		return hop{}
	}
	return nd.route[dst]
}

// stub reports whether the node has a single way out: one link and no
// radio, as a host on an access link. Every shortest path from it starts on
// that link, so it needs no table: with N such hosts sending, tables would
// cost N² (10 000 flows on a dumbbell: 6 GB).
func (nd *Node) stub() bool { return nd.radio == nil && len(nd.out) == 1 }

// stubHop is a stub's next hop toward dst: its link, if dst is reachable
// at all (the neighbour, or reachable from it; a stub's neighbour never
// routes back through the stub to another node).
func (nd *Node) stubHop(dst NodeID) hop {
	l := nd.out[0]
	nb := l.To
	switch {
	case dst == nd.ID:
		return hop{}
	case nb.ID == dst:
		return hop{link: l}
	case nb.stub():
		return hop{} // two nodes on their own
	case nb.hop(dst) != (hop{}):
		return hop{link: l}
	}
	return hop{}
}

// NextHop is the link a packet for dst leaves on, or nil if it is
// unreachable or leaves by radio (NextNode says where to).
func (nd *Node) NextHop(dst NodeID) *Link { return nd.hop(dst).link }

// NextNode is the neighbour a packet for dst goes to next, by link or
// radio, or nil if dst is unreachable.
func (nd *Node) NextNode(dst NodeID) *Node {
	h := nd.hop(dst)
	if h.link != nil {
		return h.link.To
	}
	return h.via
}

// Send originates or forwards p toward p.Dst.
func (nd *Node) Send(p *Packet) {
	if p.Dst == nd.ID {
		nd.deliver(p)
		return
	}
	if r := nd.Router(); r != nil {
		r.Send(p)
		return
	}
	h := nd.hop(p.Dst)
	switch {
	case h.link != nil:
		h.link.Enqueue(p)
	case h.via != nil:
		nd.radio.Send(p, h.via)
	default:
		nd.net.Drop(p, NoRoute, nil)
	}
}

// Arrive hands the node a packet its radio received (from is nil for the
// middlebox: the packet came over the air).
func (nd *Node) Arrive(p *Packet) { nd.receive(p, nil) }

// receive handles a packet that crossed link from.
func (nd *Node) receive(p *Packet, from *Link) {
	if nd.Hook != nil && nd.Hook.Intercept(nd, p, from) {
		return
	}
	if p.Proto == Control {
		if r := nd.Router(); r != nil {
			r.Receive(p)
		} else {
			nd.net.Free(p) // a routing packet where no protocol runs
		}
		return
	}
	if p.Dst == nd.ID {
		if r := nd.Router(); r != nil {
			r.Arrived(p)
		}
		nd.deliver(p)
		return
	}
	nd.Send(p)
}

func (nd *Node) deliver(p *Packet) {
	eps := nd.net.endpoints
	if uint(p.Port) >= uint(len(eps)) { // a negative port too
		nd.net.Drop(p, NoRoute, nil)
		return
	}
	eps[p.Port].Receive(p)
}
