package network

// Middlebox intercepts packets arriving at a node (ALL-TCP's edge router is
// one). Returning true means it took the packet: it now owns it and may
// free it, hold it, or inject packets of its own with Node.Send.
type Middlebox interface {
	Intercept(at *Node, p *Packet, from *Link) bool
}

// Node is a host or router. It forwards by a static next-hop table.
type Node struct {
	ID   NodeID
	Name string
	Hook Middlebox // nil: plain forwarding

	net   *Net
	out   []*Link
	route []*Link // next hop by destination NodeID
}

// Out lists the node's outgoing links.
func (nd *Node) Out() []*Link { return nd.out }

// NextHop is the link a packet for dst leaves on, or nil if unreachable.
func (nd *Node) NextHop(dst NodeID) *Link {
	if int(dst) >= len(nd.route) {
		return nil
	}
	return nd.route[dst]
}

// Send originates or forwards p toward p.Dst.
func (nd *Node) Send(p *Packet) {
	if p.Dst == nd.ID {
		nd.deliver(p)
		return
	}
	l := nd.NextHop(p.Dst)
	if l == nil {
		nd.net.Drop(p, NoRoute, nil)
		return
	}
	l.Enqueue(p)
}

// receive handles a packet that crossed link from.
func (nd *Node) receive(p *Packet, from *Link) {
	if nd.Hook != nil && nd.Hook.Intercept(nd, p, from) {
		return
	}
	if p.Dst == nd.ID {
		nd.deliver(p)
		return
	}
	nd.Send(p)
}

func (nd *Node) deliver(p *Packet) {
	if int(p.Port) >= len(nd.net.endpoints) || p.Port < 0 {
		nd.net.Drop(p, NoRoute, nil)
		return
	}
	nd.net.endpoints[p.Port].Receive(p)
}
