package routing

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/traffic"
	"github.com/tcplab/tcplab/wireless"
)

// sent is one control message put on the air, as the tests read it.
type sent struct {
	at       sim.Time
	from, to string // "*": broadcast
	kind     string
	ttl      int
	hops     int
}

func (s sent) String() string {
	return fmt.Sprintf("%v %s→%s %s ttl=%d hops=%d", s.at, s.from, s.to, s.kind, s.ttl, s.hops)
}

// testLine is AODV on n nodes a..., 200 m apart on an 802.11b channel:
// each decodes its neighbours only.
type testLine struct {
	net      *network.Net
	ch       *wireless.Channel
	nodes    []*network.Node
	rt       []*aodv
	routers  []network.Router
	stats    *Stats
	sink     *traffic.UDPSink
	frames   []sent
	data     []sent
	keepData bool
}

func newLine(t *testing.T, n int, p *AODVParams, at ...float64) *testLine {
	t.Helper()
	return newLineOf(t, n, func(nd *network.Node, st *Stats) network.Router { return newAODV(p, nd, st) }, at...)
}

// newLineOf is the line with the routers mk makes.
func newLineOf(t *testing.T, n int, mk func(*network.Node, *Stats) network.Router, at ...float64) *testLine {
	t.Helper()
	pos := make([][2]float64, n)
	for i := range pos {
		pos[i][0] = float64(i) * 200
		if i < len(at) {
			pos[i][0] = at[i]
		}
	}
	return newField(t, pos, mk)
}

// newField is nodes a, b, ... at pos with the routers mk makes.
func newField(t *testing.T, pos [][2]float64, mk func(*network.Node, *Stats) network.Router) *testLine {
	t.Helper()
	return newSeededField(t, 1, pos, mk)
}

