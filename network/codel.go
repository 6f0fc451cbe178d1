package network

import (
	"math"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// CoDel is Controlled Delay (RFC 8289): a FIFO that drops at its head when
// the time packets spend in it (their sojourn time) has stayed above
// Target for at least Interval. In that dropping state it drops again at
// intervals shrinking as Interval/√count (the control law), and leaves it
// as soon as a packet's sojourn falls below Target or the queue holds at
// most one MTU (MinBytes). A tail limit in packets backs it up
// (QueueOverflow); its own drops are AQMDrop. The pseudo-code is RFC 8289
// §5, with 1/√count computed exactly.
//
// With NS3 set it does what ns-3.37's CoDelQueueDisc does instead, as
// Linux's codel does too: 1/√count kept in 16-bit fixed point and moved by
// one Newton step each time count changes (so the second drop follows the
// first by 50 ms, not 70.7 ms, at a 100 ms interval), a drop only once
// now is past first_above_time (not at it), and no drop only with fewer
// than MinBytes queued (not at most). ns-3 also counts time in 1024 ns
// units, which is not reproduced: it moves a drop by at most a microsecond.
type CoDel struct {
	limit    int
	target   sim.Time
	interval sim.Time
	minBytes int

	q     fifo
	since ring.Buffer[sim.Time] // each queued packet's arrival, in queue order

	// The per-queue state of RFC 8289 §5.
	firstAbove sim.Time // when sojourn will have been above target for an interval; 0: not above
	dropNext   sim.Time // the next drop while dropping
	count      uint32   // drops since the dropping state began
	lastCount  uint32   // count when the last dropping state began
	dropping   bool
	ns3        bool
	invSqrt    uint16 // with ns3: 1/√count in 0.16 fixed point

	drop func(p *Packet, cause DropCause)

	// Drops counts the head drops, Overflows the tail drops.
	Drops, Overflows int64
}

// CoDelParams are CoDel's parameters (queue type "codel"); the defaults
// are RFC 8289's (§4) and ns-3.37's, with ns-3's 1500-byte MinBytes
// and a 1 000-packet tail limit (Linux's).
type CoDelParams struct {
	Limit     int         `yaml:"limit"`     // packets (tail drop)
	Target    sim.Time    `yaml:"target"`    // acceptable standing sojourn time
	Interval  sim.Time    `yaml:"interval"`  // the window over which sojourn must stay above target
	MinBytes  units.Bytes `yaml:"min_bytes"` // at most this much queued: never drop (one MTU)
	Reference string      `yaml:"reference"` // rfc (RFC 8289, the default) or ns3 (ns-3.37's CoDelQueueDisc)
}

func init() {
	Queues.Register("codel", func() QueueParams {
		return &CoDelParams{Limit: 1000, Target: 5 * sim.Millisecond, Interval: 100 * sim.Millisecond, MinBytes: 1500, Reference: "rfc"}
	})
}

// Validate implements component.Params.
func (p *CoDelParams) Validate() error {
	var es component.Errors
	if e := checkPacketLimit(p.Limit); e != nil {
		es = append(es, e)
	}
	if p.Target <= 0 {
		es = append(es, component.Errorf("target", "target must be positive"))
	}
	if p.Interval <= p.Target {
		es = append(es, component.Errorf("interval", "interval must be longer than target (%v)", p.Target))
	}
	if e := component.OneOf("reference", p.Reference, "rfc", "ns3"); e != nil {
		es = append(es, e)
	}
	return es.Err()
}

// NewQueue implements QueueParams.
func (p *CoDelParams) NewQueue(net *Net, _ string, _ float64) Queue {
	c := NewCoDel(p.Limit, p.Target, p.Interval, int(p.MinBytes))
	c.ns3 = p.Reference == "ns3"
	c.drop = func(p *Packet, cause DropCause) { net.Drop(p, cause, nil) }
	return c
}

// NewCoDel makes a CoDel queue of at most limit packets.
func NewCoDel(limit int, target, interval sim.Time, minBytes int) *CoDel {
	return &CoDel{limit: limit, target: target, interval: interval, minBytes: minBytes, invSqrt: math.MaxUint16}
}

// SetDrop implements DequeueDropper.
func (c *CoDel) SetDrop(drop func(*Packet, DropCause)) { c.drop = drop }

// Len implements Queue.
func (c *CoDel) Len() int { return c.q.Len() }

// Bytes implements Queue.
func (c *CoDel) Bytes() int { return c.q.bytes }

// Enqueue implements Queue: a tail drop when full, else the packet is
// stamped with its arrival.
func (c *CoDel) Enqueue(p *Packet, now sim.Time) DropCause {
	if c.q.Len() >= c.limit {
		c.Overflows++
		return QueueOverflow
	}
	c.q.push(p)
	c.since.PushBack(now)
	return NotDropped
}

// head takes the head packet and reports whether CoDel may drop it
// (RFC 8289 §5, dodequeue): its sojourn has been above target for at
// least an interval and more than MinBytes stay queued.
func (c *CoDel) head(now sim.Time) (p *Packet, okToDrop bool) {
	p = c.q.pop()
	if p == nil {
		c.firstAbove = 0
		return nil, false
	}
	sojourn := now - c.since.PopFront()
	small := c.q.bytes <= c.minBytes
	if c.ns3 {
		small = c.q.bytes < c.minBytes
	}
	if sojourn < c.target || small {
		c.firstAbove = 0
		return p, false
	}
	if c.firstAbove == 0 {
		c.firstAbove = now + c.interval
		return p, false
	}
	return p, now > c.firstAbove || now == c.firstAbove && !c.ns3
}

// controlLaw is the time of the next drop, interval/√count after t
// (RFC 8289 §5).
func (c *CoDel) controlLaw(t sim.Time) sim.Time {
	if c.ns3 {
		return t + sim.Time(uint64(c.interval)*uint64(c.invSqrt)>>16)
	}
	return t + sim.Time(float64(c.interval)/math.Sqrt(float64(c.count)))
}

// newtonStep moves invSqrt towards 1/√count by one Newton iteration,
// r ← r·(3 − count·r²)/2, in the fixed point of ns-3.37 and Linux.
func (c *CoDel) newtonStep() {
	inv := uint64(c.invSqrt) << 16
	inv2 := inv * inv >> 32
	val := (3<<32 - uint64(c.count)*inv2) >> 2
	val = val * inv >> 31
	c.invSqrt = uint16(val >> 16)
}

// Dequeue implements Queue (RFC 8289 §5, dequeue): in the dropping state, drop
// while the schedule says so and sojourn stays high; outside it, a packet
// that may be dropped is, and the state begins, its count resuming from
// the last one's if that ended less than 16 intervals ago.
func (c *CoDel) Dequeue(now sim.Time) *Packet {
	p, okToDrop := c.head(now)
	if p == nil {
		c.dropping = false
		return nil
	}
	switch {
	case c.dropping:
		if !okToDrop {
			c.dropping = false
		}
		for c.dropping && now >= c.dropNext {
			c.dropHead(p)
			c.count++
			if c.ns3 {
				c.newtonStep()
			}
			if p, okToDrop = c.head(now); !okToDrop {
				c.dropping = false
			} else {
				c.dropNext = c.controlLaw(c.dropNext)
			}
		}
	case okToDrop:
		c.dropHead(p)
		p, _ = c.head(now)
		c.dropping = true
		delta := c.count - c.lastCount
		if delta > 1 && now-c.dropNext < 16*c.interval {
			c.count = delta
			if c.ns3 {
				c.newtonStep() // from the last state's value, as ns-3 and Linux
			}
		} else {
			c.count, c.invSqrt = 1, math.MaxUint16
		}
		c.dropNext = c.controlLaw(now)
		c.lastCount = c.count
	}
	return p
}

func (c *CoDel) dropHead(p *Packet) {
	c.Drops++
	if c.drop != nil {
		c.drop(p, AQMDrop)
	}
}
