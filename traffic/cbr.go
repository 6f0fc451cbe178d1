// Package traffic holds the applications that offer load to the network:
// constant-bit-rate UDP here, bulk and web transfers over TCP.
package traffic

import (
	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// UDPHeader is the IPv4 + UDP header overhead in bytes (RFC 791, RFC 768):
// a CBR packet of size s carries s − UDPHeader bytes of payload.
const UDPHeader = 20 + 8

// CBR sends fixed-size UDP packets at a constant bit rate, like ns-2's
// Application/Traffic/CBR over Agent/UDP: the background or cross traffic
// of the papers' scenarios.
type CBR struct {
	Sink *UDPSink

	net      *network.Net
	id       int32
	src, dst *network.Node
	rate     float64 // bits per second, headers included
	size     int32   // bytes on the wire
	start    sim.Time
	stop     sim.Time
	started  bool
	tick     sim.Timer // next transmission; embedded so sending never allocates
	k        int64     // packets sent since the burst began (schedules the next one)
	burst    sim.Time  // when the current burst began (Start's time for a plain CBR)
	onoff    *onOff    // nil: always on
	sent     int64
	sentByte int64
	drops    []int64 // by network.DropCause
}

// NewCBR makes a CBR source at src sending rateBps bits per second of
// packets of size bytes (headers included) to a UDP sink it binds at dst.
// Packets carry flow id; the caller starts it with Start.
func NewCBR(net *network.Net, id int32, src, dst *network.Node, rateBps float64, size int) *CBR {
	if rateBps <= 0 || size <= UDPHeader {
		panic("traffic: CBR needs a positive rate and a size above the UDP/IP header")
	}
	c := &CBR{net: net, id: id, src: src, dst: dst, rate: rateBps, size: int32(size), stop: sim.Never}
	c.Sink = NewUDPSink(net)
	c.tick.Init(net.Sched, c.send)
	maxCause := network.NotDropped
	for _, k := range network.DropCauses() {
		maxCause = max(maxCause, k)
	}
	c.drops = make([]int64, maxCause+1)
	// Per-flow dispatch: a drop costs the same however many flows exist.
	net.OnFlowDrop(id, func(_ *network.Packet, cause network.DropCause, _ *network.Link) {
		c.drops[cause]++
	})
	return c
}

// Start begins sending at time at.
func (c *CBR) Start(at sim.Time) {
	c.start, c.started, c.k, c.burst = at, true, 0, at
	if c.onoff != nil {
		c.onoff.end = at + c.onoff.on()
	}
	if at < c.stop {
		c.tick.Arm(at)
	}
}

// StopAt stops sending at time at: no packet leaves at or after it.
func (c *CBR) StopAt(at sim.Time) {
	c.stop = at
	c.Sink.Until = at
	if c.tick.Armed() && c.tick.Deadline() >= at {
		c.tick.Cancel()
	}
}

// send emits packet number k and arms the next one. Send times are
// start + k·size·8/rate rounded to the nanosecond, so the rate does not
// drift by accumulated rounding.
func (c *CBR) send() {
	p := c.net.Alloc()
	p.Flow = c.id
	p.Proto = network.UDP
	p.Src, p.Dst = c.src.ID, c.dst.ID
	p.Port = c.Sink.Port
	p.Size = c.size
	p.Payload = c.size - UDPHeader
	p.Seq = c.sent
	c.k++
	c.sent++
	c.sentByte += int64(c.size)
	c.src.Send(p)
	next := c.burst + sim.FromSeconds(float64(c.k)*float64(c.size)*8/c.rate)
	if o := c.onoff; o != nil && next >= o.end {
		// The burst is over: silent for an off period, then a new one.
		c.burst, c.k = o.end+o.off(), 0
		o.end = c.burst + o.on()
		next = c.burst
	}
	if next < c.stop {
		c.tick.Arm(next)
	}
}

// SentPackets is the number of packets sent so far.
func (c *CBR) SentPackets() int64 { return c.sent }

// Dropped is the number of the flow's packets lost with the given cause.
func (c *CBR) Dropped(cause network.DropCause) int64 { return c.drops[cause] }

// Result summarizes the flow at time now, averaging rates over its active
// time [start, min(stop, now)]. Packets still arriving after the stop are
// counted as delivered, not in the goodput: it is the bytes received by
// the stop over the active time, as a TCP flow's. ID and Variant are left
// to the caller.
func (c *CBR) Result(now sim.Time) metrics.Flow {
	end := min(c.stop, now)
	f := metrics.Flow{
		Transport:      "udp",
		Src:            c.src.Name,
		Dst:            c.dst.Name,
		StartSeconds:   c.start.Seconds(),
		StopSeconds:    end.Seconds(),
		DeliveredBytes: c.Sink.Bytes,
		SentPackets:    c.sent,
		Dropped:        make(map[string]int64),
	}
	if active := (end - c.start).Seconds(); c.started && active > 0 {
		f.GoodputBps = float64(c.Sink.BytesUntil) * 8 / active
		f.ThroughputBps = float64(c.sentByte) * 8 / active
	}
	for _, k := range network.DropCauses() {
		if n := c.drops[k]; n > 0 || !k.Routing() {
			f.Dropped[k.String()] = n
		}
	}
	return f
}

// UDPSink is a UDP endpoint that counts what it receives and frees it.
type UDPSink struct {
	Port      int32
	Packets   int64
	Bytes     int64 // payload bytes
	WireBytes int64 // bytes on the wire
	First     sim.Time
	Last      sim.Time
	// Until is the source's stop; BytesUntil counts the payload bytes
	// received by then, what the flow's goodput is made of (the queue
	// draining after the stop would otherwise be divided by the active
	// time and a rate above the path's reported).
	Until      sim.Time
	BytesUntil int64

	net *network.Net
}

// NewUDPSink binds a sink to a fresh port of net.
func NewUDPSink(net *network.Net) *UDPSink {
	s := &UDPSink{net: net, First: sim.Never, Until: sim.Never}
	s.Port = net.Bind(s)
	return s
}

// Receive implements network.Endpoint.
func (s *UDPSink) Receive(p *network.Packet) {
	now := s.net.Now()
	if s.Packets == 0 {
		s.First = now
	}
	s.Last = now
	s.Packets++
	s.Bytes += int64(p.Payload)
	if now <= s.Until {
		s.BytesUntil += int64(p.Payload)
	}
	s.WireBytes += int64(p.Size)
	s.net.Free(p)
}
