package tcp

import (
	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/sim"
)

// rack is RFC 8985's time-based loss detection (RACK) inside SACK
// recovery, without tail loss probes. A segment is lost once a segment
// sent after it has been delivered (cumulatively ACKed or SACKed) and
// RACK.rtt plus a reordering window has passed since it was sent; one
// SACK is enough where RFC 6675 waits for three, so a loss in a window
// of two or three segments is repaired by fast recovery, not by the
// retransmission timer (Linux's default since 4.18).
//
// First transmissions go out in sequence order, so the lost ones are a
// prefix of the window: the detector keeps a boundary (lost) below which
// every segment not SACKed and not yet retransmitted is lost, and SACK
// recovery's IsLost boundary takes the higher of its and RFC 6675's
// (sackRecovery.lostBelow). Retransmissions go out in their own order;
// the detector keeps them in it (rtx) and judges them by the time of
// their latest transmission, as RFC 8985 judges every segment: a lost
// retransmission is resent by NextSeg before anything else (relost)
// instead of waiting for the timer.
type rack struct {
	xmit sim.Time // RACK.xmit_ts: send time of the most recently sent segment delivered
	end  int64    // RACK.end_seq: its end
	rtt  sim.Time // RACK.rtt: the RTT measured on it
	fack int64    // RACK.fack: the highest end delivered
	// reord: a never-retransmitted segment was delivered below fack
	// (RACK.reordering_seen): the reordering window then stays open.
	reord bool
	lost  int64 // segments below are lost unless SACKed or retransmitted
	// before is fack when the ACK being processed arrived.
	before int64
	timer  sim.Timer
	rtx    ring.Buffer[rackRetx] // retransmissions in the order sent
	relost ring.Buffer[int64]    // segments whose retransmission was lost, to resend
}

// rackRetx is a retransmission: its segment and when it was sent (a later
// one of the same segment makes it stale).
type rackRetx struct {
	k  int64
	at sim.Time
}

func (s *Sender) newRACK() {
	s.rack = &rack{}
	s.rack.timer.Init(s.net.Sched, s.onRACKTimer)
}

// rackDelivered updates RACK with segment k, newly cumulatively ACKed or
// SACKed by the ACK being processed (RFC 8985 §6.2 steps 1-3); fack is
// RACK.fack before this ACK.
func (s *Sender) rackDelivered(k int64, ev *AckEvent, fack int64) {
	info := s.sb.at(k)
	start := s.dataStart + k*s.mss
	end := s.segEnd(start)
	if info.retx > 0 {
		// Step 2: the ACK may be for an earlier transmission. Not if it
		// came faster than the minimum RTT, or echoes a timestamp older
		// than the retransmission.
		if s.Now-info.sentAt < s.MinRTT || ev.HasTS && ev.TSecr < info.tsval {
			return
		}
	} else if end < fack {
		s.rack.reord = true // step 3
	}
	r := s.rack
	r.fack = max(r.fack, end)
	if info.sentAt > r.xmit || info.sentAt == r.xmit && end > r.end {
		r.xmit, r.end, r.rtt = info.sentAt, end, s.Now-info.sentAt
	}
}

// rackOnAck runs after an ACK's SACK blocks are marked (which count each
// newly SACKed segment here): the segments the cumulative ACK delivers,
// then detection.
func (s *Sender) rackOnAck(ack int64) {
	for k := s.seg(s.Una); k < s.seg(ack) && s.sb.has(k); k++ {
		if !s.sb.at(k).sacked {
			s.rackDelivered(k, &s.ev, s.rack.before)
		}
	}
	if ack > s.Una {
		// Detection runs once the ACK has moved SND.UNA (onNewAck).
		return
	}
	s.rackDetect()
}

// rackReoWnd is the reordering window (RFC 8985 §6.2 step 4, Linux's
// tcp_rack_reo_wnd): none in recovery or once DupThresh segments are
// SACKed while no reordering was seen, else a quarter of the minimum RTT,
// at most SRTT.
func (s *Sender) rackReoWnd() sim.Time {
	if !s.rack.reord && (s.InRecovery || s.inLoss || len(s.sb.top) >= s.cfg.Recovery.DupThresh) {
		return 0
	}
	if s.MinRTT == sim.Never {
		return 0
	}
	return min(s.MinRTT/4, s.SRTT)
}

