package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// VegasNS3 is ns-3.37's TcpVegas, which `profile: ns3, variant: vegas`
// runs. It is Vegas (vegas.go) in whole segments:
//
//   - the target window is truncated, targetCwnd = floor(W·BaseRTT/RTT),
//     and diff = W - targetCwnd an integer (vegas.go keeps the fraction,
//     so a diff of 1.9 is "below alpha = 2" there and 2 here);
//   - leaving slow start (diff > gamma) and the decrease in congestion
//     avoidance (diff > beta) set ssthresh = max(min(ssthresh, cwnd - 1
//     segment), 2 segments), then ssthresh >= 3/4 cwnd;
//   - a loss does the same (barely a reduction: loss_rule 1 of vegas.go);
//   - RTTs counted from ns-3's last sample on every ACK of new data, and
//     BaseRTT from the handshake's too (a SYN crosses slow links faster
//     than a data segment: on a 4-hop 1 Mbps chain Vegas then sees two
//     segments queued where there are none and stops growing at 32);
//   - Vegas is off, and NewReno grows the window, from a timeout until the
//     repair is over (ns-3's CA_LOSS), as in fast recovery; a duplicate
//     ACK (ns-3's CA_DISORDER) turns it off too, and the next new ACK
//     starts a fresh round.
type VegasNS3 struct {
	Vegas
	off      bool  // between a timeout and the end of its repair
	lossEnd  int64 // SND.MAX at the timeout
	disorder bool  // duplicate ACKs since the last new one
}

func init() {
	Register("vegas-ns3", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("vegas-ns3", params, map[string]float64{"alpha": 2, "beta": 4, "gamma": 1})
		if err != nil {
			return nil, err
		}
		if p["alpha"] > p["beta"] {
			return nil, ParamError("alpha", "must not exceed beta (%v > %v)", p["alpha"], p["beta"])
		}
		return &VegasNS3{Vegas: Vegas{Reno: Reno{name: "vegas-ns3"}, alpha: p["alpha"], beta: p["beta"], gamma: p["gamma"],
			lossRule: 1, baseRTT: sim.Never, minRTT: sim.Never}}, nil
	})
	RegisterProfileVariant("ns3", "vegas", "vegas-ns3")
}

// OnAck is TcpVegas's PktsAcked, then its IncreaseWindow.
func (v *VegasNS3) OnAck(s *State, a *AckEvent) {
	if v.off && a.Ack >= v.lossEnd || v.disorder {
		v.off, v.disorder = false, false
		v.newRound(s) // EnableVegas on returning to CA_OPEN
	}
	if v.baseRTT == sim.Never {
		// ns-3 counts the handshake's RTT too: a SYN, smaller than a
		// data segment, crosses slow links faster, and BaseRTT keeps it.
		v.baseRTT = s.MinRTT
	}
	if rtt := s.LastRTT; rtt > 0 {
		v.baseRTT = min(v.baseRTT, rtt)
		v.minRTT = min(v.minRTT, rtt)
		v.cntRTT++
	}
	switch {
	case v.off:
		RenoIncrease(s, a)
	case a.Ack >= v.begSndNxt:
		v.adjust(s, a)
		v.newRound(s)
	case s.InSlowStart():
		s.Cwnd += s.MSS
	}
}

// OnDupAck: ns-3 enters CA_DISORDER, which turns Vegas off.
func (v *VegasNS3) OnDupAck(s *State, _ *AckEvent) {
	if !s.InRecovery {
		v.disorder = true
	}
}

// OnRecoveryExit: back in CA_OPEN.
func (v *VegasNS3) OnRecoveryExit(s *State) {
	v.disorder = false
	v.newRound(s)
}

// adjust is the once-per-RTT decision.
func (v *VegasNS3) adjust(s *State, a *AckEvent) {
	if v.cntRTT <= 2 {
		RenoIncrease(s, a) // too few samples: NewReno
		return
	}
	w := math.Floor(s.Cwnd / s.MSS)
	target := math.Floor(w * v.baseRTT.Seconds() / v.minRTT.Seconds())
	diff := w - target
	switch {
	case diff > v.gamma && s.InSlowStart():
		s.Cwnd = min(w, target+1) * s.MSS
		s.Ssthresh = v.ns3Ssthresh(s)
	case s.InSlowStart():
		s.Cwnd += s.MSS
	case diff > v.beta:
		s.Cwnd = (w - 1) * s.MSS
		s.Ssthresh = v.ns3Ssthresh(s)
	case diff < v.alpha:
		s.Cwnd = (w + 1) * s.MSS
	}
	s.Ssthresh = max(s.Ssthresh, math.Floor(3*s.Cwnd/4))
}

// OnTimeout: ssthresh by ns-3's rule, one segment, Vegas off until the
// repair is over.
func (v *VegasNS3) OnTimeout(s *State) Response {
	s.Ssthresh = v.ns3Ssthresh(s)
	s.Cwnd = s.MSS
	v.off, v.lossEnd = true, s.High
	return Response{Class: Congestion}
}
