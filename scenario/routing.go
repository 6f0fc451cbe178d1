package scenario

import (
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/routing"
)

// RoutingSpec chooses the scenario's routing protocol, one registered in
// routing.Protocols: a bare name ("routing: aodv") or a mapping with
// "protocol" and the protocol's parameters. Absent: static shortest
// paths. An on-demand protocol runs on every node of the wireless
// channel.
type RoutingSpec struct {
	Protocol string         `yaml:"protocol"`
	Params   routing.Params `yaml:"-"`
	part
	origin
}

func (s *RoutingSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	if kind, ok := decodeByName(d, n, path, &s.origin, routing.Protocols, &s.Params, &s.part); ok {
		s.Protocol = kind
		return
	}
	decodePart(d, n, path, reflect.ValueOf(s).Elem(), "protocol", "static", routing.Protocols, &s.Params, &s.part)
}

// check fills the default and reports an unknown protocol, bad
// parameters, and an on-demand protocol without a channel to run on.
func (s *RoutingSpec) check(r *reporter, w *WirelessSpec) {
	if s.Protocol == "" {
		s.Protocol = "static"
	}
	if s.node == nil {
		s.Params, s.known = routing.Protocols.New(s.Protocol)
		s.node = &yaml.Node{Kind: yaml.MappingNode, Line: s.line}
	}
	if !checkPart(r, &s.origin, &s.part, s.Params, "routing protocol", "unknown routing protocol", "protocol", s.Protocol,
		routing.Protocols.Names(), nil, []string{"protocol"}) {
		return
	}
	if s.Params.OnDemand() && w == nil {
		r.at(s.lineOf("protocol"), s.field("protocol"),
			"%s finds routes over a wireless channel and this scenario has none (no wireless section): use static routes on a wired topology", s.Protocol)
	}
}

// checkNodeRouting reports a node's own routing settings that cannot
// apply: on a node without a radio, with no on-demand protocol in the
// scenario, or naming another protocol than the scenario's.
func (s *Scenario) checkNodeRouting(r *reporter) {
	radio := map[string]bool{}
	if s.Wireless != nil {
		for _, p := range s.Wireless.positions() {
			radio[p.Node] = true
		}
	}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		rs := n.Routing
		if rs == nil {
			continue
		}
		rs.check(r, s.Wireless)
		switch {
		case !radio[n.Name]:
			r.at(rs.line, rs.path, "node %s has no radio: routing settings apply to the wireless channel's nodes", n.Name)
		case s.Routing == nil || s.Routing.Params == nil || !s.Routing.Params.OnDemand():
			r.at(rs.line, rs.path, "node %s has its own routing settings but the scenario routes by static routes: set the scenario's routing to the protocol", n.Name)
		case rs.Protocol != s.Routing.Protocol:
			r.at(rs.lineOf("protocol"), rs.field("protocol"), "node %s runs %s but the scenario routes by %s, and on-demand protocols do not interoperate: give the node %s's settings",
				n.Name, rs.Protocol, s.Routing.Protocol, s.Routing.Protocol)
		}
	}
}

// buildRouting gives every radio's node an instance of the protocol, with
// the node's own settings where it has them.
func buildRouting(s *Scenario, radios []*network.Node) *routing.Stats {
	rs := s.Routing
	if rs == nil || !rs.Params.OnDemand() {
		return nil
	}
	own := map[string]routing.Params{}
	for i := range s.Nodes {
		if n := &s.Nodes[i]; n.Routing != nil {
			own[n.Name] = n.Routing.Params
		}
	}
	st := routing.NewStats(rs.Protocol)
	for _, nd := range radios {
		p := rs.Params
		if o, ok := own[nd.Name]; ok {
			p = o
		}
		nd.SetRouter(p.NewRouter(nd, st))
	}
	return st
}
