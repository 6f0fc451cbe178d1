package tcp

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// adminrto is the Adaptive Minimum RTO (Psaras & Tsaoussidis, "On the
// properties of an adaptive TCP Minimum RTO", Computer Communications 2009,
// §3). Its outline survives; the rest is rebuilt from the prose:
//
// The minimum RTO exists for two reasons (§1): coarse clocks, which modern
// systems no longer have, and the receiver's delayed ACKs, which may hold
// an ACK back for up to its timer. AdMINRTO keeps RFC 6298's estimate and
// gives each wait its own minimum: when the ACK awaited may be delayed
// (fewer than two full segments outstanding, so no second segment makes
// the receiver acknowledge at once: a lone segment, or the odd one at the
// end of a flight), the timeout is the estimate plus min, min covering
// the delayed-ACK timer (rto.min: the longest timer to cover, 200 ms by
// default, Windows' and the RFC 1122 maximum's common value); otherwise
// there is no minimum beyond the clock granularity G.
//
// The choice of estimate + min rather than min alone is ours: the delayed
// ACK leaves the receiver up to min after the segment arrived, one RTT
// after it was sent, so a floor of min alone would still fire early on
// any path with an RTT, and SRTT + min would race the ACK exactly. The paper's "assign a minimum RTO to each outgoing packet"
// is implemented at each arming of the (single, RFC 6298 §5) timer, which
// waits for the oldest outstanding segment.
type adminrto struct {
	rfc6298
}

func newAdMINRTO(c RTOConfig, _ func(string) *rand.Rand) RTOPolicy {
	return &adminrto{rfc6298{cfg: c}}
}

func init() { RegisterRTOPolicy("adminrto", newAdMINRTO) }

// RTOFor implements SegmentRTO.
func (a *adminrto) RTOFor(backoff int, mayBeDelayed bool) sim.Time {
	base := a.base()
	if mayBeDelayed && a.samples > 0 {
		base += a.cfg.Min
	}
	return min(base*sim.Time(backoff), a.cfg.Max)
}

// RTO is the conservative form (the ACK may be delayed), for callers that
// do not say.
func (a *adminrto) RTO(backoff int) sim.Time { return a.RTOFor(backoff, true) }

// Backoff doubles while below the maximum.
func (a *adminrto) Backoff(b int) int { return doubleBelowMax(a, b, a.cfg.Max) }
