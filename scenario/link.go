package scenario

import (
	"cmp"
	"maps"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/sim"
)

// LinkSpec is a full-duplex point-to-point link. "Forward" is From→To.
type LinkSpec struct {
	Name      string    `yaml:"name"` // default "from-to"
	From      string    `yaml:"from"`
	To        string    `yaml:"to"`
	Bandwidth Bandwidth `yaml:"bandwidth"`
	Delay     sim.Time  `yaml:"delay"`
	Cost      int64     `yaml:"cost"` // routing cost, default 1 (hop count)
	Queue     QueueSpec `yaml:"queue"`
	// Loss lists error models; in YAML a single mapping or a list of them
	// (applied in order; the first to drop a packet decides its cause).
	Loss         LossList          `yaml:"loss"`
	DelayProcess *DelayProcessSpec `yaml:"delay_process"`
	origin
}

// QueueSpec is the queue at each end of a link (each direction gets its
// own). Which keys apply depends on Type (queueParams).
type QueueSpec struct {
	Type       string `yaml:"type"`        // droptail (default), red, marker
	Limit      int    `yaml:"limit"`       // packets; default 50 (ns-2's limit_)
	LimitBytes Bytes  `yaml:"limit_bytes"` // droptail, red: 0 is no byte limit

	// RED (Floyd & Jacobson 1993); defaults are ns-2.35's.
	MinTh          float64  `yaml:"min_th"`           // packets, default 5
	MaxTh          float64  `yaml:"max_th"`           // packets, default 15
	MaxP           Fraction `yaml:"max_p"`            // default 0.1
	Wq             float64  `yaml:"wq"`               // averaging weight, default 0.002 (red, marker)
	Gentle         *bool    `yaml:"gentle"`           // default true
	ByteMode       bool     `yaml:"byte_mode"`        // thresholds in mean-sized packets of bytes
	MeanPacketSize Bytes    `yaml:"mean_packet_size"` // default 1000B
	ECN            bool     `yaml:"ecn"`              // mark instead of early drops

	// Marker (TCP NewJersey, T-DLRP): set CW while the average queue is
	// at least Fraction·Limit.
	Fraction Fraction `yaml:"fraction"`
	// RetxDrop (marker): drop a fast retransmission that arrives while
	// the marker marks with this probability, a congestion loss
	// (network.Marker.RetxDrop).
	RetxDrop Fraction `yaml:"retx_drop"`
	origin
}

// queueParams lists the keys each queue type accepts.
var queueParams = map[string][]string{
	"droptail": {"type", "limit", "limit_bytes"},
	"red":      {"type", "limit", "limit_bytes", "min_th", "max_th", "max_p", "wq", "gentle", "byte_mode", "mean_packet_size", "ecn"},
	"marker":   {"type", "limit", "fraction", "wq", "retx_drop"},
}

// LossSpec is one error model on a link. Which keys apply depends on Model
// (lossParams).
type LossSpec struct {
	Model     string `yaml:"model"`     // bernoulli (default), bit_error, onoff, droplist, targeted
	Direction string `yaml:"direction"` // forward (from→to), reverse, both (default)
	Packets   string `yaml:"packets"`   // all (default), data, acks

	Rate      Fraction `yaml:"rate"`      // bernoulli, targeted: loss probability
	BER       Fraction `yaml:"ber"`       // bit_error: bit error rate
	MeanUp    sim.Time `yaml:"mean_up"`   // onoff: mean stay in the good state
	MeanDown  sim.Time `yaml:"mean_down"` // onoff: mean stay in the bad state
	LossUp    Fraction `yaml:"loss_up"`   // onoff: loss probability when up, default 0
	LossDown  Fraction `yaml:"loss_down"` // onoff: loss probability when down, default 1
	Positions []int64  `yaml:"positions"` // droplist: 1-based packet positions, ascending
	FastOnly  bool     `yaml:"fast_only"` // targeted: only fast retransmissions
	RateOf    string   `yaml:"rate_of"`   // targeted: retransmissions (default) or packets
	Cause     string   `yaml:"cause"`     // targeted: wireless (default, retx_loss) or congestion (aqm_drop)
	origin
}

