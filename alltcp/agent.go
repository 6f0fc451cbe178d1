// Package alltcp is the edge-router agent of ALL-TCP (Al Shinwan, Abualigah,
// Le, Kim & Khasawneh, "An intelligent long-lived TCP based on real-time
// traffic regulation", Multimedia Tools and Applications, 2020, §3): a
// middlebox that classifies the packets crossing its node, finds long-lived
// TCP flows, predicts the traffic level of its outgoing links, and either
// splits a long-lived flow into two TCP connections of its own (when the
// predicted level is below α) or slows it with a RED driven by the
// prediction (above β).
//
// The end hosts run unmodified TCP. The agent is transparent: its
// acknowledgements to the source carry the destination's address and the
// source's port, and the data it relays carries the source's. Splitting and
// unsplitting happen in the middle of a transfer (split.go) without losing or
// duplicating a byte.
package alltcp

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// Mode says what the agent does with the long-lived flows it finds.
type Mode string

// Modes. Adaptive is the paper's: split below α, regulate above β, keep
// the current treatment in between. The others fix one treatment, for
// experiments that isolate it.
const (
	Adaptive Mode = "adaptive"
	Split    Mode = "split"
	Regulate Mode = "regulate"
	Observe  Mode = "observe" // classify and predict, touch nothing
)

// Config sets up an agent. Zero fields take the defaults of Defaults.
type Config struct {
	Mode Mode
	// LongLived is the packet count above which a TCP flow is long-lived
	// (§3: "more than 30 packets").
	LongLived int
	// Interval is the measurement interval of the traffic level.
	Interval sim.Time
	// Predictor forecasts the level: farima (the paper's), arima, ewma or
	// last (the current level, a naive baseline).
	Predictor string
	// Tau is the forecast horizon in intervals (τ of §3.1).
	Tau int
	// History is how many intervals a refit reads; Refit how many
	// intervals pass between refits (refits never run per packet).
	History, Refit int
	// Alpha and Beta are the thresholds on the predicted level, a
	// utilisation of the busiest outgoing link in [0, 1]: split below α,
	// regulate above β (α < β).
	Alpha, Beta float64
	// MaxP is RED's drop probability as the predicted level reaches 1.
	MaxP float64
	// Eps and PEps are ε and P_ε of the maximum prediction interval
	// (eqs. 1-6).
	Eps, PEps float64
	// Buffer is the relay buffer of one split flow in bytes: what the
	// agent has acknowledged upstream and not yet had acknowledged
	// downstream, plus the receive window it advertises upstream.
	Buffer int64
	// GammaMax bounds γ (eq. 9): above it the agent holds the
	// acknowledgements of the faster upstream segment.
	GammaMax float64
	// MaxHold is the longest an acknowledgement is held for γ (0: never
	// held, γ is only measured).
	MaxHold sim.Time
	// Compare runs every predictor side by side on the level (the
	// chosen one still decides) and reports each one's error; off, only
	// the chosen one runs and is scored.
	Compare bool
}

// Defaults fills the zero fields of c.
func (c Config) Defaults() Config {
	if c.Mode == "" {
		c.Mode = Adaptive
	}
	if c.LongLived == 0 {
		c.LongLived = 30
	}
	if c.Interval == 0 {
		c.Interval = 100 * sim.Millisecond
	}
	if c.Predictor == "" {
		c.Predictor = "farima"
	}
	if c.Tau == 0 {
		c.Tau = 1
	}
	if c.History == 0 {
		c.History = 256
	}
	if c.Refit == 0 {
		c.Refit = 32
	}
	if c.Alpha == 0 && c.Beta == 0 {
		c.Alpha, c.Beta = 0.5, 0.8
	}
	if c.MaxP == 0 {
		c.MaxP = 0.1
	}
	if c.Eps == 0 {
		c.Eps = 0.2
	}
	if c.PEps == 0 {
		c.PEps = 0.05
	}
	if c.Buffer == 0 {
		c.Buffer = 64 << 10
	}
	if c.GammaMax == 0 {
		c.GammaMax = 2
	}
	if c.MaxHold == 0 {
		c.MaxHold = 50 * sim.Millisecond
	}
	return c // Compare stays as given: off unless asked
}

