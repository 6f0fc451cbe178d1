package scenario

import (
	"fmt"
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/agent"
	_ "github.com/tcplab/tcplab/alltcp" // registers the alltcp agent
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/tcp"
)

// AgentSpec puts an agent on a node: Type names one registered in
// agent.Kinds (alltcp), whose parameters the other keys set, e.g.
// {type: alltcp, alpha: 0.5, beta: 0.8, predictor: farima}; the bare
// name (agent: alltcp) is the kind with its defaults.
type AgentSpec struct {
	Type   string       `yaml:"type"`
	Params agent.Params `yaml:"-"`
	part
	origin
}

func (a *AgentSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	if kind, ok := decodeByName(d, n, path, &a.origin, agent.Kinds, &a.Params, &a.part); ok {
		a.Type = kind
		return
	}
	decodePart(d, n, path, reflect.ValueOf(a).Elem(), "type", "", agent.Kinds, &a.Params, &a.part)
}

// check reports an unknown agent and the settings its kind rejects, at
// their lines.
func (a *AgentSpec) check(r *reporter) {
	if a.path == "" {
		return // neither a name nor a mapping: the decoder said so, at its line
	}
	if names := agent.Kinds.Names(); !a.known && len(names) == 1 {
		r.at(a.lineOf("type"), a.field("type"), "%q: the only agent is %s", a.Type, names[0])
		return
	}
	checkPart(r, &a.origin, &a.part, a.Params, "agent", "unknown agent", "type", a.Type, agent.Kinds.Names(), []string{"type"}, nil)
}

// buildAgents puts the agents on their nodes and tells them about the
// TCP flows; it returns a warning for each agent no flow crosses.
func buildAgents(s *Scenario, net *network.Net, nodes map[string]*network.Node, flows []*tcp.Flow) ([]agent.Agent, []string, error) {
	var agents []agent.Agent
	var warnings []string
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.Agent == nil {
			continue
		}
		nd := nodes[n.Name]
		a, err := n.Agent.Params.New(net, nd, int32(len(s.Flows)))
		if err != nil {
			return nil, nil, fmt.Errorf("node %s: agent: %w", n.Name, err)
		}
		var crossing []string
		for _, f := range flows {
			a.Watch(f)
			if crosses(f.Src, f.Dst, nd) {
				crossing = append(crossing, f.Name)
			}
		}
		for i := range s.Flows {
			if f := &s.Flows[i]; f.Transport.Protocol == "udp" && crosses(nodes[f.Src], nodes[f.Dst], nd) {
				crossing = append(crossing, f.Name)
			}
		}
		if len(crossing) == 0 {
			warnings = append(warnings, fmt.Sprintf("%s:%d: %s: no flow crosses node %s: the agent will see nothing",
				s.File, n.Agent.line, n.Agent.path, n.Name))
		}
		agents = append(agents, a)
	}
	return agents, warnings, nil
}

// crosses reports whether the route from src to dst passes through (or
// ends at) node at, a router in between.
func crosses(src, dst, at *network.Node) bool {
	for nd, hops := src, 0; nd != nil && nd != dst && hops < 1<<16; hops++ {
		nd = nd.NextNode(dst.ID)
		if nd == at && nd != dst {
			return true
		}
	}
	return false
}
