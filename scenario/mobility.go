package scenario

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/wireless"
)

// MobilitySpec moves radios: one node, or nodes "n{i}" for i in 1..count,
// by a model registered in wireless.Mobilities (constant_velocity,
// random_waypoint), whose parameters the other keys set. A node with no
// position under line: or nodes: is placed by the model, if it can.
type MobilitySpec struct {
	Node   string                  `yaml:"node"`
	Nodes  string                  `yaml:"nodes"`
	Count  int                     `yaml:"count"`
	Model  string                  `yaml:"model"`
	Params wireless.MobilityParams `yaml:"-"`
	part
	origin
}

func (m *MobilitySpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	decodePart(d, n, path, reflect.ValueOf(m).Elem(), "model", "", wireless.Mobilities, &m.Params, &m.part)
}

// names lists the nodes the entry moves.
func (m *MobilitySpec) names() []string {
	if m.Node != "" {
		return []string{m.Node}
	}
	var out []string
	for i := range m.Count {
		out = append(out, expandName(m.Nodes, i+1))
	}
	return out
}

// MovementsSpec reads an ns-2 movement file (setdest's output):
// $node_(i) is the node Nodes names with {i} = i+1 (ns-2 counts from 0).
type MovementsSpec struct {
	File  string `yaml:"file"`
	Nodes string `yaml:"nodes"`
	origin

	moves map[int]*wireless.Movements // read by check
	// unread: the file could not be read, so which nodes it moves is
	// unknown and no flow's path is judged (its error is the one to read).
	unread bool
}

// mobile is every node the wireless section moves, with its model.
type mobile struct {
	node string
	make func(x, y float64, placed bool, net *network.Net) wireless.Mobility
	// places: the model gives an unplaced node its start.
	places bool
}

// movers lists the moved nodes in file order: the mobility entries, then
// the movement file's nodes by index.
func (w *WirelessSpec) movers() []mobile {
	var out []mobile
	for i := range w.Mobility {
		m := &w.Mobility[i]
		if m.Params == nil {
			continue
		}
		for _, name := range m.names() {
			p := m.Params
			out = append(out, mobile{node: name, places: p.Places(), make: func(x, y float64, placed bool, net *network.Net) wireless.Mobility {
				return p.NewMobility(x, y, placed, net.Stream("mobility/"+name))
			}})
		}
	}
	if mv := w.Movements; mv != nil {
		for _, i := range sortedKeys(mv.moves) {
			moves := mv.moves[i]
			out = append(out, mobile{node: expandName(mv.Nodes, i+1), places: moves.Placed,
				make: func(x, y float64, _ bool, _ *network.Net) wireless.Mobility { return moves.Mobility(x, y) }})
		}
	}
	return out
}

func sortedKeys(m map[int]*wireless.Movements) []int { return slices.Sorted(maps.Keys(m)) }

// checkMobility reports bad mobility entries: unknown models or nodes, a
// node with no position its model cannot place, a start outside the
// model's area, parameters the run's duration rules out, a movement file
// that cannot be read.
func (w *WirelessSpec) checkMobility(r *reporter, nodes map[string]int, placed map[string]Placed, duration sim.Time, dir string) {
	moved := map[string]bool{}
	for i := range w.Mobility {
		m := &w.Mobility[i]
		if !checkPart(r, &m.origin, &m.part, m.Params, "mobility model", "unknown mobility model", "model", m.Model,
			wireless.Mobilities.Names(), nil, []string{"node", "nodes", "count", "model"}) {
			m.Params = nil
			continue
		}
		if fe := m.Params.CheckRun(duration); fe != nil {
			r.at(fieldLine(m.node, fe.Field), joinPath(m.path, fe.Field), "%s", fe.Msg)
		}
		switch {
		case m.Node == "" && m.Nodes == "":
			r.at(m.line, m.path, "name the nodes it moves: node: NAME, or nodes: \"n{i}\" with count")
			continue
		case m.Nodes != "" && m.Count < 1:
			r.at(m.lineOf("count"), m.field("count"), "want at least 1 node")
		}
		key := "node"
		if m.Node == "" {
			key = "nodes"
		}
		for _, name := range m.names() {
			if _, ok := nodes[name]; !ok {
				r.at(m.lineOf(key), m.field(key), "undefined node %q", name)
				continue
			}
			if moved[name] {
				r.at(m.lineOf(key), m.field(key), "node %q moved by two mobility entries", name)
			}
			moved[name] = true
			p, ok := placed[name]
			switch {
			case !ok && !m.Params.Places():
				r.at(m.lineOf(key), m.field(key), "node %q has no position for %s to start from (place it under wireless.line or wireless.nodes)", name, m.Model)
			case ok:
				if why := m.Params.Within(float64(p.X), float64(p.Y)); why != "" {
					r.at(m.line, m.path, "node %q is placed at (%g m, %g m), %s", name, float64(p.X), float64(p.Y), why)
				}
			}
		}
	}
	if mv := w.Movements; mv != nil {
		if mv.Nodes == "" {
			r.at(mv.line, mv.field("nodes"), "missing: the node names $node_(i) stands for, e.g. nodes: \"n{i}\" ($node_(0) is n1)")
		}
		path := mv.File
		if path != "" && !filepath.IsAbs(path) && dir != "" {
			path = filepath.Join(dir, path)
		}
		f, err := os.Open(path)
		if err != nil {
			r.at(mv.lineOf("file"), mv.field("file"), "%v", err)
			mv.unread = true
			return
		}
		defer f.Close()
		moves, err := wireless.ParseMovements(f)
		if err != nil {
			r.at(mv.lineOf("file"), mv.field("file"), "%s: %v", mv.File, err)
			mv.unread = true
			return
		}
		mv.moves = moves
		for _, i := range sortedKeys(moves) {
			name := expandName(mv.Nodes, i+1)
			if _, ok := nodes[name]; !ok {
				r.at(mv.lineOf("file"), mv.field("file"), "%s: $node_(%d) is node %q, which the scenario does not define", mv.File, i, name)
				continue
			}
			if moved[name] {
				r.at(mv.lineOf("file"), mv.field("file"), "%s: node %q is moved by a mobility entry too", mv.File, name)
			}
			moved[name] = true
			if _, ok := placed[name]; !ok && !moves[i].Placed {
				r.at(mv.lineOf("file"), mv.field("file"), "%s: $node_(%d) (%s) has no start position (set X_ and Y_, or place it)", mv.File, i, name)
			}
		}
	}
	if w.MobilityStep < 0 {
		r.at(w.lineOf("mobility_step"), w.field("mobility_step"), "want a time of at least 0, have %v", w.MobilityStep)
	}
}

// radioNodes is every node with a radio: placed, or put on the channel
// by its mobility.
func (w *WirelessSpec) radioNodes() map[string]bool {
	out := map[string]bool{}
	for _, p := range w.positions() {
		out[p.Node] = true
	}
	for _, name := range w.movedNames() {
		out[name] = true
	}
	return out
}

// movedNames are the nodes the wireless section moves, an entry whose
// model's settings are wrong included: its nodes still have radios, so
// that error is reported alone, not again as every flow's missing radio
// and path.
func (w *WirelessSpec) movedNames() []string {
	var out []string
	for i := range w.Mobility {
		out = append(out, w.Mobility[i].names()...)
	}
	if mv := w.Movements; mv != nil {
		for _, i := range sortedKeys(mv.moves) {
			out = append(out, expandName(mv.Nodes, i+1))
		}
	}
	return out
}
