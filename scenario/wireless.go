package scenario

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
	"github.com/tcplab/tcplab/wireless"
)

// Metres is a length or a coordinate: "200m", "0.5km", "-5m".
type Metres float64

// UnmarshalText reads a length with its unit.
func (m *Metres) UnmarshalText(b []byte) error {
	f, scale, ok := units.Split(string(b), units.Length)
	if !ok || math.IsNaN(f) {
		return fmt.Errorf("bad length %q: want a number and a unit (%s), e.g. \"200m\"", b, units.Names(units.Length))
	}
	if math.Abs(f*scale) > 1e7 {
		return fmt.Errorf("length %q beyond 10000 km", b)
	}
	*m = Metres(f * scale)
	return nil
}

// WirelessSpec is one IEEE 802.11b channel shared by the nodes placed on
// it (docs/wifi.md). Nodes are declared under nodes: as usual; here they
// get positions (line: for a chain, nodes: for anything else). Defaults
// are ns-3.37's ad-hoc 802.11b set-up.
type WirelessSpec struct {
	Rate         Bandwidth `yaml:"rate"`          // default 11Mbps
	BasicRate    Bandwidth `yaml:"basic_rate"`    // RTS and CTS; default 1Mbps
	ACKRate      Bandwidth `yaml:"ack_rate"`      // default: the data rate (ns-3)
	RTSThreshold *Bytes    `yaml:"rts_threshold"` // frames above it use RTS/CTS; absent: never
	ShortRetry   int       `yaml:"short_retry"`   // default 7
	LongRetry    int       `yaml:"long_retry"`    // default 4
	Queue        QueueSpec `yaml:"queue"`         // every radio's interface queue; default drop-tail of 500 packets
	QueueMaxAge  *sim.Time `yaml:"queue_max_age"` // default 500ms; 0 disables
	// Priority: classes of packets (routing, tcp_acks) that wait in
	// queues of their own and go first, in this order (ns-2.35's
	// CMUPriQueue: [routing, tcp_acks]); default none.
	Priority    []string `yaml:"priority"`
	Propagation string   `yaml:"propagation"` // range (default), friis, tworay
	// Reception: dsss (default, ns-3.37's preamble detection and error
	// model) or threshold (ns-2.35's: lock on the first bit, an overlap
	// loses both frames unless the first is capture_ratio times stronger).
	Reception    string      `yaml:"reception"`
	CaptureRatio *float64    `yaml:"capture_ratio"` // default 10 (ns-2's CPThresh_)
	DecodeRange  Metres      `yaml:"decode_range"`  // default 250m
	SenseRange   Metres      `yaml:"sense_range"`   // default 550m (friis, tworay); range: the decode range
	Line         *LineSpec   `yaml:"line"`
	Nodes        []Placed    `yaml:"nodes"`
	Loss         []RadioLoss `yaml:"loss"`
	// Mobility moves nodes (mobility.go); Movements reads an ns-2
	// movement file; MobilityStep bounds how stale a moving
	// transmitter's view of who hears it may be (default 10ms; 0: none).
	Mobility     []MobilitySpec `yaml:"mobility"`
	Movements    *MovementsSpec `yaml:"movements"`
	MobilityStep sim.Time       `yaml:"mobility_step"`
	origin
}

// LineSpec places nodes 1..count (the {i} of their name, as count does
// elsewhere) on the x axis from 0 m, spacing apart
// (the T-DLRP chain: 11 nodes 200 m apart).
type LineSpec struct {
	Nodes   string `yaml:"nodes"` // a name with {i}, e.g. "n{i}"
	Count   int    `yaml:"count"`
	Spacing Metres `yaml:"spacing"`
	origin
}

// Placed is a node at a position.
type Placed struct {
	Node string `yaml:"node"`
	X    Metres `yaml:"x"`
	Y    Metres `yaml:"y"`
	origin
}

// RadioLoss is an error model at a node's radio: at "phy" it corrupts
// frames (no MAC ACK: the MAC retries, TCP mostly never knows), at "mac"
// it drops packets the MAC acknowledged (TCP sees the loss).
type RadioLoss struct {
	Node     string `yaml:"node"`
	At       string `yaml:"at"`
	LossSpec `yaml:",inline"`
}

// decodeNode takes the node and place beside the model's keys.
func (l *RadioLoss) decodeNode(d *decoder, n *yaml.Node, path string) {
	decodePart(d, n, path, reflect.ValueOf(l).Elem(), "model", "bernoulli", network.Losses, &l.Params, &l.part)
}