// newSeededField is newField with the simulation's seed.
func newSeededField(t *testing.T, seed uint64, pos [][2]float64, mk func(*network.Node, *Stats) network.Router) *testLine {
	t.Helper()
	l := &testLine{net: network.New(seed), stats: NewStats("test")}
	ch, err := wireless.NewChannel(l.net, wireless.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	l.ch = ch
	for i, p := range pos {
		nd := l.net.AddNode(string(rune('a' + i)))
		ch.Attach(nd, p[0], p[1])
		l.nodes = append(l.nodes, nd)
	}
	if err := ch.Build(); err != nil {
		t.Fatal(err)
	}
	for _, nd := range l.nodes {
		r := mk(nd, l.stats)
		nd.SetRouter(r)
		if a, ok := r.(*aodv); ok {
			l.rt = append(l.rt, a)
		}
		l.routers = append(l.routers, r)
	}
	ch.SetTracer(l)
	l.net.ComputeRoutes()
	l.sink = traffic.NewUDPSink(l.net)
	return l
}

// Frame implements wireless.FrameTracer: it keeps the control messages,
// and with keepData the first transmissions of data packets apart (data;
// off by default: the allocation tests run the tracer too).
func (l *testLine) Frame(e *wireless.FrameEvent) {
	if e.Kind != "data" || e.Retry {
		return
	}
	if e.Packet.Proto != network.Control {
		if l.keepData {
			l.data = append(l.data, sent{at: sim.Time(e.Start), from: l.nodes[e.From].Name, kind: "data"})
		}
		return
	}
	to := "*"
	if e.To != network.Broadcast {
		to = l.nodes[e.To].Name
	}
	s := sent{at: sim.Time(e.Start), from: l.nodes[e.From].Name, to: to}
	switch m := e.Packet.Body.(type) {
	case *aodvMsg:
		s.kind, s.ttl, s.hops = m.kind.String(), m.ttl, m.hops
		if m.hello {
			s.kind = "hello"
		}
	case *dsrMsg:
		s.kind, s.hops = m.kind.String(), len(m.route)
		if m.kind == RREQ {
			s.ttl = m.maxProp
		}
	}
	l.frames = append(l.frames, s)
}

// since is the control frames put on the air from t on.
func (l *testLine) since(t sim.Time) []sent {
	var out []sent
	for _, f := range l.frames {
		if f.at >= t {
			out = append(out, f)
		}
	}
	return out
}

// send has node from send a datagram to node to at time at.
func (l *testLine) send(at sim.Time, from, to int) {
	l.net.Sched.At(at, func() {
		p := l.net.Alloc()
		p.Proto, p.Src, p.Dst, p.Port, p.Size, p.Payload = network.UDP, l.nodes[from].ID, l.nodes[to].ID, l.sink.Port, 1052, 1024
		l.nodes[from].Send(p)
	})
}

// routedLine is a-b-c after a has sent c one datagram: the routes between
// them found, run to 0.5 s.
func routedLine(t *testing.T, p *AODVParams) *testLine {
	t.Helper()
	l := newLine(t, 3, p)
	l.send(0, 0, 2)
	l.net.Run(500 * sim.Millisecond)
	return l
}

// quiet is AODV without hellos or jitter, so that a trace shows the
// mechanism alone.
func quiet() *AODVParams {
	p := DefaultAODV()
	p.Hello, p.Jitter = false, 0
	return p
}

// within reports whether a frame went on the air at want, allowing for the
// MAC's access delay (DIFS and a backoff: under 1 ms here).
func within(got, want sim.Time) bool { return got >= want && got < want+sim.Millisecond }

func TestDiscoveryWidensTheRingUntilTheDestinationAnswers(t *testing.T) {
	// a-b-c: the first request (TTL 1) reaches b only, which does not
	// forward it; 2·40 ms·(1+2) = 240 ms later the ring widens to TTL 3, b
	// forwards it, c answers along the reverse route and a sends.
	l := newLine(t, 3, quiet())
	l.send(0, 0, 2)
	l.net.Run(sim.Second)
	want := []struct {
		at       sim.Time
		from, to string
		kind     string
		ttl      int
		hops     int
	}{
		{0, "a", "*", "rreq", 1, 0},
		{240 * sim.Millisecond, "a", "*", "rreq", 3, 0},
		{240 * sim.Millisecond, "b", "*", "rreq", 2, 1},
		{240 * sim.Millisecond, "c", "b", "rrep", 2, 0},
		{240 * sim.Millisecond, "b", "a", "rrep", 1, 1},
	}
	if len(l.frames) != len(want) {
		t.Fatalf("control frames:\n%v\nwant %d", l.frames, len(want))
	}
	for i, w := range want {
		g := l.frames[i]
		if !within(g.at, w.at) && !(i > 1 && g.at > w.at && g.at < w.at+10*sim.Millisecond) || g.from != w.from || g.to != w.to || g.kind != w.kind || g.ttl != w.ttl || g.hops != w.hops {
			t.Errorf("frame %d: %v, want %+v", i, g, w)
		}
	}
	if l.sink.Packets != 1 {
		t.Errorf("delivered %d datagrams, want the one that waited", l.sink.Packets)
	}
	// The routes: a→c via b in 2 hops, b's to c has precursor a.
	if rt := l.rt[0].valid(l.nodes[2].ID); rt == nil || rt.next != l.nodes[1].ID || rt.hops != 2 {
		t.Errorf("a's route to c: %+v", rt)
	}
	if rt := l.rt[1].valid(l.nodes[2].ID); rt == nil || len(rt.precursors) != 1 || rt.precursors[0] != l.nodes[0].ID {
		t.Errorf("b's route to c should have a as its precursor: %+v", rt)
	}
	if rt := l.rt[1].valid(l.nodes[0].ID); rt == nil || len(rt.precursors) != 1 || rt.precursors[0] != l.nodes[2].ID {
		t.Errorf("b's route to a should have c as its precursor: %+v", rt)
	}
	if l.stats.Discoveries != 1 || l.stats.Of(RREQ).Packets != 3 || l.stats.Of(RREP).Packets != 2 {
		t.Errorf("stats: %d discoveries, %+v requests, %+v replies", l.stats.Discoveries, l.stats.Of(RREQ), l.stats.Of(RREP))
	}
}

func TestAnIntermediateNodeRepliesFromItsRouteAndTellsTheDestination(t *testing.T) {
	// a-b-c-d. b first finds d (TTL 1 fails, TTL 3 reaches d). Then a asks
	// for d: b holds a fresh route, answers a itself (RREP hops 2) and
	// sends d a gratuitous reply naming a (RFC 3561 §6.6.2-3); the request
	// goes no farther than b.
	l := newLine(t, 4, quiet())
	l.send(0, 1, 3)
	l.send(sim.Second, 0, 3)
	l.net.Run(2 * sim.Second)
	after := l.since(sim.Second)
	want := []string{"a→* rreq ttl=1 hops=0", "b→a rrep ttl=1 hops=2", "b→c rrep ttl=2 hops=1", "c→d rrep ttl=1 hops=2"}
	if len(after) != len(want) {
		t.Fatalf("frames after 1 s:\n%v\nwant %v", after, want)
	}
	for i, w := range want {
		if got := fmt.Sprintf("%s→%s %s ttl=%d hops=%d", after[i].from, after[i].to, after[i].kind, after[i].ttl, after[i].hops); got != w {
			t.Errorf("frame %d: %s, want %s", i, got, w)
		}
	}
	if l.sink.Packets != 2 {
		t.Errorf("delivered %d, want 2", l.sink.Packets)
	}
	// d learnt the way back to a from the gratuitous reply.
	if rt := l.rt[3].valid(l.nodes[0].ID); rt == nil || rt.hops != 3 || rt.next != l.nodes[2].ID {
		t.Errorf("d's route to a: %+v", rt)
	}
}

// blackout drops every frame a radio receives from a time on: the node is
// gone as far as the channel can tell.
// blackout corrupts every frame from a time on, or, with until set,
// until then; with dataOnly, the routing protocol's frames get through.
type blackout struct {
	from, until sim.Time
	dataOnly    bool
}

func (b blackout) Drop(p *network.Packet, now sim.Time) network.DropCause {
	if now >= b.from && (b.until == 0 || now < b.until) && !(b.dataOnly && p.Proto == network.Control) {
		return network.ChannelError
	}
	return network.NotDropped
}

// lastGoesDeaf is the routing tests' broken link: the line's last node
// hears nothing from 1 s on while the first sends it a datagram every
// 100 ms, run to 1.5 s; the MAC before it gives up on the first datagram
// after 1 s.
func (l *testLine) lastGoesDeaf() {
	last := len(l.nodes) - 1
	l.ch.RadioOf(l.nodes[last]).PHYLoss = blackout{from: sim.Second}
	for i := range 15 {
		l.send(sim.Time(i)*100*sim.Millisecond, 0, last)
	}
	l.net.Run(1500 * sim.Millisecond)
}

func TestARetryLimitDropBreaksTheLinkAndWarnsThePrecursors(t *testing.T) {
	// a-b-c: a sends to c every 100 ms. From 1 s c hears nothing: b's MAC
	// gives up on the next datagram after 7 tries, b declares c
	// unreachable and unicasts a route error to a, its precursor; a's
	// route is invalid, and its next datagram starts a discovery from the
	// last hop count plus TTL_INCREMENT (2 + 2 = 4).
	l := newLine(t, 3, quiet())
	l.lastGoesDeaf()
	var rerr, rreqAfter []sent
	for _, f := range l.frames {
		switch {
		case f.kind == "rerr":
			rerr = append(rerr, f)
		case f.kind == "rreq" && f.at > sim.Second && f.from == "a":
			rreqAfter = append(rreqAfter, f)
		}
	}
	if len(rerr) != 1 || rerr[0].from != "b" || rerr[0].to != "a" {
		t.Fatalf("route errors: %v, want one from b to a", rerr)
	}
	if l.stats.LinkBreaks != 1 {
		t.Errorf("link breaks: %d, want 1", l.stats.LinkBreaks)
	}
	if rt := l.rt[0].lookup(l.nodes[2].ID); rt == nil || rt.state == valid {
		t.Errorf("a's route to c after the error: %+v, want not valid", rt)
	}
	if len(rreqAfter) == 0 || rreqAfter[0].ttl != 4 || rreqAfter[0].at < rerr[0].at {
		t.Errorf("a's next request: %v, want one with TTL 4 after the error", rreqAfter)
	}
	if l.net.Drops[network.RetryLimit] < 1 {
		t.Errorf("no retry-limit drop: %v", l.net.Drops)
	}
}

// burstIntoADeafLink runs a-b-c: a sends c a datagram at 0.5 s (the
// route found), c goes deaf at 1 s, and a sends six more at once, which
// queue at b behind the first b's MAC retries. It returns the datagrams b
// began sending to c from 1 s on.
func (l *testLine) burstIntoADeafLink() (fromB int) {
	l.keepData = true
	l.ch.RadioOf(l.nodes[2]).PHYLoss = blackout{from: sim.Second}
	l.send(500*sim.Millisecond, 0, 2)
	for range 6 {
		l.send(sim.Second, 0, 2)
	}
	l.net.Run(1500 * sim.Millisecond)
	for _, f := range l.data {
		if f.from == "b" && f.at >= sim.Second {
			fromB++
		}
	}
	return fromB
}

func TestABrokenLinkTakesItsQueueOnlyWhenAsked(t *testing.T) {
	// a-b-c, c deaf from 1 s, and a burst of a's datagrams for c queued at
	// b behind the one its MAC is retrying. When the MAC gives up, with
	// purge_queue (ns-2.35's rt_ll_failed) the rest are dropped with it,
	// before the MAC takes the next. Without (ns-3.37) the MAC sends each
	// into the broken link, to fail its retries in turn.
	for _, tc := range []struct {
		purge     bool
		fromBLeft bool // b began sending another datagram to c
	}{{true, false}, {false, true}} {
		p := quiet()
		p.PurgeQueue = tc.purge
		l := newLine(t, 3, p)
		fromB := l.burstIntoADeafLink()
		if l.stats.LinkBreaks != 1 || (fromB > 1) != tc.fromBLeft {
			t.Errorf("purge_queue %v: %d link breaks, b began %d datagrams to c after 1 s", tc.purge, l.stats.LinkBreaks, fromB)
		}
		if tc.purge && l.net.Drops[network.BrokenLink] < 4 {
			t.Errorf("purge_queue: %d dropped for the broken link, want the queued rest", l.net.Drops[network.BrokenLink])
		}
	}
}

func TestNeighboursLapseWithoutHellosOnlyFromTraffic(t *testing.T) {
	// a-b-c without hellos: a's datagram to c makes b count a and c as
	// neighbours (ns-3.37's Neighbors::Update on forwarding), and after
	// ACTIVE_ROUTE_TIMEOUT of silence they lapse, each a broken link. With
	// traffic_neighbours false (ns-2.35) nothing lapses.
	for _, traffic := range []bool{true, false} {
		p := quiet()
		p.TrafficNeighbours = traffic
		l := newLine(t, 3, p)
		l.send(100*sim.Millisecond, 0, 2)
		l.net.Run(6 * sim.Second)
		if l.sink.Packets != 1 {
			t.Fatalf("traffic_neighbours %v: delivered %d", traffic, l.sink.Packets)
		}
		if got := l.stats.LinkBreaks > 0; got != traffic {
			t.Errorf("traffic_neighbours %v: %d link breaks after 6 s of silence", traffic, l.stats.LinkBreaks)
		}
	}
}

// When b's link to c breaks, b's route to c is invalidated: ns-3.37 keeps
// c's sequence number; the RFC (§6.1, §6.11) and ns-2.35 raise it by one,
// and a takes the raised number from b's route error, so that a's next
// request asks for a route newer than the broken one. Under ns2 a route
// that expires is raised too, and a route error older than the route it
// names is ignored.
func TestAnInvalidatedRouteRaisesItsSequenceNumberUnlessNS3(t *testing.T) {
	for _, tc := range []struct {
		mode   InvalidatedSeq
		raised uint32
	}{{SeqKeptNS3, 0}, {SeqRaisedRFC, 1}, {SeqRaisedNS2, 1}} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			p := quiet()
			p.InvalidatedSeq = tc.mode
			l := newLine(t, 3, p)
			c := l.nodes[2].ID
			l.ch.RadioOf(l.nodes[2]).PHYLoss = blackout{from: sim.Second}
			for i := range 15 {
				l.send(sim.Time(i)*100*sim.Millisecond, 0, 2)
			}
			l.net.Run(900 * sim.Millisecond)
			atB := l.rt[1].lookup(c)
			if atB == nil || atB.state != valid || !atB.validSeq {
				t.Fatalf("b's route to c before the break: %+v", atB)
			}
			before := atB.seq
			l.net.Run(1500 * sim.Millisecond)
			for i, who := range []string{"a", "b"} {
				rt := l.rt[i].table.get(c)
				if rt == nil || rt.state == valid || rt.seq != before+tc.raised {
					t.Errorf("%s's route to c after the break: %+v, want invalid with sequence number %d", who, rt, before+tc.raised)
				}
			}
		})
	}
	t.Run("ns2 expiry and a stale error", func(t *testing.T) {
		p := quiet()
		p.InvalidatedSeq = SeqRaisedNS2
		l := routedLine(t, p)
		a, c := l.rt[0], l.nodes[2].ID
		rt := a.lookup(c)
		if rt == nil || rt.state != valid || !rt.validSeq {
			t.Fatalf("a's route to c: %+v", rt)
		}
		seq := rt.seq
		a.recvError(&aodvMsg{kind: RERR, unreachable: []unreachableDst{{c, seq - 1}}}, l.nodes[1].ID)
		if rt.state != valid {
			t.Errorf("a route error older than the route invalidated it: %+v", rt)
		}
		l.net.Run(rt.expires + sim.Millisecond)
		if rt = a.lookup(c); rt == nil || rt.state != invalid || rt.seq != seq+1 {
			t.Errorf("a's route to c after it expired: %+v, want invalid with sequence number %d", rt, seq+1)
		}
	})
}

