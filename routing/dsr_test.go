package routing

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// quietDSR is DSR without jitter, so that traces show the mechanism.
func quietDSR() *DSRParams {
	p := DefaultDSR()
	p.Jitter = 0
	return p
}

func dsrLine(t *testing.T, n int, p *DSRParams, at ...float64) *testLine {
	t.Helper()
	return newLineOf(t, n, func(nd *network.Node, st *Stats) network.Router { return newDSR(p, nd, st) }, at...)
}

func (l *testLine) dsr(i int) *dsr { return l.routers[i].(*dsr) }

// ids names nodes of the line by letter: "abcd".
func (l *testLine) ids(names string) []network.NodeID {
	var out []network.NodeID
	for _, c := range names {
		out = append(out, l.nodes[c-'a'].ID)
	}
	return out
}

func trace(fs []sent) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s→%s %s %d", f.from, f.to, f.kind, f.hops))
	}
	return out
}

func TestDSRAsksItsNeighboursFirstThenFloods(t *testing.T) {
	// a-b-c-d. a's first request may not spread (RFC 4728 §3.3.3): b,
	// with nothing cached, drops it. At the next look at the send buffer
	// (30 to 60 ms on) the request is flooded; d answers along the
	// reversed route, and a sends.
	l := dsrLine(t, 4, quietDSR())
	l.send(0, 0, 3)
	l.net.Run(sim.Second)
	want := []string{
		"a→* rreq 1", // non-propagating ("hops" is the route so far)
		"a→* rreq 1", // the flood
		"b→* rreq 2",
		"c→* rreq 3",
		"d→c rrep 4",
		"c→b rrep 4",
		"b→a rrep 4",
	}
	if got := trace(l.frames); !slices.Equal(got, want) {
		t.Fatalf("frames:\n%v\nwant\n%v", got, want)
	}
	if l.frames[0].ttl != 0 || l.frames[1].ttl != 16 {
		t.Errorf("reach of the two requests: %d and %d, want 0 and 16", l.frames[0].ttl, l.frames[1].ttl)
	}
	if gap := l.frames[1].at - l.frames[0].at; gap < 30*sim.Millisecond || gap > 61*sim.Millisecond {
		t.Errorf("flood %v after the first request, want 30-60 ms (the next buffer check)", gap)
	}
	if l.sink.Packets != 1 {
		t.Errorf("delivered %d, want the packet that waited", l.sink.Packets)
	}
	if r := l.dsr(0).findRoute(l.nodes[3].ID); !slices.Equal(r, l.ids("abcd")) {
		t.Errorf("a's route to d: %v", r)
	}
	if r := l.dsr(3).findRoute(l.nodes[0].ID); !slices.Equal(r, l.ids("dcba")) {
		t.Errorf("d's route to a (the reply's, reversed): %v", r)
	}
}

func TestDSRJittersItsOwnRequestsOnlyWhenAsked(t *testing.T) {
	// a-b: a's first request for b leaves as its packet arrives (the
	// medium idle), or up to the jitter later with jitter_own_requests
	// (ns-2.35's RREQ_JITTER on every request it sends); over 20 seeds the
	// delays spread over the 10 ms.
	for _, own := range []bool{false, true} {
		var lo, hi sim.Time = sim.Second, 0
		for seed := range 20 {
			p := DefaultDSR()
			p.JitterOwnRequests = own
			l := newSeededField(t, uint64(seed+1), [][2]float64{{0, 0}, {200, 0}}, func(nd *network.Node, st *Stats) network.Router { return newDSR(p, nd, st) })
			l.send(100*sim.Millisecond, 0, 1)
			l.net.Run(200 * sim.Millisecond)
			if len(l.frames) == 0 || l.frames[0].kind != "rreq" {
				t.Fatalf("own %v seed %d: frames %v", own, seed, trace(l.frames))
			}
			d := l.frames[0].at - 100*sim.Millisecond
			lo, hi = min(lo, d), max(hi, d)
		}
		if own && (lo < 0 || hi > 10*sim.Millisecond || hi-lo < 5*sim.Millisecond) || !own && (lo != 0 || hi != 0) {
			t.Errorf("jitter_own_requests %v: the first request left %v to %v after its packet", own, lo, hi)
		}
	}
}

