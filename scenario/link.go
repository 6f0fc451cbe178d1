package scenario

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/network"
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
// own): Type names a discipline registered in network.Queues (droptail,
// the default, red, marker, ...), whose parameters the other keys set.
type QueueSpec struct {
	Type   string              `yaml:"type"`
	Params network.QueueParams `yaml:"-"`
	part
	origin
}

func (q *QueueSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	decodePart(d, n, path, reflect.ValueOf(q).Elem(), "type", "droptail", network.Queues, &q.Params, &q.part)
}

// Limit is the queue's packet limit (every discipline has one).
func (q *QueueSpec) Limit() int { return keyInt(q.Params, "limit") }

// LossSpec is one error model on a link: Model names one registered in
// network.Losses (bernoulli, the default, bit_error, onoff, droplist,
// targeted, ...), whose parameters the other keys set, apart from where it
// applies (Direction), to what (Packets), and its Name, by which --set and
// sweeps may find it in its list (links.wireless.loss.random.rate) instead
// of by position.
type LossSpec struct {
	Name      string             `yaml:"name"`
	Model     string             `yaml:"model"`
	Direction string             `yaml:"direction"` // forward (from→to), reverse, both (default)
	Packets   string             `yaml:"packets"`   // all (default), data, acks
	Params    network.LossParams `yaml:"-"`
	part
	origin
}

func (s *LossSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	decodePart(d, n, path, reflect.ValueOf(s).Elem(), "model", "bernoulli", network.Losses, &s.Params, &s.part)
}

// LossList is a link's error models, in the order they apply.
type LossList []LossSpec

func (l *LossList) decodeNode(d *decoder, n *yaml.Node, path string) {
	switch {
	case n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null":
		*l = nil
	case n.Kind == yaml.MappingNode:
		*l = make(LossList, 1)
		d.decode(n, reflect.ValueOf(&(*l)[0]).Elem(), path)
	default:
		d.decodeSlice(n, reflect.ValueOf(l).Elem(), path)
	}
}

// DelayProcessSpec makes a link's propagation delay vary: Model names one
// registered in network.Delays (two_state, schedule, jitter, ...), whose
// parameters the other keys set.
type DelayProcessSpec struct {
	Model     string              `yaml:"model"`
	Direction string              `yaml:"direction"` // forward, reverse, both (default)
	Params    network.DelayParams `yaml:"-"`
	part
	origin
}

func (p *DelayProcessSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	decodePart(d, n, path, reflect.ValueOf(p).Elem(), "model", "", network.Delays, &p.Params, &p.part)
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
	takes := "it takes: " + strings.Join(allowed, ", ")
	if len(allowed) == 0 {
		takes = "it takes none"
	}
	for _, k := range keys {
		if !slices.Contains(allowed, k.key) && !slices.Contains(common, k.key) {
			r.at(k.line, o.field(k.key), "not a parameter of %s %s (%s)", what, kind, takes)
		}
	}
	for _, k := range required {
		if !o.has(k) {
			r.at(o.line, o.field(k), "missing: %s %s needs it", what, kind)
		}
	}
}

func joinNames(names []string) string { return strings.Join(names, ", ") }

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
		l.DelayProcess.check(r)
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
	if q.Params == nil {
		// No queue written: the default discipline.
		q.Params, _ = network.Queues.New(q.Type)
		q.part = part{node: &yaml.Node{Kind: yaml.MappingNode, Line: q.line}, known: q.Params != nil}
	}
	if q.known && !q.has("limit") {
		setKey(q.Params, "limit", defaultLimit)
	}
	checkPart(r, &q.origin, &q.part, q.Params, "queue", "unknown queue type", "type", q.Type,
		network.Queues.Names(), []string{"type"}, nil)
}

// check fills defaults and reports bad parameters; extra names keys of an
// enclosing entry that are not the model's (a radio loss's node and at).
func (s *LossSpec) check(r *reporter, extra ...string) {
	if s.Model == "" {
		s.Model = "bernoulli"
	}
	if !checkPart(r, &s.origin, &s.part, s.Params, "loss model", "unknown loss model", "model", s.Model,
		network.Losses.Names(), nil, append([]string{"name", "model", "direction", "packets"}, extra...)) && !s.known {
		return
	}
	checkDirection(r, &s.origin, &s.Direction)
	switch s.Packets {
	case "":
		s.Packets = "all"
	case "all", "data", "acks":
	default:
		r.at(s.lineOf("packets"), s.field("packets"), "unknown packet kind %q (want all, data or acks)", s.Packets)
	}
}

func (p *DelayProcessSpec) check(r *reporter) {
	if !checkPart(r, &p.origin, &p.part, p.Params, "delay process", "unknown delay process", "model", p.Model,
		network.Delays.Names(), nil, []string{"model", "direction"}) && !p.known {
		return
	}
	checkDirection(r, &p.origin, &p.Direction)
}
