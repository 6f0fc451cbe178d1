package tcp

import "github.com/tcplab/tcplab/sim"

// Westwood is TCP Westwood+ (Mascolo, Grieco et al., "Performance
// evaluation and comparison of Westwood+, New Reno, and Vegas TCP congestion
// control", CCR 2004): Reno's growth, but after a loss ssthresh (and cwnd)
// become BWE·RTTmin, the bandwidth the ACKs show times the smallest RTT, so a
// random loss on an idle path costs little.
//
// BWE is sampled once per RTT (Westwood+'s fix of Westwood's per-ACK
// samples, which ACK compression inflates; Mascolo et al. count "the data
// acknowledged during the last RTT" in back-to-back RTT windows): the bytes
// acknowledged during one RTT divided by that RTT, as ns-3's TcpWestwood in
// WestwoodPlus mode, smoothed by the Tustin low-pass filter of the original
// Westwood (bwe = a·bwe + (1-a)·(sample + previous sample)/2, a = 0.9,
// ns-3's default). A window opens on any acknowledgement, a duplicate one
// included, and lasts the latest RTT sample (ns-3.37's PktsAcked schedules
// its estimate one m_lastRtt after the first ACK it counts; Linux's
// westwood_update_window restarts the window on the ACK that closes the
// last): every byte delivered falls in a window. A duplicate ACK counts as
// one segment delivered; the cumulative ACK that follows is credited only
// beyond those (Linux tcp_westwood.c).
//
// Params: alpha (0.9), the filter's pole.
type Westwood struct {
	Reno
	alpha float64

	bwe, lastSample float64  // bytes per second
	rttMin          sim.Time // smallest RTT seen
	lastRTT         sim.Time // the latest RTT sample: a window's length
	winStart        sim.Time // start of the current sample window
	winLen          sim.Time // its length: the RTT sample that opened it (0: none open)
	bytes           float64  // bytes delivered in the window
	credit          float64  // bytes already counted by duplicate ACKs
}

func init() {
	Register("westwood", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("westwood", params, map[string]float64{"alpha": 0.9})
		if err != nil {
			return nil, err
		}
		return &Westwood{Reno: Reno{name: "westwood"}, alpha: p["alpha"], rttMin: sim.Never}, nil
	})
}

// Estimate is the filtered bandwidth estimate in bytes per second.
func (w *Westwood) Estimate() float64 { return w.bwe }

// count adds delivered bytes to the sample window, closing it first if an
// RTT has passed.
func (w *Westwood) count(s *State, bytes float64, rtt sim.Time) {
	if w.winLen > 0 && s.Now >= w.winStart+w.winLen {
		sample := w.bytes / w.winLen.Seconds()
		w.bwe = w.alpha*w.bwe + (1-w.alpha)*(sample+w.lastSample)/2
		w.lastSample = sample
		w.bytes, w.winLen = 0, 0
	}
	if rtt > 0 {
		w.lastRTT = rtt
	}
	// Until a first RTT sample there is no window to count in: those
	// bytes (the handshake's, the first ACK's) would be divided by an
	// RTT they did not take.
	if w.winLen == 0 && w.lastRTT > 0 {
		w.winStart, w.winLen = s.Now, w.lastRTT
	}
	if w.winLen > 0 {
		w.bytes += bytes
	}
}

// OnAck implements Variant.
func (w *Westwood) OnAck(s *State, a *AckEvent) {
	w.newData(s, a)
	RenoIncrease(s, a)
}

func (w *Westwood) newData(s *State, a *AckEvent) {
	if a.RTT > 0 {
		w.rttMin = min(w.rttMin, a.RTT)
	}
	acked := max(a.Acked-w.credit, 0)
	w.credit = max(w.credit-a.Acked, 0)
	w.count(s, acked, a.RTT)
}

// OnDupAck counts the segment that left the network.
func (w *Westwood) OnDupAck(s *State, _ *AckEvent) {
	w.credit += s.MSS
	w.count(s, s.MSS, 0)
}

// OnRecoveryExit drops the duplicate-ACK credit: the cumulative ACKs of
// the recovery, which covered those segments, are not shown to variants.
func (w *Westwood) OnRecoveryExit(*State) { w.credit = 0 }

// bwRTTMin is ssthresh after a loss: BWE·RTTmin, at least 2 segments.
func (w *Westwood) bwRTTMin(s *State) float64 {
	if w.rttMin == sim.Never {
		return s.HalfWindow() // no estimate yet: Reno
	}
	return max(w.bwe*w.rttMin.Seconds(), 2*s.MSS)
}

// OnLoss sets ssthresh = cwnd = BWE·RTTmin.
func (w *Westwood) OnLoss(s *State, _ *LossEvent) Response {
	s.Ssthresh = w.bwRTTMin(s)
	s.Cwnd = s.Ssthresh
	return Response{Class: Congestion}
}

// OnTimeout sets ssthresh = BWE·RTTmin and restarts from one segment.
func (w *Westwood) OnTimeout(s *State) Response {
	w.credit = 0
	s.Ssthresh = w.bwRTTMin(s)
	s.Cwnd = s.MSS
	return Response{Class: Congestion}
}
