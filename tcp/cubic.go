package tcp

import (
	"maps"
	"math"

	"github.com/tcplab/tcplab/sim"
)

// Cubic is CUBIC (RFC 9438) with Linux's defaults: the window follows
// W_cubic(t) = C·(t - K)³ + W_max (§4.2), a cubic in the time since the last
// reduction that plateaus at the window of the last loss, W_max; a loss
// multiplies the window by beta (§4.6); fast convergence (§4.7) lowers W_max
// when losses come below it; the Reno-friendly region (§4.3) keeps CUBIC at
// least as fast as Reno at small BDPs. Slow start adds one segment per
// segment acknowledged (no HyStart: RFC 9438 §4.10 leaves it optional).
//
// Windows are in segments inside, t in seconds. As Linux and ns-3 (and as
// RFC 9438 §4.6 allows), a loss multiplies cwnd, not the flight size, in
// whole segments.
//
// Params: c (0.4), beta (0.7), fast_convergence (1), tcp_friendliness (1).
type Cubic struct {
	Reno
	c, beta            float64
	fastConv, friendly bool

	wMax      float64  // window before the last reduction, after fast convergence
	cwndPrior float64  // cwnd before the last reduction (§4.3)
	epoch     sim.Time // start of the current congestion-avoidance stage
	inEpoch   bool
	k         float64 // seconds to return to W_max (eq. 2)
	origin    float64 // the plateau: W_max, or cwnd if above it
	wEst      float64 // Reno-friendly estimate (eq. 4)
	timedOut  bool    // no ACK since the last timeout
}

func init() {
	Register("cubic", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := cubicParams("cubic", params, map[string]float64{"tcp_friendliness": 1})
		if err != nil {
			return nil, err
		}
		return &Cubic{Reno: Reno{name: "cubic"}, c: p["c"], beta: p["beta"],
			fastConv: p["fast_convergence"] != 0, friendly: p["tcp_friendliness"] != 0}, nil
	})
}

// cubicParams merges params over CUBIC's defaults (C 0.4, beta 0.7 and
// fast convergence on, RFC 9438 §4.6, 4.5, 4.7) plus extra, and checks C
// and beta.
func cubicParams(name string, params, extra map[string]float64) (map[string]float64, error) {
	defaults := map[string]float64{"c": 0.4, "beta": 0.7, "fast_convergence": 1}
	maps.Copy(defaults, extra)
	p, err := variantParams(name, params, defaults)
	if err != nil {
		return nil, err
	}
	if p["c"] <= 0 {
		return nil, ParamError("c", "must be positive, got %v", p["c"])
	}
	if p["beta"] <= 0 || p["beta"] >= 1 {
		return nil, ParamError("beta", "must be in (0, 1), got %v", p["beta"])
	}
	return p, nil
}

// wCubic is eq. 1: the cubic window t seconds into the epoch.
func (c *Cubic) wCubic(t float64) float64 { return c.c*math.Pow(t-c.k, 3) + c.origin }

// OnDupAck implements Variant.
func (c *Cubic) OnDupAck(*State, *AckEvent) { c.timedOut = false }

// OnAck implements Variant.
func (c *Cubic) OnAck(s *State, a *AckEvent) {
	c.timedOut = false
	if s.InSlowStart() {
		// One segment per segment acknowledged, as Linux's tcp_slow_start
		// (Reno's engine default is one per ACK), and no further than
		// ssthresh: an ACK that covers a repaired hole (after a timeout,
		// a hundred segments at once) must not take cwnd past it (RFC
		// 5681 §3.1; Linux caps it there too).
		s.Cwnd = min(s.Cwnd+max(math.Floor(a.Acked/s.MSS), 1)*s.MSS, s.Ssthresh)
		return
	}
	cwnd := s.Cwnd / s.MSS
	if !c.inEpoch {
		// §4.2 and §4.8: the stage starts now; K = 0 after a timeout
		// (W_max = 0) or when the window is already past W_max.
		c.inEpoch, c.epoch, c.wEst = true, s.Now, cwnd
		c.k, c.origin = 0, cwnd
		if cwnd < c.wMax {
			c.k, c.origin = math.Cbrt((c.wMax-cwnd)/c.c), c.wMax
		}
	}
	t := (s.Now - c.epoch).Seconds()
	// §4.3: Reno's AIMD with the same average rate, eq. 4, alpha = 1 once
	// W_est reaches the window of the last reduction.
	alpha := 3 * (1 - c.beta) / (1 + c.beta)
	if c.wEst >= c.cwndPrior {
		alpha = 1
	}
	c.wEst += alpha * (a.Acked / s.MSS) / cwnd
	if c.friendly && c.wCubic(t) < c.wEst {
		s.Cwnd = max(s.Cwnd, c.wEst*s.MSS)
		return
	}
	// §4.4-4.5: aim at W_cubic one RTT ahead, within [cwnd, 1.5 cwnd].
	target := min(max(c.wCubic(t+s.SRTT.Seconds()), cwnd), 1.5*cwnd)
	grow := (target - cwnd) / cwnd
	if c.wMax == 0 {
		// With no W_max yet (at start, after a timeout) the cubic is too
		// flat; Linux (bictcp_update) and ns-3 let cwnd grow at least one
		// segment per 20 ACKs (about 5% per RTT).
		grow = max(grow, 1.0/20)
	}
	if s.growth.ByteCounting {
		// Counting what is acknowledged, not ACKs: Linux's
		// tcp_cong_avoid_ai(tp, ca->cnt, acked) grows by acked/cnt
		// segments, so delayed ACKs do not halve the growth.
		grow *= max(a.Acked/s.MSS, 1)
	}
	s.Cwnd += grow * s.MSS
}

// reduce is §4.6-4.7: remember W_max (lowered by fast convergence) and the
// new ssthresh.
func (c *Cubic) reduce(s *State) float64 {
	cwnd := s.Cwnd / s.MSS
	c.cwndPrior = cwnd
	if c.fastConv && cwnd < c.wMax {
		c.wMax = cwnd * (1 + c.beta) / 2 // the flows around us are growing: make room
	} else {
		c.wMax = cwnd
	}
	c.inEpoch = false
	// ssthresh = beta·cwnd in whole segments, as Linux (bictcp_recalc_ssthresh)
	// and ns-3 (TcpCubic::GetSsThresh, which ignores the flight size) count.
	return max(math.Floor(math.Floor(cwnd)*c.beta), 2) * s.MSS
}

// OnLoss implements Variant.
func (c *Cubic) OnLoss(s *State, _ *LossEvent) Response {
	s.Ssthresh = c.reduce(s)
	s.Cwnd = s.Ssthresh
	return Response{Class: Congestion}
}

// OnTimeout: ssthresh as for a loss, cwnd one segment, and the next stage
// starts with K = 0 from the window then (§4.8; Linux resets W_max). A
// timeout with no ACK since the previous one (the backed-off retransmission
// timed out too) keeps ssthresh, as Linux (tcp_enter_loss) and ns-3 do.
func (c *Cubic) OnTimeout(s *State) Response {
	ss := s.Ssthresh
	if !c.timedOut {
		ss = c.reduce(s)
	}
	c.wMax, c.inEpoch, c.timedOut = 0, false, true
	s.Ssthresh, s.Cwnd = ss, s.MSS
	return Response{Class: Congestion}
}
