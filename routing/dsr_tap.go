package routing

import (
	"slices"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// gratHold is how long a node keeps from shortening the same route again
// (ns-2.35's grat_hold_down_time).
const gratHold = sim.Second

// shortened is a route a gratuitous reply was sent for, and when.
type shortened struct {
	route int32 // the overheard route's handle
	at    sim.Time
}

// Overheard implements network.Overhearer: a frame between two other
// nodes (ns-2.35's tap, which sees every unicast frame the MAC decodes).
// A route error in it breaks the link here too; the route of a reply
// and the source route of the packet go into the secondary cache (from
// this node on if the node is on them; a source route else as this node,
// the transmitter and the rest: cache_use_overheard_routes, the
// transmitter being a neighbour). A data packet whose route lists this
// node beyond the receiver is a route to shorten. The node's own packets
// teach nothing; a route just tapped is not cached again.
func (d *dsr) Overheard(p *network.Packet, from *network.Node) {
	if !d.p.Tap {
		return
	}
	m, _ := p.Body.(*dsrMsg)
	if m != nil && m.err != nil {
		d.recvError(m.err)
	}
	r := d.paths.route(p)
	me := d.nd.ID
	if len(r) < 2 || r[0] == me {
		return
	}
	i := slices.Index(r, me)
	j := slices.Index(r, from.ID)
	if m == nil && d.p.GratuitousReply && j >= 0 && i > j+1 {
		d.shorten(p.SR&srHandleMask, r, j, i)
	}
	h := p.SR & srHandleMask
	if slices.Contains(d.tapped[:], h) {
		return
	}
	d.tapped[d.tapAt] = h
	d.tapAt = (d.tapAt + 1) % len(d.tapped)
	if m != nil && m.kind == RREP {
		if k := slices.Index(m.route, me); k >= 0 && k+1 < len(m.route) {
			d.cache[1].add(slices.Clone(m.route[k:]))
		}
	}
	switch {
	case i >= 0 && i+1 < len(r):
		d.cache[1].add(r[i:])
	case i < 0 && j >= 0 && j+1 < len(r):
		d.cache[1].add(append([]network.NodeID{me}, r[j:]...))
	}
}

// shorten answers an overheard route r, sent by r[j] and listing this
// node at i > j+1, with a gratuitous reply to r[0] (RFC 4728 §8.4; ns-2.35's
// sendRouteShortening): the route without r[j+1:i], sent back by the way
// the packet came, this node first. The route back is cached as a reply's
// would be. At most once a route in gratHold.
func (d *dsr) shorten(h int32, r []network.NodeID, j, i int) {
	now := d.now()
	for _, g := range d.grat {
		if g.route == h && now-g.at < gratHold {
			return
		}
	}
	d.grat[d.gratAt] = shortened{route: h, at: now}
	d.gratAt = (d.gratAt + 1) % len(d.grat)
	route := append(slices.Clone(r[:j+1]), r[i:]...)
	back := append([]network.NodeID{d.nd.ID}, reversed(r[:j+1])...)
	d.cache[0].add(back)
	rep := &dsrMsg{kind: RREP, route: route}
	d.sendRouted(d.control(rep, rrepSize(len(back), len(route))), back, 0)
}
