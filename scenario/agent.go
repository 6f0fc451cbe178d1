package scenario

import (
	"errors"
	"fmt"

	"github.com/tcplab/tcplab/alltcp"
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// AgentSpec puts ALL-TCP's edge agent on a node:
// {type: alltcp, alpha: 0.5, beta: 0.8, predictor: farima}. Absent keys take
// the agent's defaults (alltcp.Config.Defaults).
type AgentSpec struct {
	Type      string   `yaml:"type"`               // alltcp
	Mode      string   `yaml:"mode"`               // adaptive, split, regulate, observe
	LongLived int      `yaml:"long_lived"`         // packets after which a TCP flow is long-lived
	Interval  sim.Time `yaml:"interval"`           // measurement interval of the traffic level
	Predictor string   `yaml:"predictor"`          // farima, arima, ewma, last
	Tau       int      `yaml:"tau"`                // forecast horizon, intervals
	History   int      `yaml:"history"`            // intervals a refit reads
	Refit     int      `yaml:"refit"`              // intervals between refits
	Alpha     float64  `yaml:"alpha"`              // split below this predicted utilisation
	Beta      float64  `yaml:"beta"`               // regulate above this one
	MaxP      float64  `yaml:"max_p"`              // RED's drop probability at full utilisation
	Epsilon   float64  `yaml:"epsilon"`            // ε of the maximum prediction interval
	PEpsilon  float64  `yaml:"p_epsilon"`          // P_ε of the maximum prediction interval
	Buffer    Bytes    `yaml:"buffer"`             // relay buffer per split flow
	GammaMax  float64  `yaml:"gamma_max"`          // upper bound of γ (eq. 9)
	MaxHold   sim.Time `yaml:"max_hold"`           // longest an ACK is held for γ
	Compare   bool     `yaml:"compare_predictors"` // run every predictor side by side and score each
	origin
}

// config is the agent's configuration: the file's values where given,
// the defaults elsewhere (a zero the file gives is kept, for Validate to
// judge).
func (a *AgentSpec) config() alltcp.Config {
	c := alltcp.Config{}.Defaults()
	if a.has("mode") {
		c.Mode = alltcp.Mode(a.Mode)
	}
	if a.has("predictor") {
		c.Predictor = a.Predictor
	}
	if a.has("long_lived") {
		c.LongLived = a.LongLived
	}
	if a.has("interval") {
		c.Interval = a.Interval
	}
	if a.has("tau") {
		c.Tau = a.Tau
	}
	if a.has("history") {
		c.History = a.History
	}
	if a.has("refit") {
		c.Refit = a.Refit
	}
	if a.has("alpha") {
		c.Alpha = a.Alpha
	}
	if a.has("beta") {
		c.Beta = a.Beta
	}
	if a.has("max_p") {
		c.MaxP = a.MaxP
	}
	if a.has("epsilon") {
		c.Eps = a.Epsilon
	}
	if a.has("p_epsilon") {
		c.PEps = a.PEpsilon
	}
	if a.has("buffer") {
		c.Buffer = int64(a.Buffer)
	}
	if a.has("gamma_max") {
		c.GammaMax = a.GammaMax
	}
	if a.has("max_hold") {
		c.MaxHold = a.MaxHold
	}
	c.Compare = a.Compare
	return c
}

// check reports settings the agent rejects, at their lines.
func (a *AgentSpec) check(r *reporter) {
	if a.Type != "alltcp" {
		r.at(a.lineOf("type"), a.field("type"), "%q: the only agent is alltcp", a.Type)
		return
	}
	var fe *component.FieldError
	if err := a.config().Validate(); errors.As(err, &fe) {
		key, msg := fe.Field, fe.Msg
		if key == "alpha" && !a.has("alpha") {
			c := a.config()
			key, msg = "beta", fmt.Sprintf("%g is not above alpha's default %g: set alpha below it", c.Beta, c.Alpha)
		}
		line := a.lineOf(key)
		if !a.has(key) {
			line = a.line
		}
		r.at(line, a.field(key), "%s", msg)
	}
}

// buildAgents puts the agents on their nodes and tells them about the
// TCP flows; it returns a warning for each agent no flow crosses.
func buildAgents(s *Scenario, net *network.Net, nodes map[string]*network.Node, flows []*tcp.Flow) ([]*alltcp.Agent, []string, error) {
	var agents []*alltcp.Agent
	var warnings []string
	ids := alltcp.NewIDs(int32(len(s.Flows)))
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.Agent == nil {
			continue
		}
		nd := nodes[n.Name]
		a, err := alltcp.New(net, nd, n.Agent.config(), ids)
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