// positions lists every placed node in order: the line, then the nodes.
func (w *WirelessSpec) positions() []Placed {
	var ps []Placed
	if l := w.Line; l != nil {
		for i := range l.Count {
			ps = append(ps, Placed{Node: expandName(l.Nodes, i+1), X: Metres(float64(i) * float64(l.Spacing)), origin: l.origin})
		}
	}
	return append(ps, w.Nodes...)
}

func expandName(pattern string, i int) string {
	return strings.ReplaceAll(pattern, "{i}", strconv.Itoa(i))
}

// config turns the spec into the channel's configuration.
func (w *WirelessSpec) config() (wireless.Config, error) {
	c := wireless.DefaultConfig()
	c.Rate, c.BasicRate, c.ACKRate = float64(w.Rate), float64(w.BasicRate), float64(w.ACKRate)
	c.RTSThreshold = -1
	if w.RTSThreshold != nil {
		c.RTSThreshold = int(*w.RTSThreshold)
	}
	c.ShortRetryLimit, c.LongRetryLimit, c.QueueLimit = w.ShortRetry, w.LongRetry, w.Queue.Limit()
	if w.QueueMaxAge != nil {
		c.QueueMaxDelay = *w.QueueMaxAge
	}
	for _, name := range w.Priority {
		cl, err := wireless.ParseClass(name)
		if err != nil {
			return c, component.Errorf("priority", "%s", err.Error())
		}
		if slices.Contains(c.Ahead, cl) {
			return c, component.Errorf("priority", "%s listed twice", name)
		}
		c.Ahead = append(c.Ahead, cl)
	}
	if w.Reception != "" {
		c.Reception = w.Reception
	}
	if w.CaptureRatio != nil {
		c.CaptureRatio = *w.CaptureRatio
	}
	if err := c.UseProfile(w.Propagation, float64(w.DecodeRange), float64(w.SenseRange)); err != nil {
		return c, err
	}
	return c, c.Check()
}

