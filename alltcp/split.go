package alltcp

import (
	"unsafe"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// state is where a flow stands between end to end and split.
type state uint8

// A flow's states. The switches happen at byte boundaries both ends agree
// on, so that no byte is delivered twice or never:
//   - passing: the agent forwards both ways (every flow starts here);
//   - arming: the split was decided at s, one past the highest byte
//     forwarded. Bytes below s stay the source's business (they and the
//     destination's ACKs pass); bytes from s are taken by the agent's
//     receiver, silently, until the destination acknowledges s;
//   - splitting: the agent acknowledges the source (upstream connection)
//     and sends what it holds on its own connection to the destination
//     (downstream), with the source's sequence numbers;
//   - draining: back to end to end from e, the next byte the agent
//     expects: the downstream connection finishes [s, e) while bytes from
//     e pass; once the destination acknowledges e, passing again.
const (
	passing state = iota
	arming
	splitting
	draining
)

// conn is the agent's view of one TCP flow.
type conn struct {
	a                 *Agent
	f                 *tcp.Flow
	mss               int64
	dataPort, ackPort int32 // the destination's and the source's endpoints

	packets int64 // data packets seen from the source
	long    bool
	st      state
	s, e    int64 // split and drain points
	fwd     int64 // one past the highest byte forwarded end to end
	up      *tcp.Flow
	down    *tcp.Flow
	offered int64 // bytes from s handed to the downstream connection
	ackedUp int64 // the highest ACK sent upstream
	seen    int64 // one past the highest byte received from the source
	acked   int64 // the highest ACK the destination sent end to end
	// The source's data header, to re-emit held segments when draining.
	hdr   int32
	hasTS bool
	tsval int64
	// An upstream ACK held to keep γ ≤ GammaMax (eq. 9).
	held   *network.Packet
	holdTm sim.Timer
	// Bytes from the source and bytes sent on in the current interval
	// (eqs. 7-8).
	inBytes, outBytes int64
}

// connBytes is the agent's bookkeeping per flow (not counting the relay
// buffer, which Stats.BufferMax bounds, and the two connections of a split
// flow).
const connBytes = int(unsafe.Sizeof(conn{}))

func newConn(a *Agent, f *tcp.Flow) *conn {
	snd, rcv := f.Ports()
	c := &conn{a: a, f: f, mss: int64(f.Config().Segments.MSS), dataPort: rcv, ackPort: snd}
	c.holdTm.Init(a.net.Sched, c.release)
	return c
}

// onData handles a packet from the source; true if the agent took it.
func (c *conn) onData(p *network.Packet) bool {
	end := p.Seq + int64(p.Payload)
	if p.Payload > 0 {
		if c.packets == 0 {
			c.fwd = p.Seq
		}
		c.packets++
		c.inBytes += int64(p.Payload)
		c.seen = max(c.seen, end)
		c.hdr, c.hasTS, c.tsval = p.Size-p.Payload, p.HasTS, p.TSval
		if !c.long && c.packets > int64(c.a.cfg.LongLived) {
			c.long = true
			c.a.Stats.LongLived++
			c.decide()
		}
	}
	switch c.st {
	case arming:
		if p.Payload > 0 && p.Seq >= c.s {
			c.up.Up().ToReceiver(p)
			return true
		}
	case splitting:
		if p.Payload > 0 {
			c.up.Up().ToReceiver(p)
			c.offer()
			return true
		}
	case draining:
		if p.Payload > 0 && p.Seq < c.e {
			// Below e the agent acknowledged everything: a duplicate,
			// already relayed, sent again because the ACK was lost.
			// The upstream receiver acknowledges it again.
			c.up.Up().ToReceiver(p)
			return true
		}
	}
	if c.a.regulate(p, c) {
		return true
	}
	if p.Payload > 0 {
		c.fwd = max(c.fwd, end)
		c.outBytes += int64(p.Payload)
	}
	return false
}

// onAck handles a packet from the destination; true if the agent took it.
func (c *conn) onAck(p *network.Packet) bool {
	switch c.st {
	case passing:
		c.acked = max(c.acked, p.Ack)
	case arming:
		c.acked = max(c.acked, p.Ack)
		if p.Ack >= c.s {
			c.a.net.Free(p)
			c.startSplit()
			return true
		}
	case splitting:
		c.toDown(p)
		return true
	case draining:
		if p.Ack < c.e {
			c.toDown(p)
			return true
		}
		// The destination holds everything below e: the downstream
		// connection is done (a copy tells it so) and this ACK, about
		// bytes the source sent, is the source's.
		q := c.a.net.Alloc()
		id := q.ID
		*q = *p
		q.ID = id
		c.toDown(q)
		c.acked = max(c.acked, p.Ack)
		c.st = passing
		c.up, c.down = nil, nil
	}
	return false
}

// decide applies the mode and the predicted level to a long-lived flow.
func (c *conn) decide() {
	a := c.a
	want := c.st == splitting || c.st == arming
	switch a.cfg.Mode {
	case Split:
		want = true
	case Regulate, Observe:
		want = false
	case Adaptive:
		switch {
		case a.predicted < a.cfg.Alpha:
			want = true
		case a.predicted > a.cfg.Beta:
			want = false
		}
	}
	switch {
	case want && c.st == passing:
		c.arm()
	case !want && c.st == splitting:
		c.drain()
	}
}

// arm starts a split at the highest byte forwarded so far.
func (c *conn) arm() {
	a := c.a
	cfg := *c.f.Config()              // a copy: the flow's own is shared
	cfg.Open.Mode = tcp.HandshakeNone // the connection is open: the agent joins it
	up, err := tcp.NewFlow(a.net, a.newID(), c.f.Name+"/up", cfg, c.f.Src, a.node)
	if err != nil {
		return // the flow's own settings were accepted: cannot happen
	}
	c.up, c.s, c.offered = up, c.fwd, 0
	up.Relay().Expect(c.s)
	up.Relay().SetWindow(c.free)
	up.Interpose(tcp.LayerFuncs{Sender: func(p *network.Packet) { a.net.Free(p) }, Receiver: c.fromUp})
	c.ackedUp = c.s
	c.st = arming
	if c.acked >= c.s {
		// The destination already acknowledged s (its ACK passed
		// before the decision).
		c.startSplit()
	}
}

// startSplit opens the downstream connection once the destination holds
// everything below s, and acknowledges the source for what the agent holds.
func (c *conn) startSplit() {
	a := c.a
	cfg := *c.f.Config() // a copy: the flow's own is shared
	cfg.Open.Mode = tcp.HandshakeNone
	down, err := tcp.NewFlow(a.net, a.newID(), c.f.Name+"/down", cfg, a.node, c.f.Dst)
	if err != nil {
		return
	}
	c.down = down
	down.OnDrained(func(sim.Time) {}) // data arrives as the source sends it
	down.Interpose(tcp.LayerFuncs{Sender: c.fromDown, Receiver: func(p *network.Packet) { a.net.Free(p) }})
	c.st = splitting
	a.Stats.Splits++
	c.offer()
	down.Start(a.net.Now())
	c.up.Relay().SendAck()
}

// drain hands the flow back to end to end (see draining).
func (c *conn) drain() {
	a := c.a
	c.up.Relay().SendAck() // a pending delayed ACK: the source must learn of e
	c.release()
	c.e = c.up.Snapshot().RcvNext
	c.st = draining
	a.Stats.Unsplits++
	// Blocks held above e were never acknowledged cumulatively: send them
	// on as the source's, so that nothing the source may count as
	// delivered (SACKed) is lost.
	c.up.Relay().Held(func(start, end int64) {
		for seq := start; seq < end; seq += c.mss {
			q := a.net.Alloc()
			q.Flow, q.Src, q.Dst, q.Port, q.Proto = c.f.ID, a.node.ID, c.f.Dst.ID, c.dataPort, network.TCP
			q.Seq, q.Payload = seq, int32(min(c.mss, end-seq))
			q.Size = c.hdr + q.Payload
			q.Flags = network.FlagACK
			q.HasTS, q.TSval = c.hasTS, c.tsval
			q.SentAt = a.net.Now()
			c.fwd = max(c.fwd, seq+int64(q.Payload))
			a.node.Send(q)
		}
	})
}

// offer hands the downstream connection the bytes the upstream one has
// received in order.
func (c *conn) offer() {
	if n := c.up.Snapshot().RcvNext - c.s - c.offered; n > 0 {
		c.offered += n
		c.down.Offer(n)
	}
	b := c.buffered()
	c.a.Stats.BufferMax = max(c.a.Stats.BufferMax, b)
}

// buffered is the relay buffer: bytes acknowledged upstream (or held while
// arming) that the destination has not acknowledged.
func (c *conn) buffered() int64 {
	switch c.st {
	case arming:
		return c.up.Snapshot().RcvNext - c.s
	case splitting, draining:
		return c.up.Snapshot().RcvNext - c.s - c.down.Snapshot().Una
	}
	return 0
}

// free is the receive window the agent advertises upstream: what the
// buffer can still take. Back-pressure: a full buffer closes the window.
// Whole segments only: a window of less than one is announced as zero
// (receiver-side silly window avoidance, RFC 1122 §4.2.3.3).
func (c *conn) free() int64 {
	w := max(c.a.cfg.Buffer-c.buffered(), 0)
	return w - w%c.mss
}

// fromUp sends an ACK of the upstream connection to the source, as the
// destination's (its port, its flow), unless γ says to hold it.
func (c *conn) fromUp(p *network.Packet) {
	a := c.a
	if c.st != splitting && c.st != draining {
		a.net.Free(p) // arming is silent; after a drain the source's ACKs are the destination's
		return
	}
	p.Flow, p.Port = c.f.ID, c.ackPort
	if c.st == splitting && p.Ack > c.ackedUp && a.cfg.MaxHold > 0 && c.gamma() > a.cfg.GammaMax {
		// Eq. 9: the upstream segment outruns the downstream one.
		// Cumulative ACKs: the newest held one says all the older did.
		if c.held != nil {
			a.net.Free(c.held)
		}
		c.held = p
		a.Stats.AcksHeld++
		if !c.holdTm.Armed() {
			c.holdTm.Arm(a.net.Now() + a.cfg.MaxHold)
		}
		return
	}
	c.release()
	c.send(p)
}

func (c *conn) send(p *network.Packet) {
	c.ackedUp = max(c.ackedUp, p.Ack)
	c.a.node.Send(p)
}

// release sends a held ACK.
func (c *conn) release() {
	c.holdTm.Cancel()
	if p := c.held; p != nil {
		c.held = nil
		c.send(p)
	}
}

// fromDown sends a segment of the downstream connection as the source's
// (its sequence numbers, the destination's port, the flow's id).
func (c *conn) fromDown(p *network.Packet) {
	p.Seq += c.s
	p.Flow, p.Port = c.f.ID, c.dataPort
	c.outBytes += int64(p.Payload)
	c.a.node.Send(p)
}

// toDown gives the downstream connection an ACK of the destination, in
// its own sequence space; SACK blocks outside what it sent are dropped.
func (c *conn) toDown(p *network.Packet) {
	a := c.a
	top := c.s + c.offered
	p.Ack = min(max(p.Ack, c.s), top) - c.s
	n := uint8(0)
	for i := range p.NSack {
		b := p.Sack[i]
		if b.Start >= c.s && b.End <= top {
			p.Sack[n] = network.SackBlock{Start: b.Start - c.s, End: b.End - c.s}
			n++
		}
	}
	p.NSack = n
	p.Port, _ = c.down.Ports()
	p.Flow = c.down.ID
	before := c.down.Snapshot().Una
	c.down.Up().ToSender(p)
	if d := c.down.Snapshot().Una - before; d > 0 {
		a.Stats.Relayed += d
		if c.st == splitting {
			// SWS avoidance (RFC 9293 §3.8.6.2.2): announce the
			// reopened window once it grew by a segment.
			if w := c.free(); w >= c.lastAdvertised()+c.mss {
				a.Stats.WindowUpdates++
				c.up.Relay().SendAck()
			}
			if c.held != nil && c.gamma() <= a.cfg.GammaMax {
				c.release()
			}
		}
	}
}

// lastAdvertised is the window the upstream connection last announced.
func (c *conn) lastAdvertised() int64 { return c.up.Snapshot().Window }

// gamma is eq. 9, γ = (δ + cwnd_i)/cwnd_o: the buffer plus the source's
// data in flight as the agent sees it (received beyond what it has
// acknowledged), over the downstream connection's flight.
func (c *conn) gamma() float64 {
	in := max(c.seen-c.ackedUp, 0)
	out := max(c.down.Snapshot().High-c.down.Snapshot().Una, c.mss)
	return float64(c.buffered()+in) / float64(out)
}

// noteGamma counts the interval's γ of a split flow.
func (c *conn) noteGamma() {
	if c.st != splitting || c.buffered() == 0 && c.down.Snapshot().High == c.down.Snapshot().Una {
		return // idle: nothing to balance
	}
	a := c.a
	g := c.gamma()
	a.gammaSum += g
	switch {
	case g < 1:
		a.Stats.GammaLow++
	case g > a.cfg.GammaMax:
		a.Stats.GammaHigh++
	default:
		a.Stats.GammaIn++
	}
}

// expectedBuffer is eq. 7, B(t+τ) = δ + Y_i(t+τ) − Y_o(t+τ): the buffer
// now, plus what the source will send in the next interval, less what
// leaves. Y_i follows eq. 8 from the bytes the source sent in this
// interval (cwnd_i): cwnd_i + cwnd_i/η, at most W_max, where η is the
// segments per ACK; a source silent this interval is predicted silent.
func (c *conn) expectedBuffer() float64 {
	var yi float64
	if cw := float64(c.inBytes); cw > 0 {
		eta := float64(max(c.f.Config().Acks.DelAckCount, 1))
		yi = cw + cw/eta
		if w := float64(int64(c.f.Config().Segments.Window) * c.mss); w > 0 && yi > w {
			yi = w
		}
	}
	return float64(c.buffered()) + yi - float64(c.outBytes)
}