// A request from a, relayed by b, whose number is newer than c's invalid
// route back to a makes that route valid again with revalidate_reverse
// (RFC 3561 §6.5, ns-2.35), and leaves it invalid without (ns-3.37): a
// node stuck with an invalid reverse route drops the ACKs its replies drew.
func TestARequestRevalidatesTheRouteBackOnlyWhenAsked(t *testing.T) {
	for _, revalidate := range []bool{false, true} {
		p := quiet()
		p.RevalidateReverse = revalidate
		l := newLine(t, 4, p)
		a, b, c := l.nodes[0].ID, l.nodes[1].ID, l.rt[2]
		c.table.set(&route{dst: a, next: b, hops: 2, seq: 4, validSeq: true, state: invalid, expires: sim.Second})
		c.recvRequest(&aodvMsg{kind: RREQ, ttl: 5, orig: a, origSeq: 6, id: 1, hops: 1, dst: l.nodes[3].ID, unknownSeq: true}, b)
		rt := c.table.get(a)
		if want := map[bool]routeState{false: invalid, true: valid}[revalidate]; rt.state != want || rt.seq != 6 {
			t.Errorf("revalidate_reverse %v: c's route to a %+v, want state %d with number 6", revalidate, rt, want)
		}
	}
	// A route back in local repair is up again too, and the repair over.
	p := quiet()
	p.RevalidateReverse, p.RepairTimer = true, RepairNS2
	l := newLine(t, 4, p)
	a, b, c := l.nodes[0].ID, l.nodes[1].ID, l.rt[2]
	rt := &route{dst: a, next: b, hops: 2, seq: 4, validSeq: true, state: valid, expires: 10 * sim.Second}
	c.table.set(rt)
	c.repairNS2(rt)
	c.recvRequest(&aodvMsg{kind: RREQ, ttl: 5, orig: a, origSeq: 6, id: 2, hops: 1, dst: l.nodes[3].ID, unknownSeq: true}, b)
	if rt.state != valid || rt.seq != 6 || rt.retry.Armed() {
		t.Errorf("c's route to a in repair after a newer request: %+v, its timer armed %v", rt, rt.retry.Armed())
	}
}

