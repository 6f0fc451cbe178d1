package routing

import (
	"slices"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
)

// InvalidatedSeq is what invalidating a route does to the destination's
// sequence number. Raising it makes the requests that follow ask for a
// newer route than the broken one, which nodes still holding that route
// cannot then offer (RFC 3561 §6.1: "the node increments the sequence
// number and marks the route as invalid").
type InvalidatedSeq uint8

const (
	// SeqKeptNS3: kept (ns-3.37: InvalidateRoutesWithDst and Purge only
	// change the flag, though the header's comment says it increments).
	SeqKeptNS3 InvalidatedSeq = iota
	// SeqRaisedRFC: raised by one for a valid route through a broken link
	// (§6.11 cases (i)); taken from a route error if newer (case (iii)).
	SeqRaisedRFC
	// SeqRaisedNS2: as SeqRaisedRFC, and raised too when an active route
	// expires (ns-2.35's handle_link_failure, recvError and rt_purge).
	SeqRaisedNS2
)

var invalidatedSeqNames = []string{"ns3", "rfc", "ns2"}

func (v InvalidatedSeq) String() string { return component.EnumName(invalidatedSeqNames, v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *InvalidatedSeq) UnmarshalText(b []byte) error {
	return component.ParseEnum(invalidatedSeqNames, v, b)
}

// raiseSeq raises a valid route's known sequence number as it is about to
// be invalidated, unless the number is kept (ns-3.37).
func (a *aodv) raiseSeq(rt *route) {
	if a.p.InvalidatedSeq != SeqKeptNS3 && rt.state == valid && rt.validSeq {
		rt.seq++
	}
}

// linkBroken handles a broken link to neighbour nb (RFC 3561 §6.11 (i);
// ns-3.37's SendRerrWhenBreaksLinkToNextHop): every destination reached
// through nb is unreachable; their precursors hear of it in one route
// error, then the routes are invalidated.
func (a *aodv) linkBroken(nb network.NodeID) {
	a.stats.LinkBreaks++
	var lost []unreachableDst
	var pre []network.NodeID
	addPre := func(rt *route) {
		for _, x := range rt.precursors {
			if !slices.Contains(pre, x) {
				pre = append(pre, x)
			}
		}
	}
	if rt := a.lookup(nb); rt != nil {
		a.raiseSeq(rt)
		lost = append(lost, unreachableDst{nb, rt.seq})
		addPre(rt)
	}
	for _, dst := range a.table.dsts() {
		rt := a.lookup(dst)
		if rt == nil || dst == nb || rt.next != nb {
			continue
		}
		a.raiseSeq(rt)
		lost = append(lost, unreachableDst{dst, rt.seq})
		addPre(rt)
	}
	if len(lost) == 0 {
		return
	}
	a.sendError(lost, pre)
	a.invalidate(lost)
}

// sendError sends a route error to the precursors (ns-3.37's
// SendRerrMessage): unicast to a single one it has a route to, counted
// against RERR_RATELIMIT; broadcast to several.
func (a *aodv) sendError(lost []unreachableDst, pre []network.NodeID) {
	if len(pre) == 0 {
		return
	}
	a.rateWindow()
	if a.rerrs >= a.p.RERRRateLimit {
		return
	}
	m := &aodvMsg{kind: RERR, ttl: 1, unreachable: lost}
	if len(pre) == 1 {
		if a.valid(pre[0]) == nil {
			return
		}
		a.rerrs++
		a.transmit(m, rerrBytes(len(lost)), a.node(pre[0]), a.jitter())
		return
	}
	a.transmit(m, rerrBytes(len(lost)), nil, a.jitter())
}

// errorNoRoute tells the source of a packet this node cannot forward
// (RFC 3561 §6.11 (ii); ns-3.37's SendRerrWhenNoRouteToForward, which
// neither delays nor counts it).
func (a *aodv) errorNoRoute(dst, src network.NodeID) {
	a.rateWindow()
	if a.rerrs >= a.p.RERRRateLimit {
		return
	}
	var seq uint32
	if rt := a.lookup(dst); rt != nil {
		seq = rt.seq
	}
	m := &aodvMsg{kind: RERR, ttl: 1, unreachable: []unreachableDst{{dst, seq}}}
	if back := a.valid(src); back != nil {
		a.transmit(m, rerrBytes(1), a.node(back.next), 0)
		return
	}
	a.transmit(m, rerrBytes(1), nil, 0)
}

// recvError handles a route error from neighbour from (RFC 3561 §6.12):
// the listed destinations this node reaches through from are lost too;
// their precursors hear of it.
func (a *aodv) recvError(m *aodvMsg, from network.NodeID) {
	var lost []unreachableDst
	var pre []network.NodeID
	for _, u := range m.unreachable {
		rt := a.lookup(u.dst)
		if rt == nil || rt.next != from {
			continue
		}
		if a.p.InvalidatedSeq == SeqRaisedNS2 && (rt.state != valid || rt.validSeq && int32(rt.seq-u.seq) > 0) {
			continue // ns-2.35's recvError: only an active route no newer than the error's
		}
		lost = append(lost, u)
		for _, x := range rt.precursors {
			if !slices.Contains(pre, x) {
				pre = append(pre, x)
			}
		}
	}
	if len(lost) == 0 {
		return
	}
	a.sendError(lost, pre)
	if a.p.InvalidatedSeq != SeqKeptNS3 {
		for _, u := range lost {
			if rt := a.table.get(u.dst); rt != nil && rt.state == valid && (!rt.validSeq || int32(u.seq-rt.seq) > 0) {
				rt.seq, rt.validSeq = u.seq, true // §6.11 (iii): the error's number, if newer
			}
		}
	}
	a.invalidate(lost)
}
