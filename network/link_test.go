package network

import (
	"slices"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// arrival is one delivery seen by a recorder.
type arrival struct {
	id uint64
	at sim.Time
}

// recorder is an endpoint that logs deliveries and frees the packets.
type recorder struct {
	net  *Net
	port int32
	got  []arrival
}

func newRecorder(n *Net) *recorder {
	r := &recorder{net: n}
	r.port = n.Bind(r)
	return r
}

func (r *recorder) Receive(p *Packet) {
	r.got = append(r.got, arrival{p.ID, r.net.Now()})
	r.net.Free(p)
}

func (r *recorder) ids() []uint64 {
	ids := make([]uint64, len(r.got))
	for i, a := range r.got {
		ids[i] = a.id
	}
	return ids
}

// dataPacket allocates a data packet of size bytes from src to r's port at dst.
func dataPacket(n *Net, src, dst *Node, r *recorder, size int32) *Packet {
	p := n.Alloc()
	p.Src, p.Dst, p.Port = src.ID, dst.ID, r.port
	p.Size, p.Payload = size, size-40
	return p
}

// pair is two nodes joined by one link with a DropTail queue of limit packets.
func pair(bw float64, delay sim.Time, limit int) (n *Net, a, b *Node, ab *Link, r *recorder) {
	n = New(1)
	a, b = n.AddNode("a"), n.AddNode("b")
	ab, _ = n.Connect("l", a, b, LinkConfig{Bandwidth: bw, Delay: delay},
		func() Queue { return NewDropTail(limit, 0) })
	n.ComputeRoutes()
	return n, a, b, ab, newRecorder(n)
}

func TestSinglePacketTakesSerializationPlusPropagation(t *testing.T) {
	cases := []struct {
		name  string
		bw    float64
		delay sim.Time
		size  int32
		want  sim.Time
	}{
		{"1000B at 8Mb/s + 10ms", 8e6, 10 * sim.Millisecond, 1000, 11 * sim.Millisecond},
		{"40B at 1Mb/s + 0", 1e6, 0, 40, 320 * sim.Microsecond},
		{"1500B at 10Gb/s + 1us", 10e9, sim.Microsecond, 1500, 1200 + 1000},
		// 1000 B at 3 Mb/s is 2.666…ms: rounded up, never faster than the rate.
		{"1000B at 3Mb/s rounds up", 3e6, 0, 1000, 2666667},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, a, b, ab, r := pair(c.bw, c.delay, 10)
			a.Send(dataPacket(n, a, b, r, c.size))
			n.Run(sim.Second)
			if len(r.got) != 1 || r.got[0].at != c.want {
				t.Fatalf("arrivals %v, want one at %v", r.got, c.want)
			}
			if ab.Stats.TxPackets != 1 || ab.Stats.RxBytes != int64(c.size) {
				t.Fatalf("stats %+v", ab.Stats)
			}
		})
	}
}

func TestBackToBackPacketsAreSpacedBySerialization(t *testing.T) {
	const k = 5
	n, a, b, _, r := pair(8e6, 10*sim.Millisecond, 100)
	for range k {
		a.Send(dataPacket(n, a, b, r, 1000))
	}
	n.Run(sim.Second)
	if len(r.got) != k {
		t.Fatalf("%d arrivals, want %d", len(r.got), k)
	}
	for i, g := range r.got {
		want := sim.Time(i+1)*sim.Millisecond + 10*sim.Millisecond
		if g.at != want {
			t.Errorf("packet %d arrived at %v, want %v", i, g.at, want)
		}
	}
	if !slices.IsSorted(r.ids()) {
		t.Errorf("out of order: %v", r.ids())
	}
}

func TestDropTailOverflowIsCountedAndObserved(t *testing.T) {
	// One packet goes straight to the transmitter, limit more wait; the rest overflow.
	const sent, limit = 7, 3
	n, a, b, ab, r := pair(8e6, sim.Millisecond, limit)
	var observed []DropCause
	var onLink []*Link
	n.OnDrop(func(p *Packet, c DropCause, l *Link) {
		observed = append(observed, c)
		onLink = append(onLink, l)
		if p.Cause != c {
			t.Errorf("packet cause %v, observer told %v", p.Cause, c)
		}
	})
	for range sent {
		a.Send(dataPacket(n, a, b, r, 1000))
	}
	n.Run(sim.Second)
	wantDrops := sent - limit - 1
	if len(r.got) != limit+1 {
		t.Errorf("%d delivered, want %d", len(r.got), limit+1)
	}
	if len(observed) != wantDrops || ab.Stats.Drops[QueueOverflow] != int64(wantDrops) || n.Drops[QueueOverflow] != int64(wantDrops) {
		t.Fatalf("observed %v, link drops %v, net drops %v; want %d overflows",
			observed, ab.Stats.Drops, n.Drops, wantDrops)
	}
	for i := range observed {
		if observed[i] != QueueOverflow || onLink[i] != ab {
			t.Errorf("drop %d: cause %v on %v", i, observed[i], onLink[i])
		}
	}
	// Every packet went back to the pool: taking as many as were ever
	// allocated needs no new one.
	total := n.PacketsAllocated()
	for range total {
		n.Alloc()
	}
	if got := n.PacketsAllocated(); got != total {
		t.Errorf("pool leaked: %d packets allocated, %d after draining it", total, got)
	}
}