// Validate reports a setting the agent cannot work with; the field is
// named as in a scenario file.
func (c Config) Validate() error {
	switch c.Mode {
	case Adaptive, Split, Regulate, Observe:
	default:
		return component.Errorf("mode", "%q: want adaptive, split, regulate or observe", c.Mode)
	}
	if _, ok := predictors[c.Predictor]; !ok {
		return component.Errorf("predictor", "%q: want farima, arima, ewma or last", c.Predictor)
	}
	switch {
	case c.LongLived < 1:
		return component.Errorf("long_lived", "%d: want at least 1 packet", c.LongLived)
	case c.Interval <= 0:
		return component.Errorf("interval", "%s", "must be positive")
	case c.Tau < 1 || c.Tau > 100:
		return component.Errorf("tau", "%d: want 1 to 100 intervals", c.Tau)
	case c.History < 32:
		return component.Errorf("history", "%d: want at least 32 intervals (a fit needs them)", c.History)
	case c.Refit < 1:
		return component.Errorf("refit", "%d: want at least 1 interval", c.Refit)
	case !(c.Alpha >= 0 && c.Alpha < c.Beta):
		return component.Errorf("alpha", "%g is not below beta %g: the agent would split and regulate at once", c.Alpha, c.Beta)
	case !(c.Beta <= 1):
		return component.Errorf("beta", "%g: a utilisation, want at most 1", c.Beta)
	case !(c.MaxP > 0 && c.MaxP <= 1):
		return component.Errorf("max_p", "%g: want a probability in (0, 1]", c.MaxP)
	case !(c.Eps > 0 && c.Eps < 1):
		return component.Errorf("epsilon", "%g: want ε in (0, 1) (eq. 1)", c.Eps)
	case !(c.PEps > 0 && c.PEps < 0.5):
		return component.Errorf("p_epsilon", "%g: want P_ε in (0, 0.5) (eq. 6)", c.PEps)
	case c.Buffer < 2*1500:
		return component.Errorf("buffer", "%d bytes: want at least two segments", c.Buffer)
	case !(c.GammaMax >= 1):
		return component.Errorf("gamma_max", "%g: want at least 1 (eq. 9)", c.GammaMax)
	case c.MaxHold < 0:
		return component.Errorf("max_hold", "%s", "must not be negative")
	}
	return nil
}

// Stats count what an agent did; the JSON names are those of a run's
// result.
type Stats struct {
	TCPPackets int64 `json:"tcp_packets"` // TCP packets that crossed the agent
	UDPPackets int64 `json:"udp_packets"`
	Flows      int   `json:"flows"`      // TCP flows seen
	LongLived  int   `json:"long_lived"` // flows classified long-lived
	Splits     int   `json:"splits"`     // times a flow was split
	Unsplits   int   `json:"unsplits"`   // times a split flow went back to end to end
	Relayed    int64 `json:"relayed_bytes"`
	// Regulated counts the packets RED dropped: of long-lived flows (only
	// the one with the largest B(t+τ), eq. 7) and of the others.
	RegulatedLong  int64 `json:"regulated_long"`
	RegulatedOther int64 `json:"regulated_other"`
	// BufferMax is the largest relay buffer of one flow; BufferTotalMax
	// the largest sum over flows (the agent's data memory).
	BufferMax      int64 `json:"buffer_max_bytes"`
	BufferTotalMax int64 `json:"buffer_total_max_bytes"`
	// Window updates sent upstream as the buffer drained, and segments
	// refused beyond the advertised window (back-pressure at work).
	WindowUpdates int64 `json:"window_updates"`
	// AcksHeld counts upstream acknowledgements delayed to keep γ ≤
	// GammaMax (eq. 9); GammaLow, GammaIn, GammaHigh the intervals in
	// which a split flow's γ was below 1, in [1, GammaMax], above it.
	AcksHeld  int64   `json:"acks_held"`
	GammaLow  int64   `json:"gamma_low"`
	GammaIn   int64   `json:"gamma_in"`
	GammaHigh int64   `json:"gamma_high"`
	GammaMean float64 `json:"gamma_mean"`
	// The traffic level and its forecast.
	Intervals     int64   `json:"intervals"`
	Refits        int64   `json:"refits"`
	LevelMean     float64 `json:"level_mean"`
	IntervalsLow  int64   `json:"intervals_below_alpha"` // predicted level below α
	IntervalsHigh int64   `json:"intervals_above_beta"`  // above β
	// MPI is the maximum prediction interval (eq. 6) of the last FARIMA
	// fit, in intervals (-1: no fit yet).
	MPI int `json:"mpi"`
	// Errors of the predictor's τ-step forecasts of the level (of every
	// predictor with Config.Compare; Config.Predictor drives the
	// decisions).
	Forecast map[string]ForecastError `json:"forecast"`
	// MemoryBytes is the agent's bookkeeping per tracked flow.
	MemoryPerFlow int `json:"memory_per_flow_bytes"`
}

// Agent is ALL-TCP's layer on one node (network.Middlebox).
type Agent struct {
	Stats Stats

	cfg   Config
	net   *network.Net
	node  *network.Node
	rng   *rand.Rand
	known map[int32]*tcp.Flow // the connections the agent may proxy, by flow id
	flows []*conn             // per flow id, created at the first packet
	level *level
	tick  sim.Timer
	// The flow RED slows when regulating (largest B(t+τ), eq. 7).
	target    *conn
	predicted float64
	gammaSum  float64
	ids       *IDs
}

