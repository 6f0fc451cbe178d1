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
// reply; the packets for the destination wait meanwhile. RepairTimer ns2
// is ns-2.35's version (AODVParams).
func (a *aodv) repair(rt *route, toSource int) {
	a.stats.LocalRepairs++
	rt.seq++
	ttl := min(max(rt.hops, toSource/2)+localAddTTL, a.p.NetDiameter)
	ns2 := a.p.RepairTimer == RepairNS2
	if ns2 {
		ttl = a.p.TTLStart
	}
	rt.state, rt.hops = inRepair, ttl
	if ns2 {
		send := a.now() >= rt.reqUntil
		if send {
			rt.reqUntil = a.now() + 2*sim.Time(ttl)*a.p.NodeTraversalTime
		}
		a.retryTimer(rt).Arm(a.now() + rt.reqUntil) // an absolute time taken as a delay
		rt.expires = max(rt.expires, rt.retry.Deadline())
		if !send {
			return
		}
	} else {
		a.scheduleRetry(rt)
		rt.expires = max(rt.expires, a.now()+a.p.pathDiscoveryTime())
	}
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
