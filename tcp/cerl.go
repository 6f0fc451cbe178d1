package tcp

import "github.com/tcplab/tcplab/sim"

// CERL is TCP CERL (H. El-Ocla, "TCP CERL: congestion control enhancement
// over wireless networks", Wireless Networks 16, 2010): Reno that estimates
// the bottleneck queue from RTTs, l = (RTT - T)·B (eq. 3), T the smallest
// RTT, and judges a loss by three duplicate ACKs random while l < N =
// A·l_max (eq. 4), l_max the largest l seen. A random loss is only
// retransmitted: cwnd and ssthresh stay (the window is restored when the
// recovery ends, whatever the engine's exit rule did to it). l is
// refreshed by every RTT sample.
//
// B, the bottleneck bandwidth, scales l and N alike, so for a fixed
// bottleneck it cancels in l < N; it is a param only to report l in bytes.
//
// Params: a (0.55, eq. 4), bandwidth (B in bit/s; 0: l in seconds).
type CERL struct {
	Reno
	a, b float64

	t       sim.Time // T: smallest RTT
	l, lMax float64
	kept    float64 // cwnd to restore when this recovery ends (0: none)
}

func init() {
	Register("cerl", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("cerl", params, map[string]float64{"a": 0.55, "bandwidth": 0})
		if err != nil {
			return nil, err
		}
		b := p["bandwidth"] / 8
		if b == 0 {
			b = 1
		}
		return &CERL{Reno: Reno{name: "cerl"}, a: p["a"], b: b, t: sim.Never}, nil
	})
}

// QueueEstimate is the latest l (eq. 3) and its threshold N (eq. 4).
func (c *CERL) QueueEstimate() (l, n float64) { return c.l, c.a * c.lMax }

// OnAck implements Variant.
func (c *CERL) OnAck(s *State, a *AckEvent) {
	if a.RTT > 0 {
		c.t = min(c.t, a.RTT)
		c.l = (a.RTT - c.t).Seconds() * c.b // eq. 3
		c.lMax = max(c.lMax, c.l)
	}
	RenoIncrease(s, a)
}

// OnLoss implements Variant.
func (c *CERL) OnLoss(s *State, l *LossEvent) Response {
	c.kept = 0
	if !l.ECN && c.l < c.a*c.lMax { // eq. 4
		c.kept = s.Cwnd
		return Response{Class: Wireless}
	}
	return c.Reno.OnLoss(s, l)
}

// OnRecoveryExit restores the window a random loss kept.
func (c *CERL) OnRecoveryExit(s *State) {
	if c.kept > 0 {
		s.Cwnd, c.kept = c.kept, 0
	}
}