// ns-2.35's repair sends RREQ_RETRIES + 1 requests at the network
// diameter (sendRequest counts them before adding this one), each after
// the last one's timeout, then drops what waited and rests 10 s.
func TestNS2sRepairAsksRREQRetriesPlusOneTimes(t *testing.T) {
	p := quiet()
	p.RepairTimer, p.RREQRetries = RepairNS2, 3
	l := newLine(t, 3, p)
	a := l.rt[0]
	rt := &route{dst: l.nodes[2].ID, next: l.nodes[1].ID, hops: 2, state: inRepair, expires: 100 * sim.Second}
	a.table.set(rt)
	for range 6 {
		a.requestNS2(rt)
		if rt.rreqCnt == 0 {
			break // given up
		}
		l.net.Run(rt.reqUntil)
	}
	var reqs []sent
	for _, f := range l.frames {
		if f.kind == "rreq" && f.from == "a" {
			reqs = append(reqs, f)
		}
	}
	if len(reqs) != 4 || rt.reqUntil < l.net.Now()+ns2MaxRequestTimeout-sim.Millisecond {
		t.Errorf("requests %v, resting until %v at %v: want 4, then 10 s", reqs, rt.reqUntil, l.net.Now())
	}
}

// Forwarding refreshes the route back to the packet's source under RFC
// 3561 §6.2 (ns-3.37), and only the route to its destination under
// ns-2.35 (refresh_reverse: false).
func TestForwardingRefreshesTheRouteBackOnlyWhenAsked(t *testing.T) {
	for _, refresh := range []bool{true, false} {
		p := quiet()
		p.RefreshReverse = refresh
		l := routedLine(t, p)
		b, a := l.rt[1], l.nodes[0].ID
		back := b.lookup(a)
		if back == nil || back.state != valid {
			t.Fatalf("b's route to a: %+v", back)
		}
		was := back.expires
		l.send(2*sim.Second, 0, 2)
		l.net.Run(2500 * sim.Millisecond)
		if extended := back.expires > was; extended != refresh {
			t.Errorf("refresh_reverse %v: b's route back to a expires at %v, was %v", refresh, back.expires, was)
		}
	}
}