func TestUnreachableDestinationIsDroppedNoRoute(t *testing.T) {
	n, a, _, _, r := pair(8e6, sim.Millisecond, 10)
	island := n.AddNode("island")
	n.ComputeRoutes()
	var link *Link
	var cause DropCause
	n.OnDrop(func(_ *Packet, c DropCause, l *Link) { cause, link = c, l })
	a.Send(dataPacket(n, a, island, r, 1000))
	n.Run(sim.Second)
	if cause != NoRoute || link != nil || n.Drops[NoRoute] != 1 || len(r.got) != 0 {
		t.Fatalf("cause %v on %v, drops %v, delivered %d", cause, link, n.Drops, len(r.got))
	}
	if n.Reachable(a, island) {
		t.Error("island reported reachable")
	}
}

func TestComputeRoutesPicksShortestPath(t *testing.T) {
	// a─b─c─d is three hops; a─e─d two; a─d direct has cost 5. Hop count
	// (cost 1) takes a─e─d; a costlier direct link must not win.
	n := New(1)
	a, b, c, d, e := n.AddNode("a"), n.AddNode("b"), n.AddNode("c"), n.AddNode("d"), n.AddNode("e")
	cfg := LinkConfig{Bandwidth: 1e6}
	dt := func() Queue { return NewDropTail(0, 0) }
	n.Connect("ab", a, b, cfg, dt)
	n.Connect("bc", b, c, cfg, dt)
	n.Connect("cd", c, d, cfg, dt)
	ae, _ := n.Connect("ae", a, e, cfg, dt)
	ed, _ := n.Connect("ed", e, d, cfg, dt)
	n.Connect("ad", a, d, LinkConfig{Bandwidth: 1e6, Cost: 5}, dt)
	n.ComputeRoutes()

	cases := []struct {
		from, to *Node
		want     *Link
	}{
		{a, d, ae},
		{e, d, ed},
		{a, e, ae},
	}
	for _, k := range cases {
		if got := k.from.NextHop(k.to.ID); got != k.want {
			t.Errorf("%s→%s: next hop %v, want %s", k.from.Name, k.to.Name, got.Name, k.want.Name)
		}
	}
	// Following next hops from a to d takes exactly two links.
	r := newRecorder(n)
	p := dataPacket(n, a, d, r, 100)
	a.Send(p)
	n.Run(sim.Second)
	if len(r.got) != 1 || ae.Stats.TxPackets != 1 || ed.Stats.TxPackets != 1 {
		t.Fatalf("delivered %d; a→e sent %d, e→d sent %d", len(r.got), ae.Stats.TxPackets, ed.Stats.TxPackets)
	}
}

// countingQueue is a drop-tail queue that is not a *DropTail: the link
// must offer it every arrival.
type countingQueue struct {
	*DropTail
	offered int
}

func (q *countingQueue) Enqueue(p *Packet, now sim.Time) DropCause {
	q.offered++
	return q.DropTail.Enqueue(p, now)
}

