package coding

import (
	"fmt"
	"math/rand/v2"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// Config sets up the coding layer of one flow.
type Config struct {
	Redundancy float64 // R: coded packets per packet TCP hands down, at least 1
	Window     int     // most packets coded over (default MaxWindow)
}

// Layer is TCP-NC's layer under one TCP flow: the encoder between the
// sender and the network, the decoder between the network and the
// receiver. TCP's segments go down to the encoder (handshake and pure ACKs
// pass untouched); coded packets travel to the decoder, which hands the
// receiver the packets it decodes, in order, and answers every coded
// packet itself with an acknowledgement of the packets seen (the
// receiver's own ACKs are not sent). Payloads are real bytes, generated
// from the run's seed per packet and checked on delivery.
type Layer struct {
	Stats Stats

	f         *tcp.Flow
	up        tcp.Up // where decoded data and acknowledgements go up to the flow
	net       *network.Net
	enc       *Encoder
	dec       *Decoder
	mss       int64
	seed      uint64
	encPort   int32 // where the layer's ACKs reach the sender's side
	decPort   int32 // where coded packets reach the decoder
	buf, want []byte
	// The window's time integral (segments·ns) and the last sample.
	cwndArea       float64
	cwndAt, cwndT0 int64
	cwndLast       float64
	cwndSampled    bool
	// handed[n mod len] is when TCP first handed packet n down; the ring
	// spans the coding window and the decoder's undecoded span.
	handed     []handedAt
	delaySum   float64
	delayCount int64
	// Coded packets received and decoded, for reuse; the packet being
	// received while the decoder delivers; the delivery function, made
	// once (a closure per packet would allocate).
	codedFree []*Coded
	pcg       rand.PCG // fill's generator
	cur       *network.Packet
	curSize   int32
	deliverFn func(n int64, b []byte)
}

// handedAt is one entry of Layer.handed.
type handedAt struct {
	n  int64
	at sim.Time
}

// handedSlots is the size of Layer.handed: a power of two above
// MaxWindow + MaxSpan, the most packets between the oldest undelivered and
// the newest handed down.
const handedSlots = 1 << 14

// The ring must hold every packet between the oldest undelivered and the
// newest handed down.
var _ [handedSlots - MaxWindow - MaxSpan]struct{}

// Stats count what the layer did.
type Stats struct {
	CodedSent     int64 // coded packets sent
	Innovative    int64 // received coded packets that raised the decoder's rank
	NonInnovative int64 // received coded packets that did not (duplicate ACKs)
	Delivered     int64 // packets decoded and handed to TCP
	Mismatched    int64 // delivered packets whose bytes differ from those sent (never, if decoding is right)
	MaxWindow     int   // the coding window's high-water mark
	Seen          int64 // packets the receiver has seen: what its acknowledgements count
	SpanOverflows int64 // coded packets the decoder refused: its undecoded span was full
	// CwndMean is TCP's congestion window in segments, capped at the
	// window limit, averaged over time; it is sampled as each of the
	// layer's acknowledgements reaches TCP and as each segment comes down
	// (so a timeout's fall is seen when it happens). The model's E[cwnd].
	CwndMean float64
	// DecodeDelayMean and DecodeDelayMax are the seconds from the moment
	// TCP first hands a packet down to the moment the decoder delivers
	// it (coding, the path, and waiting for the innovative packets that
	// resolve it).
	DecodeDelayMean, DecodeDelayMax float64
}

// Attach puts a coding layer under flow f, before it starts. TCP-NC's
// acknowledgements are cumulative counts of packets seen: SACK and
// timestamps must be off, and segments full-sized (a bulk transfer).
func Attach(net *network.Net, f *tcp.Flow, cfg Config) (*Layer, error) {
	if cfg.Window == 0 {
		cfg.Window = MaxWindow
	}
	if f.Config().Recovery.SACK {
		return nil, fmt.Errorf("coding: SACK must be off (the coding layer acknowledges packets seen, not byte ranges)")
	}
	if f.Config().TS.Enabled {
		return nil, fmt.Errorf("coding: timestamps must be off (the coding layer's acknowledgements carry none)")
	}
	mss := int(f.Config().Segments.MSS)
	enc, err := NewEncoder(cfg.Redundancy, mss, cfg.Window, net.Stream(fmt.Sprintf("coding/%d", f.ID)))
	if err != nil {
		return nil, fmt.Errorf("coding: %w", err)
	}
	l := &Layer{f: f, net: net, enc: enc, dec: NewDecoder(mss), mss: int64(mss), seed: net.Seed ^ uint64(f.ID)<<32,
		buf: make([]byte, mss), want: make([]byte, mss), handed: make([]handedAt, handedSlots)}
	for i := range l.handed {
		l.handed[i].n = -1
	}
	l.deliverFn = l.deliver
	l.encPort = net.Bind(senderSide{l})
	l.decPort = net.Bind(receiverSide{l})
	l.up = f.Interpose(tcp.LayerFuncs{Sender: l.fromSender, Receiver: l.fromReceiver})
	return l, nil
}

// fill writes packet n's bytes: what the application sent, derived from
// the seed so that the receiver can check it.
func (l *Layer) fill(b []byte, n int64) {
	l.pcg.Seed(l.seed, uint64(n)) // one generator, reseeded: no allocation per packet
	for i := 0; i < len(b); i += 8 {
		x := l.pcg.Uint64()
		for j := i; j < min(i+8, len(b)); j++ {
			b[j] = byte(x >> (8 * (j - i)))
		}
	}
}

// fromSender codes a data segment TCP sends (or passes anything else).
func (l *Layer) fromSender(p *network.Packet) {
	if p.Payload == 0 {
		l.f.Src.Send(p)
		return
	}
	l.sampleCwnd() // a timeout's retransmission comes here right after the window falls
	n := (p.Seq - l.f.DataStart()) / l.mss
	if h := &l.handed[n&(handedSlots-1)]; h.n != n {
		h.n, h.at = n, l.net.Now() // the first time (not a retransmission)
	}
	l.fill(l.buf, n)
	k, err := l.enc.Add(n, l.buf)
	if err != nil {
		k = 0 // the window is full: this segment adds nothing until ACKs arrive
	}
	for range k {
		c := l.coded()
		l.enc.Next(c)
		q := l.net.Alloc()
		id := q.ID
		*q = *p
		q.ID, q.Port, q.Body = id, l.decPort, c
		q.Size = p.Size + int32(HeaderBytes(len(c.Coeffs)))
		l.Stats.CodedSent++
		l.f.Src.Send(q)
	}
	l.Stats.MaxWindow = max(l.Stats.MaxWindow, l.enc.Window())
	l.net.Free(p)
}

// fromReceiver passes the receiver's handshake (everything before the
// first coded packet) and drops its ACKs after: the decoder acknowledges
// instead.
func (l *Layer) fromReceiver(p *network.Packet) {
	if p.Flags&network.FlagSYN != 0 || l.Stats.Innovative+l.Stats.NonInnovative == 0 {
		l.f.Dst.Send(p)
		return
	}
	l.net.Free(p)
}

// receiverSide is the decoder's endpoint at the destination.
type receiverSide struct{ l *Layer }

func (r receiverSide) Receive(q *network.Packet) {
	l := r.l
	c, ok := q.Body.(*Coded)
	if !ok {
		l.net.Free(q)
		return
	}
	innovative, err := l.dec.Receive(c)
	switch {
	case err != nil:
		l.Stats.NonInnovative++ // beyond the decoder's span: counts as no news
		l.Stats.SpanOverflows = l.dec.Stats.SpanOverflows
	case innovative:
		l.Stats.Innovative++
	default:
		l.Stats.NonInnovative++
	}
	l.cur, l.curSize = q, q.Size-int32(HeaderBytes(len(c.Coeffs)))
	l.dec.Deliver(l.deliverFn)
	l.cur = nil
	l.codedFree = append(l.codedFree, c) // the decoder copied what it keeps
	l.Stats.Seen = l.dec.Seen()
	// Every coded packet is answered: the count of packets seen.
	a := l.net.Alloc()
	a.Flow, a.Src, a.Dst, a.Port, a.Proto = q.Flow, q.Dst, q.Src, l.encPort, network.TCP
	a.Flags = network.FlagACK
	a.Ack = l.f.DataStart() + l.dec.Seen()*l.mss
	a.Size = int32(l.f.Config().Segments.HeaderBytes)
	l.net.Free(q)
	l.f.Dst.Send(a)
}

// deliver hands TCP's receiver packet n, decoded (bytes b), as a segment
// of the coded packet being received (cur), and checks its bytes.
func (l *Layer) deliver(n int64, b []byte) {
	l.fill(l.want, n)
	if string(b) != string(l.want) {
		l.Stats.Mismatched++
	}
	l.Stats.Delivered++
	if h := l.handed[n&(handedSlots-1)]; h.n == n {
		d := (l.net.Now() - h.at).Seconds()
		l.delaySum += d
		l.delayCount++
		l.Stats.DecodeDelayMean = l.delaySum / float64(l.delayCount)
		l.Stats.DecodeDelayMax = max(l.Stats.DecodeDelayMax, d)
	}
	q := l.cur
	_, rcvPort := l.f.Ports()
	d := l.net.Alloc()
	d.Flow, d.Src, d.Dst, d.Port, d.Proto = q.Flow, q.Src, q.Dst, rcvPort, network.TCP
	d.Flags = network.FlagACK
	d.Seq = l.f.DataStart() + n*l.mss
	d.Payload = int32(l.mss)
	d.Size = l.curSize
	l.up.ToReceiver(d)
}

// coded takes a coded packet from the layer's free list (its slices are
// reused by Encoder.Next), or makes one. A packet the network drops is
// left to the garbage collector.
func (l *Layer) coded() *Coded {
	if n := len(l.codedFree); n > 0 {
		c := l.codedFree[n-1]
		l.codedFree = l.codedFree[:n-1]
		return c
	}
	return &Coded{}
}

// senderSide is where the decoder's acknowledgements reach the source:
// the encoder drops the packets seen, and TCP gets the ACK.
type senderSide struct{ l *Layer }

func (s senderSide) Receive(a *network.Packet) {
	l := s.l
	l.sampleCwnd()
	l.enc.Seen((a.Ack - l.f.DataStart()) / l.mss)
	sndPort, _ := l.f.Ports()
	a.Port = sndPort
	l.up.ToSender(a)
}

// sampleCwnd adds the window held since the last sample to its integral.
func (l *Layer) sampleCwnd() {
	now := int64(l.net.Now())
	if !l.cwndSampled {
		l.cwndT0, l.cwndSampled = now, true
	} else {
		l.cwndArea += l.cwndLast * float64(now-l.cwndAt)
	}
	snap := l.f.Snapshot()
	w := snap.Cwnd / snap.MSS
	if cap := float64(l.f.Config().Segments.Window); cap > 0 {
		w = min(w, cap) // the window the sender can use (the model's CWmax)
	}
	l.cwndAt, l.cwndLast = now, w
	if now > l.cwndT0 {
		l.Stats.CwndMean = l.cwndArea / float64(now-l.cwndT0)
	}
}
