package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// Veno is TCP Veno (Fu & Liew, IEEE JSAC 21(2), 2003): Reno whose loss
// response depends on the backlog N = Diff·BaseRTT (eq. 1-2 of the T-DLRP
// paper), the segments this flow has queued at the bottleneck. A loss with
// N < beta is judged random and cuts the window to 4/5 instead of 1/2; in
// congestion avoidance with N >= beta the window grows by one segment every
// other RTT instead of every RTT.
//
// As Linux's tcp_veno.c, RTT in eq. 2 is the smallest sample of the last
// round and N is refreshed once a round (ns-3 TcpVeno uses the last sample,
// the paper the smoothed RTT). The cut applies to the loss basis of the
// profile (bytes in flight as ns-3, cwnd as ns-2 and Linux).
//
// Params: beta (3 segments, Linux and ns-3).
type Veno struct {
	Reno
	beta float64

	baseRTT, minRTT sim.Time
	begSndNxt       int64
	n               float64 // backlog N in segments, from the last round
	ackedBytes      float64 // bytes acked toward the next "other RTT" step
	inc             bool    // this cwnd's worth of ACKs may add a segment
}

func init() {
	Register("veno", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("veno", params, map[string]float64{"beta": 3})
		if err != nil {
			return nil, err
		}
		return &Veno{Reno: Reno{name: "veno"}, beta: p["beta"], baseRTT: sim.Never, minRTT: sim.Never}, nil
	})
}

// Backlog is the latest N (eq. 1), in segments.
func (v *Veno) Backlog() float64 { return v.n }

// OnAck measures N once a round and grows the window.
func (v *Veno) OnAck(s *State, a *AckEvent) {
	if a.RTT > 0 {
		v.baseRTT = min(v.baseRTT, a.RTT)
		v.minRTT = min(v.minRTT, a.RTT)
	}
	if a.Ack >= v.begSndNxt && v.minRTT != sim.Never {
		// eq. 2: Expected = cwnd/BaseRTT, Actual = cwnd/RTT; eq. 1: N = (Expected - Actual)·BaseRTT.
		cwnd := s.Cwnd / s.MSS
		rtt, base := v.minRTT.Seconds(), v.baseRTT.Seconds()
		v.n = (cwnd/base - cwnd/rtt) * base
		v.begSndNxt, v.minRTT = s.Nxt, sim.Never
	}
	if s.InSlowStart() || v.n < v.beta {
		RenoIncrease(s, a) // not congested: Reno's one segment per RTT
		return
	}
	// Congestive state: one segment every other RTT (every other cwnd's
	// worth of acknowledged bytes, as Linux).
	v.ackedBytes += a.Acked
	if v.ackedBytes >= math.Floor(s.Cwnd/s.MSS)*s.MSS {
		v.ackedBytes = 0
		if v.inc {
			s.Cwnd += s.MSS
		}
		v.inc = !v.inc
	}
}

// OnLoss: N < beta is a random loss, cut to 4/5; otherwise congestion, 1/2.
func (v *Veno) OnLoss(s *State, _ *LossEvent) Response {
	if v.n < v.beta {
		w := s.ReducedWindow(0.8)
		s.Ssthresh, s.Cwnd = w, w
		return Response{Class: Wireless}
	}
	w := s.HalfWindow()
	s.Ssthresh, s.Cwnd = w, w
	return Response{Class: Congestion}
}
