package tcp

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// linuxRTO is Linux's retransmission timeout (tcp_rtt_estimator and
// __tcp_set_rto in net/ipv4/tcp_input.c): Jacobson's estimator, with the
// minimum applied to the variance term rather than to the timeout, so that
// RTO = SRTT + max(4·mdev, rto_min) is at least SRTT + 200 ms. RFC 6298
// (rfc6298) gives max(SRTT + 4·RTTVAR, min): on a path whose RTT hardly
// varies (a paced sender over a standing queue) that is SRTT plus a few
// milliseconds, and a retransmission that waits behind the queue times out
// where Linux's would not. Also as Linux: a sample below SRTT moves the
// deviation by an eighth as much; the largest deviation of each round trip
// (mdev_max, at least rto_min) feeds rttvar, which decays towards it by a
// quarter once a round.
type linuxRTO struct {
	cfg     RTOConfig
	has     bool
	srtt    float64  // seconds
	mdev    float64  // 4 × the mean deviation (Linux's mdev_us)
	mdevMax float64  // the round's largest mdev, at least rto_min
	rttvar  float64  // the variance term of the timeout
	round   sim.Time // when the round began: an ACK of a segment sent later ends it
}

func init() {
	RegisterRTOPolicy("linux", func(c RTOConfig, _ func(string) *rand.Rand) RTOPolicy { return &linuxRTO{cfg: c} })
}

// Sample implements RTOPolicy.
func (e *linuxRTO) Sample(rtt, sentAt sim.Time) {
	m, floor := rtt.Seconds(), e.cfg.Min.Seconds()
	if !e.has {
		e.has = true
		e.srtt, e.mdev = m, 2*m
		e.rttvar = max(e.mdev, floor)
		e.mdevMax = e.rttvar
		e.round = sentAt + rtt
		return
	}
	err := m - e.srtt
	e.srtt += err / 8
	var d float64
	if err < 0 {
		if d = -err - e.mdev/4; d > 0 {
			d /= 8 // a sample below SRTT counts an eighth as much
		}
	} else {
		d = err - e.mdev/4
	}
	e.mdev += d
	if e.mdev > e.mdevMax {
		e.mdevMax = e.mdev
		e.rttvar = max(e.rttvar, e.mdevMax)
	}
	// Once a round trip: a segment sent after the round began is
	// acknowledged (Linux: snd_una passes rtt_seq).
	if sentAt > e.round {
		if e.mdevMax < e.rttvar {
			e.rttvar -= (e.rttvar - e.mdevMax) / 4
		}
		e.round = sentAt + rtt
		e.mdevMax = floor
	}
}

func (e *linuxRTO) base() sim.Time {
	if !e.has {
		return e.cfg.Initial
	}
	return sim.FromSeconds(e.srtt + e.rttvar)
}

// UnclampedRTO is the backed-off timeout without rto_min: SRTT plus the
// current deviation term (4 × the mean deviation, RFC 6298's K·RTTVAR),
// so rto_min_cost_seconds is what Linux's floor on the variance costs.
func (e *linuxRTO) UnclampedRTO(backoff int) sim.Time {
	if !e.has {
		return min(e.cfg.Initial*sim.Time(backoff), e.cfg.Max)
	}
	v := max(e.mdev, e.cfg.Granularity.Seconds())
	return min(sim.FromSeconds(e.srtt+v)*sim.Time(backoff), e.cfg.Max)
}

// RTO implements RTOPolicy: backed off, at most Max.
func (e *linuxRTO) RTO(backoff int) sim.Time { return min(e.base()*sim.Time(backoff), e.cfg.Max) }

// Backoff implements RTOPolicy.
func (e *linuxRTO) Backoff(b int) int { return doubleBelowMax(e, b, e.cfg.Max) }

// LateSample implements RTOPolicy as rfc6298 does (RFC 4015 §3 step 4).
func (e *linuxRTO) LateSample(rtt sim.Time) {
	r := rtt.Seconds()
	e.srtt = max(e.srtt, r)
	e.rttvar = max(e.rttvar, r/2, e.cfg.Min.Seconds())
	e.has = true
}

// SRTT implements RTOPolicy.
func (e *linuxRTO) SRTT() sim.Time { return sim.FromSeconds(e.srtt) }