// check fills defaults and reports bad settings, positions and names;
// it returns the adjacency of the placed nodes (within decode range).
func (w *WirelessSpec) check(r *reporter, nodes map[string]int, adj [][]int, duration sim.Time, dir string) {
	def := func(key string, v *Bandwidth, x float64) {
		if !w.has(key) {
			*v = Bandwidth(x)
		}
	}
	def("rate", &w.Rate, 11e6)
	def("basic_rate", &w.BasicRate, 1e6)
	if !w.has("short_retry") {
		w.ShortRetry = 7
	}
	if !w.has("long_retry") {
		w.LongRetry = 4
	}
	w.Queue.check(r, &w.origin, 500)
	if w.Propagation == "" {
		w.Propagation = "range"
	}
	if !w.has("decode_range") {
		w.DecodeRange = 250
	}
	if !w.has("sense_range") {
		w.SenseRange = 550
		if w.Propagation == "range" || w.DecodeRange > w.SenseRange {
			w.SenseRange = w.DecodeRange
		}
	}
	if _, err := w.config(); err != nil {
		key := "wireless"
		if ce, ok := err.(*component.FieldError); ok {
			key = map[string]string{"rate": "rate", "basic_rate": "basic_rate", "ack_rate": "ack_rate",
				"retry_limit": "short_retry", "queue.limit": "queue", "propagation": "propagation",
				"sense_range": "sense_range", "rx_threshold": "decode_range", "cs_threshold": "sense_range",
				"priority": "priority", "reception": "reception", "capture_ratio": "capture_ratio"}[ce.Field]
			r.at(w.lineOf(key), w.field(key), "%s", ce.Msg)
		} else {
			r.at(w.line, key, "%v", err)
		}
	}
	// A line whose spacing is wrong (unparsed, zero) has its nodes at one
	// point: that error is the one to read, not a same-position one.
	badLine := false
	if l := w.Line; l != nil {
		if l.Count < 1 {
			r.at(l.lineOf("count"), l.field("count"), "want at least 1 node")
		}
		if badLine = !(l.Spacing > 0); badLine {
			r.at(l.lineOf("spacing"), l.field("spacing"), "want a positive spacing (two nodes at one position)")
		}
	}
	ps := w.positions()
	at := map[[2]float64]string{}
	for i, p := range ps {
		if _, ok := nodes[p.Node]; !ok {
			key := "node"
			if p.has("nodes") {
				key = "nodes"
			}
			r.at(p.lineOf(key), p.field(key), "undefined node %q", p.Node)
			continue
		}
		for _, q := range ps[:i] {
			if q.Node == p.Node {
				r.at(p.line, p.path, "node %q placed twice", p.Node)
			}
		}
		k := [2]float64{float64(p.X), float64(p.Y)}
		if other, dup := at[k]; dup && other != p.Node && !badLine {
			r.at(p.line, p.path, "nodes %s and %s are at the same position (%g m, %g m)", other, p.Node, k[0], k[1])
		}
		at[k] = p.Node
	}
	for i, p := range ps {
		for _, q := range ps[i+1:] {
			a, aok := nodes[p.Node]
			b, bok := nodes[q.Node]
			if aok && bok && a != b && math.Hypot(float64(p.X-q.X), float64(p.Y-q.Y)) <= float64(w.DecodeRange) {
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
	}
	if !w.has("mobility_step") {
		w.MobilityStep = 10 * sim.Millisecond
	}
	where := map[string]Placed{}
	for _, p := range ps {
		where[p.Node] = p
	}
	w.checkMobility(r, nodes, where, duration, dir)
	placed := map[string]bool{}
	for _, p := range ps {
		placed[p.Node] = true
	}
	if moved := w.movedNames(); len(moved) > 0 {
		// Nodes that move meet and part: any radio may reach any other
		// in the run, so none is unreachable at the start.
		var radios []int
		for _, name := range moved {
			placed[name] = true
		}
		for name := range placed {
			if i, ok := nodes[name]; ok {
				radios = append(radios, i)
			}
		}
		for _, a := range radios {
			for _, b := range radios {
				if a != b {
					adj[a] = append(adj[a], b)
				}
			}
		}
	}
	for i := range w.Loss {
		l := &w.Loss[i]
		if !placed[l.Node] {
			r.at(l.lineOf("node"), l.field("node"), "node %q has no radio (place it under wireless.line or wireless.nodes)", l.Node)
		}
		switch l.At {
		case "phy", "mac":
		default:
			r.at(l.lineOf("at"), l.field("at"), "want phy (frames corrupted, retried by the MAC) or mac (packets lost after the MAC's ACK), got %q", l.At)
		}
		l.LossSpec.check(r, "node", "at")
	}
}

// buildWireless makes the channel, places the radios and attaches the
// error models; it runs before routes are computed.
func buildWireless(net *network.Net, w *WirelessSpec, nodes map[string]*network.Node) (*wireless.Channel, error) {
	cfg, err := w.config()
	if err != nil {
		return nil, err
	}
	ch, err := wireless.NewChannel(net, cfg)
	if err != nil {
		return nil, err
	}
	where := map[string]*wireless.Radio{}
	for _, p := range w.positions() {
		r := ch.Attach(nodes[p.Node], float64(p.X), float64(p.Y))
		r.Queue = newQueue(net, &w.Queue, "wifi/"+p.Node, cfg.Rate)
		where[p.Node] = r
	}
	for _, m := range w.movers() {
		r, placed := where[m.node]
		var mob wireless.Mobility
		if placed {
			mob = m.make(r.X, r.Y, true, net)
		} else {
			mob = m.make(0, 0, false, net)
			x, y := mob.Position(0)
			r = ch.Attach(nodes[m.node], x, y)
			r.Queue = newQueue(net, &w.Queue, "wifi/"+m.node, cfg.Rate)
		}
		ch.SetMobility(r, mob, w.MobilityStep)
	}
	if err := ch.Build(); err != nil {
		return nil, err
	}
	for i := range w.Loss {
		l := &w.Loss[i]
		r := ch.RadioOf(nodes[l.Node])
		m := newErrorModel(net, &l.LossSpec, fmt.Sprintf("errors/wifi/%s/%s#%d", l.Node, l.At, i+1))
		if l.At == "phy" {
			r.PHYLoss = chainModels(r.PHYLoss, m)
		} else {
			r.Loss = chainModels(r.Loss, m)
		}
	}
	return ch, nil
}

func chainModels(have, m network.ErrorModel) network.ErrorModel {
	switch h := have.(type) {
	case nil:
		return m
	case network.Chain:
		return append(h, m)
	default:
		return network.Chain{h, m}
	}
}
