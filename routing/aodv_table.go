package routing

import (
	"slices"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// routeState is a routing table entry's flag (ns-3.37's VALID, INVALID,
// IN_SEARCH; ns-2.35's RTF_IN_REPAIR).
type routeState uint8

const (
	valid routeState = iota
	invalid
	inSearch
	inRepair // a local repair is under way (aodv_repair.go)
)

// route is a routing table entry (RFC 3561 §2): toward dst by next.
type route struct {
	dst        network.NodeID
	next       network.NodeID
	hops       int // for an entry in search: the TTL of the last request
	seq        uint32
	validSeq   bool
	state      routeState
	expires    sim.Time
	precursors []network.NodeID
	rreqCnt    int         // requests sent at the network diameter
	reqUntil   sim.Time    // ns-2's timers: a request is within its timeout until then
	lastTTL    int         // request_timer ns2: the TTL of the last request (rt_req_last_ttl)
	latency    [3]sim.Time // request_timer ns2: the last discoveries' latency per hop (rt_disc_latency)
	nLatency   int         // request_timer ns2: discoveries timed
	repairEnd  sim.Time    // repair_timer ns2: when the repair's own timer fires
	retry      *sim.Timer  // the discovery's retry timer, once one ran
}

// routeTable is a node's routing table, by destination: a slice indexed
// by node ID, as IDs are dense.
type routeTable []*route

func (t routeTable) get(dst network.NodeID) *route {
	if int(dst) < len(t) {
		return t[dst]
	}
	return nil
}

func (t *routeTable) set(rt *route) {
	for int(rt.dst) >= len(*t) {
		*t = append(*t, nil)
	}
	(*t)[rt.dst] = rt
}

func (t routeTable) del(dst network.NodeID) {
	if int(dst) < len(t) {
		t[dst] = nil
	}
}

// dsts lists the destinations in address order, the order ns-3.37's
// table (a std::map by address) visits them.
func (t routeTable) dsts() []network.NodeID {
	var out []network.NodeID
	for i, rt := range t {
		if rt != nil {
			out = append(out, network.NodeID(i))
		}
	}
	return out
}

// lookup is the entry for dst, after expiry (ns-3.37's Purge, applied
// to the one entry): a valid route past its lifetime turns invalid for
// DELETE_PERIOD, an invalid one past it is deleted.
func (a *aodv) lookup(dst network.NodeID) *route {
	rt := a.table.get(dst)
	if rt == nil || rt.expires >= a.now() {
		return rt
	}
	switch rt.state {
	case valid:
		if a.p.InvalidatedSeq == SeqRaisedNS2 && rt.validSeq {
			rt.seq++ // ns-2.35's rt_purge
		}
		rt.state, rt.expires = invalid, a.now()+a.p.deletePeriod()
	case invalid:
		if a.p.RequestTimer == RequestNS2 {
			// ns-2.35 never deletes an entry: its last hop count,
			// request state and latencies go on serving discoveries.
			rt.expires = a.now() + a.p.deletePeriod()
			return rt
		}
		a.table.del(dst)
		return nil
	}
	return rt
}

// valid is the active route to dst, or nil.
func (a *aodv) valid(dst network.NodeID) *route {
	if rt := a.lookup(dst); rt != nil && rt.state == valid {
		return rt
	}
	return nil
}

// entry is the entry for dst, made (invalid, expired) if there is none.
func (a *aodv) entry(dst network.NodeID) *route {
	rt := a.lookup(dst)
	if rt == nil {
		rt = &route{dst: dst, state: invalid, expires: a.now()}
		a.table.set(rt)
	}
	return rt
}

// remaining is the lifetime left of rt.
func (a *aodv) remaining(rt *route) sim.Time { return max(0, rt.expires-a.now()) }

// extend makes rt live at least d from now.
func (a *aodv) extend(rt *route, d sim.Time) { rt.expires = max(rt.expires, a.now()+d) }

// refresh extends an active route's lifetime to at least
// ACTIVE_ROUTE_TIMEOUT on use (RFC 3561 §6.2; ns-3.37 also clears its
// request count).
func (a *aodv) refresh(dst network.NodeID) {
	if rt := a.valid(dst); rt != nil {
		a.extend(rt, a.p.ActiveRouteTimeout)
		rt.rreqCnt = 0
	}
}

// addPrecursor records that nb forwards to rt's destination through us.
func (rt *route) addPrecursor(nb network.NodeID) {
	if !slices.Contains(rt.precursors, nb) {
		rt.precursors = append(rt.precursors, nb)
	}
}

// invalidate marks the routes to dsts broken: invalid for DELETE_PERIOD
// (RFC 3561 §6.11).
func (a *aodv) invalidate(dsts []unreachableDst) {
	for _, u := range dsts {
		if rt := a.table.get(u.dst); rt != nil && rt.state == valid {
			rt.state, rt.expires = invalid, a.now()+a.p.deletePeriod()
		}
	}
}

// neighbourRoute is ns-3.37's UpdateRouteToNeighbor, run for every AODV
// message received: a one-hop route to its sender, live for at least
// ACTIVE_ROUTE_TIMEOUT (a fresh or differing entry is replaced).
func (a *aodv) neighbourRoute(from network.NodeID) {
	rt := a.lookup(from)
	switch {
	case rt == nil:
		a.table.set(&route{dst: from, next: from, hops: 1, state: valid, expires: a.now() + a.p.ActiveRouteTimeout})
	case rt.validSeq && rt.hops == 1 && rt.next == from:
		// ns-3.37 extends a copy of the entry here, not the entry: no effect.
	default:
		// ns-3.37 replaces the entry: precursors and sequence number go.
		*rt = route{dst: from, next: from, hops: 1, state: valid, retry: rt.retry,
			expires: a.now() + max(a.p.ActiveRouteTimeout, a.remaining(rt))}
	}
}

// neighbour is one entry of the neighbour table (RFC 3561 §6.10), in the
// order first heard.
type neighbour struct {
	id      network.NodeID
	expires sim.Time
	closed  bool // the MAC failed a frame to it
}

// heard notes that nb was heard from (or used) and counts as a neighbour
// for at least d.
func (a *aodv) heard(nb network.NodeID, d sim.Time) {
	for i := range a.nbrs {
		if a.nbrs[i].id == nb {
			a.nbrs[i].expires = max(a.nbrs[i].expires, a.now()+d)
			return
		}
	}
	a.nbrs = append(a.nbrs, neighbour{id: nb, expires: a.now() + d})
	if !a.purge.Armed() {
		a.purge.Arm(a.now() + a.p.HelloInterval)
	}
}

// trafficHeard is heard for a neighbour known by a request or by
// forwarding, if such count (TrafficNeighbours).
func (a *aodv) trafficHeard(nb network.NodeID, d sim.Time) {
	if a.p.TrafficNeighbours {
		a.heard(nb, d)
	}
}

// closeNeighbour is the MAC's news that the link to nb broke: it is
// handled at once if nb is a known neighbour (ns-3.37's ProcessTxError).
func (a *aodv) closeNeighbour(nb network.NodeID) bool {
	for i := range a.nbrs {
		if a.nbrs[i].id == nb {
			a.nbrs[i].closed = true
			a.purgeNeighbours()
			return true
		}
	}
	return false
}

// purgeNeighbours drops the neighbours that expired or broke, each a
// broken link; it runs every HELLO_INTERVAL while there are neighbours.
func (a *aodv) purgeNeighbours() {
	var broken []network.NodeID
	kept := a.nbrs[:0]
	for _, n := range a.nbrs {
		if n.closed || n.expires < a.now() {
			broken = append(broken, n.id)
			continue
		}
		kept = append(kept, n)
	}
	a.nbrs = kept
	for _, nb := range broken {
		a.linkBroken(nb)
	}
	if len(a.nbrs) > 0 {
		a.purge.Arm(a.now() + a.p.HelloInterval)
	} else {
		a.purge.Cancel()
	}
}
