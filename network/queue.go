package network

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// Queue is the buffer in front of a link's transmitter. Enqueue either
// accepts p (NotDropped; it may set marks on it) or says why it refused;
// the link then records and frees the packet.
type Queue interface {
	Enqueue(p *Packet, now sim.Time) DropCause
	Dequeue(now sim.Time) *Packet
	Len() int   // packets queued
	Bytes() int // bytes queued
}

// DequeueDropper is a queue that drops packets itself as it dequeues them
// (CoDel drops at the head): a link it is set on hands it the function
// that records and frees a packet the link dropped (counted on the link,
// traced, told to the flow), in place of the network-wide default it was
// made with.
type DequeueDropper interface {
	SetDrop(drop func(p *Packet, cause DropCause))
}

// Remover is a queue that can take out the packets match selects, in
// order, keeping the others in theirs, without counting it as traffic (a
// routing protocol taking back the packets queued for a broken link).
// match is called once per queued packet, head first.
type Remover interface {
	Remove(match func(p *Packet) bool, fn func(p *Packet))
}

// fifo is the packet queue shared by the queue disciplines: a ring that
// also keeps the bytes it holds.
type fifo struct {
	ring.Buffer[*Packet]
	bytes int
}

func (f *fifo) push(p *Packet) {
	f.PushBack(p)
	f.bytes += int(p.Size)
}

// remove hands fn the packets match selects, after taking them all out.
func (f *fifo) remove(match func(*Packet) bool, fn func(*Packet)) {
	var out []*Packet
	for range f.Len() {
		p := f.PopFront()
		if match(p) {
			f.bytes -= int(p.Size)
			out = append(out, p)
			continue
		}
		f.PushBack(p)
	}
	for _, p := range out {
		fn(p)
	}
}

func (f *fifo) pop() *Packet {
	if f.Len() == 0 {
		return nil
	}
	p := f.PopFront()
	f.bytes -= int(p.Size)
	return p
}

// DropTail accepts packets until a limit in packets or bytes is reached
// (a zero limit is no limit in that unit). Its limits are fixed when it is
// made: a link keeps a copy of the byte limit (Link.SetQueue).
type DropTail struct {
	limitPackets int
	limitBytes   int
	q            fifo
}

// DropTailParams are a drop-tail queue's parameters (queue type
// "droptail", the default).
type DropTailParams struct {
	Limit      int         `yaml:"limit"`       // packets; 0 with a byte limit: none
	LimitBytes units.Bytes `yaml:"limit_bytes"` // 0: no byte limit
}

func init() {
	Queues.Register("droptail", func() QueueParams { return &DropTailParams{Limit: 50} })
}

// checkPacketLimit reports a buffer limit in packets that is not positive.
func checkPacketLimit(limit int) *component.FieldError {
	if limit <= 0 {
		return component.Errorf("limit", "queue limit must be positive, got %d", limit)
	}
	return nil
}

// checkLimit reports a buffer without a limit in any unit.
func checkLimit(limit int, limitBytes units.Bytes) *component.FieldError {
	if limit <= 0 && limitBytes == 0 {
		return component.Errorf("limit", "queue limit must be positive, got %d", limit)
	}
	return nil
}

// Validate implements component.Params.
func (p *DropTailParams) Validate() error {
	if e := checkLimit(p.Limit, p.LimitBytes); e != nil {
		return component.Errors{e}
	}
	return nil
}

// NewQueue implements QueueParams.
func (p *DropTailParams) NewQueue(*Net, string, float64) Queue {
	return NewDropTail(p.Limit, int(p.LimitBytes))
}

// NewDropTail makes a drop-tail queue of at most limitPackets packets and
// limitBytes bytes (0: no limit in that unit).
func NewDropTail(limitPackets, limitBytes int) *DropTail {
	return &DropTail{limitPackets: limitPackets, limitBytes: limitBytes}
}

// Enqueue implements Queue.
func (d *DropTail) Enqueue(p *Packet, _ sim.Time) DropCause {
	if d.limitPackets > 0 && d.q.Len() >= d.limitPackets ||
		d.limitBytes > 0 && d.q.bytes+int(p.Size) > d.limitBytes {
		return QueueOverflow
	}
	d.q.push(p)
	return NotDropped
}

// Dequeue implements Queue.
func (d *DropTail) Dequeue(sim.Time) *Packet { return d.q.pop() }

// Remove implements Remover.
func (d *DropTail) Remove(match func(*Packet) bool, fn func(*Packet)) { d.q.remove(match, fn) }

// Len implements Queue.
func (d *DropTail) Len() int { return d.q.Len() }

// Bytes implements Queue.
func (d *DropTail) Bytes() int { return d.q.bytes }