var lossParams = map[string][]string{
	"bernoulli": {"rate"},
	"bit_error": {"ber"},
	"onoff":     {"mean_up", "mean_down", "loss_up", "loss_down"},
	"droplist":  {"positions"},
	"targeted":  {"rate", "fast_only", "rate_of", "cause"},
}

// lossRequired lists the keys a model cannot do without.
var lossRequired = map[string][]string{
	"bernoulli": {"rate"},
	"bit_error": {"ber"},
	"onoff":     {"mean_up", "mean_down"},
	"droplist":  {"positions"},
	"targeted":  {"rate"},
}

// LossList is a link's error models, in the order they apply.
type LossList []LossSpec

func (l *LossList) decodeNode(d *decoder, n *yaml.Node, path string) {
	switch {
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
		*l = nil
	case n.Kind == yaml.MappingNode:
		*l = make(LossList, 1)
		d.decodeStruct(n, reflect.ValueOf(&(*l)[0]).Elem(), path)
	default:
		d.decodeSlice(n, reflect.ValueOf(l).Elem(), path)
	}
}

// DelayProcessSpec makes a link's propagation delay vary. Which keys apply
// depends on Model (delayParams).
type DelayProcessSpec struct {
	Model     string `yaml:"model"`     // two_state, schedule, jitter
	Direction string `yaml:"direction"` // forward, reverse, both (default)

	// two_state (Abouzeid & Roy): delay τ1 (default: the link's delay)
	// and τ2; each stay lasts min_stay + an exponential of mean.
	Delay1   *sim.Time `yaml:"delay1"`
	Delay2   sim.Time  `yaml:"delay2"`
	Mean1    sim.Time  `yaml:"mean1"`
	Mean2    sim.Time  `yaml:"mean2"`
	MinStay1 sim.Time  `yaml:"min_stay1"`
	MinStay2 sim.Time  `yaml:"min_stay2"`

	// schedule: the link's delay until the first step, then each step's.
	Steps []StepSpec `yaml:"steps"`

	// jitter: the link's delay plus a uniform delay in [0, spread).
	Spread sim.Time `yaml:"spread"`
	origin
}

// StepSpec is one change of a scheduled delay.
type StepSpec struct {
	At    sim.Time `yaml:"at"`
	Delay sim.Time `yaml:"delay"`
	origin
}

var delayParams = map[string][]string{
	"two_state": {"delay1", "delay2", "mean1", "mean2", "min_stay1", "min_stay2"},
	"schedule":  {"steps"},
	"jitter":    {"spread"},
}

var delayRequired = map[string][]string{
	"two_state": {"delay2", "mean1", "mean2"},
	"schedule":  {"steps"},
	"jitter":    {"spread"},
}

// checkParams reports keys of o that the chosen kind does not take and
// required keys it lacks; common are keys every kind accepts.
func checkParams(r *reporter, o *origin, what, kind string, allowed, required, common []string) {
	// Each key once, at the line of its last writing; messages by line,
	// then name.
	var keys []keyLine
	for _, kl := range o.keys {
		if l, _ := o.keyLineOf(kl.key); l == kl.line && !slices.ContainsFunc(keys, func(k keyLine) bool { return k.key == kl.key }) {
			keys = append(keys, kl)
		}
	}
	slices.SortFunc(keys, func(a, b keyLine) int { return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.key, b.key)) })
	for _, k := range keys {
		if !slices.Contains(allowed, k.key) && !slices.Contains(common, k.key) {
			r.at(k.line, o.field(k.key), "not a parameter of %s %s (it takes: %s)", what, kind, strings.Join(allowed, ", "))
		}
	}
	for _, k := range required {
		if !o.has(k) {
			r.at(o.line, o.field(k), "missing: %s %s needs it", what, kind)
		}
	}
}

