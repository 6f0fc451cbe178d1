package network

import (
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// Error models decide, as a packet reaches the far end of a link, whether
// it was lost on the way. Each draws from its own *rand.Rand (the scenario
// passes net.Stream("errors/<link name>")) so that adding a model to one link
// never changes the losses on another.

// Bernoulli loses each packet independently with probability P.
type Bernoulli struct {
	P    float64
	Rand *rand.Rand
}

// NewBernoulli is a Bernoulli model drawing from r.
func NewBernoulli(p float64, r *rand.Rand) *Bernoulli { return &Bernoulli{P: p, Rand: r} }

// Drop implements ErrorModel.
func (b *Bernoulli) Drop(*Packet, sim.Time) DropCause {
	if b.P > 0 && b.Rand.Float64() < b.P {
		return ChannelError
	}
	return NotDropped
}

// BitError corrupts each bit independently with probability BER, so a
// packet of s bytes is lost with probability 1 − (1 − BER)^(8s): longer
// packets are lost more often, which is what separates a BER model from
// Bernoulli (data segments suffer, short ACKs mostly get through).
type BitError struct {
	BER  float64
	Rand *rand.Rand
}

// NewBitError is a bit-error model drawing from r.
func NewBitError(ber float64, r *rand.Rand) *BitError { return &BitError{BER: ber, Rand: r} }

// LossProb is the probability that a packet of size bytes is corrupted.
func (b *BitError) LossProb(size int) float64 {
	// −expm1(n·log1p(−BER)) keeps precision when BER is tiny (1e-9), where
	// 1 − (1 − BER)^n would cancel.
	return -math.Expm1(8 * float64(size) * math.Log1p(-b.BER))
}

// Drop implements ErrorModel.
func (b *BitError) Drop(p *Packet, _ sim.Time) DropCause {
	if b.BER > 0 && b.Rand.Float64() < b.LossProb(int(p.Size)) {
		return ChannelError
	}
	return NotDropped
}

// OnOff is a two-state (Gilbert–Elliott style) channel: it alternates
// between an up (good) and a down (bad) state whose durations are
// exponentially distributed with means MeanUp and MeanDown; a packet is lost
// with probability LossUp or LossDown according to the state at its arrival.
// The state is advanced lazily from packet times, so it costs no events.
// The long-run fraction of time spent down is MeanDown/(MeanUp+MeanDown).
type OnOff struct {
	MeanUp, MeanDown sim.Time
	LossUp, LossDown float64
	Rand             *rand.Rand

	down bool
	next sim.Time // end of the current state
}

// NewOnOff is an on/off model that loses nothing when up and everything
// when down. Its initial state is drawn from the stationary distribution
// (down with probability MeanDown/(MeanUp+MeanDown)); by memorylessness the
// residual stay is then exponential with the state's mean, so loss
// statistics have no start-up transient.
func NewOnOff(meanUp, meanDown sim.Time, r *rand.Rand) *OnOff {
	if meanUp <= 0 || meanDown <= 0 {
		panic("network: OnOff needs positive mean durations")
	}
	m := &OnOff{MeanUp: meanUp, MeanDown: meanDown, LossDown: 1, Rand: r}
	m.down = r.Float64()*float64(meanUp+meanDown) < float64(meanDown)
	m.next = m.stay()
	return m
}

// stay draws the duration of the current state.
func (m *OnOff) stay() sim.Time {
	mean := m.MeanUp
	if m.down {
		mean = m.MeanDown
	}
	// At least 1 ns, so that advancing always terminates.
	return max(1, sim.Time(m.Rand.ExpFloat64()*float64(mean)))
}

// Down reports whether the channel is in the bad state at time now
// (now must not decrease between calls).
func (m *OnOff) Down(now sim.Time) bool {
	for now >= m.next {
		m.down = !m.down
		m.next += m.stay()
	}
	return m.down
}

// Drop implements ErrorModel.
func (m *OnOff) Drop(_ *Packet, now sim.Time) DropCause {
	p := m.LossUp
	if m.Down(now) {
		p = m.LossDown
	}
	if p >= 1 || p > 0 && m.Rand.Float64() < p {
		return ChannelError
	}
	return NotDropped
}

// DropList drops exactly the packets at the given 1-based positions among
// those it sees (wrapped in a Filter, only the packets the filter applies
// to are counted), for tests worked out by hand. Positions must be sorted.
type DropList struct {
	Positions []int64
	seen      int64
	next      int // index in Positions of the next drop
}

// NewDropList drops the listed packets (1-based, ascending).
func NewDropList(positions ...int64) *DropList { return &DropList{Positions: positions} }

// Drop implements ErrorModel.
func (d *DropList) Drop(*Packet, sim.Time) DropCause {
	d.seen++
	if d.next < len(d.Positions) && d.Positions[d.next] == d.seen {
		d.next++
		return ChannelError
	}
	return NotDropped
}

// Targeted loses retransmissions on purpose (cause RetxLoss), to study what
// a sender does when a retransmission is itself lost: T-DLRP's lost fast
// retransmissions, DAC and DDLRP. With FastOnly it hits only fast
// retransmissions, otherwise every retransmission. It reads ground truth
// (p.Retx, p.FastRetx), which is fine for an error model: it is the world,
// not a protocol.
//
// P is a probability per retransmission, or with PerPacket a share of
// every packet the model sees: each packet arms a loss with probability P
// and an armed loss falls on the next retransmission to pass. T-DLRP
// (§5.3-5.4) states its "retransmission loss rate" as a rate of 0.01-0.6%
// set through Qualnet's error model's up and down times, that is of the
// hop's packets; a probability of 0.01% per fast retransmission would
// touch none of a run's ~200 (docs/tdlrp.md).
type Targeted struct {
	P         float64
	FastOnly  bool
	PerPacket bool
	// Cause is what a loss counts as (RetxLoss when zero); AQMDrop makes
	// it a retransmission lost to congestion at a router, as T-DLRP's
	// Fig. 16 imposes.
	Cause DropCause
	Rand  *rand.Rand
	armed int // PerPacket: losses drawn and not yet fallen
}

// NewTargeted loses retransmissions (only fast ones if fastOnly) with
// probability p.
func NewTargeted(p float64, fastOnly bool, r *rand.Rand) *Targeted {
	return &Targeted{P: p, FastOnly: fastOnly, Rand: r}
}

// Drop implements ErrorModel.
func (t *Targeted) Drop(p *Packet, _ sim.Time) DropCause {
	hit := p.FastRetx || (!t.FastOnly && p.Retx)
	if t.PerPacket {
		if t.P > 0 && t.Rand.Float64() < t.P {
			t.armed++
		}
		if !hit || t.armed == 0 {
			return NotDropped
		}
		t.armed--
		return t.cause()
	}
	if hit && t.P > 0 && t.Rand.Float64() < t.P {
		return t.cause()
	}
	return NotDropped
}

func (t *Targeted) cause() DropCause {
	if t.Cause == NotDropped {
		return RetxLoss
	}
	return t.Cause
}

// FilterKind says which packets a Filter passes to its inner model.
type FilterKind uint8

// Filter kinds.
const (
	AllPackets FilterKind = iota
	DataOnly              // packets with payload, SYN or FIN (Packet.IsData)
	AcksOnly              // pure ACKs
)

// Filter applies an inner model to one kind of packet; the others always
// get through and are not seen by the inner model (so a DropList counts
// only the packets it applies to).
type Filter struct {
	Kind  FilterKind
	Inner ErrorModel
}

// Drop implements ErrorModel.
func (f *Filter) Drop(p *Packet, now sim.Time) DropCause {
	switch f.Kind {
	case DataOnly:
		if !p.IsData() {
			return NotDropped
		}
	case AcksOnly:
		if p.IsData() {
			return NotDropped
		}
	}
	return f.Inner.Drop(p, now)
}

// Chain applies several models in order; the first that drops decides the
// cause, and the later ones do not see the packet (as ns-2's
// ErrorModel/List, where a corrupted packet leaves the chain).
type Chain []ErrorModel

// Drop implements ErrorModel.
func (c Chain) Drop(p *Packet, now sim.Time) DropCause {
	for _, m := range c {
		if cause := m.Drop(p, now); cause != NotDropped {
			return cause
		}
	}
	return NotDropped
}

// The loss models' parameters, as a scenario's loss "model" names them.
// A key tagged required:"true" must be written.

// BernoulliParams: model "bernoulli" (the default).
type BernoulliParams struct {
	Rate units.Fraction `yaml:"rate" required:"true"`
}

// BitErrorParams: model "bit_error".
type BitErrorParams struct {
	BER units.Fraction `yaml:"ber" required:"true"`
}

// OnOffParams: model "onoff".
type OnOffParams struct {
	MeanUp   sim.Time       `yaml:"mean_up" required:"true"`
	MeanDown sim.Time       `yaml:"mean_down" required:"true"`
	LossUp   units.Fraction `yaml:"loss_up"`
	LossDown units.Fraction `yaml:"loss_down"`
}

// DropListParams: model "droplist".
type DropListParams struct {
	Positions []int64 `yaml:"positions" required:"true"` // 1-based, ascending
}

// TargetedParams: model "targeted".
type TargetedParams struct {
	Rate     units.Fraction `yaml:"rate" required:"true"`
	FastOnly bool           `yaml:"fast_only"`
	RateOf   string         `yaml:"rate_of"` // retransmissions or packets
	Cause    string         `yaml:"cause"`   // wireless (retx_loss) or congestion (aqm_drop)
}

func init() {
	Losses.Register("bernoulli", func() LossParams { return &BernoulliParams{} })
	Losses.Register("bit_error", func() LossParams { return &BitErrorParams{} })
	Losses.Register("onoff", func() LossParams { return &OnOffParams{LossDown: 1} })
	Losses.Register("droplist", func() LossParams { return &DropListParams{} })
	Losses.Register("targeted", func() LossParams { return &TargetedParams{RateOf: "retransmissions", Cause: "wireless"} })
}

// Validate implements component.Params.
func (p *BernoulliParams) Validate() error { return nil }

// NewErrorModel implements LossParams.
func (p *BernoulliParams) NewErrorModel(net *Net, stream string) ErrorModel {
	return NewBernoulli(float64(p.Rate), net.Stream(stream))
}

// Validate implements component.Params.
func (p *BitErrorParams) Validate() error { return nil }

// NewErrorModel implements LossParams.
func (p *BitErrorParams) NewErrorModel(net *Net, stream string) ErrorModel {
	return NewBitError(float64(p.BER), net.Stream(stream))
}

// Validate implements component.Params.
func (p *OnOffParams) Validate() error {
	var es component.Errors
	if p.MeanUp == 0 {
		es = append(es, component.Errorf("mean_up", "mean_up must be positive"))
	}
	if p.MeanDown == 0 {
		es = append(es, component.Errorf("mean_down", "mean_down must be positive"))
	}
	return es.Err()
}

// NewErrorModel implements LossParams.
func (p *OnOffParams) NewErrorModel(net *Net, stream string) ErrorModel {
	o := NewOnOff(p.MeanUp, p.MeanDown, net.Stream(stream))
	o.LossUp, o.LossDown = float64(p.LossUp), float64(p.LossDown)
	return o
}

// Validate implements component.Params.
func (p *DropListParams) Validate() error {
	for i, x := range p.Positions {
		if x < 1 || i > 0 && x <= p.Positions[i-1] {
			return component.Errors{component.Errorf("positions", "positions must be ascending and start at 1, got %v", p.Positions)}
		}
	}
	return nil
}

// NewErrorModel implements LossParams.
func (p *DropListParams) NewErrorModel(*Net, string) ErrorModel {
	return NewDropList(append([]int64(nil), p.Positions...)...)
}

// Validate implements component.Params.
func (p *TargetedParams) Validate() error {
	var es component.Errors
	if e := component.OneOf("rate_of", p.RateOf, "retransmissions", "packets"); e != nil {
		es = append(es, e)
	}
	if e := component.OneOf("cause", p.Cause, "wireless", "congestion"); e != nil {
		es = append(es, e)
	}
	return es.Err()
}

// NewErrorModel implements LossParams.
func (p *TargetedParams) NewErrorModel(net *Net, stream string) ErrorModel {
	t := NewTargeted(float64(p.Rate), p.FastOnly, net.Stream(stream))
	t.PerPacket = p.RateOf == "packets"
	if p.Cause == "congestion" {
		t.Cause = AQMDrop
	}
	return t
}