func TestAnUnreachableDestinationIsGivenUpAfterTheLastRetry(t *testing.T) {
	// a alone (b 400 m away, out of range). Requests with TTL 1, 3, 5, 7,
	// then 35 twice (ns-3.37's two retries at the diameter), each after
	// the previous one's wait: 240, 400, 560, 720, 2800, then 5600 ms
	// before giving up; the waiting datagrams are dropped as no route.
	l := newLine(t, 2, quiet(), 0, 400)
	l.send(0, 0, 1)
	l.send(sim.Millisecond, 0, 1)
	l.net.Run(20 * sim.Second)
	wantAt := []sim.Time{0, 240, 640, 1200, 1920, 4720}
	wantTTL := []int{1, 3, 5, 7, 35, 35}
	if len(l.frames) != len(wantAt) {
		t.Fatalf("frames: %v, want %d requests", l.frames, len(wantAt))
	}
	for i, f := range l.frames {
		if f.kind != "rreq" || f.ttl != wantTTL[i] || !within(f.at, wantAt[i]*sim.Millisecond) {
			t.Errorf("request %d: %v, want TTL %d at %d ms", i, f, wantTTL[i], wantAt[i])
		}
	}
	if l.net.Drops[network.NoRoute] != 2 || l.stats.Failed != 1 || l.stats.Discoveries != 1 {
		t.Errorf("no-route drops %d, failed %d, discoveries %d; want 2, 1, 1",
			l.net.Drops[network.NoRoute], l.stats.Failed, l.stats.Discoveries)
	}
}

func TestHellosKeepNeighboursAndTheirLossBreaksTheLink(t *testing.T) {
	// Hellos on, no link feedback, no data: a and b hear each other's
	// hellos every second. b goes silent at 3 s; a, hearing no hello for
	// 2 s, purges b as a broken link.
	p := DefaultAODV()
	p.LinkFeedback = false
	l := newLine(t, 2, p)
	l.ch.RadioOf(l.nodes[0]).PHYLoss = blackout{from: 3 * sim.Second}
	l.net.Run(8 * sim.Second)
	hellos := 0
	for _, f := range l.frames {
		if f.kind == "hello" && f.from == "a" {
			hellos++
		}
	}
	if hellos < 7 || hellos > 8 {
		t.Errorf("a sent %d hellos in 8 s, want one a second", hellos)
	}
	if l.stats.LinkBreaks != 1 {
		t.Errorf("link breaks %d, want 1 (a loses b)", l.stats.LinkBreaks)
	}
	if rt := l.rt[0].valid(l.nodes[1].ID); rt != nil {
		t.Errorf("a still has a valid route to b: %+v", rt)
	}
}