// IDs hands out flow ids to the agents' own connections, above those of a
// run's flows; agents of one run share it.
type IDs struct{ next int32 }

// NewIDs starts the ids at first.
func NewIDs(first int32) *IDs { return &IDs{next: first} }

// New puts an agent on node. Its own connections take their flow ids from
// ids.
//
// cfg is taken as it is: Defaults fills a partial one (zero is a setting
// of its own for some fields, as MaxHold).
func New(net *network.Net, node *network.Node, cfg Config, ids *IDs) (*Agent, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &Agent{cfg: cfg, net: net, node: node, known: map[int32]*tcp.Flow{},
		rng: net.Stream("alltcp/" + node.Name), ids: ids}
	a.level = newLevel(cfg, node)
	a.Stats.MPI = -1
	a.Stats.MemoryPerFlow = connBytes
	node.Hook = a
	a.tick.Init(net.Sched, a.onTick)
	a.tick.Arm(cfg.Interval)
	return a, nil
}

// Watch tells the agent about a TCP connection whose packets may cross
// it: the ports, nodes and settings a real proxy reads from the packets'
// headers and options.
func (a *Agent) Watch(f *tcp.Flow) { a.known[f.ID] = f }

// Node is where the agent sits.
func (a *Agent) Node() *network.Node { return a.node }

// Config is the agent's configuration with defaults applied.
func (a *Agent) Config() Config { return a.cfg }

// Intercept implements network.Middlebox: the per-packet path.
func (a *Agent) Intercept(at *network.Node, p *network.Packet, from *network.Link) bool {
	if p.Proto != network.TCP {
		a.Stats.UDPPackets++
		return a.regulate(p, nil)
	}
	a.Stats.TCPPackets++
	c := a.conn(p.Flow)
	if c == nil {
		return a.regulate(p, nil)
	}
	if p.Port == c.dataPort {
		return c.onData(p)
	}
	if p.Port == c.ackPort {
		return c.onAck(p)
	}
	return false
}

// conn returns the state of flow id, making it at its first packet (nil:
// a flow the agent was not told about).
func (a *Agent) conn(id int32) *conn {
	if int(id) < len(a.flows) && a.flows[id] != nil {
		return a.flows[id]
	}
	f := a.known[id]
	if f == nil || id < 0 || f.Src == a.node || f.Dst == a.node {
		return nil // unknown, or an end of the flow: nothing to split
	}
	for int(id) >= len(a.flows) {
		a.flows = append(a.flows, nil)
	}
	c := newConn(a, f)
	a.flows[id] = c
	a.Stats.Flows++
	return c
}

// onTick closes a measurement interval: measure, forecast, decide.
func (a *Agent) onTick() {
	now := a.net.Now()
	a.predicted = a.level.observe(now, &a.Stats)
	switch {
	case a.predicted < a.cfg.Alpha:
		a.Stats.IntervalsLow++
	case a.predicted > a.cfg.Beta:
		a.Stats.IntervalsHigh++
	}
	a.target = nil
	best := -1.0
	var total int64
	for _, c := range a.flows {
		if c == nil || !c.long {
			continue
		}
		c.decide()
		if b := c.expectedBuffer(); b > best {
			best, a.target = b, c
		}
		total += c.buffered()
		c.noteGamma()
		c.inBytes, c.outBytes = 0, 0
	}
	a.Stats.BufferTotalMax = max(a.Stats.BufferTotalMax, total)
	if n := a.Stats.GammaLow + a.Stats.GammaIn + a.Stats.GammaHigh; n > 0 {
		a.Stats.GammaMean = a.gammaSum / float64(n)
	}
	a.tick.Arm(now + a.cfg.Interval)
}

// regulating reports whether the predicted level calls for RED.
func (a *Agent) regulating() bool {
	return (a.cfg.Mode == Adaptive || a.cfg.Mode == Regulate) && a.predicted > a.cfg.Beta
}

// regulate is §3.2's RED with the average queue replaced by the predicted
// level: between β and 1 the drop probability rises linearly to MaxP. UDP
// and short flows see it as plain RED; among long-lived flows only the
// one with the largest expected buffered data (eq. 7) is slowed. It
// reports whether it took (dropped) the packet.
func (a *Agent) regulate(p *network.Packet, c *conn) bool {
	if !a.regulating() || !p.IsData() {
		return false
	}
	pb := a.cfg.MaxP * min((a.predicted-a.cfg.Beta)/(1-a.cfg.Beta), 1)
	if c != nil && c.long && c != a.target {
		return false
	}
	if a.rng.Float64() >= pb {
		return false
	}
	if c != nil && c.long {
		a.Stats.RegulatedLong++
	} else {
		a.Stats.RegulatedOther++
	}
	a.net.Drop(p, network.AQMDrop, nil)
	return true
}

// newID is a flow id for one of the agent's own connections.
func (a *Agent) newID() int32 {
	id := a.ids.next
	a.ids.next++
	return id
}