func kindNames(m map[string][]string) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

func checkDirection(r *reporter, o *origin, dir *string) {
	switch *dir {
	case "":
		*dir = "both"
	case "forward", "reverse", "both":
	default:
		r.at(o.lineOf("direction"), o.field("direction"), "unknown direction %q (want forward, reverse or both)", *dir)
	}
}

// maxCost bounds a link's routing cost (2^32: a path of 2^31 links still
// sums within int64).
const maxCost = 1 << 32

func (l *LinkSpec) check(r *reporter) {
	if !l.has("bandwidth") {
		r.at(l.line, l.field("bandwidth"), "missing (e.g. \"bandwidth: 10Mbps\")")
	}
	if !l.has("delay") {
		r.at(l.line, l.field("delay"), "missing (e.g. \"delay: 10ms\")")
	}
	if l.Cost < 0 || l.Cost > maxCost {
		// Path costs are sums of link costs: bounded so that no sum of
		// a path's links can overflow.
		r.at(l.lineOf("cost"), l.field("cost"), "cost %d outside [0, %d]", l.Cost, int64(maxCost))
	}
	l.Queue.check(r, &l.origin, 50)
	for i := range l.Loss {
		l.Loss[i].check(r)
	}
	if l.DelayProcess != nil {
		l.DelayProcess.check(r, l)
	}
}

// check fills defaults (a limit of defaultLimit packets) and reports bad
// parameters; owner is the link or channel the queue belongs to.
func (q *QueueSpec) check(r *reporter, owner *origin, defaultLimit int) {
	if q.path == "" {
		q.path = owner.field("queue")
		q.line = owner.line
	}
	if q.Type == "" {
		q.Type = "droptail"
	}
	params, ok := queueParams[q.Type]
	if !ok {
		r.at(q.lineOf("type"), q.field("type"), "unknown queue type %q (have %s)", q.Type, kindNames(queueParams))
		return
	}
	checkParams(r, &q.origin, "queue", q.Type, params, nil, nil)
	if !q.has("limit") {
		q.Limit = defaultLimit
	}
	if q.Limit <= 0 && (q.Type == "marker" || !q.has("limit_bytes")) {
		r.at(q.lineOf("limit"), q.field("limit"), "queue limit must be positive, got %d", q.Limit)
	}
	if q.Type == "red" {
		def := func(key string, v *float64, x float64) {
			if !q.has(key) {
				*v = x
			}
		}
		def("min_th", &q.MinTh, 5)
		def("max_th", &q.MaxTh, 15)
		def("wq", &q.Wq, 0.002)
		if !q.has("max_p") {
			q.MaxP = 0.1
		}
		if q.Gentle == nil {
			t := true
			q.Gentle = &t
		}
		if q.MeanPacketSize == 0 {
			q.MeanPacketSize = 1000
		}
		if q.MinTh < 0 || q.MaxTh <= q.MinTh {
			r.at(q.lineOf("max_th"), q.field("max_th"), "RED needs 0 ≤ min_th < max_th (got %g, %g)", q.MinTh, q.MaxTh)
		}
		if q.MaxP <= 0 {
			r.at(q.lineOf("max_p"), q.field("max_p"), "max_p must be positive")
		}
	}
	if q.Type == "marker" && !q.has("fraction") {
		r.at(q.line, q.field("fraction"), "missing: a marker needs its threshold (e.g. 0.3 for NewJersey)")
	}
	if q.RetxDrop < 0 || q.RetxDrop > 1 {
		r.at(q.lineOf("retx_drop"), q.field("retx_drop"), "retx_drop %g outside [0, 1]", float64(q.RetxDrop))
	}
	if q.has("wq") && (q.Wq <= 0 || q.Wq > 1) {
		r.at(q.lineOf("wq"), q.field("wq"), "wq %g outside (0, 1]", q.Wq)
	}
	if q.Wq == 0 {
		q.Wq = 0.002
	}
}

