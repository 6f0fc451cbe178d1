package scenario

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tcplab/tcplab/sim"
)

// check fills defaults and reports what decoding alone cannot see: missing
// fields, names that refer to nothing, flows with no path, times outside
// the run.
func (s *Scenario) check(r *reporter) {
	if !s.has("duration") {
		r.at(s.line, "duration", "missing (e.g. \"duration: 10s\")")
	} else if s.Duration == 0 {
		r.at(s.lineOf("duration"), "duration", "must be positive")
	}
	if !s.has("seed") {
		s.Seed = 1
	}
	if s.has("nodes") && len(s.Nodes) == 0 || !s.has("nodes") {
		r.at(s.lineOf("nodes"), "nodes", "no nodes")
	}

	nodes := map[string]int{} // name → index
	for i := range s.Nodes {
		n := &s.Nodes[i]
		switch {
		case n.Name == "":
			r.at(n.line, n.path, "node without a name")
		case strings.ContainsAny(n.Name, "/>[]. "):
			r.at(n.line, n.path, "node name %q contains one of / > [ ] . or a space", n.Name)
		default:
			if _, dup := nodes[n.Name]; dup {
				r.at(n.line, n.path, "node %q defined twice", n.Name)
			}
			nodes[n.Name] = i
		}
		if n.Agent != nil {
			n.Agent.check(r)
		}
	}

	// Adjacency for the reachability check of flows (links are full duplex).
	adj := make([][]int, len(s.Nodes))
	links := map[string]bool{}
	for i := range s.Links {
		l := &s.Links[i]
		a, aok := s.nodeRef(r, nodes, &l.origin, "from", l.From)
		b, bok := s.nodeRef(r, nodes, &l.origin, "to", l.To)
		if aok && bok {
			if a == b {
				r.at(l.lineOf("to"), l.field("to"), "link from %q to itself", l.To)
			} else {
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
		if l.Name == "" {
			l.Name = l.From + "-" + l.To
		}
		if strings.ContainsAny(l.Name, "/>[]. ") {
			r.at(l.lineOf("name"), l.field("name"), "link name %q contains one of / > [ ] . or a space", l.Name)
		}
		if links[l.Name] {
			r.at(l.lineOf("name"), l.field("name"), "link %q defined twice", l.Name)
		}
		links[l.Name] = true
		l.check(r)
	}

	if s.Wireless != nil {
		s.Wireless.check(r, nodes, adj, s.Duration, fileDir(s.File))
	}
	if s.Routing != nil {
		s.Routing.check(r, s.Wireless)
	}
	s.checkNodeRouting(r)
	comp := components(adj)
	names := map[string]bool{}
	for i := range s.Flows {
		f := &s.Flows[i]
		if f.Name == "" {
			f.Name = fmt.Sprintf("flow%d", i+1)
		}
		if names[f.Name] {
			r.at(f.lineOf("name"), f.field("name"), "flow %q defined twice", f.Name)
		}
		names[f.Name] = true
		a, aok := s.nodeRef(r, nodes, &f.origin, "src", f.Src)
		b, bok := s.nodeRef(r, nodes, &f.origin, "dst", f.Dst)
		// With a movement file that could not be read, which nodes move,
		// and so have radios, is unknown: no path is judged.
		judged := aok && bok && (s.Wireless == nil || s.Wireless.Movements == nil || !s.Wireless.Movements.unread)
		if judged {
			if a == b {
				r.at(f.lineOf("dst"), f.field("dst"), "flow from %q to itself", f.Dst)
			} else if comp[a] != comp[b] {
				by := "links"
				if s.Wireless != nil {
					by = "links or radios in decode range"
				}
				r.at(f.lineOf("dst"), f.field("dst"), "no path from %s to %s: the nodes are not connected by %s", f.Src, f.Dst, by)
			}
		}
		if s.Routing != nil && s.Routing.Params != nil && s.Routing.Params.OnDemand() && s.Wireless != nil && judged {
			radios := s.Wireless.radioNodes()
			for _, end := range []struct{ key, name string }{{"src", f.Src}, {"dst", f.Dst}} {
				if !radios[end.name] {
					r.at(f.lineOf(end.key), f.field(end.key), "%s has no radio: %s routes among the wireless channel's nodes only (a flow to or from a wired node needs static routing)",
						end.name, s.Routing.Protocol)
				}
			}
		}
		f.checkApp(r)
		f.checkTimes(r, s.Duration)
		if f.Coding != nil {
			f.Coding.check(r, f)
		}
	}
	s.checkKernel(r, nodes)
	if s.Trace.has("drops") && s.Trace.Drops == "" {
		r.at(s.Trace.lineOf("drops"), "trace.drops", "empty file name")
	}
	s.Trace.checkPackets(r, links)
	if s.Trace.Air != "" && s.Wireless == nil {
		r.at(s.Trace.lineOf("air"), "trace.air", "no wireless section: there is no air to capture")
	}
}

// nodeRef resolves a reference to a node written under key.
func (s *Scenario) nodeRef(r *reporter, nodes map[string]int, o *origin, key, name string) (int, bool) {
	if !o.has(key) {
		r.at(o.line, o.field(key), "missing")
		return 0, false
	}
	i, ok := nodes[name]
	if !ok {
		hint := ""
		if strings.Contains(name, "{i}") {
			hint = " ({i} is replaced only in entries with a count)"
		}
		r.at(o.lineOf(key), o.field(key), "undefined node %q%s", name, hint)
	}
	return i, ok
}

func (f *FlowSpec) checkTimes(r *reporter, duration sim.Time) {
	if f.has("start_step") {
		r.at(f.lineOf("start_step"), f.field("start_step"), "start_step applies only to an entry with a count")
	}
	start := f.Start
	if !f.has("stop") {
		f.Stop = duration
	}
	if duration == 0 {
		return // reported already; comparing with it would only repeat that
	}
	if start >= duration {
		r.at(f.lineOf("start"), f.field("start"), "starts at %v, not before the end of the run (%v)", start, duration)
	}
	switch {
	case f.Stop <= start:
		r.at(f.lineOf("stop"), f.field("stop"), "stops at %v, not after its start (%v)", f.Stop, start)
	case f.Stop > duration:
		r.at(f.lineOf("stop"), f.field("stop"), "stops at %v, after the end of the run (%v)", f.Stop, duration)
	}
}

// components labels each node with its connected component.
func components(adj [][]int) []int {
	comp := make([]int, len(adj))
	for i := range comp {
		comp[i] = -1
	}
	for start := range adj {
		if comp[start] >= 0 {
			continue
		}
		comp[start] = start
		stack := []int{start}
		for len(stack) > 0 {
			u := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, v := range adj[u] {
				if comp[v] < 0 {
					comp[v] = start
					stack = append(stack, v)
				}
			}
		}
	}
	return comp
}

// fileDir is the directory files named in the scenario are read from:
// the scenario file's.
func fileDir(file string) string {
	if file == "" {
		return ""
	}
	return filepath.Dir(file)
}
