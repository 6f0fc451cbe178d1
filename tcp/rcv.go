package tcp

import (
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Receiver is the receiving half of a connection: cumulative ACKs, an
// out-of-order buffer, delayed ACKs, SACK blocks and timestamp echo.
type Receiver struct {
	f   *Flow
	net *network.Net
	cfg *Config

	synced bool  // the connection's first sequence number is known
	rcvNxt int64 // next in-order byte expected
	// ooo holds received blocks above rcvNxt, sorted and disjoint; stamp
	// orders them by recency for SACK (RFC 2018 §4: the first block holds
	// the most recent segment).
	ooo   []rcvBlock
	stamp uint64

	tsRecent    int64
	lastAckSent int64

	// window, if set, is the receive buffer's free space in bytes
	// beyond rcvNxt, advertised on every ACK (SetWindow); lastWnd is
	// the last advertised value (segments starting beyond it are
	// refused).
	window  func() int64
	lastWnd int64

	unacked int // full segments received since the last ACK
	delack  sim.Timer
	ece     bool // RFC 3168: echo CE until CWR
	cwEcho  bool

	// Delivered counts application bytes delivered in order.
	Delivered int64
	// SpuriousRetx counts retransmitted segments that carried only bytes
	// already received (ground truth for "spurious retransmission").
	SpuriousRetx int64
	// ReceivedData counts data segments that arrived.
	ReceivedData int64
	acksSent     int64
}

type rcvBlock struct {
	start, end int64
	stamp      uint64
}

func newReceiver(f *Flow) *Receiver {
	r := &Receiver{f: f, net: f.net, cfg: f.cfg}
	r.delack.Init(f.net.Sched, r.onDelAck)
	return r
}

// Receive implements network.Endpoint.
func (r *Receiver) Receive(p *network.Packet) {
	if p.Flags&network.FlagSYN != 0 {
		r.onSYN(p)
		return
	}
	if !r.synced || p.Payload == 0 {
		r.net.Free(p)
		return
	}
	r.ReceivedData++
	if p.CE {
		r.ece = true
	}
	if p.Flags&network.FlagCWR != 0 {
		r.ece = false
	}
	r.cwEcho = p.CW
	start, end := p.Seq, p.Seq+int64(p.Payload)
	immediate := false
	switch {
	case r.window != nil && start >= r.rcvNxt+r.lastWnd:
		// Beyond the advertised window: not acceptable (RFC 9293
		// §3.10.7.4); drop it and say where the window is. With a
		// zero window this refuses the sender's probe.
		immediate = true
	case end <= r.rcvNxt || r.covered(start, end):
		// All old: a duplicate; ACK at once (RFC 5681 §4.2).
		if p.Retx {
			r.SpuriousRetx++
		}
		immediate = true
	case start <= r.rcvNxt:
		hadHole := len(r.ooo) > 0
		r.advance(end)
		// Filling (part of) a gap is ACKed at once (RFC 5681 §4.2).
		immediate = hadHole
		if !immediate {
			r.unacked++
			immediate = r.unacked >= r.cfg.Acks.DelAckCount
		}
	default:
		r.insert(start, end)
		immediate = true // out of order: immediate duplicate ACK
	}
	r.updateTS(p)
	r.net.Free(p)
	if immediate {
		r.sendAck()
	} else if !r.delack.Armed() {
		r.delack.Arm(r.net.Sched.Now() + r.cfg.Acks.DelAckTimeout)
	}
}

func (r *Receiver) onSYN(p *network.Packet) {
	r.synced = true
	r.rcvNxt = p.Seq + 1
	r.lastAckSent = r.rcvNxt
	if p.HasTS {
		r.tsRecent = p.TSval
	}
	r.net.Free(p)
	flags := network.FlagACK
	if r.cfg.Open.Mode == Handshake3Way {
		flags |= network.FlagSYN
	}
	r.emit(flags)
}

// SetWindow makes the receiver advertise a receive window on its ACKs:
// free returns the bytes it can take beyond the next expected one (a
// relay's buffer space: package alltcp). Without it no window is
// advertised, as an application that reads at once.
func (r *Receiver) SetWindow(free func() int64) {
	r.window = free
	r.lastWnd = max(free(), 0)
}

// Window is the receive window last advertised (SetWindow).
func (r *Receiver) Window() int64 { return r.lastWnd }

// SendAck sends an ACK now: a window update after free space grew.
func (r *Receiver) SendAck() { r.sendAck() }

// Expect lets data flow from seq without a handshake, as when a relay takes
// over a connection in the middle.
func (r *Receiver) Expect(seq int64) { r.expect(seq) }

// Next is RCV.NXT: the next byte expected in order.
func (r *Receiver) Next() int64 { return r.rcvNxt }

// Held calls fn for every block held above RCV.NXT, in order.
func (r *Receiver) Held(fn func(start, end int64)) {
	for _, b := range r.ooo {
		fn(b.start, b.end)
	}
}

// expect lets data flow without a handshake: the first sequence number is
// known in advance.
func (r *Receiver) expect(seq int64) {
	r.synced = true
	r.rcvNxt = seq
	r.lastAckSent = seq
}

// covered reports whether [start, end) is already in the out-of-order buffer.
func (r *Receiver) covered(start, end int64) bool {
	for _, b := range r.ooo {
		if b.start <= start && end <= b.end {
			return true
		}
	}
	return false
}

// advance moves rcvNxt to end and absorbs buffered blocks that now join.
func (r *Receiver) advance(end int64) {
	if end > r.rcvNxt {
		r.Delivered += end - r.rcvNxt
		r.rcvNxt = end
	}
	i := 0
	for i < len(r.ooo) && r.ooo[i].start <= r.rcvNxt {
		if r.ooo[i].end > r.rcvNxt {
			r.Delivered += r.ooo[i].end - r.rcvNxt
			r.rcvNxt = r.ooo[i].end
		}
		i++
	}
	if i > 0 {
		r.ooo = append(r.ooo[:0], r.ooo[i:]...)
	}
}

// insert adds [start, end) above rcvNxt, merging neighbours.
func (r *Receiver) insert(start, end int64) {
	r.stamp++
	i := 0
	for i < len(r.ooo) && r.ooo[i].end < start {
		i++
	}
	j := i
	for j < len(r.ooo) && r.ooo[j].start <= end {
		start = min(start, r.ooo[j].start)
		end = max(end, r.ooo[j].end)
		j++
	}
	b := rcvBlock{start, end, r.stamp}
	if j == i {
		r.ooo = append(r.ooo, rcvBlock{})
		copy(r.ooo[i+1:], r.ooo[i:])
		r.ooo[i] = b
		return
	}
	r.ooo[i] = b
	r.ooo = append(r.ooo[:i+1], r.ooo[j:]...)
}

// updateTS applies the receiver's TSecr rule.
func (r *Receiver) updateTS(p *network.Packet) {
	if !p.HasTS {
		return
	}
	if r.cfg.TS.Echo == EchoLatest {
		// T-DLRP §4.1: echo the most recently arrived segment, in order or not.
		r.tsRecent = p.TSval
		return
	}
	// RFC 7323 §4.3 (3): only a segment at or below Last.ACK.sent updates
	// TS.Recent, so the echo covers the time the hole was open.
	if p.TSval >= r.tsRecent && p.Seq <= r.lastAckSent {
		r.tsRecent = p.TSval
	}
}

func (r *Receiver) onDelAck() { r.sendAck() }

func (r *Receiver) sendAck() { r.emit(network.FlagACK) }

func (r *Receiver) emit(flags network.Flags) {
	r.delack.Cancel()
	r.unacked = 0
	f := r.f
	p := r.net.Alloc()
	p.Flow = f.ID
	p.Src, p.Dst = f.dstID, f.srcID
	p.Port = f.sndPort
	p.Proto = network.TCP
	p.Flags = flags
	p.Ack = r.rcvNxt
	p.Seq = r.lastAckSent // unused by the sender
	size := int32(r.cfg.Segments.HeaderBytes)
	if r.cfg.TS.Enabled {
		p.HasTS = true
		p.TSval = f.tsNow()
		p.TSecr = r.tsRecent
		if r.cfg.Segments.OptionBytes {
			size += 12 // kind, length, 8 bytes, 2 NOPs (RFC 7323 Appendix A)
		}
	}
	if r.cfg.Recovery.SACK && len(r.ooo) > 0 {
		r.fillSACK(p)
		if r.cfg.Segments.OptionBytes {
			size += 2 + 8*int32(p.NSack) + 2
		}
	}
	if r.ece {
		p.Flags |= network.FlagECE
	}
	p.CWEcho = r.cwEcho
	if r.window != nil {
		r.lastWnd = max(r.window(), 0)
		p.HasWnd, p.Wnd = true, r.lastWnd
	}
	p.Size = size
	r.lastAckSent = r.rcvNxt
	r.acksSent++
	f.toSender(p)
}

// fillSACK writes the most recent blocks first (RFC 2018 §4).
func (r *Receiver) fillSACK(p *network.Packet) {
	limit := network.MaxSack
	if r.cfg.TS.Enabled {
		limit = 3
	}
	var used [network.MaxSack]int
	for n := 0; n < limit && n < len(r.ooo); n++ {
		best := -1
		for i, b := range r.ooo {
			taken := false
			for k := 0; k < n; k++ {
				if used[k] == i {
					taken = true
					break
				}
			}
			if !taken && (best < 0 || b.stamp > r.ooo[best].stamp) {
				best = i
			}
		}
		used[n] = best
		p.Sack[n] = network.SackBlock{Start: r.ooo[best].start, End: r.ooo[best].end}
		p.NSack++
	}
}
