package network

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// PIE is Proportional Integral controller Enhanced (RFC 8033): every
// Tupdate it moves a drop probability by how far the queueing delay is from
// its reference and how it changed since the last update (§4.2, with the
// auto-tuned gains and the 2% cap), and drops arriving packets at random
// with that probability (§4.1), sparing bursts (§4.4) and a short queue.
// The queueing delay is the sojourn time of the packet last dequeued (0
// when it leaves the queue empty), which RFC 8033 §4.3 allows in place of
// its departure-rate estimate and which Linux and ns-3.37 use by default. A
// tail limit in packets backs it up (QueueOverflow); its own drops are
// AQMDrop, at enqueue.
//
// With NS3 set it does what ns-3.37's PieQueueDisc does where that differs:
// the burst allowance is armed by the first arrival, holds the probability
// at 0 while it lasts, and is armed again only after about 1.5 s of calm
// (100 updates below half the reference with no drops); a queue of at most
// two packets is spared (the RFC: at most two mean-sized packets' bytes);
// the first update runs at time 0.
type PIE struct {
	limit                int
	ref, tupdate         sim.Time
	alpha, beta          float64 // per second
	maxBurst             sim.Time
	meanPkt              int
	ns3                  bool
	q                    fifo
	since                ring.Buffer[sim.Time]
	rand                 *rand.Rand
	timer                sim.Timer
	prob                 float64
	qdelay, qdelayOld    sim.Time
	burst                sim.Time // the burst allowance left
	burstState, calmRuns int      // with ns3: 0 none, 1 protecting, 2 in burst; updates in a row of calm

	// Drops counts the random drops, Overflows the tail drops.
	Drops, Overflows int64
}

// PIEParams are PIE's parameters (queue type "pie"); the defaults are
// RFC 8033's (§4.1, §4.2, §4.4) and ns-3.37's, with a 1 000-packet tail
// limit (Linux's).
type PIEParams struct {
	Limit          int         `yaml:"limit"`            // packets (tail drop)
	Target         sim.Time    `yaml:"target"`           // QDELAY_REF, the delay PIE steers to
	Tupdate        sim.Time    `yaml:"tupdate"`          // T_UPDATE, between probability updates
	Alpha          float64     `yaml:"alpha"`            // per second
	Beta           float64     `yaml:"beta"`             // per second
	MaxBurst       sim.Time    `yaml:"max_burst"`        // MAX_BURST, the burst allowance
	MeanPacketSize units.Bytes `yaml:"mean_packet_size"` // a queue of two of these is never dropped from
	Reference      string      `yaml:"reference"`        // rfc (RFC 8033, the default) or ns3 (ns-3.37's PieQueueDisc)
}

func init() {
	Queues.Register("pie", func() QueueParams {
		return &PIEParams{Limit: 1000, Target: 15 * sim.Millisecond, Tupdate: 15 * sim.Millisecond,
			Alpha: 0.125, Beta: 1.25, MaxBurst: 150 * sim.Millisecond, MeanPacketSize: 1000, Reference: "rfc"}
	})
}

// Validate implements component.Params.
func (p *PIEParams) Validate() error {
	var es component.Errors
	if e := checkPacketLimit(p.Limit); e != nil {
		es = append(es, e)
	}
	if p.Target <= 0 {
		es = append(es, component.Errorf("target", "target must be positive"))
	}
	if p.Tupdate <= 0 {
		es = append(es, component.Errorf("tupdate", "tupdate must be positive"))
	}
	if p.Alpha < 0 || p.Beta < 0 {
		es = append(es, component.Errorf("alpha", "alpha and beta must not be negative"))
	}
	if e := component.OneOf("reference", p.Reference, "rfc", "ns3"); e != nil {
		es = append(es, e)
	}
	return es.Err()
}