func TestDSRAnswersARequestFromItsCache(t *testing.T) {
	// a-b-c-d. b finds d first (and forwards nothing for it). When a asks
	// for d, b answers a's non-propagating request from its cache with
	// the joined route a-b-c-d (RFC 4728 §8.2.3); no flood follows. (With
	// the tap a would have learnt the route from b's packets:
	// TestDSRLearnsOverheardRoutes.)
	p := quietDSR()
	p.Tap = false
	l := dsrLine(t, 4, p)
	l.send(0, 1, 3)
	l.send(sim.Second, 0, 3)
	l.net.Run(2 * sim.Second)
	after := l.since(sim.Second)
	if got, want := trace(after), []string{"a→* rreq 1", "b→a rrep 4"}; !slices.Equal(got, want) {
		t.Fatalf("frames after 1 s: %v, want %v", got, want)
	}
	if l.sink.Packets != 2 {
		t.Errorf("delivered %d, want 2", l.sink.Packets)
	}
	if r := l.dsr(0).findRoute(l.nodes[3].ID); !slices.Equal(r, l.ids("abcd")) {
		t.Errorf("a's route to d: %v", r)
	}
}

func TestDSRLearnsOverheardRoutes(t *testing.T) {
	// a-b-c-d-e. b sends to e: a overhears b's data frame to c and caches
	// itself, the transmitter and the rest, a-b-c-d-e (ns-2.35's tap); c
	// is on the route and forwards it (its cache holds c-d-e from that);
	// d overhears nothing new. When a then sends to e it needs no request;
	// without the tap it finds the same route by a discovery.
	for _, tap := range []bool{true, false} {
		p := quietDSR()
		p.Tap = tap
		l := dsrLine(t, 5, p)
		l.send(0, 1, 4)
		l.send(sim.Second, 0, 4)
		l.net.Run(2 * sim.Second)
		got := l.dsr(0).findRoute(l.nodes[4].ID)
		requests := 0
		for _, f := range l.since(sim.Second) {
			if f.kind == "rreq" {
				requests++
			}
		}
		if !slices.Equal(got, l.ids("abcde")) {
			t.Errorf("tap %v: a's route to e %v, want a-b-c-d-e", tap, got)
		}
		if tap && requests != 0 || !tap && requests == 0 {
			t.Errorf("tap %v: %d route requests after 1 s; want none with the tap, a discovery without", tap, requests)
		}
		if l.sink.Packets != 2 {
			t.Errorf("tap %v: delivered %d, want 2", tap, l.sink.Packets)
		}
	}
}

func TestDSRShortensARouteItOverhears(t *testing.T) {
	// a, b, c, d at 0, 100, 200 and 400 m: c hears a. a holds the route
	// a-b-c-d. With the tap, c overhears a's frame to b, sees itself
	// further on the route, and tells a by a gratuitous reply the route
	// without b, a-c-d, sent back the way the packet came (c-a; RFC 4728
	// §8.4). a's next packet takes it. Without the tap nothing changes.
	for _, tap := range []bool{true, false} {
		p := quietDSR()
		p.Tap = tap
		l := dsrLine(t, 4, p, 0, 100, 200, 400)
		l.dsr(0).cache[0].add(l.ids("abcd"))
		l.send(0, 0, 3)
		l.send(sim.Second, 0, 3)
		l.net.Run(2 * sim.Second)
		var replies []string
		for _, f := range l.frames {
			if f.kind == "rrep" {
				replies = append(replies, f.from+"→"+f.to)
			}
		}
		route := l.dsr(0).findRoute(l.nodes[3].ID)
		switch {
		case tap && (!slices.Equal(replies, []string{"c→a"}) || !slices.Equal(route, l.ids("acd"))):
			t.Errorf("tap: replies %v, a's route %v; want one reply c→a and a-c-d", replies, route)
		case !tap && (len(replies) != 0 || !slices.Equal(route, l.ids("abcd"))):
			t.Errorf("no tap: replies %v, a's route %v; want none and a-b-c-d", replies, route)
		}
		if l.sink.Packets != 2 {
			t.Errorf("tap %v: delivered %d, want 2", tap, l.sink.Packets)
		}
	}
}

func TestDSRDestinationLearnsFromDataOnlyWhenAsked(t *testing.T) {
	// a-b-c, a's route to c cached. c receives a's packet: as ns-2.35's
	// destination it learns nothing from it; with cache_arrived it caches
	// the route back, c-b-a.
	for _, arrived := range []bool{false, true} {
		p := quietDSR()
		p.Tap, p.CacheArrived = false, arrived
		l := dsrLine(t, 3, p)
		l.dsr(0).cache[0].add(l.ids("abc"))
		l.send(0, 0, 2)
		l.net.Run(sim.Second)
		r := l.dsr(2).findRoute(l.nodes[0].ID)
		if arrived && !slices.Equal(r, l.ids("cba")) || !arrived && r != nil {
			t.Errorf("cache_arrived %v: c's route to a %v", arrived, r)
		}
	}
}

