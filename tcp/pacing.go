package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// Pacing releases a sender's segments at a rate instead of as fast as ACKs
// open the window: a burst (quantum) of segments leaves back to back, and
// the next may start once the bytes sent, at the pacing rate, have had
// their time (Linux's internal pacing, tcp_internal_pacing, which times an
// skb of several segments; fq's per-flow time_next_packet; ns-3.37's
// m_pacingTimer, one segment at a time). One timer per flow, re-armed in
// place, sends what was held back.

// PacingConfig is the sender's pacing.
type PacingConfig struct {
	// Enabled paces at State.PacingRate. A variant that sets its own rate
	// (RateController: BBR) paces whatever this says, as BBR needs.
	Enabled bool `yaml:"pacing"`
	// SSRatio and CARatio set the rate, in percent of cwnd per smoothed
	// RTT, of a variant that sets none: SSRatio while cwnd is below half of
	// ssthresh, CARatio after (Linux's tcp_pacing_ss_ratio 200 and
	// tcp_pacing_ca_ratio 120; ns-3.37's PacingSsRatio, PacingCaRatio).
	SSRatio float64 `yaml:"pacing_ss_ratio"`
	CARatio float64 `yaml:"pacing_ca_ratio"`
	// Quantum is the segments released back to back at each step: 0 sizes
	// the burst from the rate as Linux's TSO autosizing (tcp_tso_autosize:
	// 1 ms worth of the pacing rate, at least 2 segments, at most 64 KB);
	// 1 paces every segment (ns-3.37).
	Quantum int `yaml:"pacing_quantum"`
}

// pacer is a flow's pacing state.
type pacer struct {
	timer sim.Timer
	start sim.Time // when the current burst started
	next  sim.Time // when the next burst may start
	left  int      // segments the current burst may still send
	burst int64    // bytes the current burst has sent
}

// autosizeBytes is Linux's cap on a TSO burst (GSO_MAX_SIZE less headers,
// about 64 KB), and autosizeShift its 1 ms of the pacing rate
// (sk_pacing_shift 10: rate >> 10 is 1/1024 s).
const (
	autosizeBytes = 65536 - 1 - 320
	autosizeShift = 10
	minTSOSegs    = 2 // sysctl_tcp_min_tso_segs
)

// PacingQuantum is Linux's burst at a pacing rate in bytes per second for
// segments of mss bytes (tcp_tso_autosize): the bytes of 1/1024 s, capped,
// in whole segments, at least minSegs.
func PacingQuantum(rate, mss float64, minSegs int) int {
	bytes := min(rate/(1<<autosizeShift), autosizeBytes)
	return max(int(bytes/mss), minSegs)
}

// quantum is the burst the sender releases at its current rate.
func (s *Sender) quantum() int {
	if q := s.cfg.Pacing.Quantum; q > 0 {
		return q
	}
	return PacingQuantum(s.PacingRate, s.State.MSS, minTSOSegs)
}

// paceReady reports whether a segment may leave now; if not, the pacing
// timer is armed for when one may. Without a rate nothing is held. A burst
// is what leaves at one instant: one that stops early (the window closed)
// is over, and the next waits for the bytes it did send.
func (s *Sender) paceReady() bool {
	p := s.pace
	if p == nil || s.PacingRate <= 0 {
		return true
	}
	now := s.net.Now()
	switch {
	case now >= p.next:
		p.start, p.left, p.burst = now, s.quantum(), 0
		return true
	case p.left > 0 && now == p.start:
		return true
	}
	p.timer.Arm(p.next)
	return false
}

// paced accounts a segment of size payload bytes sent under pacing (the
// rate is in payload bytes, as the delivery rate BBR paces at: Linux
// scales its rate to the IP MTU and charges the bytes on the wire, so the
// two agree but for the link header, its ~1% implicit margin):
// the next burst may start once the current one's bytes have had their
// time at the pacing rate.
func (s *Sender) paced(size int32) {
	p := s.pace
	if p == nil || s.PacingRate <= 0 {
		return
	}
	if now := s.net.Now(); now >= p.next {
		// Sent without asking the pacer (a fast retransmit, a timeout's
		// retransmission) when no burst was under way: it starts one, as
		// ns-3.37's SendDataPacket arms its idle pacing timer and Linux
		// moves its departure clock for every segment.
		p.start, p.left, p.burst = now, s.quantum(), 0
	}
	if p.left <= 0 {
		return
	}
	p.left--
	p.burst += int64(size)
	p.next = p.start + sim.FromSeconds(float64(p.burst)/s.PacingRate)
}

// onPacingTimer sends what pacing held back.
func (s *Sender) onPacingTimer() {
	s.Now = s.net.Now()
	s.trySend()
}

// updatePacingRate sets the pacing rate of a variant that sets none
// (Linux's tcp_update_pacing_rate): ratio × max(cwnd, in flight) / SRTT,
// the ratio SSRatio in the first half of slow start, else CARatio.
func (s *Sender) updatePacingRate() {
	if s.ctl != nil || s.pace == nil || s.SRTT <= 0 {
		return
	}
	ratio := s.cfg.Pacing.CARatio
	if s.Cwnd < s.Ssthresh/2 {
		ratio = s.cfg.Pacing.SSRatio
	}
	w := max(s.Cwnd, float64(s.High-s.Una))
	s.PacingRate = ratio / 100 * w / s.SRTT.Seconds()
	if math.IsInf(s.PacingRate, 0) {
		s.PacingRate = 0
	}
}