// NewQueue implements QueueParams: drops draw from the stream
// "queue/"+name; the updates are events of net's scheduler.
func (p *PIEParams) NewQueue(net *Net, name string, _ float64) Queue {
	q := &PIE{limit: p.Limit, ref: p.Target, tupdate: p.Tupdate, alpha: p.Alpha, beta: p.Beta,
		maxBurst: p.MaxBurst, meanPkt: int(p.MeanPacketSize), ns3: p.Reference == "ns3",
		rand: net.Stream("queue/" + name)}
	q.timer.Init(net.Sched, q.update)
	if q.ns3 {
		q.timer.Arm(0)
	} else {
		q.burst = q.maxBurst // RFC 8033 §4.4: a new queue allows a burst
		q.timer.Arm(q.tupdate)
	}
	return q
}

// Len implements Queue.
func (q *PIE) Len() int { return q.q.Len() }

// Bytes implements Queue.
func (q *PIE) Bytes() int { return q.q.bytes }

// Prob is the current drop probability.
func (q *PIE) Prob() float64 { return q.prob }

// Enqueue implements Queue: the tail limit, then the random drop.
func (q *PIE) Enqueue(p *Packet, now sim.Time) DropCause {
	if q.q.Len() >= q.limit {
		q.Overflows++
		return QueueOverflow
	}
	if q.dropEarly() {
		q.Drops++
		return AQMDrop
	}
	q.q.push(p)
	q.since.PushBack(now)
	return NotDropped
}

// dropEarly decides an arrival's random drop (RFC 8033 §4.1).
func (q *PIE) dropEarly() bool {
	if q.burst > 0 {
		return false
	}
	if q.ns3 && q.burstState == 0 {
		q.burstState, q.burst = 1, q.maxBurst // armed, yet this packet is judged
	}
	if q.qdelayOld < q.ref/2 && q.prob < 0.2 {
		return false
	}
	if q.ns3 && q.q.Len() <= 2 || !q.ns3 && q.q.bytes <= 2*q.meanPkt {
		return false
	}
	u := q.rand.Float64()
	return u < q.prob || q.ns3 && u == q.prob
}

// Dequeue implements Queue; it takes the queueing delay.
func (q *PIE) Dequeue(now sim.Time) *Packet {
	p := q.q.pop()
	if p == nil {
		return nil
	}
	q.qdelay = now - q.since.PopFront()
	if q.q.Len() == 0 {
		q.qdelay = 0
	}
	return p
}

// pieTuning is RFC 8033 §4.2's table: below each probability, its step is
// divided so.
var pieTuning = [...]struct{ below, divide float64 }{
	{0.000001, 2048}, {0.00001, 512}, {0.0001, 128}, {0.001, 32}, {0.01, 8}, {0.1, 2},
}

// update recomputes the drop probability every Tupdate (RFC 8033 §4.2)
// and the burst allowance (§4.4).
func (q *PIE) update() {
	var p float64
	if !(q.ns3 && q.burst > 0) {
		p = q.alpha*(q.qdelay-q.ref).Seconds() + q.beta*(q.qdelay-q.qdelayOld).Seconds()
		// Auto-tuning: the smaller the probability, the smaller its steps.
		for _, t := range pieTuning {
			if q.prob < t.below {
				p /= t.divide
				break
			}
		}
		if q.prob >= 0.1 && p > 0.02 {
			p = 0.02 // at most 2% a step from 10% on
		}
		p += q.prob
	}
	if q.qdelay == 0 && q.qdelayOld == 0 {
		p *= 0.98 // decay while the queue stays empty
	}
	q.prob = min(max(p, 0), 1)
	q.burst = max(0, q.burst-q.tupdate)
	calm := q.qdelay < q.ref/2 && q.qdelayOld < q.ref/2 && q.prob == 0
	switch {
	case !q.ns3:
		if calm {
			q.burst = q.maxBurst
		}
	case calm && q.burst == 0 && q.burstState == 1:
		q.burstState, q.calmRuns = 2, 0
	case calm && q.burst == 0 && q.burstState == 2:
		if q.calmRuns++; q.calmRuns > int(1.5*float64(sim.Second)/float64(q.tupdate)) {
			q.burstState = 0
		}
	case q.burstState == 2:
		q.calmRuns = 0
	}
	q.qdelayOld = q.qdelay
	q.timer.Arm(q.timer.Now() + q.tupdate)
}