func TestDSRSpacesThePacketsAReplyReleases(t *testing.T) {
	// a-b-c: three packets wait at a for a route to c. With
	// release_spacing 30 ms (ns-2.35's acceptRouteReply) the reply frees
	// them 30 ms apart from its arrival; without, together.
	for _, spacing := range []sim.Time{0, 30 * sim.Millisecond} {
		p := quietDSR()
		p.ReleaseSpacing = spacing
		l := dsrLine(t, 3, p)
		l.keepData = true
		for i := range 3 {
			l.send(sim.Time(i)*sim.Millisecond, 0, 2)
		}
		l.net.Run(sim.Second)
		var reply sim.Time
		var data []sim.Time
		for _, f := range l.frames {
			if f.kind == "rrep" && f.to == "a" {
				reply = f.at
			}
		}
		for _, f := range l.data {
			if f.from == "a" {
				data = append(data, f.at)
			}
		}
		if len(data) != 3 || reply == 0 {
			t.Fatalf("spacing %v: reply at %v, a's data at %v", spacing, reply, data)
		}
		for k, at := range data {
			want := reply + sim.Time(k)*spacing
			if spacing == 0 {
				want = reply
			}
			// the reply's own air time and the MAC's access delay; without
			// spacing the packets also queue behind one another (a frame
			// takes about 1.5 ms, with its ACK)
			slack := 3 * sim.Millisecond
			if spacing == 0 {
				slack += sim.Time(k) * 4 * sim.Millisecond
			}
			if at < want || at > want+slack {
				t.Errorf("spacing %v: a's packet %d left at %v, want about %v", spacing, k, at, want)
			}
		}
	}
}

func TestDSRReportsABrokenLinkToTheSourceAndForgetsIt(t *testing.T) {
	// a-b-c, c deaf from 1 s: b's MAC gives up on a packet for c; b drops
	// the link from its caches, sends a route error back to a, and, with
	// no other route to c and no requests for others' packets
	// (salvage_requests: 0, RFC 4728 §8.3.6), cannot salvage the packet.
	// a drops the link too, and its next packets for c wait for a
	// discovery.
	p := quietDSR()
	p.SalvageRequests = 0
	l := dsrLine(t, 3, p)
	l.lastGoesDeaf()
	var errs []sent
	for _, f := range l.frames {
		if f.kind == "rerr" {
			errs = append(errs, f)
		}
	}
	if len(errs) != 1 || errs[0].from != "b" || errs[0].to != "a" {
		t.Fatalf("route errors: %v, want one from b to a", errs)
	}
	if l.net.Drops[network.SalvageFailed] < 1 || l.stats.LinkBreaks != 1 {
		t.Errorf("salvage failures %d, link breaks %d", l.net.Drops[network.SalvageFailed], l.stats.LinkBreaks)
	}
	for i, who := range []string{"a", "b"} {
		if r := l.dsr(i).findRoute(l.nodes[2].ID); r != nil {
			t.Errorf("%s still has a route to c: %v", who, r)
		}
	}
	if len(l.dsr(0).buf.items) == 0 {
		t.Error("a's later packets for c do not wait for a route")
	}
}

func TestDSRWithdrawsTheQueueBeforeTheMACSendsAgainOnABrokenLink(t *testing.T) {
	// a-b-c, c deaf from 1 s, and a burst of a's packets for c queued at
	// b behind the one its MAC is retrying. When the MAC gives up, DSR
	// hears of it before the MAC takes its next packet (ns-2.35: the
	// failure callback, which empties the queue for that neighbour, runs
	// before tx_resume): the rest of the burst is taken back and salvaged,
	// and none is sent into the broken link. One link break; with the MAC
	// taking its next packet first, the next of the burst went to c too
	// and broke the link a second time.
	p := quietDSR()
	p.SalvageRequests = 0
	l := dsrLine(t, 3, p)
	fromB := l.burstIntoADeafLink()
	if l.stats.LinkBreaks != 1 || fromB != 1 {
		t.Errorf("link breaks %d, packets b began sending to c after 1 s %d; want 1 and 1", l.stats.LinkBreaks, fromB)
	}
}

