package tcp

// Loss recovery without SACK: OldTahoe (timeouts only), Tahoe (fast
// retransmit, then slow start), Reno (RFC 5681 §3.2) and NewReno
// (RFC 6582). The SACK recovery of RFC 6675 is in sack_recovery.go.

// onDupAck handles a duplicate ACK (RFC 5681 §2 definition).
func (s *Sender) onDupAck(ev *AckEvent) {
	mss := s.mss
	if s.inRecov {
		if s.rec != recSACK {
			s.infl += mss // RFC 5681 §3.2 step 4: inflate per dupack
		}
		s.sync()
		r := s.cc.OnDupAckInRecovery(&s.st, ev)
		s.apply()
		if r.Retransmit {
			s.retransmitLost(r)
		}
		s.trySend()
		return
	}
	if s.afterRTO {
		// Repairing after a timeout with SACK: a duplicate ACK's new SACK
		// information may open the pipe (ns-3 sends in CA_LOSS the same way).
		s.trySend()
		return
	}
	threshold := s.dupacks >= s.cfg.DupThresh
	if s.rec == recSACK && !threshold && s.lostAt(s.seg(s.una)) {
		threshold = true // RFC 6675 §5: IsLost(HighACK+1) also enters recovery
	}
	if !threshold || s.dupacks > s.cfg.DupThresh && s.rec != recSACK {
		if s.dupacks < s.cfg.DupThresh && s.cfg.LimitedTransmit && s.rec != recOldTahoe {
			s.limitedTransmit()
		}
		return
	}
	if s.rec == recOldTahoe {
		return
	}
	// RFC 6582 §3.2 step 1 / ns-2 bug_fix_: fast retransmit only if the
	// cumulative ACK covers more than recover (the highest byte sent when
	// the last recovery or timeout began, s.recover-1): no second fast
	// retransmit for losses in a window already being recovered.
	allowed := s.una > s.recover || s.cfg.RecoverInclusive && s.una == s.recover
	if s.rec == recReno && !s.cfg.RenoCareful {
		allowed = true // RFC 5681 Reno knows no recover: any 3 dupacks
	}
	if !allowed {
		return
	}
	s.enterRecovery(ev)
}

// limitedTransmit sends one new segment on each of the first two
// duplicate ACKs (RFC 3042), within cwnd + 2 segments and the window cap.
func (s *Sender) limitedTransmit() {
	if s.nxt >= s.limit || s.stopped && s.nxt >= s.high {
		return
	}
	if s.nxt != s.high && !s.cfg.LimitedTransmitGoBackN {
		return
	}
	end := s.segEnd(s.nxt)
	allowed := int64(s.cwnd) + int64(s.dupacks)*s.mss
	if s.window > 0 && int64(s.window) < allowed {
		allowed = int64(s.window)
	}
	if end-s.una > allowed {
		return
	}
	seq := s.nxt
	s.nxt = end
	s.sendSeg(seq, false)
}

// enterRecovery performs the fast retransmit and sets the windows.
func (s *Sender) enterRecovery(ev *AckEvent) {
	s.sync()
	s.loss = LossEvent{Seq: s.una, Dupacks: s.dupacks, CW: ev.CW}
	r := s.cc.OnLoss(&s.st, &s.loss)
	s.apply()
	s.acc.fastRetransmit(s, r.Class)
	basis := s.st.halfBasis
	if r.Ssthresh > 0 {
		s.ssthresh = r.Ssthresh
	}
	switch {
	case r.Cwnd > 0:
		s.cwnd = r.Cwnd
	case s.cfg.SsthreshBasis == "cwnd":
		s.cwnd = max(basis/2, float64(s.mss)) // ns-2 CLOSE_CWND_HALF keeps the fraction
	default:
		s.cwnd = s.ssthresh
	}
	s.recover = s.high
	if s.cfg.RTTSampling == "timed" {
		s.rttActive = false // ns-2 reset_rtx_timer stops RTT timing
	}
	if s.rec == recTahoe {
		// Tahoe: retransmit and go back N in slow start (no fast recovery).
		s.cwnd = float64(s.mss)
		s.nxt = s.una
		s.restartTimer()
		seq := s.nxt
		s.nxt = s.segEnd(seq)
		s.sendSeg(seq, true)
		s.trySend()
		return
	}
	s.inRecov, s.partial = true, false
	s.tsNewSeg = 0
	s.infl = 0
	if s.rec != recSACK {
		// RFC 5681 §3.2 step 3. RFC 6675 needs no inflation: the pipe
		// estimate already discounts SACKed segments (ns-3's classic
		// recovery also sends by cwnd = ssthresh against the pipe).
		s.infl = int64(s.cfg.DupThresh) * s.mss
	}
	if s.cfg.RestartTimerOnFastRetransmit {
		s.restartTimer()
	}
	if s.rec == recSACK {
		s.highRxt = s.una
		s.sb.at(s.seg(s.una)).rxRecov = true
	}
	s.sendSeg(s.una, true)
	s.trySend()
}

