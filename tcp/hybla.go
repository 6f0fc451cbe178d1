package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// Hybla is TCP Hybla (C. Caini & R. Firrincieli, "TCP Hybla: a TCP
// enhancement for heterogeneous networks", Int. J. Satellite Commun. and
// Networking 22, 2004): Reno whose growth is scaled so that a long-RTT
// flow opens its window as fast, in time, as one with the reference RTT
// RTT0. With rho = max(RTT/RTT0, 1):
//
//	slow start:            W += 2^rho - 1 per ACK      (eq. 6)
//	congestion avoidance:  W += rho^2 / W per segment  (eq. 6)
//
// As ns-3's TcpHybla: rho is recomputed from the minimum RTT (in whole
// milliseconds) whenever a sample equals it; slow start adds whole bytes
// per ACK up to ssthresh, and the segments the ACK covers beyond it go to
// congestion avoidance, which accumulates fractions and adds whole
// segments. Losses are Reno's.
//
// Params: rtt0 (reference RTT in seconds, 0.05 as ns-3 and Linux).
type Hybla struct {
	Reno
	rtt0 sim.Time
	rho  float64
	cnt  float64 // congestion-avoidance increments not yet whole segments
}

func init() {
	Register("hybla", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("hybla", params, map[string]float64{"rtt0": 0.05})
		if err != nil {
			return nil, err
		}
		if p["rtt0"] < 0.001 {
			return nil, ParamError("rtt0", "must be at least 1 ms, got %vs", p["rtt0"])
		}
		return &Hybla{Reno: Reno{name: "hybla"}, rtt0: sim.FromSeconds(p["rtt0"]), rho: 1}, nil
	})
}

// Rho is the current rho = RTT/RTT0.
func (h *Hybla) Rho() float64 { return h.rho }

// OnAck implements Variant.
func (h *Hybla) OnAck(s *State, a *AckEvent) {
	if a.RTT > 0 && a.RTT == s.MinRTT {
		h.rho = max(float64(s.MinRTT/sim.Millisecond)/float64(h.rtt0/sim.Millisecond), 1)
	}
	segs := max(int(a.Acked/s.MSS), 1)
	if s.InSlowStart() {
		inc := math.Floor((math.Exp2(h.rho) - 1) * s.MSS)
		s.Cwnd = min(s.Cwnd+inc, s.Ssthresh)
		segs--
	}
	if s.InSlowStart() {
		return
	}
	for ; segs > 0; segs-- {
		h.cnt += h.rho * h.rho / math.Floor(s.Cwnd/s.MSS)
	}
	if h.cnt >= 1 {
		whole := math.Floor(h.cnt)
		h.cnt -= whole
		s.Cwnd += whole * s.MSS
	}
}
