package routing

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// RequestTimer is how a source paces the requests of a route discovery.
type RequestTimer uint8

const (
	// RequestRFC: RFC 3561 §6.3-6.4 as ns-3.37's SendRequest: the ring's
	// TTL from TTL_START up by TTL_INCREMENT to TTL_THRESHOLD, then the
	// network diameter RREQ_RETRIES times, each awaited a ring's traversal
	// time (at the diameter NET_TRAVERSAL_TIME, doubling), at most
	// RREQ_RATELIMIT requests a second; then the waiting packets are lost.
	RequestRFC RequestTimer = iota
	// RequestNS2: ns-2.35's sendRequest. Every packet the source sends
	// and every purge of its route table (each 0.5 s) while packets wait
	// asks for a request, which goes only once the last one's timeout has
	// passed. The TTL follows the larger of the last request's TTL and the
	// destination's last hop count — a destination never reached counts
	// as infinitely far, so its first request covers the network — up by
	// TTL_INCREMENT below TTL_THRESHOLD, else the diameter; the timeout is
	// 2·TTL times the measured discovery latency per hop (the mean of the
	// last three, NODE_TRAVERSAL_TIME before any), times the requests at
	// the diameter, at most MAX_RREQ_TIMEOUT; after RREQ_RETRIES + 1 at the
	// diameter the waiting packets are lost and the source waits
	// MAX_RREQ_TIMEOUT. No jitter on the source's own requests, no rate
	// limit.
	RequestNS2
)

var requestTimerNames = []string{"rfc", "ns2"}