// retransmitLost resends the first unacknowledged segment after a variant
// judged its retransmission lost (DAC, DDLRP, T-DLRP).
func (s *Sender) retransmitLost(r Response) {
	s.acc.retransmitLost(s, r)
	if r.Ssthresh > 0 {
		s.ssthresh = r.Ssthresh
	}
	if r.Cwnd > 0 {
		s.cwnd = r.Cwnd
	}
	s.tsNewSeg = 0
	if s.cfg.RestartTimerOnFastRetransmit {
		s.restartTimer() // the new retransmission gets a full RTO, as the fast one did
	}
	s.sendSeg(s.una, true)
}

// recoveryAck handles an ACK of new data during fast recovery and reports
// whether the retransmission timer should be restarted.
func (s *Sender) recoveryAck(ev *AckEvent) bool {
	switch s.rec {
	case recSACK:
		if ev.Ack >= s.recover {
			s.exitRecovery(ev)
			return true
		}
		restart := s.partialRestart()
		if s.cfg.SACKPartialRetransmit {
			// ns-3.37 sends one segment chosen by NextSeg on every partial
			// ACK, pipe or not (RFC 6582's partial-ACK retransmission carried
			// into SACK recovery).
			s.sendNextSeg()
		}
		return restart
	case recReno:
		s.exitRecovery(ev) // Reno leaves on the first new ACK
		return true
	}
	if ev.Ack >= s.recover {
		s.exitRecovery(ev)
		return true
	}
	// RFC 6582 §3.2 step 5: partial ACK. Deflate by the amount acked, add
	// back one segment, retransmit the next hole.
	acked := int64(ev.Acked)
	if s.infl > acked {
		s.infl -= acked - s.mss
	} else {
		s.cwnd -= float64(acked - s.infl)
		s.infl = s.mss
	}
	if s.cwnd < float64(s.mss) {
		s.cwnd = float64(s.mss)
	}
	restart := s.partialRestart()
	s.tsNewSeg = 0 // T-DLRP's Timestamp_new restarts with each retransmission of the head
	s.sendSeg(s.una, false)
	return restart
}

// partialRestart says whether a partial ACK restarts the retransmission
// timer: only the first one in the impatient variant (RFC 6582 §4; ns-2's
// newreno_changes1_, ns-3 with or without SACK), every one otherwise
// (RFC 6298 §5.3, Linux).
func (s *Sender) partialRestart() bool {
	first := !s.partial
	s.partial = true
	return first || s.cfg.PartialAckRestart == "every"
}

func (s *Sender) exitRecovery(ev *AckEvent) {
	s.inRecov, s.partial = false, false
	s.infl = 0
	if s.cfg.RecoveryExit != "grow" {
		s.cwnd = s.ssthresh // RFC 5681 §3.2 step 6
	}
	s.sync()
	s.cc.OnRecoveryExit(&s.st)
	if s.cfg.RecoveryExit != "ssthresh" {
		// ns-2 (its halved cwnd_) and ns-3 (from ssthresh) open the window
		// on the exit ACK like on any new ACK.
		s.cc.OnAck(&s.st, ev)
	}
	s.apply()
}
