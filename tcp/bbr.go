package tcp

import (
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// BBR is BBR v1 (N. Cardwell, Y. Cheng, C. S. Gunn, S. Hassas Yeganeh,
// V. Jacobson, "BBR: Congestion-Based Congestion Control", ACM Queue 14(5),
// 2016) as Linux 4.9's tcp_bbr.c runs it: a model of the path (the
// bottleneck bandwidth, a windowed maximum of the delivery rate over 10
// round trips, and the round-trip propagation time, a 10 s windowed
// minimum of the RTT) sets the pacing rate to gain × bandwidth and cwnd to
// gain × bandwidth × min RTT plus room for three bursts. A loss does not
// cut the model: the window keeps its size through recovery (packet
// conservation in the first round), which is why BBR does not read random
// loss as congestion.
//
//	Startup   pacing and cwnd gain 2/ln 2 until the bandwidth grew by less
//	          than 25% in 3 rounds
//	Drain     pacing gain ln 2/2 until in flight ≤ one BDP
//	ProbeBW   pacing gains 5/4, 3/4, 1 ×6 (cycle of eight min RTTs, random
//	          start phase but 3/4), cwnd gain 2
//	ProbeRTT  cwnd 4 segments for 200 ms and a round trip, when the min RTT
//	          has not been refreshed for 10 s
//
// Linux's long-term bandwidth ("policer") detection runs too: over 4 to 16
// round trips with at least 20% loss (50/256), two intervals of a like rate
// pin the bandwidth to their mean, with gain 1, for 48 round trips.
//
// The engine gives it a rate sample per ACK (rate.go) and paces at its
// rate (pacing.go); windows are counted in whole segments, as Linux's.
// Params: none.
type BBR struct {
	Reno
	ns3 bool // ns-3.37's TcpBbr where it differs (bbr-ns3)
	rnd *rand.Rand

	highGain, drainGain float64
	// ns-3.37's ACK-aggregation estimate (bbr-ns3 only): the bytes
	// acknowledged in the current epoch and the largest excess of two
	// windows of 5 round trips.
	ackEpochAcked  int64
	extraAcked     [2]int64
	extraIdx       int
	extraWinRTTs   int
	lastRate       float64 // ns-3.37's sticky delivery rate
	lastAppLimited bool

	mode                 bbrMode
	bw                   maxFilter // bytes per second, over round trips
	minRTT               sim.Time  // sim.Never before a sample
	minRTTStamp          sim.Time
	rttCnt               int64 // round trips counted
	nextRTTDelivered     int64
	roundStart           bool
	pacingGain, cwndGain float64
	cycleIdx             int
	cycleStamp           sim.Time
	fullBW               float64
	fullBWCnt            int
	priorCwnd            float64 // segments
	packetConservation   bool
	restoreCwnd          bool
	prevState            bbrCAState
	lossEnd              int64 // the timeout's recover point: Loss until SND.UNA reaches it
	inLoss               bool
	probeRTTDone         sim.Time // 0: not yet timed
	probeRTTRoundDone    bool
	hasSeenRTT           bool
	tsoGoal              int

	// Long-term bandwidth sampling (bbr_lt_bw_sampling).
	ltIsSampling, ltUseBW bool
	ltBW                  float64
	ltRTTCnt              int
	ltLastStamp           sim.Time
	ltLastDelivered       int64
	ltLastLost            int64
	lost                  int64 // bytes judged lost, from the rate samples
	delivered             int64 // bytes delivered, from the rate samples
}

type bbrMode uint8

const (
	bbrStartup bbrMode = iota
	bbrDrain
	bbrProbeBW
	bbrProbeRTT
)

// The congestion states BBR tells apart (Linux's TCP_CA_*).
type bbrCAState uint8

const (
	caOpen bbrCAState = iota
	caRecovery
	caLoss
)

// Linux's constants in its fixed point (BBR_UNIT 256), so that the gains
// are Linux's to the last bit: 2/ln 2 is 739/256, its inverse 88/256.
const (
	bbrHighGain        = 739.0 / 256
	bbrDrainGain       = 88.0 / 256
	bbrCwndGain        = 2.0
	bbrCycleLen        = 8
	bbrBWRTTs          = bbrCycleLen + 2 // bandwidth filter window, round trips
	bbrMinRTTWin       = 10 * sim.Second
	bbrProbeRTTTime    = 200 * sim.Millisecond
	bbrCwndMinTarget   = 4
	bbrFullBWThresh    = 320.0 / 256 // 5/4
	bbrFullBWCnt       = 3
	bbrMinTSORate      = 1200000.0 / 8 // bytes per second
	bbrLtIntvlMinRTTs  = 4
	bbrLtLossThresh    = 50.0 / 256
	bbrLtBWRatio       = 1.0 / 8
	bbrLtBWDiff        = 4000.0 // bytes per second
	bbrLtBWMaxRTTs     = 48
	bbrInitCwnd        = 10 // TCP_INIT_CWND
	bbrDefaultRTTGuess = sim.Millisecond
)

var bbrPacingGain = [bbrCycleLen]float64{320.0 / 256, 192.0 / 256, 1, 1, 1, 1, 1, 1}

func init() {
	for _, name := range []string{"bbr", "bbr-ns3"} {
		Register(name, "newreno", func(params map[string]float64) (Variant, error) {
			if _, err := variantParams(name, params, nil); err != nil {
				return nil, err
			}
			b := &BBR{Reno: Reno{name: name}, ns3: name == "bbr-ns3"}
			b.highGain, b.drainGain = bbrHighGain, bbrDrainGain
			if b.ns3 {
				b.highGain, b.drainGain = 2.89, 1/2.89
			}
			return b, nil
		})
	}
	RegisterProfileVariant("ns3", "bbr", "bbr-ns3")
}

// UseRand implements Randomized: the gain cycle's start phase.
func (b *BBR) UseRand(r *rand.Rand) { b.rnd = r }

// Mode names the state the model is in, for traces.
func (b *BBR) Mode() string {
	return [...]string{"startup", "drain", "probe_bw", "probe_rtt"}[b.mode]
}

// Init implements Variant (bbr_init).
func (b *BBR) Init(s *State) {
	b.minRTT, b.minRTTStamp = sim.Never, s.Now
	if s.MinRTT != sim.Never {
		b.minRTT = s.MinRTT
	}
	b.bw.reset(0, 0)
	b.ltReset(s)
	b.resetStartup()
	b.initPacingRate(s)
}

// initPacingRate is high gain × cwnd / RTT, the RTT guessed at 1 ms before
// any sample (bbr_init_pacing_rate_from_rtt).
func (b *BBR) initPacingRate(s *State) {
	rtt := bbrDefaultRTTGuess
	if s.SRTT > 0 {
		rtt, b.hasSeenRTT = s.SRTT, true
	}
	if b.ns3 {
		// ns-3.37: the RTT in whole milliseconds, and the bandwidth
		// filter starts from this nominal rate once an RTT is known.
		// Before that it starts from nothing: ns-3 runs Init when the
		// socket is created, while its window is still 0 (TcpBbr's
		// InitPacingRate from TcpSocketBase's constructor), so the
		// guessed rate of the first window never enters the filter, and
		// Startup paces from the first RTT's rate, not from the guess.
		if s.SRTT > 0 {
			rtt = max(s.SRTT/sim.Millisecond*sim.Millisecond, sim.Millisecond)
		}
		nominal := s.Cwnd / rtt.Seconds()
		if s.SRTT > 0 {
			b.bw.reset(0, nominal)
		} else {
			b.bw.reset(0, 0)
		}
		s.PacingRate = b.pacingGain * nominal
		return
	}
	s.PacingRate = b.highGain * s.Cwnd / rtt.Seconds()
}

func (b *BBR) resetStartup() {
	b.mode, b.pacingGain, b.cwndGain = bbrStartup, b.highGain, b.highGain
}

func (b *BBR) resetProbeBW(s *State) {
	b.mode, b.pacingGain, b.cwndGain = bbrProbeBW, 1, bbrCwndGain
	r, n := 0, bbrCycleLen-1
	if b.ns3 {
		n-- // ns-3.37 draws from 0..5: never phase 2 either
	}
	if b.rnd != nil {
		r = b.rnd.IntN(n)
	}
	// Any phase but the 3/4 one (index 1): draining first would waste a
	// cycle's bandwidth probing.
	b.cycleIdx = bbrCycleLen - 1 - r
	b.advanceCycle(s)
}

func (b *BBR) resetMode(s *State) {
	if b.fullBWReached() {
		b.resetProbeBW(s)
	} else {
		b.resetStartup()
	}
}

func (b *BBR) fullBWReached() bool { return b.fullBWCnt >= bbrFullBWCnt }

// bandwidth is the model's bottleneck bandwidth in bytes per second.
func (b *BBR) bandwidth() float64 {
	if b.ltUseBW {
		return b.ltBW
	}
	return b.bw.get()
}

// state is the connection's congestion state as Linux names it.
func (b *BBR) state(s *State) bbrCAState {
	if b.inLoss && s.Una >= b.lossEnd {
		b.inLoss = false
	}
	switch {
	case b.inLoss:
		return caLoss
	case s.InRecovery:
		return caRecovery
	}
	return caOpen
}

// OnAck implements Variant: BBR sets its window in OnRateSample.
func (b *BBR) OnAck(*State, *AckEvent) {}

// OnDupAck implements Variant.
func (b *BBR) OnDupAck(*State, *AckEvent) {}

// OnDupAckInRecovery implements Variant.
func (b *BBR) OnDupAckInRecovery(*State, *AckEvent) Response { return Response{} }

// OnRecoveryExit implements Variant: the window is restored in OnRateSample.
func (b *BBR) OnRecoveryExit(*State) {}

// OnLoss implements Variant (bbr_ssthresh): remember the window to come
// back to; BBR keeps no slow-start threshold.
func (b *BBR) OnLoss(s *State, l *LossEvent) Response {
	b.saveCwnd(s)
	if b.ns3 {
		// ns-3.37's CongestionStateSet(CA_RECOVERY): packet conservation
		// from the bytes in flight plus one segment; its GetSsThresh
		// returns ssthresh unchanged.
		s.Cwnd = s.Flight() + s.MSS
		b.prevState = caRecovery
		b.saveCwnd(s)
		b.packetConservation = true
		return Response{Class: Congestion}
	}
	s.Ssthresh = math.MaxFloat64
	return Response{Class: Congestion}
}

// OnTimeout implements Variant: Linux's tcp_enter_loss leaves cwnd at what
// is in flight plus one, one segment once everything is marked lost;
// BBR's bbr_set_state forgets the full-bandwidth estimate and counts the
// timeout as a loss round.
func (b *BBR) OnTimeout(s *State) Response {
	b.saveCwnd(s)
	s.Cwnd = s.MSS
	if b.ns3 {
		// ns-3.37: no restore on leaving CA_LOSS, the full-bandwidth
		// estimate kept.
		b.saveCwnd(s)
		b.packetConservation = false
		return Response{Class: Congestion}
	}
	s.Ssthresh = math.MaxFloat64
	b.prevState = caLoss
	b.inLoss, b.lossEnd = true, s.High
	b.fullBW, b.roundStart = 0, true
	b.lost += int64(s.MSS)
	b.ltSampling(s, &RateSample{Losses: int64(s.MSS)})
	return Response{Class: Congestion}
}

// saveCwnd keeps the window to restore after recovery or ProbeRTT
// (bbr_save_cwnd).
func (b *BBR) saveCwnd(s *State) {
	w := math.Floor(s.Cwnd / s.MSS)
	if b.prevState < caRecovery && b.mode != bbrProbeRTT {
		b.priorCwnd = w
	} else {
		b.priorCwnd = max(b.priorCwnd, w)
	}
}

// OnRateSample implements RateController (bbr_main).
func (b *BBR) OnRateSample(s *State, rs *RateSample) {
	b.lost += rs.Losses
	b.delivered = rs.TotalDelivered
	b.updateModel(s, rs)
	b.setPacingRate(s, b.bandwidth(), b.pacingGain)
	b.setTSOGoal(s)
	b.setCwnd(s, rs, b.bandwidth(), b.cwndGain)
}

func (b *BBR) updateModel(s *State, rs *RateSample) {
	b.updateBW(s, rs)
	b.updateCyclePhase(s, rs)
	b.checkFullBWReached(rs)
	b.checkDrain(s, rs)
	b.updateMinRTT(s, rs)
}

// updateBW counts round trips by the delivered count and feeds the
// bandwidth filter (bbr_update_bw). An app-limited sample only raises it.
func (b *BBR) updateBW(s *State, rs *RateSample) {
	b.roundStart = false
	if b.ns3 {
		b.updateBWNS3(s, rs)
		return
	}
	if rs.Interval <= 0 || rs.Delivered <= 0 {
		return
	}
	if rs.PriorDelivered >= b.nextRTTDelivered {
		b.nextRTTDelivered = rs.TotalDelivered
		b.rttCnt++
		b.roundStart = true
		b.packetConservation = false
	}
	b.ltSampling(s, rs)
	bw := rs.DeliveryRate
	if !rs.AppLimited || bw >= b.bw.get() {
		b.bw.update(bbrBWRTTs, b.rttCnt, bw)
	}
}

// updateBWNS3 is ns-3.37's UpdateBtlBw: its rate sample keeps the last
// valid delivery rate, which it feeds to the filter again on ACKs whose
// own sample is not valid; only before the first one is nothing done.
func (b *BBR) updateBWNS3(s *State, rs *RateSample) {
	if rs.DeliveryRate > 0 {
		b.lastRate, b.lastAppLimited = rs.DeliveryRate, rs.AppLimited
	}
	if b.lastRate == 0 {
		return
	}
	if rs.PriorDelivered >= b.nextRTTDelivered && rs.PriorDelivered > 0 {
		b.nextRTTDelivered = rs.TotalDelivered
		b.rttCnt++
		b.roundStart = true
		b.packetConservation = false
	}
	if b.lastRate >= b.bw.get() || !b.lastAppLimited {
		b.bw.update(bbrBWRTTs, b.rttCnt, b.lastRate)
	}
	b.ackAggregation(s, rs)
}

// ackAggregation is ns-3.37's UpdateAckAggregation: its expected
// delivery over an epoch is counted in whole seconds, so is 0 for any
// epoch below one, and an epoch ends once 4096 bytes are acknowledged;
// what it adds to the target is then the bytes of the epoch so far, at
// most cwnd, the larger of two windows of 5 round trips.
func (b *BBR) ackAggregation(s *State, rs *RateSample) {
	if rs.Acked <= 0 {
		return
	}
	if b.roundStart {
		if b.extraWinRTTs = min(b.extraWinRTTs+1, 31); b.extraWinRTTs >= 5 {
			b.extraWinRTTs = 0
			b.extraIdx ^= 1
			b.extraAcked[b.extraIdx] = 0
		}
	}
	if b.ackEpochAcked <= 0 || b.ackEpochAcked+rs.Acked >= 4096 {
		b.ackEpochAcked = 0
	}
	b.ackEpochAcked += rs.Acked
	extra := min(b.ackEpochAcked, int64(s.Cwnd))
	b.extraAcked[b.extraIdx] = max(b.extraAcked[b.extraIdx], extra)
}

// updateCyclePhase moves ProbeBW's gain cycle on (bbr_is_next_cycle_phase):
// a phase lasts a min RTT, the 5/4 phase until it also fills its inflated
// target (or a loss), the 3/4 phase ending early once in flight is one BDP.
func (b *BBR) updateCyclePhase(s *State, rs *RateSample) {
	if b.mode != bbrProbeBW || b.ltUseBW {
		return
	}
	full := s.Now-b.cycleStamp > b.minRTT
	next := full
	inflight := float64(rs.PriorInFlight) / s.MSS
	switch {
	case b.pacingGain > 1:
		next = full && (rs.Losses > 0 || inflight >= b.target(s, b.bw.get(), b.pacingGain))
	case b.pacingGain < 1:
		next = full || inflight <= b.target(s, b.bw.get(), 1)
	}
	if next {
		b.advanceCycle(s)
	}
}

func (b *BBR) advanceCycle(s *State) {
	b.cycleIdx = (b.cycleIdx + 1) % bbrCycleLen
	b.cycleStamp = s.Now
	b.pacingGain = bbrPacingGain[b.cycleIdx]
}

// checkFullBWReached ends Startup when three rounds in a row raised the
// bandwidth by less than 25% (bbr_check_full_bw_reached).
func (b *BBR) checkFullBWReached(rs *RateSample) {
	if b.fullBWReached() || !b.roundStart || rs.AppLimited {
		return
	}
	if bw := b.bw.get(); bw >= b.fullBW*bbrFullBWThresh {
		b.fullBW, b.fullBWCnt = bw, 0
		return
	}
	b.fullBWCnt++
}

func (b *BBR) checkDrain(s *State, rs *RateSample) {
	if b.mode == bbrStartup && b.fullBWReached() {
		b.mode, b.pacingGain, b.cwndGain = bbrDrain, b.drainGain, b.highGain
		if b.ns3 {
			s.Ssthresh = b.inflightNS3(s, b.bw.get(), 1) // ns-3.37's EnterDrain
		}
	}
	if b.mode == bbrDrain && float64(rs.InFlight)/s.MSS <= b.target(s, b.bw.get(), 1) {
		b.resetProbeBW(s)
	}
}

// updateMinRTT keeps the 10 s minimum RTT and runs ProbeRTT when it
// expires (bbr_update_min_rtt).
func (b *BBR) updateMinRTT(s *State, rs *RateSample) {
	expired := s.Now > b.minRTTStamp+bbrMinRTTWin
	rtt := rs.RTT
	if b.ns3 {
		rtt = s.SRTT // ns-3.37 filters the smoothed RTT, not the samples
	}
	if rtt > 0 && (rtt <= b.minRTT || expired) {
		b.minRTT, b.minRTTStamp = rtt, s.Now
	}
	if expired && b.mode != bbrProbeRTT {
		b.mode, b.pacingGain, b.cwndGain = bbrProbeRTT, 1, 1
		b.saveCwnd(s)
		b.probeRTTDone = 0
	}
	if b.mode != bbrProbeRTT {
		return
	}
	flight := float64(rs.InFlight) / s.MSS
	switch {
	case b.probeRTTDone == 0 && flight <= bbrCwndMinTarget:
		b.probeRTTDone = s.Now + bbrProbeRTTTime
		b.probeRTTRoundDone = false
		b.nextRTTDelivered = rs.TotalDelivered
	case b.probeRTTDone != 0:
		if b.roundStart {
			b.probeRTTRoundDone = true
		}
		if b.probeRTTRoundDone && s.Now > b.probeRTTDone {
			b.minRTTStamp = s.Now
			b.restoreCwnd = true
			b.resetMode(s)
		}
	}
}

// setPacingRate paces at gain × bandwidth; in Startup the rate only rises
// (bbr_set_pacing_rate, 4.9). The rate set from the initial window with a
// 1 ms RTT guess is set again from the first RTT sample (Linux 4.13's
// has_seen_rtt; 4.9 set it once, when the handshake had measured the RTT).
func (b *BBR) setPacingRate(s *State, bw, gain float64) {
	rate := gain * bw
	if !b.hasSeenRTT && s.SRTT > 0 {
		b.initPacingRate(s)
	}
	if b.ns3 && b.fullBWReached() || !b.ns3 && b.mode != bbrStartup || rate > s.PacingRate {
		s.PacingRate = rate
	}
}

// setTSOGoal is the burst BBR plans for: Linux's TSO autosizing at the
// pacing rate, one segment allowed below 1.2 Mbit/s (bbr_set_tso_segs_goal).
func (b *BBR) setTSOGoal(s *State) {
	minSegs := 2
	if s.PacingRate < bbrMinTSORate {
		minSegs = 1
	}
	b.tsoGoal = min(PacingQuantum(s.PacingRate, s.MSS, minSegs), 127)
}

// targetCwnd is gain × BDP in segments, rounded up, plus three bursts,
// rounded up to even (bbr_target_cwnd); the initial window before any RTT.
func (b *BBR) targetCwnd(s *State, bw, gain float64) int {
	if b.minRTT == sim.Never {
		return bbrInitCwnd
	}
	w := int(math.Ceil(bw * b.minRTT.Seconds() * gain / s.MSS))
	w += 3 * b.tsoGoal
	return (w + 1) &^ 1
}

// target is the cwnd target in segments as the flavour computes it:
// Linux's whole, even segments, or ns-3.37's InFlight in bytes.
func (b *BBR) target(s *State, bw, gain float64) float64 {
	if b.ns3 {
		return b.inflightNS3(s, bw, gain) / s.MSS
	}
	return float64(b.targetCwnd(s, bw, gain))
}

// inflightNS3 is ns-3.37's InFlight in bytes: gain × BDP plus three
// segments (its send quantum is one segment), two more in ProbeBW's 5/4
// phase; no rounding.
func (b *BBR) inflightNS3(s *State, bw, gain float64) float64 {
	if b.minRTT == sim.Never {
		return bbrInitCwnd * s.MSS
	}
	w := math.Floor(gain*bw*b.minRTT.Seconds() + 3*s.MSS)
	if b.mode == bbrProbeBW && b.cycleIdx == 0 {
		w += 2 * s.MSS
	}
	return w
}

// setCwndNS3 is ns-3.37's SetCwnd, in bytes: in recovery the losses come
// off and packet conservation holds until the next round starts; the
// target adds the ACK-aggregation allowance once the pipe is full.
func (b *BBR) setCwndNS3(s *State, rs *RateSample, bw, gain float64) {
	b.prevState = caOpen
	if s.InRecovery {
		b.prevState = caRecovery // what SaveCwnd reads as CA_RECOVERY
	}
	if rs.Acked > 0 {
		cwnd := s.Cwnd
		acked := float64(rs.Acked)
		conserve := false
		if s.InRecovery {
			if rs.Losses > 0 {
				cwnd = max(cwnd-float64(rs.Losses), s.MSS)
			}
			if b.packetConservation {
				cwnd = max(cwnd, float64(rs.InFlight)+acked)
				conserve = true
			}
		}
		if !conserve {
			target := b.inflightNS3(s, bw, gain)
			if b.fullBWReached() {
				target += min(float64(max(b.extraAcked[0], b.extraAcked[1])), bw*0.1)
				cwnd = min(cwnd+acked, target)
			} else if cwnd < target || float64(rs.TotalDelivered) < bbrInitCwnd*s.MSS {
				cwnd += acked
			}
			cwnd = max(cwnd, bbrCwndMinTarget*s.MSS)
		}
		s.Cwnd = cwnd
	}
	if b.mode == bbrProbeRTT {
		s.Cwnd = min(s.Cwnd, bbrCwndMinTarget*s.MSS)
	}
}

// setCwnd grows cwnd by what was delivered toward the target, keeps it
// through recovery (packet conservation in its first round) and restores
// it after (bbr_set_cwnd, bbr_set_cwnd_to_recover_or_restore).
func (b *BBR) setCwnd(s *State, rs *RateSample, bw, gain float64) {
	if b.ns3 {
		b.setCwndNS3(s, rs, bw, gain)
		return
	}
	acked := int(rs.Acked / int64(s.MSS))
	if rs.Acked <= 0 {
		return
	}
	acked = max(acked, 1)
	cwnd := int(s.Cwnd / s.MSS)
	inflight := int(rs.InFlight / int64(s.MSS))
	conserve := false
	state := b.state(s)
	if rs.Losses > 0 {
		cwnd = max(cwnd-int(rs.Losses/int64(s.MSS)), 1)
	}
	switch {
	case state == caRecovery && b.prevState != caRecovery:
		b.packetConservation = true
		b.nextRTTDelivered = rs.TotalDelivered
		cwnd = inflight + acked
	case b.prevState >= caRecovery && state < caRecovery:
		b.restoreCwnd = true
		b.packetConservation = false
	}
	b.prevState = state
	if b.restoreCwnd {
		cwnd = max(cwnd, int(b.priorCwnd))
		b.restoreCwnd = false
	}
	if b.packetConservation {
		cwnd = max(cwnd, inflight+acked)
		conserve = true
	}
	if !conserve {
		target := b.targetCwnd(s, bw, gain)
		switch {
		case b.fullBWReached():
			cwnd = min(cwnd+acked, target)
		case cwnd < target || rs.TotalDelivered < bbrInitCwnd*int64(s.MSS):
			cwnd += acked
		}
		cwnd = max(cwnd, bbrCwndMinTarget)
	}
	if b.mode == bbrProbeRTT {
		cwnd = min(cwnd, bbrCwndMinTarget)
	}
	s.Cwnd = float64(cwnd) * s.MSS
}

// ltSampling detects a token-bucket policer (bbr_lt_bw_sampling): over
// intervals of 4 to 16 round trips with a loss rate of at least 50/256,
// two delivery rates within 1/8 (or 4 kB/s) of each other pin the
// bandwidth to their mean for 48 round trips.
func (b *BBR) ltSampling(s *State, rs *RateSample) {
	if b.ns3 {
		return // ns-3.37's TcpBbr has no policer detection
	}
	if b.ltUseBW {
		if b.mode == bbrProbeBW && b.roundStart {
			if b.ltRTTCnt++; b.ltRTTCnt >= bbrLtBWMaxRTTs {
				b.ltReset(s)
				b.resetProbeBW(s)
			}
		}
		return
	}
	if !b.ltIsSampling {
		if rs.Losses == 0 {
			return
		}
		b.ltInterval(s)
		b.ltIsSampling = true
	}
	if rs.AppLimited {
		b.ltReset(s)
		return
	}
	if b.roundStart {
		b.ltRTTCnt++
	}
	if b.ltRTTCnt < bbrLtIntvlMinRTTs {
		return
	}
	if b.ltRTTCnt > 4*bbrLtIntvlMinRTTs {
		b.ltReset(s)
		return
	}
	if rs.Losses == 0 {
		return
	}
	lost, delivered := b.lost-b.ltLastLost, b.delivered-b.ltLastDelivered
	if delivered <= 0 || float64(lost) < bbrLtLossThresh*float64(delivered) {
		return
	}
	t := s.Now - b.ltLastStamp
	if t < sim.Millisecond {
		return
	}
	bw := float64(delivered) / t.Seconds()
	if b.ltBW > 0 {
		diff := math.Abs(bw - b.ltBW)
		if diff <= bbrLtBWRatio*b.ltBW || diff <= bbrLtBWDiff {
			b.ltBW = (bw + b.ltBW) / 2
			b.ltUseBW, b.pacingGain, b.ltRTTCnt = true, 1, 0
			return
		}
	}
	b.ltBW = bw
	b.ltInterval(s)
}

func (b *BBR) ltInterval(s *State) {
	b.ltLastStamp, b.ltLastDelivered, b.ltLastLost, b.ltRTTCnt = s.Now, b.delivered, b.lost, 0
}

func (b *BBR) ltReset(s *State) {
	b.ltBW, b.ltUseBW, b.ltIsSampling = 0, false, false
	b.ltInterval(s)
}
