package tcp

import "github.com/tcplab/tcplab/sim"

// Spurious-timeout detection and response. A timeout is spurious when the
// segments were not lost but only late (a delay spike, a route change):
// going back N then resends a whole window the receiver already holds and
// needlessly collapses cwnd.
//
//   - F-RTO (RFC 5682 §2): after the timeout retransmission, hold back the
//     go-back-N. If the first ACK advances SND.UNA (below recover), send
//     two new segments; if the second ACK advances SND.UNA again, segments
//     never retransmitted are being acknowledged: the timeout was spurious.
//     A duplicate ACK at either step means a genuine loss.
//   - Eifel detection (RFC 3522 §3.2, needs timestamps): if the first ACK
//     after the timeout acknowledges the retransmitted segment but echoes a
//     timestamp older than the retransmission's, it was sent for the
//     original: the timeout was spurious.
//
// The response to a spurious timeout is RFC 4015's Eifel response: restore
// ssthresh to what it was (pipe_prev), set cwnd to FlightSize plus what the
// ACK acknowledged (at most the initial window), undo the back-off and go
// on with new data instead of going back N.

type spuriousState struct {
	frto     int      // F-RTO step awaiting an ACK: 0 (off), 2 or 3
	eifelTS  int64    // TSval of the timeout retransmission (RetransmitTS)
	eifel    bool     // Eifel awaits the first ACK after the timeout
	pipePrev float64  // max(FlightSize, ssthresh) before the timeout (RFC 4015 §3)
	sentPrev sim.Time // when the head segment was sent before the timeout
	detected int64    // timeouts found spurious
}

// spuriousOnRTO arms detection; it reports whether the go-back-N must be
// held back (F-RTO sends only the head segment until the ACKs decide).
func (s *Sender) spuriousOnRTO(flightBefore, ssthreshBefore float64, sentBefore sim.Time, tsval int64) bool {
	sp := &s.spur
	sp.pipePrev = max(flightBefore, ssthreshBefore)
	sp.sentPrev = sentBefore
	switch s.cfg.Timer.Spurious {
	case FRTO:
		sp.frto = 2
		return true
	case Eifel:
		sp.eifel, sp.eifelTS = true, tsval
	}
	return false
}

// spuriousOnAck runs the detection on an ACK before the engine processes
// it as usual.
func (s *Sender) spuriousOnAck(ack int64, hasTS bool, tsecr int64) {
	sp := &s.spur
	switch {
	case sp.eifel:
		sp.eifel = false
		if ack > s.Una && hasTS && tsecr < sp.eifelTS {
			s.spuriousResponse(ack)
		}
	case sp.frto == 2:
		if ack > s.Una && ack < s.recover {
			// Step 2b: two new segments probe whether the rest arrived.
			// With no new data to send (the end of a transfer) or the
			// window shut, RFC 5682 §2.1 says to skip step 3 and go on
			// with conventional RTO recovery: no ACK would ever decide.
			if s.probeNew(2, ack) > 0 {
				sp.frto = 3
				return
			}
		}
		sp.frto = 0
		s.goBackN() // step 2a: conventional recovery
	case sp.frto == 3:
		sp.frto = 0
		if ack > s.Una {
			s.spuriousResponse(ack) // step 3b
			return
		}
		// Step 3a: a duplicate ACK, the timeout was genuine.
		s.Cwnd = min(s.Cwnd, 3*s.State.MSS)
		s.goBackN()
	}
}

// probeNew sends up to n new segments whatever cwnd says, within the
// receiver's window (RFC 5682 §2 step 2b), and says how many it sent.
// una is the ACK being handled: the window has already slid to it.
func (s *Sender) probeNew(n int, una int64) (sent int) {
	for ; sent < n && s.High < s.limit && !s.stopped; sent++ {
		if s.Window > 0 && s.segEnd(s.High)-una > int64(s.Window) {
			return sent
		}
		seq := s.High
		s.Nxt = s.segEnd(seq)
		s.sendSeg(seq, false)
	}
	return sent
}

// goBackN resumes the conventional recovery held back by F-RTO.
func (s *Sender) goBackN() {
	// The head segment was already retransmitted at the timeout.
	if next := s.segEnd(s.Una); s.Nxt > next {
		s.Nxt = next
	}
	s.rec.lossRepair(true)
}

// spuriousResponse is RFC 4015 §3 steps (4)-(5).
func (s *Sender) spuriousResponse(ack int64) {
	s.spur.detected++
	acked := float64(ack - s.Una)
	flight := float64(s.High - ack)
	s.Ssthresh = s.spur.pipePrev
	s.Cwnd = max(flight+min(acked, s.cfg.Segments.InitialWindow*s.State.MSS), s.State.MSS)
	s.est.LateSample(s.net.Now() - s.spur.sentPrev)
	s.SRTT = s.est.SRTT()
	s.backoff = 1
	s.rec.lossRepair(false)
	s.Nxt = s.High // new data, no go-back-N
}
