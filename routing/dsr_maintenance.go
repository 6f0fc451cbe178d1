package routing

import (
	"slices"

	"github.com/tcplab/tcplab/network"
)

// LinkFailed implements network.Router: the MAC gave up on p toward to
// (RFC 4728 §8.3: DSR's route maintenance by link-layer
// acknowledgement). The link leaves the caches; the source of p's route
// hears of it by a route error; p, and with WithdrawQueued every packet
// queued for to, is salvaged.
func (d *dsr) LinkFailed(p *network.Packet, to *network.Node) bool {
	me := d.nd.ID
	d.stats.LinkBreaks++
	d.cut(me, to.ID)
	lost := []*network.Packet{p}
	if w, ok := d.radio.(withdrawer); ok && d.p.WithdrawQueued {
		w.Withdraw(to, func(q *network.Packet) { lost = append(lost, q) })
	}
	if r := d.paths.route(p); len(r) > 0 && r[0] != me {
		if i := slices.Index(r, me); i > 0 {
			e := &linkError{from: me, to: to.ID, tell: r[0]}
			back := reversed(r[:i+1])
			d.sendRouted(d.control(&dsrMsg{kind: RERR, err: e}, rerrSize(len(back))), back, 0)
		}
	}
	for _, q := range lost {
		d.salvage(q)
	}
	return true
}

// salvage sends on a packet whose next hop failed: this node's own
// packet (its route starts here) by another route or after a new
// discovery; another's by a cached route, at most MaxSalvage times, or,
// with SalvageRequests, after asking the neighbours; a control packet is
// lost.
func (d *dsr) salvage(p *network.Packet) {
	me := d.nd.ID
	r := d.paths.route(p)
	switch {
	case p.Proto == network.Control:
		d.net.Drop(p, network.BrokenLink, nil)
	case len(r) == 0 || r[0] == me:
		if len(r) > 0 {
			p.Size -= srHeader(len(r))
		}
		p.SR = 0
		d.originate(p)
	case !d.p.Salvage || salvaged(p) >= d.p.MaxSalvage:
		d.net.Drop(p, network.SalvageFailed, nil)
	default:
		if nr := d.findRoute(p.Dst); nr != nil {
			d.attach(p, nr, salvaged(p)+1)
			d.radio.Send(p, d.net.Nodes[nr[1]])
			return
		}
		if d.p.SalvageRequests == 0 {
			d.net.Drop(p, network.SalvageFailed, nil)
			return
		}
		p.Size -= srHeader(len(r))
		p.SR = int32(salvaged(p)) << srHandleBits
		d.originate(p)
	}
}

// recvError learns of a broken link from a route error (carried alone or
// on a request): the link leaves the caches, and the node it is for keeps
// it to pass on with its next requests.
func (d *dsr) recvError(e *linkError) {
	d.cut(e.from, e.to)
	if e.tell == d.nd.ID {
		d.err, d.errAt = e, d.now()
	}
}
