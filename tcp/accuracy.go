package tcp

import (
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Scoring of a variant's loss classifications against ground truth
// (DESIGN.md: every classification a variant makes is logged against the
// drop record of the packet it is about).
//
// Truth. A loss is the segment the sender is recovering: SND.UNA at a fast
// retransmit or a timeout, the fast-retransmitted segment for a lost
// retransmission. Its true class comes from the cause of its last drop:
//
//	queue_overflow, aqm_drop -> Congestion (a router's queue dropped it)
//	channel_error            -> Wireless
//	retx_loss                -> Wireless: network.Targeted is an error model on
//	                            a link, so no queue (and no CW mark or delay
//	                            signal) ever saw these losses; the T-DLRP
//	                            paper's Fig. 17 counts its injected
//	                            retransmission losses under wireless loss too
//	no drop                  -> Unclassified: nothing was lost (the segment
//	                            reached the receiver, or its retransmission is
//	                            still in flight); logged, not scored
//
// Scores (per flow, in percent, as the T-DLRP paper's eq. 9-11; a key is
// absent when its denominator is zero):
//
//	ld_congestion, ld_wireless, ld_average: at fast retransmit, the share of
//	  congestion (wireless) losses the variant classified as congestion
//	  (wireless), and their mean. Variants that do not differentiate (Reno,
//	  Vegas, CUBIC, ...) call every loss congestion: 100 / 0 / 50.
//	rto_congestion, rto_wireless: the same for the verdicts given at
//	  timeouts (T-DLRP's IRTOR); only verdicts other than Unclassified count.
//	a_rlc, a_rlwl, average_rlcw: eq. 9-11: of the fast retransmissions lost
//	  to congestion (wireless), the share the variant detected as lost (by
//	  returning Retransmit before any timeout) and classified right.
//	rl_detected: the share of lost fast retransmissions detected at all.
//	n_* keys: the counts behind them (n_false_detections: Retransmit
//	  responses while the head's last transmission was not lost;
//	  n_other_rl_detected: lost retransmissions other than fast ones, e.g.
//	  IRTOR's after a timeout, detected).
type accuracy struct {
	keep bool // log every verdict (LogClassifications); the scores need no log
	log  []Classification

	ld, rto [3][3]int64 // [truth][verdict]
	frLost  [3]int64    // lost fast retransmissions by true class
	frSeen  [3]int64    // of them, detected
	frRight [3]int64    // of them, detected and classified right
	falseDt int64       // "lost" claimed but the head's last transmission was not lost
	otherDt int64       // lost non-fast retransmissions detected

	// The fast retransmission of pendSeq was lost and not yet detected.
	pending   bool
	pendSeq   int64
	pendTruth LossClass
}

// Classification is one logged verdict of a variant with its ground truth.
type Classification struct {
	Time    sim.Time
	Event   string // "fast_retransmit", "timeout" or "lost_retransmission"
	Seq     int64  // the segment concerned
	Verdict LossClass
	Truth   LossClass // Unclassified: nothing was lost (not scored)
}

// truthOf maps a drop cause to the loss class it is ground truth for.
func truthOf(c network.DropCause) LossClass {
	switch {
	case c.Congestive():
		return Congestion
	case c.Random():
		return Wireless
	}
	return Unclassified
}

// headTruth is the true class of the loss of the head segment.
func (s *Sender) headTruth() LossClass {
	if s.f.rcv.rcvNxt > s.Una {
		return Unclassified // it arrived: nothing to recover
	}
	k := s.seg(s.Una)
	if !s.sb.has(k) {
		return Unclassified
	}
	return truthOf(s.sb.at(k).lastDrop)
}

// fastRetransmit scores the verdict given at a fast retransmit.
func (a *accuracy) fastRetransmit(s *Sender, verdict LossClass) {
	t := s.headTruth()
	a.ld[t][verdict]++
	if a.keep {
		a.log = append(a.log, Classification{s.net.Now(), "fast_retransmit", s.Una, verdict, t})
	}
}

// timeout scores the verdict given at a timeout; a lost fast retransmission
// still pending was missed.
func (a *accuracy) timeout(s *Sender, verdict LossClass) {
	t := s.headTruth()
	a.rto[t][verdict]++
	if a.keep {
		a.log = append(a.log, Classification{s.net.Now(), "timeout", s.Una, verdict, t})
	}
	a.pending = false
}

// lostFastRetransmit records ground truth: a fast retransmission of the
// segment at seq was dropped with the given cause.
func (a *accuracy) lostFastRetransmit(seq int64, cause network.DropCause) {
	t := truthOf(cause)
	a.frLost[t]++
	a.pending, a.pendSeq, a.pendTruth = true, seq, t
}

// retransmitLost scores a variant's claim that the retransmission of the
// head segment was lost.
func (a *accuracy) retransmitLost(s *Sender, r Response) {
	t := Unclassified
	if a.pending && a.pendSeq == s.Una {
		t = a.pendTruth
		a.frSeen[t]++
		if r.Class == t {
			a.frRight[t]++
		}
		a.pending = false
	} else if k := s.seg(s.Una); s.sb.has(k) && s.sb.at(k).lostLast {
		// A retransmission other than the fast one (after a timeout, or a
		// partial ACK's) was lost and detected: right, but outside eq. 9-11.
		a.otherDt++
	} else {
		a.falseDt++
	}
	if a.keep {
		a.log = append(a.log, Classification{s.net.Now(), "lost_retransmission", s.Una, r.Class, t})
	}
}

// report is the flow's accuracy map (metrics.Flow.Accuracy).
func (a *accuracy) report() map[string]float64 {
	m := map[string]float64{}
	pct := func(key string, num, den int64) bool {
		if den > 0 {
			m[key] = 100 * float64(num) / float64(den)
		}
		return den > 0
	}
	row := func(x [3]int64) int64 { return x[0] + x[1] + x[2] }
	mean := func(key, k1, k2 string, ok bool) {
		if ok {
			m[key] = (m[k1] + m[k2]) / 2
		}
	}
	// Loss differentiation at fast retransmit: only verdicts count.
	verdicts := func(x [3]int64) int64 { return x[Congestion] + x[Wireless] }
	c := pct("ld_congestion", a.ld[Congestion][Congestion], verdicts(a.ld[Congestion]))
	w := pct("ld_wireless", a.ld[Wireless][Wireless], verdicts(a.ld[Wireless]))
	mean("ld_average", "ld_congestion", "ld_wireless", c && w)
	pct("rto_congestion", a.rto[Congestion][Congestion], verdicts(a.rto[Congestion]))
	pct("rto_wireless", a.rto[Wireless][Wireless], verdicts(a.rto[Wireless]))
	// Lost fast retransmissions, eq. 9-11.
	c = pct("a_rlc", a.frRight[Congestion], a.frLost[Congestion])
	w = pct("a_rlwl", a.frRight[Wireless], a.frLost[Wireless])
	mean("average_rlcw", "a_rlc", "a_rlwl", c && w)
	pct("rl_detected", row(a.frSeen), row(a.frLost))
	m["n_losses_congestion"] = float64(row(a.ld[Congestion]))
	m["n_losses_wireless"] = float64(row(a.ld[Wireless]))
	m["n_lost_fr_congestion"] = float64(a.frLost[Congestion])
	m["n_lost_fr_wireless"] = float64(a.frLost[Wireless])
	m["n_false_detections"] = float64(a.falseDt)
	m["n_other_rl_detected"] = float64(a.otherDt)
	return m
}

// LogClassifications makes the flow keep every verdict with its ground
// truth (off by default: the log grows with every loss event).
func (f *Flow) LogClassifications() { f.snd.acc.keep = true }

// Classifications returns the flow's logged verdicts with their ground
// truth, in time order (LogClassifications must be on).
func (f *Flow) Classifications() []Classification { return f.snd.acc.log }