func (v RequestTimer) String() string { return component.EnumName(requestTimerNames, v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *RequestTimer) UnmarshalText(b []byte) error {
	return component.ParseEnum(requestTimerNames, v, b)
}

// ns2Unreached is ns-2.35's INFINITY2, the hop count of a destination
// never reached.
const ns2Unreached = 0xff

// request starts or continues a route discovery for dst (RFC 3561 §6.3,
// §6.4; ns-3.37's SendRequest): the expanding ring's next TTL, a request
// broadcast after a jitter, and a retry timer.
func (a *aodv) request(dst network.NodeID) {
	if a.p.RequestTimer == RequestNS2 {
		a.requestSourceNS2(dst)
		return
	}
	a.rateWindow()
	if a.rreqCount >= a.p.RREQRateLimit {
		// RFC 3561 §6.3: at most RREQ_RATELIMIT a second; ns-3.37 tries
		// again just after the window ends.
		next := sim.Time(a.window+1)*sim.Second + 100*sim.Microsecond
		a.net.Sched.At(next, func() { a.request(dst) })
		return
	}
	a.rreqCount++
	p := a.p
	rt := a.lookup(dst)
	var ttl int
	m := &aodvMsg{kind: RREQ, dst: dst, orig: a.nd.ID, gratuitous: p.GratuitousReply, destOnly: p.DestinationOnly}
	if rt != nil {
		if rt.state != inSearch {
			// A route known before: the ring starts at its last hop
			// count plus TTL_INCREMENT (RFC 3561 §6.4).
			ttl = min(rt.hops+p.TTLIncrement, p.NetDiameter)
			a.stats.Discoveries++
		} else {
			ttl = rt.hops + p.TTLIncrement
			if ttl > p.TTLThreshold {
				ttl = p.NetDiameter
			}
		}
		if ttl == p.NetDiameter {
			rt.rreqCnt++
		}
		m.dstSeq, m.unknownSeq = rt.seq, !rt.validSeq
		rt.state, rt.hops, rt.expires = inSearch, ttl, a.now()+p.pathDiscoveryTime()
	} else {
		ttl = p.TTLStart
		a.stats.Discoveries++
		rt = &route{dst: dst, state: inSearch, hops: ttl, expires: a.now() + p.pathDiscoveryTime()}
		if ttl == p.NetDiameter {
			rt.rreqCnt++
		}
		m.unknownSeq = true
		a.table.set(rt)
	}
	a.broadcastRequest(m, ttl)
	a.scheduleRetry(rt)
}

// broadcastRequest sends route request m, TTL ttl, under this node's next
// sequence number and request id, after a jitter; the node will not
// forward its own request.
func (a *aodv) broadcastRequest(m *aodvMsg, ttl int) {
	a.sendRequest(m, ttl, a.jitter())
}

// sendRequest sends route request m, TTL ttl, delay after now.
func (a *aodv) sendRequest(m *aodvMsg, ttl int, delay sim.Time) {
	a.seq++
	if a.p.DestinationSeq == DestSeqNS2 {
		a.seq += a.seq % 2 // the next even number: 2 more (ns-2.35's sendRequest)
	}
	a.rreqID++
	m.origSeq, m.id, m.ttl, m.stamp = a.seq, a.rreqID, ttl, a.now()
	a.seen[rreqKey{a.nd.ID, m.id}] = a.now() + a.p.pathDiscoveryTime()
	a.lastBcast = a.now()
	a.transmit(m, rreqBytes, nil, delay)
}

// requestSourceNS2 is ns-2.35's sendRequest for the source's own
// discovery (RequestNS2).
func (a *aodv) requestSourceNS2(dst network.NodeID) {
	p, now := a.p, a.now()
	rt := a.lookup(dst)
	switch {
	case rt == nil:
		rt = &route{dst: dst, state: inSearch, hops: ns2Unreached}
		a.table.set(rt)
		a.stats.Discoveries++
	case rt.state == valid:
		return
	case rt.state == invalid:
		rt.state = inSearch
		a.stats.Discoveries++
	}
	rt.expires = now + ns2MaxRequestTimeout + ns2PurgePeriod // kept while it is sought
	defer a.armPurge(rt)
	if now < rt.reqUntil {
		return
	}
	if rt.rreqCnt > p.RREQRetries {
		rt.reqUntil, rt.rreqCnt = now+ns2MaxRequestTimeout, 0
		a.stats.Failed++
		a.buf.drop(dst, network.NoRoute)
		return
	}
	rt.lastTTL = max(rt.lastTTL, rt.hops)
	ttl := p.TTLStart
	switch {
	case rt.lastTTL == 0:
	case rt.lastTTL < p.TTLThreshold:
		ttl = rt.lastTTL + p.TTLIncrement
	default:
		ttl = p.NetDiameter
		rt.rreqCnt++
	}
	rt.lastTTL = ttl
	timeout := 2 * sim.Time(ttl) * a.perHopTime(rt)
	if rt.rreqCnt > 0 {
		timeout *= sim.Time(rt.rreqCnt)
	}
	rt.reqUntil = now + min(timeout, ns2MaxRequestTimeout)
	a.rateWindow()
	a.rreqCount++
	a.sendRequest(&aodvMsg{kind: RREQ, dst: dst, orig: a.nd.ID, dstSeq: rt.seq, unknownSeq: !rt.validSeq,
		gratuitous: p.GratuitousReply, destOnly: p.DestinationOnly}, ttl, 0)
}

// armPurge sets rt's timer to the route table's next purge (every
// ns2PurgePeriod of the clock), when a source asks again for a
// destination packets still wait for.
func (a *aodv) armPurge(rt *route) {
	next := (a.now()/ns2PurgePeriod + 1) * ns2PurgePeriod
	a.retryTimer(rt).Arm(next)
}

// perHopTime is ns-2.35's PerHopTime: the mean of the route's last
// discovery latencies per hop, or NODE_TRAVERSAL_TIME before any.
func (a *aodv) perHopTime(rt *route) sim.Time {
	n := min(rt.nLatency, len(rt.latency))
	if n == 0 {
		return a.p.NodeTraversalTime
	}
	var sum sim.Time
	for _, l := range rt.latency[:n] {
		sum += l
	}
	return sum / sim.Time(n)
}

// timeDiscovery is ns-2.35's recvReply for a reply to the source's own
// request: the discovery's latency per hop is remembered (MAX_HISTORY 3)
// and its timers reset.
func (rt *route) timeDiscovery(now, stamp sim.Time, hops int) {
	if hops > 0 {
		rt.latency[rt.nLatency%len(rt.latency)] = (now - stamp) / sim.Time(hops)
		rt.nLatency++
	}
	rt.rreqCnt, rt.reqUntil, rt.lastTTL = 0, 0, hops
}

// scheduleRetry arms the discovery's timer: a ring's traversal time
// (2·NODE_TRAVERSAL_TIME·(TTL + TIMEOUT_BUFFER)) inside the ring, binary
// exponential backoff of NET_TRAVERSAL_TIME at the diameter (RFC 3561
// §6.3, §6.4).
func (a *aodv) scheduleRetry(rt *route) {
	var wait sim.Time
	if rt.hops < a.p.NetDiameter {
		wait = 2 * a.p.NodeTraversalTime * sim.Time(rt.hops+a.p.TimeoutBuffer)
	} else {
		wait = a.p.netTraversalTime() << max(0, rt.rreqCnt-1)
	}
	a.retryTimer(rt).Arm(a.now() + wait)
}

// retryTimer is rt's discovery timer, made on first use.
func (a *aodv) retryTimer(rt *route) *sim.Timer {
	if rt.retry == nil {
		dst := rt.dst
		rt.retry = sim.NewTimer(a.net.Sched, func() { a.retryExpired(dst) })
	}
	return rt.retry
}

// retryExpired: no reply came in time.
func (a *aodv) retryExpired(dst network.NodeID) {
	if a.valid(dst) != nil {
		a.flush(dst)
		return
	}
	rt := a.lookup(dst)
	if rt != nil && rt.state == inRepair {
		if a.p.RepairTimer == RepairNS2 {
			a.repairTick(rt)
			return
		}
		a.repairFailed(rt)
		return
	}
	if a.p.RequestTimer == RequestNS2 {
		if rt != nil && rt.state == inSearch && a.buf.has(dst) {
			a.requestSourceNS2(dst)
		}
		return
	}
	if rt != nil && rt.state == inSearch && rt.rreqCnt < a.p.RREQRetries {
		a.request(dst)
		return
	}
	// Given up (RFC 3561 §6.3): the waiting packets are lost.
	if rt != nil && rt.state == inSearch {
		a.stats.Failed++
	}
	a.table.del(dst)
	a.buf.drop(dst, network.NoRoute)
}

// flush sends the packets that waited for dst, now that it has a route.
func (a *aodv) flush(dst network.NodeID) {
	a.buf.take(dst, func(p *network.Packet) { a.output(p) })
}

// release sends the packets a reply found rt for, ReleaseSpacing apart:
// the first at once, each later one handed to the radio for the route's
// next hop of now (ns-2.35's recvReply: forward(rt, p, delay)).
func (a *aodv) release(rt *route) {
	if a.p.ReleaseSpacing <= 0 {
		a.flush(rt.dst)
		return
	}
	next := a.node(rt.next)
	var delay sim.Time
	a.buf.take(rt.dst, func(p *network.Packet) {
		if delay == 0 {
			a.output(p)
		} else {
			a.net.Sched.At(a.now()+delay, func() {
				if p.Proto == network.Control {
					a.count(p)
				}
				a.radio.Send(p, next)
			})
		}
		delay += a.p.ReleaseSpacing
	})
}

// recvRequest handles a route request from neighbour from (RFC 3561
// §6.5; ns-3.37's RecvRequest).
func (a *aodv) recvRequest(m *aodvMsg, from network.NodeID) {
	p := a.p
	key := rreqKey{m.orig, m.id}
	if until, ok := a.seen[key]; ok && until >= a.now() {
		return // a duplicate
	}
	a.seen[key] = a.now() + p.pathDiscoveryTime()
	a.expireSeen()
	hops := m.hops + 1

	// The reverse route to the originator.
	back := a.lookup(m.orig)
	minLife := 2*p.netTraversalTime() - 2*sim.Time(hops)*p.NodeTraversalTime
	if back == nil {
		back = &route{dst: m.orig, next: from, hops: hops, seq: m.origSeq, validSeq: true, state: valid,
			expires: a.now() + minLife}
		a.table.set(back)
	} else {
		fresher := !back.validSeq || int32(m.origSeq-back.seq) > 0 || m.origSeq == back.seq && hops < back.hops
		if back.validSeq {
			if int32(m.origSeq-back.seq) > 0 {
				back.seq = m.origSeq
			}
		} else {
			back.seq = m.origSeq
		}
		back.validSeq, back.next, back.hops = true, from, hops
		waited := false
		if p.RevalidateReverse && fresher && back.state != valid {
			// RFC 3561 §6.5, ns-2.35's rt_update: the route is up, a local
			// repair or a discovery toward the originator over (ns-3.37
			// leaves an invalid reverse route invalid, one in search in
			// search).
			waited = back.state == inRepair || back.state == inSearch
			if back.state == inSearch && p.RequestTimer == RequestNS2 {
				back.lastTTL = hops // ns-2.35's recvRequest resets the request's state
			}
			back.state, back.rreqCnt, back.reqUntil = valid, 0, 0
			if waited && back.retry != nil {
				back.retry.Cancel()
			}
		}
		a.extend(back, minLife)
		if waited {
			a.flush(m.orig) // the packets that waited go (ns-2.35's recvRequest)
		}
	}
	// The one-hop route to the neighbour that sent it.
	nb := a.lookup(from)
	if nb == nil {
		a.table.set(&route{dst: from, next: from, hops: 1, state: valid, expires: a.now() + p.ActiveRouteTimeout})
	} else {
		nb.validSeq, nb.next, nb.hops, nb.state = false, from, 1, valid
		nb.expires = a.now() + p.ActiveRouteTimeout
	}
	a.trafficHeard(from, sim.Time(p.AllowedHelloLoss)*p.HelloInterval)

	if m.dst == a.nd.ID {
		a.replyAsDestination(m, back)
		return
	}
	toDst := a.lookup(m.dst)
	if toDst != nil && toDst.next == from {
		return // ns-3.37: the route to the destination runs back through the sender
	}
	if toDst != nil && toDst.validSeq && (m.unknownSeq || int32(toDst.seq-m.dstSeq) >= 0) {
		if !m.destOnly && toDst.state == valid {
			a.replyFromRoute(m, toDst, back)
			return
		}
	}
	// Rebroadcast with TTL one less, carrying the freshest destination
	// sequence number known here.
	if m.ttl < 2 {
		return
	}
	fwd := *m
	fwd.hops, fwd.ttl = hops, m.ttl-1
	fwd.unreachable = nil
	if toDst != nil && toDst.validSeq && int32(toDst.seq-fwd.dstSeq) > 0 {
		fwd.dstSeq = toDst.seq
		fwd.unknownSeq = false
	}
	a.lastBcast = a.now()
	a.transmit(&fwd, rreqBytes, nil, a.jitter())
}

// expireSeen forgets request ids older than PATH_DISCOVERY_TIME when the
// map has doubled since the last sweep, so that it neither grows with the
// run nor is swept at every request.
func (a *aodv) expireSeen() {
	if len(a.seen) < 2*a.seenKept+64 {
		return
	}
	for k, until := range a.seen {
		if until < a.now() {
			delete(a.seen, k)
		}
	}
	a.seenKept = len(a.seen)
}

// replyAsDestination answers a request for this node (RFC 3561 §6.6.1).
func (a *aodv) replyAsDestination(m *aodvMsg, back *route) {
	switch {
	case a.p.DestinationSeq == DestSeqNS2:
		a.seq = max(a.seq, m.dstSeq) + 1
		a.seq += a.seq % 2
	case !m.unknownSeq && m.dstSeq == a.seq+1:
		a.seq++
	}
	r := &aodvMsg{kind: RREP, dst: a.nd.ID, dstSeq: a.seq, orig: m.orig, lifetime: a.p.myRouteTimeout(), ttl: back.hops, stamp: m.stamp}
	a.transmit(r, rrepBytes, a.node(back.next), 0)
}

// replyFromRoute answers a request from the route table (RFC 3561
// §6.6.2), and tells the destination of the originator (§6.6.3).
func (a *aodv) replyFromRoute(m *aodvMsg, toDst, back *route) {
	r := &aodvMsg{kind: RREP, dst: m.dst, dstSeq: toDst.seq, orig: back.dst, hops: toDst.hops,
		lifetime: a.remaining(toDst), ttl: back.hops, ackRequired: toDst.hops == 1, stamp: m.stamp}
	toDst.addPrecursor(back.next)
	back.addPrecursor(toDst.next)
	a.transmit(r, rrepBytes, a.node(back.next), 0)
	if m.gratuitous {
		g := &aodvMsg{kind: RREP, dst: m.orig, dstSeq: m.origSeq, orig: toDst.dst, hops: back.hops,
			lifetime: a.remaining(back), ttl: toDst.hops}
		a.transmit(g, rrepBytes, a.node(toDst.next), 0)
	}
}

// recvReply handles a route reply (RFC 3561 §6.7; ns-3.37's RecvReply).
func (a *aodv) recvReply(m *aodvMsg, from network.NodeID) {
	if m.hello {
		a.recvHello(m, from)
		return
	}
	hops := m.hops + 1
	fresh := route{dst: m.dst, next: from, hops: hops, seq: m.dstSeq, validSeq: true, state: valid,
		expires: a.now() + m.lifetime}
	toDst := a.lookup(m.dst)
	switch {
	case toDst == nil:
		toDst = &route{}
		a.adopt(toDst, &fresh)
		a.table.set(toDst)
	case m.orig == a.nd.ID && toDst.state == inRepair && !a.acceptsRepairReply(toDst, m.dstSeq, hops):
		return
	case m.orig == a.nd.ID && (toDst.state == inSearch || toDst.state == inRepair):
		if a.p.RequestTimer == RequestNS2 && toDst.state == inSearch {
			toDst.timeDiscovery(a.now(), m.stamp, hops)
		}
		a.adopt(toDst, &fresh)
		toDst.retry.Cancel()
	case !toDst.validSeq, int32(m.dstSeq-toDst.seq) > 0,
		m.dstSeq == toDst.seq && toDst.state != valid,
		m.dstSeq == toDst.seq && hops < toDst.hops:
		a.adopt(toDst, &fresh)
	}
	if m.ackRequired {
		a.transmit(&aodvMsg{kind: RREPAck, ttl: 1}, ackBytes, a.node(from), 0)
	}
	if m.orig == a.nd.ID {
		if rt := a.valid(m.dst); rt != nil {
			a.release(rt)
		}
		return
	}
	back := a.lookup(m.orig)
	if back == nil || back.state == inSearch {
		return
	}
	a.extend(back, a.p.ActiveRouteTimeout)
	if rt := a.valid(m.dst); rt != nil {
		// Precursors (RFC 3561 §6.7).
		rt.addPrecursor(back.next)
		if nh := a.lookup(rt.next); nh != nil {
			nh.addPrecursor(back.next)
		}
		back.addPrecursor(rt.next)
		if ph := a.lookup(back.next); ph != nil {
			ph.addPrecursor(rt.next)
		}
	}
	if m.ttl < 2 {
		return
	}
	fwd := *m
	fwd.hops, fwd.ttl = hops, m.ttl-1
	a.transmit(&fwd, rrepBytes, a.node(back.next), 0)
}

// adopt makes rt the route fresh describes, keeping its precursors and
// discovery state.
func (a *aodv) adopt(rt, fresh *route) {
	pre, cnt, retry := rt.precursors, rt.rreqCnt, rt.retry
	until, ttl, lat, nlat := rt.reqUntil, rt.lastTTL, rt.latency, rt.nLatency
	*rt = *fresh
	rt.precursors, rt.rreqCnt, rt.retry = pre, cnt, retry
	rt.reqUntil, rt.lastTTL, rt.latency, rt.nLatency = until, ttl, lat, nlat
}

// helloCheck is the hello timer (RFC 3561 §6.9; ns-3.37's
// HelloTimerExpire): a hello unless a request went out since the last
// check, then the next check a HELLO_INTERVAL after the later of the two.
func (a *aodv) helloCheck() {
	var offset sim.Time
	if a.lastBcast > 0 {
		offset = a.now() - a.lastBcast
	} else {
		a.sendHello()
	}
	a.hello.Arm(a.now() + max(0, a.p.HelloInterval-offset))
	a.lastBcast = 0
}

func (a *aodv) sendHello() {
	m := &aodvMsg{kind: RREP, hello: true, dst: a.nd.ID, orig: a.nd.ID, dstSeq: a.seq, ttl: 1,
		lifetime: sim.Time(a.p.AllowedHelloLoss) * a.p.HelloInterval}
	a.transmit(m, rrepBytes, nil, a.jitter())
}

// recvHello refreshes the one-hop route and the neighbour entry of the
// node that said hello.
func (a *aodv) recvHello(m *aodvMsg, from network.NodeID) {
	rt := a.lookup(m.dst)
	if rt == nil {
		a.table.set(&route{dst: m.dst, next: m.dst, hops: 1, seq: m.dstSeq, validSeq: true, state: valid,
			expires: a.now() + m.lifetime})
	} else {
		rt.expires = a.now() + max(m.lifetime, a.remaining(rt))
		rt.validSeq, rt.seq, rt.state, rt.next, rt.hops = true, m.dstSeq, valid, m.dst, 1
	}
	if a.p.Hello {
		a.heard(m.dst, sim.Time(a.p.AllowedHelloLoss)*a.p.HelloInterval)
	}
}
