package alltcp

import (
	"github.com/tcplab/tcplab/agent"
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// Params are the agent's parameters as a scenario writes them
// (`agent: {type: alltcp, alpha: 0.5, beta: 0.8, predictor: farima}`),
// with Config's defaults.
type Params struct {
	Mode      Mode        `yaml:"mode"`       // adaptive, split, regulate, observe
	LongLived int         `yaml:"long_lived"` // packets after which a TCP flow is long-lived
	Interval  sim.Time    `yaml:"interval"`   // measurement interval of the traffic level
	Predictor string      `yaml:"predictor"`  // farima, arima, ewma, last
	Tau       int         `yaml:"tau"`        // forecast horizon, intervals
	History   int         `yaml:"history"`    // intervals a refit reads
	Refit     int         `yaml:"refit"`      // intervals between refits
	Alpha     *float64    `yaml:"alpha"`      // split below this predicted utilisation; nil: the default
	Beta      float64     `yaml:"beta"`       // regulate above this one
	MaxP      float64     `yaml:"max_p"`      // RED's drop probability at full utilisation
	Epsilon   float64     `yaml:"epsilon"`    // ε of the maximum prediction interval
	PEpsilon  float64     `yaml:"p_epsilon"`  // P_ε of the maximum prediction interval
	Buffer    units.Bytes `yaml:"buffer"`     // relay buffer per split flow
	GammaMax  float64     `yaml:"gamma_max"`  // upper bound of γ (eq. 9)
	MaxHold   sim.Time    `yaml:"max_hold"`   // longest an ACK is held for γ
	Compare   bool        `yaml:"compare_predictors"`
}

func init() {
	agent.Kinds.Register("alltcp", func() agent.Params {
		c := Config{}.Defaults()
		return &Params{Mode: c.Mode, LongLived: c.LongLived, Interval: c.Interval, Predictor: c.Predictor,
			Tau: c.Tau, History: c.History, Refit: c.Refit, Beta: c.Beta, MaxP: c.MaxP, Epsilon: c.Eps,
			PEpsilon: c.PEps, Buffer: units.Bytes(c.Buffer), GammaMax: c.GammaMax, MaxHold: c.MaxHold}
	})
}

// Config is the agent's configuration.
func (p *Params) Config() Config {
	alpha := Config{}.Defaults().Alpha
	if p.Alpha != nil {
		alpha = *p.Alpha
	}
	return Config{Mode: p.Mode, LongLived: p.LongLived, Interval: p.Interval, Predictor: p.Predictor,
		Tau: p.Tau, History: p.History, Refit: p.Refit, Alpha: alpha, Beta: p.Beta, MaxP: p.MaxP,
		Eps: p.Epsilon, PEps: p.PEpsilon, Buffer: int64(p.Buffer), GammaMax: p.GammaMax,
		MaxHold: p.MaxHold, Compare: p.Compare}
}

// Validate implements component.Params. A beta at or below alpha's
// default, with alpha not given, is named at beta.
func (p *Params) Validate() error {
	c := p.Config()
	err := c.Validate()
	if fe, ok := err.(*component.FieldError); ok && fe.Field == "alpha" && p.Alpha == nil {
		return component.Errorf("beta", "%g is not above alpha's default %g: set alpha below it", c.Beta, c.Alpha)
	}
	return err
}

// ids are a run's flow ids for the agents' own connections.
type ids struct{}

// New implements agent.Params.
func (p *Params) New(net *network.Net, node *network.Node, first int32) (agent.Agent, error) {
	shared := net.Shared(ids{}, func() any { return NewIDs(first) }).(*IDs)
	return New(net, node, p.Config(), shared)
}

// Counters implements agent.Agent.
func (a *Agent) Counters() any { return a.Stats }
