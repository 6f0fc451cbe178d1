package tcp

import (
	"github.com/tcplab/tcplab/sim"
)

// Vegas is TCP Vegas (Brakmo & Peterson, SIGCOMM 1994) in the structure of
// Linux's tcp_vegas.c and ns-3's TcpVegas: once per RTT it compares the
// window with the one the minimum RTT would need and moves cwnd by one
// segment to keep between Alpha and Beta segments queued in the network.
// BaseRTT is the smallest RTT seen on the connection.
//
// Params: alpha (2), beta (4), gamma (1) in segments (Linux and ns-3
// defaults; ns-2's Agent/TCP/Vegas uses 1, 3, 1), and loss_rule: what a loss
// does to ssthresh: 0 halves it (Reno, as Linux), 1 is ns-3.37 TcpVegas
// (max(min(ssthresh, cwnd - 1 segment), 2 segments): barely a reduction),
// 2 is Brakmo's and ns-2's 3/4 of the window.
//
// Needs an RTT sample on every ACK (rtt_sampling every_ack or timestamps;
// CheckConfig says so).
type Vegas struct {
	Reno
	alpha, beta, gamma float64
	lossRule           int

	baseRTT   sim.Time // minimum RTT of the connection
	minRTT    sim.Time // minimum RTT in this round
	cntRTT    int      // samples in this round
	begSndNxt int64    // the round ends when this is acknowledged
}

func init() {
	Register("vegas", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("vegas", params, map[string]float64{"alpha": 2, "beta": 4, "gamma": 1, "loss_rule": 0})
		if err != nil {
			return nil, err
		}
		if p["alpha"] > p["beta"] {
			return nil, ParamError("alpha", "must not exceed beta (%v > %v)", p["alpha"], p["beta"])
		}
		if r := p["loss_rule"]; r != 0 && r != 1 && r != 2 {
			return nil, ParamError("loss_rule", "must be 0, 1 or 2, got %v", r)
		}
		return &Vegas{Reno: Reno{name: "vegas"}, alpha: p["alpha"], beta: p["beta"], gamma: p["gamma"],
			lossRule: int(p["loss_rule"]), baseRTT: sim.Never, minRTT: sim.Never}, nil
	})
}

// CheckConfig implements ConfigChecker.
func (v *Vegas) CheckConfig(c *Config, bad func(field, format string, a ...any)) {
	if c.Timer.RTTSampling == SampleTimed {
		// One timed segment per RTT leaves Vegas Reno forever (it needs 3
		// samples a round); ns-2's Vegas times every segment itself.
		bad("rtt_sampling", "variant vegas needs an RTT sample on every ACK: rtt_sampling every_ack or timestamps")
	}
}

// Init implements Variant.
func (v *Vegas) Init(s *State) { v.newRound(s) }

// newRound starts a measurement round (Linux vegas_enable; ns-3 EnableVegas).
func (v *Vegas) newRound(s *State) {
	v.begSndNxt = s.Nxt
	v.cntRTT = 0
	v.minRTT = sim.Never
}

// OnAck adjusts cwnd once per RTT (when the ACK covers what was sent at the
// start of the round); between adjustments only slow start grows it.
func (v *Vegas) OnAck(s *State, a *AckEvent) {
	if a.RTT > 0 {
		v.baseRTT = min(v.baseRTT, a.RTT)
		v.minRTT = min(v.minRTT, a.RTT)
		v.cntRTT++
	}
	if a.Ack < v.begSndNxt { // ns-3 ends the round at >=, Linux at >
		if s.InSlowStart() {
			RenoIncrease(s, a)
		}
		return
	}
	// At most 2 samples may all come from delayed ACKs: act as Reno.
	if v.cntRTT <= 2 {
		RenoIncrease(s, a)
		v.newRound(s)
		return
	}
	mss := s.MSS
	cwnd := float64(int64(s.Cwnd / mss)) // whole segments, as Linux and ns-3
	// Diff = (Expected - Actual)·BaseRTT = cwnd·(RTT - BaseRTT)/RTT, the
	// segments queued (Brakmo & Peterson; ns-3; Linux divides by BaseRTT).
	rtt, base := v.minRTT.Seconds(), v.baseRTT.Seconds()
	diff := cwnd * (rtt - base) / rtt
	target := cwnd * base / rtt
	switch {
	case s.InSlowStart() && diff > v.gamma:
		// Too fast for slow start: drop to the target and leave it.
		s.Cwnd = min(cwnd, float64(int64(target))+1) * mss
		s.Ssthresh = min(s.Ssthresh, s.Cwnd)
	case s.InSlowStart():
		RenoIncrease(s, a)
	case diff > v.beta:
		s.Cwnd = (cwnd - 1) * mss
		s.Ssthresh = min(s.Ssthresh, s.Cwnd)
	case diff < v.alpha:
		s.Cwnd = (cwnd + 1) * mss
	}
	s.Cwnd = max(s.Cwnd, 2*mss)
	// Linux tcp_current_ssthresh, ns-3: ssthresh at least 3/4 cwnd, so a
	// later slow start returns near the current window.
	s.Ssthresh = max(s.Ssthresh, 0.75*s.Cwnd)
	v.newRound(s)
}

// OnLoss applies loss_rule.
func (v *Vegas) OnLoss(s *State, l *LossEvent) Response {
	switch v.lossRule {
	case 1:
		s.Ssthresh = v.ns3Ssthresh(s)
		s.Cwnd = s.Ssthresh
		return Response{Class: Congestion}
	case 2:
		s.Ssthresh = s.ReducedWindow(0.75)
		s.Cwnd = s.Ssthresh
		return Response{Class: Congestion}
	}
	return v.Reno.OnLoss(s, l)
}

func (v *Vegas) ns3Ssthresh(s *State) float64 {
	return max(min(s.Ssthresh, s.Cwnd-s.MSS), 2*s.MSS)
}

// OnRecoveryExit restarts the rounds (Vegas is off during recovery).
func (v *Vegas) OnRecoveryExit(s *State) { v.newRound(s) }

// OnTimeout restarts from one segment; the first round ends once what was
// outstanding is acknowledged (ns-3 re-enables Vegas on leaving CA_LOSS).
func (v *Vegas) OnTimeout(s *State) Response {
	ss := v.ns3Ssthresh(s) // from the window before the timeout
	r := v.Reno.OnTimeout(s)
	if v.lossRule == 1 {
		s.Ssthresh = ss
	}
	v.newRound(s)
	v.begSndNxt = s.High
	return r
}