// check fills defaults and reports bad parameters; extra names keys of an
// enclosing entry that are not the model's (a radio loss's node and at).
func (s *LossSpec) check(r *reporter, extra ...string) {
	if s.Model == "" {
		s.Model = "bernoulli"
	}
	params, ok := lossParams[s.Model]
	if !ok {
		r.at(s.lineOf("model"), s.field("model"), "unknown loss model %q (have %s)", s.Model, kindNames(lossParams))
		return
	}
	checkParams(r, &s.origin, "loss model", s.Model, params, lossRequired[s.Model], append([]string{"model", "direction", "packets"}, extra...))
	checkDirection(r, &s.origin, &s.Direction)
	switch s.Packets {
	case "":
		s.Packets = "all"
	case "all", "data", "acks":
	default:
		r.at(s.lineOf("packets"), s.field("packets"), "unknown packet kind %q (want all, data or acks)", s.Packets)
	}
	switch s.Model {
	case "onoff":
		if s.has("mean_up") && s.MeanUp == 0 {
			r.at(s.lineOf("mean_up"), s.field("mean_up"), "mean_up must be positive")
		}
		if s.has("mean_down") && s.MeanDown == 0 {
			r.at(s.lineOf("mean_down"), s.field("mean_down"), "mean_down must be positive")
		}
		if !s.has("loss_down") {
			s.LossDown = 1
		}
	case "targeted":
		s.oneOf(r, "rate_of", &s.RateOf, "retransmissions", "packets")
		s.oneOf(r, "cause", &s.Cause, "wireless", "congestion")
	case "droplist":
		for i, p := range s.Positions {
			if p < 1 || i > 0 && p <= s.Positions[i-1] {
				r.at(s.lineOf("positions"), s.field("positions"), "positions must be ascending and start at 1, got %v", s.Positions)
				break
			}
		}
	}
}

// oneOf checks that key's value is one of allowed, the first being the
// default when it is not set.
func (s *LossSpec) oneOf(r *reporter, key string, v *string, allowed ...string) {
	switch {
	case *v == "":
		*v = allowed[0]
	case !slices.Contains(allowed, *v):
		r.at(s.lineOf(key), s.field(key), "unknown %s %q (want %s)", key, *v, strings.Join(allowed, " or "))
	}
}

func (p *DelayProcessSpec) check(r *reporter, l *LinkSpec) {
	params, ok := delayParams[p.Model]
	if !ok {
		r.at(p.lineOf("model"), p.field("model"), "unknown delay process %q (have %s)", p.Model, kindNames(delayParams))
		return
	}
	checkParams(r, &p.origin, "delay process", p.Model, params, delayRequired[p.Model], []string{"model", "direction"})
	checkDirection(r, &p.origin, &p.Direction)
	switch p.Model {
	case "two_state":
		if p.Delay1 == nil {
			d := l.Delay
			p.Delay1 = &d
		}
		if p.has("mean1") && p.Mean1 == 0 && p.MinStay1 == 0 || p.has("mean2") && p.Mean2 == 0 && p.MinStay2 == 0 {
			r.at(p.line, p.path, "each state needs a positive mean or min_stay")
		}
	case "schedule":
		for i := 1; i < len(p.Steps); i++ {
			if p.Steps[i].At <= p.Steps[i-1].At {
				st := &p.Steps[i]
				r.at(st.lineOf("at"), st.field("at"), "steps must be in increasing time order")
			}
		}
		for i := range p.Steps {
			st := &p.Steps[i]
			for _, k := range []string{"at", "delay"} {
				if !st.has(k) {
					r.at(st.line, st.field(k), "missing")
				}
			}
		}
	}
}