// rackDetect moves the lost boundary over every segment RACK finds lost
// (RFC 8985 §6.2 step 5) and arms the reordering timer for the first
// one not lost yet, if it was sent before RACK.xmit_ts.
func (s *Sender) rackDetect() {
	r := s.rack
	if r.rtt == 0 && r.xmit == 0 {
		return // nothing delivered yet
	}
	reo := s.rackReoWnd()
	k := max(r.lost, s.seg(s.Una))
	due := sim.Never
	for ; s.sb.has(k) && s.dataStart+k*s.mss < s.High; k++ {
		info := s.sb.at(k)
		if info.sacked || info.retx > 0 {
			continue // delivered, or being repaired already
		}
		end := s.segEnd(s.dataStart + k*s.mss)
		if info.sentAt > r.xmit || info.sentAt == r.xmit && end >= r.end {
			break // sent after the newest delivered segment: no verdict
		}
		if at := info.sentAt + r.rtt + reo; at > s.Now {
			due = at
			break
		}
	}
	r.lost = k
	due = min(due, s.rackRetxLost(reo))
	if due < sim.Never {
		r.timer.Arm(due)
	} else {
		r.timer.Cancel()
	}
}

// rackRetxLost applies step 5 to retransmissions, oldest first: one is
// lost once a segment sent after it was delivered and RACK.rtt plus the
// reordering window has passed since it was sent. Its segment leaves the
// pipe and waits in relost for NextSeg. It returns when the oldest
// retransmission still undecided will be, if a later one was delivered.
func (s *Sender) rackRetxLost(reo sim.Time) sim.Time {
	r := s.rack
	una := s.seg(s.Una)
	for r.rtx.Len() > 0 {
		e := *r.rtx.At(0)
		if e.k >= una && s.sb.has(e.k) {
			info := s.sb.at(e.k)
			if !info.sacked && info.rxRecov && info.sentAt == e.at {
				end := s.segEnd(s.dataStart + e.k*s.mss)
				if e.at > r.xmit || e.at == r.xmit && end >= r.end {
					return sim.Never // no later segment delivered yet
				}
				if at := e.at + r.rtt + reo; at > s.Now {
					return at
				}
				s.sb.unmarkRx(e.k)
				r.relost.PushBack(e.k)
			}
		}
		// Delivered, sent again since, lost: no longer waited for.
		r.rtx.PopFront()
	}
	return sim.Never
}

// rackRelost returns the oldest segment whose retransmission RACK
// found lost and that has not been sent again, if any.
func (s *Sender) rackRelost() (int64, bool) {
	r := s.rack
	una := s.seg(s.Una)
	for r.relost.Len() > 0 {
		k := *r.relost.At(0)
		if k >= una && s.sb.has(k) {
			if info := s.sb.at(k); !info.sacked && !info.rxRecov {
				return k, true
			}
		}
		r.relost.PopFront()
	}
	return 0, false
}

// rackTimeout marks the losses a retransmission timeout implies as Linux
// does with RACK (tcp_timeout_mark_lost): the head segment, and every
// segment not SACKed that was sent at least RACK.rtt ago. Segments sent
// since stay in flight for RACK to judge as ACKs come, where RFC 6675
// §5.1 counts every segment below recover lost (after a timeout on a long
// path: a window of spurious retransmissions).
func (s *Sender) rackTimeout() {
	r := s.rack
	k := s.seg(s.Una) + 1
	for ; s.sb.has(k) && s.dataStart+k*s.mss < s.High; k++ {
		if info := s.sb.at(k); !info.sacked && info.sentAt+r.rtt > s.Now {
			break
		}
	}
	r.lost = max(r.lost, k)
}

// onRACKTimer is the reordering timer (RFC 8985 §6.3): the segments it
// waited for are lost now; recovery starts, or goes on, by NextSeg.
func (s *Sender) onRACKTimer() {
	if s.Una >= s.High {
		return
	}
	s.Now = s.net.Now()
	s.rackDetect()
	switch {
	case s.InRecovery || s.inLoss:
		s.trySend()
	case s.seg(s.Una) < s.rack.lost && s.recoverPassed():
		s.ev = AckEvent{Ack: s.Una, Dupacks: s.dupacks}
		s.enterRecovery(&s.ev)
	}
}
