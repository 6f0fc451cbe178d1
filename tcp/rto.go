package tcp

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tcplab/tcplab/sim"
)

// RTOPolicy turns RTT samples into the retransmission timeout. The engine
// owns the timer, Karn's rule and the back-off count; a policy owns the
// estimator and the arithmetic. Two are built in, rfc6298 (below) and
// ns2 (rto_ns2.go); RegisterRTOPolicy adds more.
type RTOPolicy interface {
	// Sample feeds one RTT measurement of a segment sent at sentAt.
	Sample(rtt, sentAt sim.Time)
	// RTO is the timeout with back-off multiplier backoff (1, 2, 4, ...),
	// bounds applied.
	RTO(backoff int) sim.Time
	// Backoff is the multiplier after one more expiry (RFC 6298 §5.5).
	Backoff(backoff int) int
	// LateSample takes the RTT of a segment whose timeout was spurious
	// (RFC 4015 §3 step 4): the estimator must cover at least that delay.
	LateSample(rtt sim.Time)
	// SRTT is the smoothed RTT (0 before any sample).
	SRTT() sim.Time
}

// SegmentRTO is implemented by policies whose minimum depends on the ACK
// the timer waits for (AdMINRTO, rto_adminrto.go). The engine calls
// RTOFor instead of RTO whenever it arms the timer, saying whether that
// ACK may be held back by the receiver's delayed-ACK timer: fewer than two
// full segments are outstanding, so no second segment will make the
// receiver acknowledge at once (RFC 1122 §4.2.3.2, RFC 5681 §4.2).
type SegmentRTO interface {
	RTOFor(backoff int, mayBeDelayed bool) sim.Time
}

// Unclamped is implemented by policies that can tell the timeout they
// would give without their minimum; the difference, at each expiry, is
// what the minimum cost the sender (rto_min_cost_seconds: the cost
// function of Psaras & Tsaoussidis's AdMINRTO paper, §2).
type Unclamped interface {
	UnclampedRTO(backoff int) sim.Time
}

var rtoPolicies = map[string]func(c RTOConfig, stream func(name string) *rand.Rand) RTOPolicy{
	"rfc6298": func(c RTOConfig, _ func(string) *rand.Rand) RTOPolicy { return &rfc6298{cfg: c} },
	"ns2":     newNS2RTO,
}

// RegisterRTOPolicy adds an RTO policy under name (rto.policy in a
// scenario). make builds one per flow from the flow's rto settings;
// stream gives it named random streams of its own.
func RegisterRTOPolicy(name string, make func(c RTOConfig, stream func(name string) *rand.Rand) RTOPolicy) {
	rtoPolicies[name] = make
}

// RTOPolicyNames lists the registered RTO policies.
func RTOPolicyNames() []string { return slices.Sorted(maps.Keys(rtoPolicies)) }

// rfc6298 is RFC 6298 in floating point: RTO = SRTT + max(G, K·RTTVAR),
// clamped to [min, max] after the back-off.
type rfc6298 struct {
	cfg          RTOConfig
	samples      int64
	srtt, rttvar float64 // seconds
}

// Sample is RFC 6298 §2.2-2.3.
func (e *rfc6298) Sample(rtt, _ sim.Time) {
	e.samples++
	r := rtt.Seconds()
	if e.samples == 1 {
		e.srtt, e.rttvar = r, r/2
		return
	}
	// RTTVAR first, with the old SRTT (RFC 6298 §2.3).
	e.rttvar = (1-e.cfg.Beta)*e.rttvar + e.cfg.Beta*math.Abs(e.srtt-r)
	e.srtt = (1-e.cfg.Alpha)*e.srtt + e.cfg.Alpha*r
}

func (e *rfc6298) base() sim.Time {
	if e.samples == 0 {
		return e.cfg.Initial
	}
	v := e.cfg.K * e.rttvar
	if g := e.cfg.Granularity.Seconds(); v < g {
		v = g
	}
	return sim.FromSeconds(e.srtt + v)
}

// UnclampedRTO is the backed-off timeout without the minimum.
func (e *rfc6298) UnclampedRTO(backoff int) sim.Time {
	return min(e.base()*sim.Time(backoff), e.cfg.Max)
}

// RTO clamps the backed-off timeout (RFC 6298 §2.4-2.5).
func (e *rfc6298) RTO(backoff int) sim.Time {
	return min(max(e.base(), e.cfg.Min)*sim.Time(backoff), e.cfg.Max)
}

// Backoff doubles the multiplier while the backed-off RTO is below the
// maximum.
func (e *rfc6298) Backoff(b int) int { return doubleBelowMax(e, b, e.cfg.Max) }

func doubleBelowMax(p RTOPolicy, b int, maxRTO sim.Time) int {
	if p.RTO(b) < maxRTO && b < 1<<20 {
		b *= 2
	}
	return b
}

// LateSample grows SRTT and RTTVAR to the sample and half of it if they
// were smaller (RFC 4015 §3 step 4).
func (e *rfc6298) LateSample(rtt sim.Time) {
	r := rtt.Seconds()
	e.srtt = max(e.srtt, r)
	e.rttvar = max(e.rttvar, r/2)
	if e.samples == 0 {
		e.samples = 1
	}
}

func (e *rfc6298) SRTT() sim.Time { return sim.FromSeconds(e.srtt) }
