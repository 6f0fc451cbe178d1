package network

import (
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// avgQueue is RED's low-pass filter of the queue length (Floyd & Jacobson
// 1993, §4): avg ← (1 − w_q)·avg + w_q·q at each arrival. After an idle
// period it first decays avg as if m = idle/pktTime small packets had
// arrived to an empty queue, avg ← (1 − w_q)^m·avg (F&J Fig. 2, with ns-2's
// choice of a typical packet's transmission time), so that a queue that
// drained long ago does not look congested. Marker shares it.
type avgQueue struct {
	wq        float64
	pktTime   sim.Time // transmission time of a typical packet; 0: no idle decay
	avg       float64
	idle      bool
	idleSince sim.Time
}

func (a *avgQueue) arrival(q float64, now sim.Time) {
	if a.idle {
		a.idle = false
		if a.pktTime > 0 && now > a.idleSince {
			m := float64((now - a.idleSince) / a.pktTime)
			a.avg *= math.Pow(1-a.wq, m)
		}
	}
	a.avg += a.wq * (q - a.avg)
}

// dequeued is told what Dequeue returned: the link asks for a packet when
// its transmitter frees up, so a nil answer is the start of an idle period
// (as ns-2, where idle time starts when the transmitter finds no packet).
func (a *avgQueue) dequeued(p *Packet, now sim.Time) {
	if p == nil && !a.idle {
		a.idle = true
		a.idleSince = now
	}
}

// REDConfig parameterizes RED. Thresholds are in packets; in byte mode the
// queue is measured in bytes/MeanPktSize ("mean-sized packets"), which is
// ns-2's queue_in_bytes_ with thresholds scaled by mean_pktsize_.
type REDConfig struct {
	MinTh, MaxTh float64 // min_th, max_th
	MaxP         float64 // max_p: drop probability at max_th
	Wq           float64 // w_q, the averaging weight (0.002 in F&J)
	Gentle       bool    // p rises from max_p to 1 between max_th and 2·max_th instead of jumping to 1
	ByteMode     bool    // p_b scaled by size/MeanPktSize; queue measured in bytes
	MeanPktSize  int     // bytes; 1000 if 0
	Limit        int     // hard limit in packets (tail drop); 0: none
	LimitBytes   int     // hard limit in bytes; 0: none
	ECN          bool    // mark ECN-capable packets (set CE) instead of early drops (RFC 3168 §7)
	// Bandwidth of the link the queue feeds (bits/s), for the idle-time
	// decay of the average; 0 disables the decay.
	Bandwidth float64
}

// REDParams are a RED queue's parameters (queue type "red"); the defaults
// are ns-2.35's.
type REDParams struct {
	Limit          int            `yaml:"limit"`       // packets (tail drop); 0 with a byte limit: none
	LimitBytes     units.Bytes    `yaml:"limit_bytes"` // 0: no byte limit
	MinTh          float64        `yaml:"min_th"`      // packets
	MaxTh          float64        `yaml:"max_th"`      // packets
	MaxP           units.Fraction `yaml:"max_p"`
	Wq             float64        `yaml:"wq"` // averaging weight
	Gentle         bool           `yaml:"gentle"`
	ByteMode       bool           `yaml:"byte_mode"`        // thresholds in mean-sized packets of bytes
	MeanPacketSize units.Bytes    `yaml:"mean_packet_size"` // 1000B if 0
	ECN            bool           `yaml:"ecn"`              // mark instead of early drops
}

func init() {
	Queues.Register("red", func() QueueParams {
		return &REDParams{Limit: 50, MinTh: 5, MaxTh: 15, MaxP: 0.1, Wq: 0.002, Gentle: true, MeanPacketSize: 1000}
	})
}

// Validate implements component.Params.
func (p *REDParams) Validate() error {
	var es component.Errors
	if e := checkLimit(p.Limit, p.LimitBytes); e != nil {
		es = append(es, e)
	}
	if p.MinTh < 0 || p.MaxTh <= p.MinTh {
		es = append(es, component.Errorf("max_th", "RED needs 0 ≤ min_th < max_th (got %g, %g)", p.MinTh, p.MaxTh))
	}
	if p.MaxP <= 0 {
		es = append(es, component.Errorf("max_p", "max_p must be positive"))
	}
	if p.Wq <= 0 || p.Wq > 1 {
		es = append(es, component.Errorf("wq", "wq %g outside (0, 1]", p.Wq))
	}
	return es.Err()
}

// NewQueue implements QueueParams: its early drops draw from the stream
// "queue/"+name.
func (p *REDParams) NewQueue(net *Net, name string, bandwidth float64) Queue {
	return NewRED(REDConfig{
		MinTh: p.MinTh, MaxTh: p.MaxTh, MaxP: float64(p.MaxP), Wq: p.Wq,
		Gentle: p.Gentle, ByteMode: p.ByteMode, MeanPktSize: int(p.MeanPacketSize),
		Limit: p.Limit, LimitBytes: int(p.LimitBytes), ECN: p.ECN,
		Bandwidth: bandwidth,
	}, net.Stream("queue/"+name))
}

// RED is Random Early Detection (Floyd & Jacobson 1993). Early (random)
// drops return AQMDrop, or set CE on an ECN-capable packet when ECN is on;
// forced drops (average beyond max_th, or 2·max_th when gentle) always drop,
// as ns-2 and RFC 3168 §7 do; the hard limit tail-drops with QueueOverflow.
type RED struct {
	cfg  REDConfig
	rand *rand.Rand
	averagedFIFO
	count int // packets since the last drop/mark while min_th ≤ avg (F&J "count")

	// EarlyDrops, ForcedDrops, Marks and Overflows count the decisions.
	EarlyDrops, ForcedDrops, Marks, Overflows int64
}

// NewRED makes a RED queue drawing its randomness from r (the scenario
// passes net.Stream("queue/<link name>")).
func NewRED(cfg REDConfig, r *rand.Rand) *RED {
	if cfg.MeanPktSize <= 0 {
		cfg.MeanPktSize = 1000
	}
	if cfg.MaxTh <= cfg.MinTh || cfg.MinTh < 0 || cfg.MaxP <= 0 || cfg.MaxP > 1 || cfg.Wq <= 0 || cfg.Wq > 1 {
		panic("network: RED needs 0 ≤ min_th < max_th, 0 < max_p ≤ 1, 0 < w_q ≤ 1")
	}
	red := &RED{cfg: cfg, rand: r, averagedFIFO: averagedFIFO{est: avgQueue{wq: cfg.Wq, idle: true}}}
	if cfg.Bandwidth > 0 {
		red.est.pktTime = sim.TxTime(cfg.MeanPktSize, cfg.Bandwidth)
	}
	return red
}

// Config is the queue's configuration (defaults filled in).
func (r *RED) Config() REDConfig { return r.cfg }

// Avg is the average queue length, in packets (mean-sized packets in byte
// mode), as of the last arrival.
func (r *RED) Avg() float64 { return r.est.avg }

// averagedFIFO is the FIFO and average-queue estimator RED and Marker
// share; it provides their Dequeue, Len and Bytes.
type averagedFIFO struct {
	est avgQueue
	q   fifo
}

// Remove implements Remover: the average is left as it is.
func (a *averagedFIFO) Remove(match func(*Packet) bool, fn func(*Packet)) { a.q.remove(match, fn) }

// Dequeue implements Queue.
func (a *averagedFIFO) Dequeue(now sim.Time) *Packet {
	p := a.q.pop()
	a.est.dequeued(p, now)
	return p
}

// Len implements Queue.
func (a *averagedFIFO) Len() int { return a.q.Len() }

// Bytes implements Queue.
func (a *averagedFIFO) Bytes() int { return a.q.bytes }

// DropProb is F&J's p_b as a function of the average queue: 0 below
// min_th, rising linearly to max_p at max_th, then 1 (or, when gentle,
// rising linearly from max_p to 1 at 2·max_th). It is the curve before the
// count correction and the byte-mode scaling.
func (r *RED) DropProb(avg float64) float64 {
	c := &r.cfg
	switch {
	case avg < c.MinTh:
		return 0
	case avg < c.MaxTh:
		return c.MaxP * (avg - c.MinTh) / (c.MaxTh - c.MinTh)
	case c.Gentle && avg < 2*c.MaxTh:
		return c.MaxP + (1-c.MaxP)*(avg-c.MaxTh)/c.MaxTh
	}
	return 1
}

// Enqueue implements Queue.
func (r *RED) Enqueue(p *Packet, now sim.Time) DropCause {
	c := &r.cfg
	qlen := float64(r.q.Len())
	if c.ByteMode {
		qlen = float64(r.q.bytes) / float64(c.MeanPktSize)
	}
	r.est.arrival(qlen, now)
	avg := r.est.avg

	switch pb := r.DropProb(avg); {
	case pb == 0:
		r.count = 0
	case pb >= 1:
		// Forced drop: beyond max_th (2·max_th when gentle).
		r.count = 0
		r.ForcedDrops++
		return AQMDrop
	default:
		if c.ByteMode {
			// F&J §4: large packets are likelier to be dropped.
			pb = min(1, pb*float64(p.Size)/float64(c.MeanPktSize))
		}
		// F&J §7: p_a = p_b/(1 − count·p_b) spreads drops evenly: the
		// number of arrivals between drops is uniform on 1..1/p_b
		// instead of geometric, avoiding clusters of drops.
		pa := 1.0
		if d := 1 - float64(r.count)*pb; d > pb {
			pa = pb / d
		}
		if pa >= 1 || r.rand.Float64() < pa {
			r.count = 0
			if c.ECN && p.ECT {
				p.CE = true
				r.Marks++
			} else {
				r.EarlyDrops++
				return AQMDrop
			}
		} else {
			r.count++
		}
	}

	if c.Limit > 0 && r.q.Len() >= c.Limit || c.LimitBytes > 0 && r.q.bytes+int(p.Size) > c.LimitBytes {
		r.Overflows++
		return QueueOverflow
	}
	r.q.push(p)
	return NotDropped
}