// A packet finding the transmitter idle skips the queue only if the queue
// is a drop-tail one that would take it; the link's copy of the byte limit
// must give the queue's own answer.
func TestAnIdleLinkSkipsOnlyAQueueThatWouldTakeThePacket(t *testing.T) {
	cases := []struct {
		name          string
		queue         func() Queue
		size          int32
		delivered     int
		overflows     int64
		offered       int // to a countingQueue
		countingQueue bool
	}{
		{"no limit", func() Queue { return NewDropTail(0, 0) }, 1000, 1, 0, 0, false},
		{"within the byte limit", func() Queue { return NewDropTail(0, 1000) }, 1000, 1, 0, 0, false},
		{"past the byte limit", func() Queue { return NewDropTail(0, 999) }, 1000, 0, 1, 0, false},
		{"a jumbo packet within a large limit", func() Queue { return NewDropTail(0, 200000) }, 70000, 1, 0, 0, false},
		{"a jumbo packet past a large limit", func() Queue { return NewDropTail(0, 69999) }, 70000, 0, 1, 0, false},
		{"another discipline", nil, 1000, 1, 0, 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, a, b, ab, r := pair(8e6, sim.Millisecond, 0)
			cq := &countingQueue{DropTail: NewDropTail(0, 0)}
			if c.countingQueue {
				ab.SetQueue(cq)
			} else {
				ab.SetQueue(c.queue())
			}
			a.Send(dataPacket(n, a, b, r, c.size))
			n.Run(sim.Second)
			if len(r.got) != c.delivered || ab.Stats.Drops[QueueOverflow] != c.overflows || cq.offered != c.offered {
				t.Errorf("%d delivered, %d overflows, %d offered to the queue; want %d, %d, %d",
					len(r.got), ab.Stats.Drops[QueueOverflow], cq.offered, c.delivered, c.overflows, c.offered)
			}
		})
	}
}

// The hooks are read through flags the setters keep: setting a hook makes
// the link use it, clearing it (nil) makes the link stop.
func TestALinksHooksFollowTheirSetters(t *testing.T) {
	n, a, b, ab, r := pair(8e6, sim.Millisecond, 0)
	var events []byte
	ab.SetTracer(TraceFunc(func(ev byte, _ *Link, _ *Packet, _ sim.Time) { events = append(events, ev) }))
	ab.SetErrorModel(NewDropList(2))
	ab.SetDelayProcess(&Schedule{Initial: 5 * sim.Millisecond})
	for range 2 {
		a.Send(dataPacket(n, a, b, r, 1000))
	}
	n.Run(sim.Second)
	if got, want := string(events), "+-+-rd"; got != want { // the second starts at 1 ms, its own event
		t.Errorf("traced %q, want %q", got, want)
	}
	// 1000 bytes at 8 Mbit/s take 1 ms; the delay process's 5 ms, not the link's 1 ms.
	if len(r.got) != 1 || r.got[0].at != 6*sim.Millisecond {
		t.Errorf("arrivals %v, want one at 6 ms", r.got)
	}
	if ab.Tracer() == nil || ab.ErrorModel() == nil || ab.DelayProcess() == nil {
		t.Error("a hook set is not reported")
	}

	ab.SetTracer(nil)
	ab.SetErrorModel(nil)
	ab.SetDelayProcess(nil)
	events, r.got = nil, nil
	start := n.Now()
	for range 2 {
		a.Send(dataPacket(n, a, b, r, 1000))
	}
	n.Run(2 * sim.Second)
	if len(events) != 0 || len(r.got) != 2 || r.got[0].at != start+2*sim.Millisecond {
		t.Errorf("after clearing the hooks: traced %q, arrivals %v; want none traced, two arrivals, the first at %v",
			events, r.got, start+2*sim.Millisecond)
	}
}

// A link that starts each transmission with an event of its own (a delay
// process or a tracer makes it so) never has two packets on the wire: a
// packet sent at the very instant a transmission ends, by an event that
// runs before the transmitter's (an older timer), takes its turn behind
// the packet already queued, and the transmitter's event then starts
// nothing more. Before the fix the second start overlapped the first:
// arrivals 11, 12 and 12 ms.
func TestAnEagerLinkSendsOnePacketAtATime(t *testing.T) {
	for _, c := range []struct {
		name  string
		eager func(l *Link)
	}{
		{"delay process", func(l *Link) { l.SetDelayProcess(&Schedule{Initial: 10 * sim.Millisecond}) }},
		{"tracer", func(l *Link) { l.SetTracer(TraceFunc(func(byte, *Link, *Packet, sim.Time) {})) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, a, b, ab, r := pair(8e6, 10*sim.Millisecond, 100)
			c.eager(ab)
			// Made before the run, so older than the transmitter's timer,
			// which the link makes when the second packet waits.
			n.Sched.At(sim.Millisecond, func() { a.Send(dataPacket(n, a, b, r, 1000)) })
			a.Send(dataPacket(n, a, b, r, 1000))
			a.Send(dataPacket(n, a, b, r, 1000))
			n.Run(sim.Second)
			var got []sim.Time
			for _, g := range r.got {
				got = append(got, g.at)
			}
			want := []sim.Time{11 * sim.Millisecond, 12 * sim.Millisecond, 13 * sim.Millisecond}
			if !slices.Equal(got, want) {
				t.Fatalf("arrivals at %v, want %v", got, want)
			}
		})
	}
}