func TestTheBufferDropsItsOldestWhenFullAndExpiredPackets(t *testing.T) {
	net := network.New(1)
	b := buffer{net: net, limit: 2, maxAge: sim.Second}
	mk := func(dst network.NodeID) *network.Packet { p := net.Alloc(); p.Dst = dst; return p }
	b.add(mk(1))
	b.add(mk(2))
	b.add(mk(1)) // full: the first goes
	if net.Drops[network.RouteBufferFull] != 1 || len(b.items) != 2 || b.items[0].p.Dst != 2 {
		t.Fatalf("after overflow: drops %v, items %d", net.Drops, len(b.items))
	}
	net.Sched.At(2*sim.Second, func() {
		if b.has(1) {
			t.Error("an expired packet is still waiting")
		}
	})
	net.Run(3 * sim.Second)
	if net.Drops[network.RouteTimeout] != 2 {
		t.Errorf("timeouts %d, want 2", net.Drops[network.RouteTimeout])
	}
}

func TestALinkThatBreaksByMovingApartIsSeenThroughTheMAC(t *testing.T) {
	// a-b-c, c drives away from b at 50 m/s (out of b's 250 m at 1 s).
	// a sends to c every 50 ms; when b's MAC gives up on a datagram, b
	// breaks the link and warns a; a's new discoveries find no c.
	l := newLine(t, 3, quiet())
	l.ch.SetMobility(l.ch.RadioOf(l.nodes[2]), (&wireless.ConstantVelocity{VX: 50}).NewMobility(400, 0, true, nil), 0)
	for i := range 60 {
		l.send(sim.Time(i)*50*sim.Millisecond, 0, 2)
	}
	l.net.Run(20 * sim.Second)
	var rerrAt sim.Time
	for _, f := range l.frames {
		if f.kind == "rerr" && f.from == "b" && f.to == "a" {
			rerrAt = f.at
			break
		}
	}
	if rerrAt < sim.Second || rerrAt > 1200*sim.Millisecond {
		t.Errorf("b's route error at %v, want just after 1 s, when c leaves its range", rerrAt)
	}
	if l.sink.Packets < 15 || l.sink.Packets > 21 {
		t.Errorf("c received %d datagrams, want those sent in its first second (about 20)", l.sink.Packets)
	}
	if l.stats.Failed < 1 || l.net.Drops[network.NoRoute] == 0 {
		t.Errorf("failed discoveries %d, no-route drops %d: a should give c up", l.stats.Failed, l.net.Drops[network.NoRoute])
	}
}

func TestForwardingOnAnActiveRouteDoesNotAllocate(t *testing.T) {
	// Once the route is found and every table has grown, data crossing a
	// four-hop AODV chain (with a moving radio at its end, still within
	// range) costs no allocation; only AODV's own packets allocate, and
	// without hellos a steady route sends none.
	l := newLine(t, 5, quiet())
	l.ch.SetMobility(l.ch.RadioOf(l.nodes[4]), (&wireless.ConstantVelocity{VY: 0.001}).NewMobility(800, 0, true, nil), 0)
	l.steadyAllocs(t)
}

// steadyAllocs sends a CBR stream from the line's first node to its fifth
// for 5 s, then fails t if 2 more simulated seconds allocate or send a
// control packet: a steady route costs nothing per packet.
func (l *testLine) steadyAllocs(t *testing.T) {
	t.Helper()
	c := traffic.NewCBR(l.net, 0, l.nodes[0], l.nodes[4], 400e3, 1052)
	c.Start(0)
	end := 5 * sim.Second
	l.net.Run(end)
	if c.Sink.Packets == 0 {
		t.Fatal("nothing delivered")
	}
	sent := l.stats.Total()
	allocs := testing.AllocsPerRun(3, func() {
		end += 2 * sim.Second
		l.net.Run(end)
	})
	if allocs > 0 || l.stats.Total() != sent {
		t.Fatalf("%.0f allocations per 2 simulated seconds, %d control packets more", allocs, l.stats.Total()-sent)
	}
}

