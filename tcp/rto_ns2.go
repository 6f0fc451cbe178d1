package tcp

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// ns2RTO is ns-2.35's fixed-point tick arithmetic (TcpAgent::rtt_update,
// rtt_timeout, rtt_backoff), which the ns2 profile needs to reproduce
// ns-2's timeouts: samples in whole ticks aligned to a per-agent clock
// phase, t_srtt_ (<<3) and t_rttvar_ (<<2) in ticks, RTO = SRTT + 4·RTTVAR
// truncated to ticks, minrto_ applied before the back-off.
type ns2RTO struct {
	cfg            RTOConfig
	samples        int64
	tSrtt, tRttvar int64
	srtt, rttvar   float64 // seconds, for SRTT and LateSample
	// boot is the phase of the sender's clock against the tick grid
	// (ns-2 draws boot_time_ uniformly in [0, tcpTick_) per agent).
	boot sim.Time
}

func newNS2RTO(c RTOConfig, stream func(string) *rand.Rand) RTOPolicy {
	return &ns2RTO{cfg: c, boot: sim.Time(stream("clock").Int64N(int64(c.Granularity)))}
}

// Sample is rtt_update: the sample in whole ticks, aligned to the tick
// grid of the send time, then the integer filter with T_SRTT_BITS = 3 and
// T_RTTVAR_BITS = 2.
func (e *ns2RTO) Sample(rtt, sentAt sim.Time) {
	e.samples++
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

// RTO: t_rtxcur_ = ((t_rttvar_ << (rttvar_exp_ + 1)) + t_srtt_) >> 3
// ticks, at least minrto_ before the back-off (rfc2988_), at least two
// ticks after it.
func (e *ns2RTO) RTO(backoff int) sim.Time {
	b := e.cfg.Initial
	if e.samples > 0 {
		b = sim.Time(((e.tRttvar<<3)+e.tSrtt)>>3) * e.cfg.Granularity
	}
	r := max(b, e.cfg.Min) * sim.Time(backoff)
	if g2 := 2 * e.cfg.Granularity; r < g2 {
		r = g2
	}
	return min(r, e.cfg.Max)
}

// Backoff doubles the multiplier and, once it passes 8, clobbers SRTT,
// folding it into RTTVAR, so the next sample restarts the estimator
// (rtt_backoff; RFC 6298 §5 allows clearing the estimates after repeated
// back-offs).
func (e *ns2RTO) Backoff(b int) int {
	b = doubleBelowMax(e, b, e.cfg.Max)
	if b > 8 && e.tSrtt != 0 {
		e.tRttvar += e.tSrtt >> 3
		e.tSrtt = 0
		e.rttvar = float64(e.tRttvar) / 4 * e.cfg.Granularity.Seconds()
		e.srtt = 0
	}
	return b
}

// LateSample is RFC 4015 §3 step 4 in ticks.
func (e *ns2RTO) LateSample(rtt sim.Time) {
	r := rtt.Seconds()
	e.srtt = max(e.srtt, r)
	e.rttvar = max(e.rttvar, r/2)
	t := int64(rtt / e.cfg.Granularity)
	e.tSrtt = max(e.tSrtt, t<<3)
	e.tRttvar = max(e.tRttvar, t<<1)
	if e.samples == 0 {
		e.samples = 1
	}
}

func (e *ns2RTO) SRTT() sim.Time { return sim.FromSeconds(e.srtt) }
