package routing

import (
	"slices"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Sizes of DSR's control packets as IP packets (ns-2.35's header sizes,
// without its request-size bug): IPv4 20, DSR header 4, and the option.
func rreqSize(addrs int) int32 { return int32(20 + 4 + 4 + 4*addrs) }
func rrepSize(srAddrs, replyAddrs int) int32 {
	return int32(20 + align4(4+4*(srAddrs-1)+5+4*replyAddrs))
}
func rerrSize(srAddrs int) int32 { return int32(20 + align4(4+4*(srAddrs-1)+16)) }
func align4(n int) int           { return (n + 3) &^ 3 }

// seek advances the discovery of a route to dst for a packet waiting
// (ns-2.35's getRouteForPacket): a new round when the backoff allows,
// opened by a non-propagating request; the round's flood once that
// request went unanswered NonpropTimeout. For another node's packet
// (foreign: waiting to be salvaged) there is no flood, and the round
// after SalvageRequests rounds gives it up: seek reports it is to be
// dropped.
func (d *dsr) seek(dst network.NodeID, foreign bool) (giveUp bool) {
	st := d.disc[dst]
	if st == nil {
		st = &discovery{lastReq: -(d.p.RequestPeriod + sim.Second)}
		d.disc[dst] = st
	}
	now := d.now()
	wait := min(d.p.RequestPeriod<<min(2*st.outstanding, 40), d.p.MaxRequestPeriod)
	switch {
	case st.lastReq+wait <= now:
		if st.outstanding == 0 {
			d.stats.Discoveries++
		}
		st.outstanding = min(st.outstanding+1, 15)
		st.lastReq = now
		if foreign && st.outstanding > d.p.SalvageRequests {
			return true
		}
		if d.p.RingZero {
			st.flooded, st.lastArp = false, now
			d.request(dst, 0)
		} else {
			st.flooded = true
			d.request(dst, d.p.MaxRouteLen)
		}
	case !st.flooded && !foreign && now-st.lastArp > d.p.NonpropTimeout:
		st.flooded = true
		d.request(dst, d.p.MaxRouteLen)
	}
	return false
}

// request broadcasts a route request for target, spreading maxProp hops
// (0: neighbours only), with the last route error received if recent.
func (d *dsr) request(target network.NodeID, maxProp int) {
	d.reqID++
	m := &dsrMsg{kind: RREQ, orig: d.nd.ID, target: target, id: d.reqID, route: []network.NodeID{d.nd.ID}, maxProp: maxProp}
	size := rreqSize(1)
	if d.err != nil && d.now()-d.errAt <= d.p.ErrorHold {
		m.err = d.err
		size += 16
		if maxProp > 0 {
			d.err = nil // a flood carried it
		}
	}
	d.seen[d.nd.ID] = d.reqID
	p := d.control(m, size)
	p.Dst = network.Broadcast
	if d.p.JitterOwnRequests && d.p.Jitter > 0 {
		d.net.Sched.At(d.now()+d.jitter(), func() { d.count(p); d.radio.Send(p, nil) })
		return
	}
	d.count(p)
	d.radio.Send(p, nil)
}

// recvRequest handles a route request (RFC 4728 §8.2.2-3).
func (d *dsr) recvRequest(m *dsrMsg) {
	me := d.nd.ID
	if m.err != nil {
		d.recvError(m.err)
	}
	if m.orig == me || d.seen[m.orig] >= m.id || slices.Contains(m.route, me) {
		return
	}
	d.seen[m.orig] = m.id
	if m.target == me {
		// Answer every copy, along the route it came by, reversed.
		full := append(slices.Clone(m.route), me)
		back := reversed(full)
		d.cache[0].add(back)
		rep := &dsrMsg{kind: RREP, route: full}
		d.sendRouted(d.control(rep, rrepSize(len(back), len(full))), back, d.jitter())
		return
	}
	if d.p.ReplyFromCache {
		if rest := d.findRoute(m.target); rest != nil && len(m.route)+len(rest) <= d.p.MaxRouteLen {
			full := withoutLoops(append(slices.Clone(m.route), rest...))
			if slices.Contains(full, me) {
				back := reversed(append(slices.Clone(m.route), me))
				d.cache[0].add(back)
				rep := &dsrMsg{kind: RREP, route: full}
				d.sendRouted(d.control(rep, rrepSize(len(back), len(full))), back, 0)
				return
			}
		}
	}
	if len(m.route) > m.maxProp || len(m.route)+1 >= d.p.MaxRouteLen {
		return
	}
	fwd := *m
	fwd.route = append(slices.Clone(m.route), me)
	size := rreqSize(len(fwd.route))
	if fwd.err != nil {
		size += 16
	}
	p := d.control(&fwd, size)
	p.Dst = network.Broadcast
	d.net.Sched.At(d.now()+d.jitter(), func() { d.count(p); d.radio.Send(p, nil) })
}

// acceptReply takes a route a reply brought: into the primary cache, the
// target's discovery is over, and the packets waiting go (RFC 4728 §8.2.5).
func (d *dsr) acceptReply(route []network.NodeID) {
	if len(route) < 2 || route[0] != d.nd.ID {
		return
	}
	d.cache[0].add(route)
	if st := d.disc[route[len(route)-1]]; st != nil {
		st.outstanding, st.lastReq = 0, 0
	}
	d.release(true)
}

// release sends every buffered packet that now has a cached route, in
// order. Those a reply frees (spaced) go ReleaseSpacing apart from now,
// ns-2.35's way (acceptRouteReply: from no delay, one more spacing per
// packet); a look at the buffer sends at once, as ns-2's does.
func (d *dsr) release(spaced bool) {
	d.buf.purge()
	kept := d.buf.items[:0]
	var out []*network.Packet
	for _, w := range d.buf.items {
		if d.findRoute(w.p.Dst) != nil {
			out = append(out, w.p)
			continue
		}
		kept = append(kept, w)
	}
	clear(d.buf.items[len(kept):])
	d.buf.items = kept
	if !spaced || d.p.ReleaseSpacing == 0 {
		for _, p := range out {
			d.originate(p)
		}
		return
	}
	at := d.now()
	for _, p := range out {
		if at == d.now() {
			d.originate(p)
		} else {
			d.net.Sched.At(at, func() { d.originate(p) })
		}
		at += d.p.ReleaseSpacing
	}
}

// armCheck schedules the next look at the send buffer: 1 to 2 periods on.
func (d *dsr) armCheck() {
	d.check.Arm(d.now() + d.p.BufferCheck + sim.Time(d.rng.Float64()*float64(d.p.BufferCheck)))
}

// checkBuffer drops expired packets, sends those with a route, and
// advances the discoveries of the others.
func (d *dsr) checkBuffer() {
	d.release(false)
	kept := d.buf.items[:0]
	for _, w := range d.buf.items {
		if d.seek(w.p.Dst, w.p.Src != d.nd.ID) {
			d.net.Drop(w.p, network.SalvageFailed, nil)
			continue
		}
		kept = append(kept, w)
	}
	clear(d.buf.items[len(kept):])
	d.buf.items = kept
	if len(d.buf.items) > 0 {
		d.armCheck()
	}
}