func TestLocalRepairFindsAWayAroundABreakNearTheDestination(t *testing.T) {
	// a-b-c-d-e along the x axis, f off it between d and e. e drifts away
	// (50 m/s up the y axis) and leaves d's range at 3 s but stays in f's
	// until 8 s. a sends to e every 50 ms. The break is three hops from
	// the source and one from the destination: with local repair (RFC
	// 3561 §6.12) d keeps the packets, asks for e within a small ring
	// (TTL max(1, 3/2) + LOCAL_ADD_TTL = 3), and goes on by f; a hears of
	// nothing. Without it d sends a route error and a seeks e itself.
	// (Checked over the half second after the break: the chain's hidden
	// terminals break links on their own later.)
	for _, repair := range []bool{true, false} {
		p := quiet()
		p.LocalRepair = repair
		pos := [][2]float64{{0, 0}, {200, 0}, {400, 0}, {600, 0}, {800, 0}, {700, 180}}
		l := newField(t, pos, func(nd *network.Node, st *Stats) network.Router { return newAODV(p, nd, st) })
		l.ch.SetMobility(l.ch.RadioOf(l.nodes[4]), (&wireless.ConstantVelocity{VY: 50}).NewMobility(800, 0, true, nil), 0)
		for i := range 120 {
			l.send(sim.Time(i)*50*sim.Millisecond, 0, 4)
		}
		l.net.Run(3500 * sim.Millisecond)
		var after []string
		for _, f := range l.since(3 * sim.Second) {
			if f.kind != "data" {
				after = append(after, fmt.Sprintf("%s→%s %s ttl=%d", f.from, f.to, f.kind, f.ttl))
			}
		}
		next := network.NodeID(-1)
		if rt := l.rt[3].valid(l.nodes[4].ID); rt != nil {
			next = rt.next
		}
		want := []string{"d→* rreq ttl=3", "f→* rreq ttl=2", "e→f rrep ttl=2", "f→d rrep ttl=1"}
		switch {
		case repair && (!slices.Equal(after, want) || l.stats.LocalRepairs != 1 || next != l.nodes[5].ID):
			t.Errorf("repair: %v, %d repairs, d's next hop to e %d; want %v, 1, f", after, l.stats.LocalRepairs, next, want)
		case !repair && (len(after) < 2 || after[0] != "d→c rerr ttl=1" || l.stats.LocalRepairs != 0):
			t.Errorf("no repair: %v; want d's route error first, then a's search", after)
		}
		if l.sink.Packets < 66 {
			t.Errorf("repair %v: e received %d of the 70 sent by 3.5 s", repair, l.sink.Packets)
		}
	}
}

func TestAFailedLocalRepairEndsInARouteError(t *testing.T) {
	// As above without f: nobody reaches e once it leaves d's range. d's
	// repair (TTL 3) gets no reply; after the ring's traversal time,
	// 2·NODE_TRAVERSAL_TIME·(3 + TIMEOUT_BUFFER) = 400 ms, d breaks the
	// route with a route error to its precursor c (RFC 3561 §6.12), and the
	// packets that waited are lost as broken-link drops. (The request went
	// on the air after the MAC's access delay, under 1 ms.)
	p := quiet()
	p.LocalRepair = true
	pos := [][2]float64{{0, 0}, {200, 0}, {400, 0}, {600, 0}, {800, 0}}
	l := newField(t, pos, func(nd *network.Node, st *Stats) network.Router { return newAODV(p, nd, st) })
	l.ch.SetMobility(l.ch.RadioOf(l.nodes[4]), (&wireless.ConstantVelocity{VY: 50}).NewMobility(800, 0, true, nil), 0)
	for i := range 80 {
		l.send(sim.Time(i)*50*sim.Millisecond, 0, 4)
	}
	l.net.Run(4 * sim.Second)
	var repairAt, rerrAt sim.Time
	for _, f := range l.since(2 * sim.Second) {
		switch {
		case f.kind == "rreq" && f.from == "d" && repairAt == 0:
			repairAt = f.at
		case f.kind == "rerr" && f.from == "d" && rerrAt == 0:
			rerrAt = f.at
		}
	}
	if l.stats.LocalRepairs != 1 || repairAt == 0 {
		t.Fatalf("%d local repairs (request at %v), want 1", l.stats.LocalRepairs, repairAt)
	}
	if gap := rerrAt - repairAt; gap < 399*sim.Millisecond || gap > 401*sim.Millisecond { // the request waited for the medium
		t.Errorf("d's route error %v after its repair request, want 400 ms", gap)
	}
	if l.net.Drops[network.BrokenLink] == 0 {
		t.Error("the packets that waited for the repair were not dropped")
	}
}

