package routing

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// localAddTTL is RFC 3561 §10's LOCAL_ADD_TTL.
const localAddTTL = 2

// RepairTimer is how a local repair that gets no reply ends.
type RepairTimer uint8

const (
	// RepairRFC: after the ring's traversal time, with a route error
	// (RFC 3561 §6.12).
	RepairRFC RepairTimer = iota
	// RepairNS2: as ns-2.35, whose repair request starts at TTL_START, is
	// not sent while an earlier request of the node for that destination
	// is within its timeout, and whose timer is set to the absolute time
	// of that timeout taken as a delay (local_rt_repair): a repair whose
	// request or reply was lost holds the destination's packets for about
	// as long again as the run has lasted, and ends without a route error.
	RepairNS2
)

var repairTimerNames = []string{"rfc", "ns2"}

// DestinationSeq is when a destination raises its sequence number to
// answer a request.
type DestinationSeq uint8

const (
	// DestSeqRFC: only when the request carries its number plus one (RFC
	// 3561 §6.6.1; ns-3.37).
	DestSeqRFC DestinationSeq = iota
	// DestSeqNS2: the node's own number as ns-2.35 keeps it, always even:
	// before every reply the next even number above both its own and the
	// request's (recvRequest), and 2 more before each request it sends
	// (sendRequest), so that a route invalidated by one (odd) is never as
	// new as the node's next request.
	DestSeqNS2
)

var destinationSeqNames = []string{"rfc", "ns2"}

