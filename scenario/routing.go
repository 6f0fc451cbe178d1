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

// buildRouting gives every radio's node an instance of the protocol.
func buildRouting(s *RoutingSpec, radios []*network.Node) *routing.Stats {
	if s == nil || !s.Params.OnDemand() {
		return nil
	}
	st := routing.NewStats(s.Protocol)
	for _, nd := range radios {
		nd.SetRouter(s.Params.NewRouter(nd, st))
	}
	return st
}
