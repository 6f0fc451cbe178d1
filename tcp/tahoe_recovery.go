package tcp

// tahoeRecovery is Tahoe (Jacobson 1988, RFC 5681 §3.2 without fast
// recovery): the third duplicate ACK retransmits the head and the sender
// goes back N in slow start. OldTahoe (old) has no fast retransmit at
// all: only the timer repairs.
type tahoeRecovery struct {
	cumulative
	old bool
}

func (t *tahoeRecovery) dupAck() dupAction {
	if t.old {
		return dupNothing
	}
	return t.threshold(true)
}

// enter retransmits the head and restarts from one segment, going back N.
func (t *tahoeRecovery) enter() {
	s := t.s
	s.Cwnd = s.State.MSS
	s.Nxt = s.Una
	s.restartTimer()
	seq := s.Nxt
	s.Nxt = s.segEnd(seq)
	s.sendSeg(seq, true)
	s.trySend()
}

// ack ends the recovery a variant may have started at a timeout
// (Response.RepairInPlace) on the first new ACK, as Reno does.
func (t *tahoeRecovery) ack(ev *AckEvent) bool {
	t.s.exitRecovery(ev)
	return true
}