func TestNS2sLocalRepairDiscardsTheLiveNextHopsReplies(t *testing.T) {
	// a-b-c-d-e-f, a sends to f every 50 ms; e hears no data frame from
	// 2.0 to 2.075 s (its routing frames pass), so d's MAC gives up on one
	// datagram, three hops from a and two from f: a local repair. RFC 3561 §6.12 raises f's sequence number, so
	// e cannot answer from its table and f does: the route is back within
	// a few milliseconds. ns-2.35's repair (repair_timer: ns2) keeps the
	// number: e, alive, answers with an equal one and no fewer hops, and d
	// discards it, asking again as its timeouts grow, until e's own route
	// to f has expired (ACTIVE_ROUTE_TIMEOUT, 3 s, after e last forwarded)
	// and the request reaches f, whose reply (destination_seq: ns2) is
	// newer.
	for _, c := range []struct {
		timer          RepairTimer
		minGap, maxGap sim.Time
	}{
		{RepairRFC, 0, 100 * sim.Millisecond},
		{RepairNS2, 3 * sim.Second, 4 * sim.Second},
	} {
		p := quiet()
		p.LocalRepair, p.RepairTimer, p.DestinationSeq = true, c.timer, DestSeqNS2
		l := newLine(t, 6, p)
		l.ch.RadioOf(l.nodes[4]).PHYLoss = blackout{from: 2 * sim.Second, until: 2075 * sim.Millisecond, dataOnly: true}
		for i := range 160 {
			l.send(sim.Time(i)*50*sim.Millisecond, 0, 5)
		}
		var repairAt, backAt sim.Time
		for l.net.Now() < 8*sim.Second {
			l.net.Run(l.net.Now() + sim.Millisecond)
			rt := l.rt[3].table.get(l.nodes[5].ID)
			switch {
			case repairAt == 0 && rt != nil && rt.state == inRepair:
				repairAt = l.net.Now()
			case repairAt != 0 && backAt == 0 && rt != nil && rt.state == valid:
				backAt = l.net.Now()
			}
		}
		if l.stats.LocalRepairs != 1 || repairAt == 0 || backAt == 0 {
			t.Fatalf("%v: %d repairs, in repair at %v, back at %v", c.timer, l.stats.LocalRepairs, repairAt, backAt)
		}
		if gap := backAt - repairAt; gap < c.minGap || gap > c.maxGap {
			t.Errorf("%v: the route was back %v after the repair began, want %v to %v", c.timer, gap, c.minGap, c.maxGap)
		}
	}
}

// ns-2.35's sendRequest for a source (request_timer: ns2), worked from
// aodv.cc: a destination never reached counts as infinitely far, so the
// first request covers the network (TTL 30, the diameter); once the route
// breaks, the next discovery rings out from its last hop count, 2, by
// TTL_INCREMENT while below TTL_THRESHOLD (4, 6, 8), then the diameter
// until RREQ_RETRIES + 1 requests there went unanswered, when the waiting
// packets are lost and the source rests MAX_RREQ_TIMEOUT. Requests go on
// new packets and on the route table's purge, every 0.5 s, once the last
// one's timeout (2·TTL times the measured latency per hop) has passed.
func TestNS2sSourceRequestsCoverTheNetworkFirstThenRingOut(t *testing.T) {
	p := quiet()
	p.RequestTimer, p.TTLStart, p.TTLIncrement, p.TTLThreshold, p.NetDiameter, p.RREQRetries = RequestNS2, 5, 2, 7, 30, 3
	p.FeedbackNeighboursOnly, p.TrafficNeighbours = false, false
	l := newLine(t, 3, p)
	l.lastGoesDeaf() // a sends c a datagram every 100 ms to 1.4 s; c hears nothing from 1 s
	l.net.Run(20 * sim.Second)
	var ttls []int
	var last sim.Time
	for _, f := range l.frames {
		if f.kind == "rreq" && f.from == "a" {
			ttls = append(ttls, f.ttl)
			last = f.at
		}
	}
	if want := []int{30, 4, 6, 8, 30, 30, 30, 30}; !slices.Equal(ttls, want) {
		t.Errorf("a's requests' TTLs %v, want %v", ttls, want)
	}
	if l.net.Drops[network.NoRoute] == 0 || last > 10*sim.Second {
		t.Errorf("no_route drops %d, last request at %v: want the waiting packets lost and a rest", l.net.Drops[network.NoRoute], last)
	}
	a := l.rt[0].lookup(l.nodes[2].ID)
	if a == nil || a.nLatency != 1 || a.latency[0] <= 0 || a.latency[0] > 10*sim.Millisecond {
		t.Errorf("a's measured latency per hop: %+v", a)
	}
}

// The packets a reply releases leave release_spacing apart from the
// reply on (ns-2.35's recvReply: ARP_DELAY, 10 ms), or together.
func TestAReplysPacketsLeaveReleaseSpacingApart(t *testing.T) {
	for _, spacing := range []sim.Time{0, 10 * sim.Millisecond} {
		p := quiet()
		p.ReleaseSpacing = spacing
		l := newLine(t, 2, p)
		l.keepData = true
		for range 3 {
			l.send(100*sim.Millisecond, 0, 1)
		}
		l.net.Run(sim.Second)
		if len(l.data) != 3 || l.sink.Packets != 3 {
			t.Fatalf("release_spacing %v: data frames %v, delivered %d", spacing, l.data, l.sink.Packets)
		}
		for i := 1; i < 3; i++ {
			gap := l.data[i].at - l.data[i-1].at
			if spacing > 0 && (gap < spacing-sim.Millisecond || gap > spacing+sim.Millisecond) || spacing == 0 && gap > 2*sim.Millisecond {
				t.Errorf("release_spacing %v: packet %d left %v after the one before", spacing, i+1, gap)
			}
		}
	}
}
