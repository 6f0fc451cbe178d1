package network

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// DefaultMarkerWq is RED's usual averaging weight (Floyd & Jacobson 1993).
const DefaultMarkerWq = 0.002

// Marker is the congestion-warning (CW) router of TCP NewJersey and T-DLRP:
// a drop-tail queue that keeps RED's average queue length and sets p.CW on
// every packet it accepts while that average is at or above Fraction·Limit
// (0.3 for NewJersey; 0.9 for T-DLRP, which marks "when the average queue
// length exceeds or equal to 90 percent of the buffer size"). It never
// drops early: CW only tells the receiver, who echoes it, that a loss at
// this time is likely to be congestion.
type Marker struct {
	Limit    int     // buffer size in packets (tail drop beyond)
	Fraction float64 // marking threshold as a fraction of Limit
	// Marked counts packets accepted with CW set.
	Marked int64

	// RetxDrop is the probability that a fast retransmission arriving
	// while the marker marks (the average queue is past the threshold:
	// the router is congested) is dropped (cause AQMDrop, a congestion
	// loss in the ground truth). It stands for T-DLRP §5.4's
	// "retransmission loss due to network congestion", imposed in the
	// paper without saying how: here it can only happen where congestion
	// is, so a congestion-caused retransmission loss comes with the CW
	// marks a loss-differentiating sender reads. Rand draws it.
	RetxDrop float64
	Rand     *rand.Rand
	// RetxDropped counts the fast retransmissions dropped so.
	RetxDropped int64

	averagedFIFO
}

// MarkerParams are a marker's parameters (queue type "marker").
type MarkerParams struct {
	Limit    int             `yaml:"limit"`    // packets
	Fraction *units.Fraction `yaml:"fraction"` // required: the threshold, a fraction of the limit
	Wq       float64         `yaml:"wq"`
	RetxDrop units.Fraction  `yaml:"retx_drop"`
}

func init() {
	Queues.Register("marker", func() QueueParams { return &MarkerParams{Limit: 50, Wq: DefaultMarkerWq} })
}

// Validate implements component.Params.
func (p *MarkerParams) Validate() error {
	var es component.Errors
	if e := checkPacketLimit(p.Limit); e != nil {
		es = append(es, e)
	}
	if p.Fraction == nil {
		es = append(es, component.Errorf("fraction", "missing: a marker needs its threshold (e.g. 0.3 for NewJersey)"))
	}
	if p.RetxDrop < 0 || p.RetxDrop > 1 {
		es = append(es, component.Errorf("retx_drop", "retx_drop %g outside [0, 1]", float64(p.RetxDrop)))
	}
	if p.Wq <= 0 || p.Wq > 1 {
		es = append(es, component.Errorf("wq", "wq %g outside (0, 1]", p.Wq))
	}
	return es.Err()
}

// NewQueue implements QueueParams: its average decays over idle time as
// RED's does, with a 1000-byte packet as the typical one (ns-2's
// mean_pktsize_); its retransmission drops draw from "queue/"+name.
func (p *MarkerParams) NewQueue(net *Net, name string, bandwidth float64) Queue {
	m := NewMarker(p.Limit, float64(*p.Fraction), p.Wq)
	m.SetIdleDecay(sim.TxTime(1000, bandwidth))
	if p.RetxDrop > 0 {
		m.RetxDrop, m.Rand = float64(p.RetxDrop), net.Stream("queue/"+name)
	}
	return m
}

// NewMarker makes a marker with buffer limit packets that marks at
// fraction·limit, averaging with weight wq (DefaultMarkerWq if 0; 1 makes
// the "average" the instantaneous queue seen by each arrival).
func NewMarker(limit int, fraction, wq float64) *Marker {
	if wq == 0 {
		wq = DefaultMarkerWq
	}
	if limit <= 0 || wq < 0 || wq > 1 {
		panic("network: Marker needs a positive limit and 0 < w_q ≤ 1")
	}
	return &Marker{Limit: limit, Fraction: fraction, averagedFIFO: averagedFIFO{est: avgQueue{wq: wq, idle: true}}}
}

// SetIdleDecay makes the average decay over idle periods as RED's does,
// taking pktTime as the transmission time of a typical packet.
func (m *Marker) SetIdleDecay(pktTime sim.Time) { m.est.pktTime = pktTime }

// Avg is the average queue length in packets as of the last arrival.
func (m *Marker) Avg() float64 { return m.est.avg }

// Enqueue implements Queue.
func (m *Marker) Enqueue(p *Packet, now sim.Time) DropCause {
	// The average is sampled at every arrival, as RED's, including those
	// that find the buffer full.
	m.est.arrival(float64(m.q.Len()), now)
	if m.q.Len() >= m.Limit {
		return QueueOverflow
	}
	if m.est.avg >= m.Fraction*float64(m.Limit) {
		if p.FastRetx && m.RetxDrop > 0 && m.Rand.Float64() < m.RetxDrop {
			m.RetxDropped++
			return AQMDrop
		}
		p.CW = true
		m.Marked++
	}
	m.q.push(p)
	return NotDropped
}
