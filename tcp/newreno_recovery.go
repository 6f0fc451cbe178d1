package tcp

// newRenoRecovery is NewReno (RFC 6582): fast recovery lasts until the
// cumulative ACK covers recover, the highest sequence number sent when it
// began; every partial ACK before that retransmits the next hole at once.
type newRenoRecovery struct{ cumulative }

// dupAck fast retransmits only if the ACK covers more than recover
// (RFC 6582 §3.2 step 1): no second fast retransmit for losses in a window
// already being repaired.
func (n *newRenoRecovery) dupAck() dupAction { return n.threshold(true) }

func (n *newRenoRecovery) enter() { n.enterFastRecovery() }

func (n *newRenoRecovery) ack(ev *AckEvent) bool {
	s := n.s
	if ev.Ack >= s.recover {
		s.exitRecovery(ev)
		return true
	}
	// RFC 6582 §3.2 step 5: a partial ACK. Deflate by the amount acked,
	// add back one segment, retransmit the next hole.
	acked := int64(ev.Acked)
	if s.infl > acked {
		s.infl -= acked - s.mss
	} else {
		s.Cwnd -= float64(acked - s.infl)
		s.infl = s.mss
	}
	if s.Cwnd < s.State.MSS {
		s.Cwnd = s.State.MSS
	}
	restart := s.partialRestart()
	s.sendSeg(s.Una, false)
	return restart
}