func (v DestinationSeq) String() string { return component.EnumName(destinationSeqNames, v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *DestinationSeq) UnmarshalText(b []byte) error {
	return component.ParseEnum(destinationSeqNames, v, b)
}

// ns-2.35's request timeouts: MAX_RREQ_TIMEOUT, and its route table's
// purge period, when it asks again for destinations packets wait for.
const (
	ns2MaxRequestTimeout = 10 * sim.Second
	ns2PurgePeriod       = 500 * sim.Millisecond
)

func (v RepairTimer) String() string { return component.EnumName(repairTimerNames, v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *RepairTimer) UnmarshalText(b []byte) error {
	return component.ParseEnum(repairTimerNames, v, b)
}

// repairs decides whether the failure of p toward nb starts, or joins, a
// local repair (RFC 3561 §6.12) and if so takes p into the buffer. A data
// packet forwarded for another node is repaired when it has come further
// than it has left to go (ns-2.35's rt_ll_failed: its hops so far, here
// the hop count of the route back to its source, above the route's to
// its destination); a route already in repair takes every packet.
func (a *aodv) repairs(p *network.Packet, nb network.NodeID) bool {
	if p.Proto == network.Control || p.Dst == network.Broadcast || p.Src == a.nd.ID {
		return false
	}
	rt := a.lookup(p.Dst)
	if rt != nil && rt.state == inRepair {
		a.buf.add(p)
		return true
	}
	if rt == nil || rt.state != valid || rt.next != nb {
		return false
	}
	came := 0
	if back := a.lookup(p.Src); back != nil {
		came = back.hops
	}
	if came <= rt.hops {
		return false
	}
	a.buf.add(p)
	a.repair(rt, came)
	return true
}

// repair seeks rt's destination again from here (RFC 3561 §6.12): its
// sequence number one higher, a request of TTL max(MIN_REPAIR_TTL, half
// the hops to the source) + LOCAL_ADD_TTL, MIN_REPAIR_TTL being the last
// hop count to the destination, and one ring's traversal time for the
// reply; the packets for the destination wait meanwhile. With
// RepairTimer ns2 it is ns-2.35's (repairNS2).
func (a *aodv) repair(rt *route, toSource int) {
	a.stats.LocalRepairs++
	if a.p.RepairTimer == RepairNS2 {
		a.repairNS2(rt)
		return
	}
	rt.seq++
	ttl := min(max(rt.hops, toSource/2)+localAddTTL, a.p.NetDiameter)
	rt.state, rt.hops = inRepair, ttl
	a.scheduleRetry(rt)
	rt.expires = max(rt.expires, a.now()+a.p.pathDiscoveryTime())
	a.sendRepairRequest(rt, ttl)
}

// repairNS2 is ns-2.35's local_rt_repair: the route, hop count and
// destination sequence number unchanged, is marked in repair and asked
// for network-wide (its last hop count starts at infinity); a reply no
// newer and no shorter is discarded (recvReply), so that a next hop still
// alive answers to no effect; the request goes again every purge period
// while packets wait (requestNS2); and the repair's own timer is set to an
// absolute time taken as a delay.
func (a *aodv) repairNS2(rt *route) {
	rt.state = inRepair
	rt.repairEnd = a.now() + a.now() + 2*sim.Time(a.p.NetDiameter)*a.p.NodeTraversalTime
	a.retryTimer(rt).Arm(a.now() + ns2PurgePeriod)
	rt.expires = max(rt.expires, rt.repairEnd)
	a.requestNS2(rt)
}

// requestNS2 is ns-2.35's sendRequest for a route in repair: nothing while
// an earlier request is within its timeout; after RREQ_RETRIES + 1 requests
// at the network diameter the waiting packets are lost and the node waits
// MAX_RREQ_TIMEOUT; else a request, timed out after 2·TTL·NODE_TRAVERSAL_TIME
// times the requests so far, at most MAX_RREQ_TIMEOUT.
func (a *aodv) requestNS2(rt *route) {
	now := a.now()
	if now < rt.reqUntil {
		return
	}
	if rt.rreqCnt > a.p.RREQRetries {
		// Counted before this request, as ns-2.35's sendRequest counts:
		// RREQ_RETRIES + 1 requests go out before it gives up.
		rt.reqUntil, rt.rreqCnt = now+ns2MaxRequestTimeout, 0
		a.buf.drop(rt.dst, network.NoRoute)
		return
	}
	rt.rreqCnt++
	ttl := a.p.NetDiameter
	rt.reqUntil = now + min(2*sim.Time(ttl)*a.p.NodeTraversalTime*sim.Time(rt.rreqCnt), ns2MaxRequestTimeout)
	a.sendRepairRequest(rt, ttl)
}

// repairTick is a repair's timer under RepairTimer ns2: the route table's
// purge asks again while packets wait, until the repair's own timer.
func (a *aodv) repairTick(rt *route) {
	if a.now() >= rt.repairEnd {
		a.repairFailed(rt)
		return
	}
	if a.buf.has(rt.dst) {
		a.requestNS2(rt)
	}
	rt.retry.Arm(a.now() + ns2PurgePeriod)
}

// sendRepairRequest broadcasts a repair's request, TTL ttl.
func (a *aodv) sendRepairRequest(rt *route, ttl int) {
	a.rateWindow()
	a.rreqCount++
	a.broadcastRequest(&aodvMsg{kind: RREQ, dst: rt.dst, orig: a.nd.ID, dstSeq: rt.seq,
		gratuitous: a.p.GratuitousReply, destOnly: a.p.DestinationOnly}, ttl)
}

// repairFailed: no reply came in time. The route breaks as a link break
// would break it (RFC 3561 §6.12: a route error for the destination to
// its precursors) and the packets that waited are lost; ns-2.35 sends no
// route error.
func (a *aodv) repairFailed(rt *route) {
	if a.p.RepairTimer != RepairNS2 {
		a.sendError([]unreachableDst{{rt.dst, rt.seq}}, rt.precursors)
	}
	rt.state, rt.expires = invalid, a.now()+a.p.deletePeriod()
	a.buf.drop(rt.dst, network.BrokenLink)
}

// acceptsRepairReply reports whether a reply to this node's own repair
// request is taken: any (RFC 3561), or under RepairTimer ns2 only a newer
// one or an equal one with fewer hops (ns-2.35's recvReply).
func (a *aodv) acceptsRepairReply(rt *route, seq uint32, hops int) bool {
	return a.p.RepairTimer != RepairNS2 || int32(seq-rt.seq) > 0 || seq == rt.seq && hops < rt.hops
}