func TestDSRSalvagerAsksItsNeighboursThenGivesUp(t *testing.T) {
	// As above with ns-2.35's salvage_requests 1: b keeps a's packet in its
	// send buffer and, at its next look at the buffer, asks its
	// neighbours (a non-propagating request; never a flood for another's
	// packet). Nobody answers (a's route died with the error), and when
	// the next round would start, 2 s on (the backoff's 0.5 s × 4), b
	// gives the packet up as a salvage failure.
	l := dsrLine(t, 3, quietDSR())
	l.lastGoesDeaf()
	if n := l.net.Drops[network.SalvageFailed]; n != 0 {
		t.Fatalf("%d salvage failures before b asked around", n)
	}
	var asked []sent
	for _, f := range l.frames {
		if f.from == "b" && f.kind == "rreq" && f.hops == 1 {
			asked = append(asked, f)
		}
	}
	if len(asked) != 1 || asked[0].ttl != 0 {
		t.Fatalf("b's own requests: %v, want one non-propagating", asked)
	}
	if len(l.dsr(1).buf.items) != 1 {
		t.Fatalf("b's send buffer holds %d packets, want a's one", len(l.dsr(1).buf.items))
	}
	l.net.Run(asked[0].at + 2*sim.Second - sim.Millisecond)
	if n := l.net.Drops[network.SalvageFailed]; n != 0 {
		t.Fatalf("given up %v after asking, before the next round", l.net.Now()-asked[0].at)
	}
	l.net.Run(asked[0].at + 2*sim.Second + 61*sim.Millisecond)
	if n := l.net.Drops[network.SalvageFailed]; n != 1 || len(l.dsr(1).buf.items) != 0 {
		t.Errorf("salvage failures %d, b's buffer %d; want the packet given up at the next round", n, len(l.dsr(1).buf.items))
	}
	for _, f := range l.frames {
		if f.from == "b" && f.kind == "rreq" && f.hops == 1 && f.ttl != 0 {
			t.Errorf("b flooded a request for a's packet: %v", f)
		}
	}
}

// deafTo loses the frames node to receives from node from: one link
// broken, the rest of the channel intact.
type deafTo struct {
	paths    *pathTable
	from, to network.NodeID
	at       sim.Time
}

func (d deafTo) Drop(p *network.Packet, now sim.Time) network.DropCause {
	if now < d.at || p.Proto == network.Control {
		return network.NotDropped
	}
	r := d.paths.route(p)
	if i := slices.Index(r, d.to); i > 0 && r[i-1] == d.from {
		return network.ChannelError
	}
	return network.NotDropped
}

func TestDSRSalvagesAroundABrokenLink(t *testing.T) {
	// a (0, 0), b (200, 0), c (400, 0), e (200, 150): a-b-c is the route
	// a learns first; e reaches a, b and c. From 1 s c no longer hears b.
	// b, whose cache holds b-e-c, salvages the packet its MAC failed on by
	// that route (RFC 4728 §8.3.6) and tells a of the break.
	l := newField(t, [][2]float64{{0, 0}, {200, 0}, {400, 0}, {200, 150}},
		func(nd *network.Node, st *Stats) network.Router { return newDSR(quietDSR(), nd, st) })
	b, c, e := l.nodes[1].ID, l.nodes[2].ID, l.nodes[3].ID
	l.ch.RadioOf(l.nodes[2]).PHYLoss = deafTo{paths: l.dsr(0).paths, from: b, to: c, at: sim.Second}
	l.dsr(1).cache[0].add([]network.NodeID{b, e, c})
	l.dsr(0).cache[0].add([]network.NodeID{l.nodes[0].ID, b, c})
	for i := range 15 {
		l.send(sim.Time(i)*100*sim.Millisecond, 0, 2)
	}
	l.net.Run(1500 * sim.Millisecond)
	for _, f := range l.frames {
		if f.kind == "rerr" && (f.from != "b" || f.to != "a") {
			t.Errorf("route error %v, want from b to a", f)
		}
	}
	if l.stats.Of(RERR).Packets != 1 || l.stats.LinkBreaks != 1 {
		t.Errorf("route errors %d, link breaks %d; want 1 and 1", l.stats.Of(RERR).Packets, l.stats.LinkBreaks)
	}
	if l.sink.Packets != 15 || l.net.Drops[network.SalvageFailed] != 0 {
		t.Errorf("c received %d of 15 (%d salvage failures): the salvaged packet should arrive by b-e-c",
			l.sink.Packets, l.net.Drops[network.SalvageFailed])
	}
	if r := l.dsr(0).findRoute(c); slices.Contains(r, b) && slices.Index(r, c) == slices.Index(r, b)+1 {
		t.Errorf("a still routes over b-c: %v", r)
	}
}

func TestDSRForwardingOnACachedRouteDoesNotAllocate(t *testing.T) {
	// Once the route is cached and every table has grown, data crossing a
	// four-hop DSR chain costs no allocation: the source interns a route
	// it has interned before, forwarders read it.
	l := dsrLine(t, 5, quietDSR())
	l.steadyAllocs(t)
}
