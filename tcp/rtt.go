package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// rttEstimator keeps SRTT and RTTVAR and computes the base RTO (before
// back-off). Two arithmetics are offered: RFC 6298 in floating point, and
// ns-2.35's fixed-point tick arithmetic, which the ns2 profile needs to
// reproduce ns-2's timeouts.
type rttEstimator struct {
	cfg     RTOConfig
	samples int64
	srtt    float64 // seconds (rfc6298)
	rttvar  float64
	// ns-2 state: t_srtt_ (<<3) and t_rttvar_ (<<2) in ticks.
	tSrtt, tRttvar int64
	minRTT         sim.Time
	lastRTT        sim.Time
	// boot is the phase of the sender's clock against the tick grid
	// (ns-2 draws boot_time_ uniformly in [0, tcpTick_) per agent).
	boot sim.Time
}

func (e *rttEstimator) init(c RTOConfig) {
	*e = rttEstimator{cfg: c, minRTT: sim.Never}
}

// sample feeds one RTT measurement (RFC 6298 §2.2-2.3). sentAt is when the
// timed segment left, for ns-2's tick alignment.
func (e *rttEstimator) sample(rtt, sentAt sim.Time) {
	if rtt < 0 {
		return
	}
	e.samples++
	e.lastRTT = rtt
	if rtt < e.minRTT {
		e.minRTT = rtt
	}
	if e.cfg.Policy == "ns2" {
		e.sampleNS2(rtt, sentAt)
		return
	}
	r := rtt.Seconds()
	if e.samples == 1 {
		e.srtt, e.rttvar = r, r/2
		return
	}
	// RTTVAR first, with the old SRTT (RFC 6298 §2.3).
	e.rttvar = (1-e.cfg.Beta)*e.rttvar + e.cfg.Beta*math.Abs(e.srtt-r)
	e.srtt = (1-e.cfg.Alpha)*e.srtt + e.cfg.Alpha*r
}

// sampleNS2 is ns-2.35 TcpAgent::rtt_update: the sample in whole ticks,
// aligned to the tick grid of the send time, then the integer filter with
// T_SRTT_BITS = 3 and T_RTTVAR_BITS = 2.
func (e *rttEstimator) sampleNS2(rtt, sentAt sim.Time) {
	g := e.cfg.Granularity
	tickoff := (sentAt + e.boot) % g
	t := int64((rtt + tickoff) / g)
	if t < 1 {
		t = 1
	}
	if e.tSrtt != 0 {
		delta := t - (e.tSrtt >> 3)
		if e.tSrtt += delta; e.tSrtt <= 0 {
			e.tSrtt = 1
		}
		if delta < 0 {
			delta = -delta
		}
		delta -= e.tRttvar >> 2
		if e.tRttvar += delta; e.tRttvar <= 0 {
			e.tRttvar = 1
		}
	} else {
		e.tSrtt = t << 3
		e.tRttvar = t << 1
	}
	e.srtt = float64(e.tSrtt) / 8 * g.Seconds()
	e.rttvar = float64(e.tRttvar) / 4 * g.Seconds()
}

// base is the RTO before back-off and before the min/max clamps.
func (e *rttEstimator) base() sim.Time {
	if e.samples == 0 {
		return e.cfg.Initial
	}
	if e.cfg.Policy == "ns2" {
		// t_rtxcur_ = ((t_rttvar_ << (rttvar_exp_ + 1)) + t_srtt_) >> 3 ticks:
		// SRTT + 4 RTTVAR, truncated to whole ticks.
		ticks := ((e.tRttvar << 3) + e.tSrtt) >> 3
		return sim.Time(ticks) * e.cfg.Granularity
	}
	v := e.cfg.K * e.rttvar
	if g := e.cfg.Granularity.Seconds(); v < g {
		v = g
	}
	return sim.FromSeconds(e.srtt + v)
}

// rto applies the back-off and the bounds. ns-2 (rfc2988_ on) clamps to
// minrto_ before the back-off; RFC 6298 §2.4-2.5 clamps the result.
func (e *rttEstimator) rto(backoff int) sim.Time {
	b := e.base()
	var r sim.Time
	if e.cfg.Policy == "ns2" {
		b = max(b, e.cfg.Min)
		r = b * sim.Time(backoff)
		if g2 := 2 * e.cfg.Granularity; r < g2 {
			r = g2
		}
	} else {
		r = max(b, e.cfg.Min) * sim.Time(backoff)
	}
	if r > e.cfg.Max {
		r = e.cfg.Max
	}
	return r
}

// backoff doubles the back-off multiplier after a timeout (RFC 6298
// §5.5) while the backed-off RTO is below the maximum. With the ns2 policy
// it also clobbers SRTT once the multiplier passes 8, folding it into
// RTTVAR, so the next sample restarts the estimator (ns-2.35
// TcpAgent::rtt_backoff; RFC 6298 §5 allows clearing the estimates after
// repeated back-offs).
func (e *rttEstimator) backoff(b int) int {
	if e.rto(b) < e.cfg.Max && b < 1<<20 {
		b *= 2
	}
	if e.cfg.Policy == "ns2" && b > 8 && e.tSrtt != 0 {
		e.tRttvar += e.tSrtt >> 3
		e.tSrtt = 0
		e.rttvar = float64(e.tRttvar) / 4 * e.cfg.Granularity.Seconds()
		e.srtt = 0
	}
	return b
}

// lateSample takes the RTT of a segment whose timeout was spurious (RFC
// 4015 §3 step 4): the estimator must cover at least that delay, so SRTT
// and RTTVAR grow to the sample and half of it if they were smaller.
func (e *rttEstimator) lateSample(rtt sim.Time) {
	r := rtt.Seconds()
	e.srtt = max(e.srtt, r)
	e.rttvar = max(e.rttvar, r/2)
	if e.cfg.Policy == "ns2" {
		t := int64(rtt / e.cfg.Granularity)
		e.tSrtt = max(e.tSrtt, t<<3)
		e.tRttvar = max(e.tRttvar, t<<1)
	}
	if e.samples == 0 {
		e.samples = 1
	}
}

// SRTT is the smoothed RTT.
func (e *rttEstimator) SRTT() sim.Time { return sim.FromSeconds(e.srtt) }
