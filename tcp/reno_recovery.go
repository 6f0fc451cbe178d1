package tcp

// renoRecovery is Reno's fast recovery (RFC 5681 §3.2): fast retransmit on
// the third duplicate ACK, the window inflated by one segment per further
// duplicate, and recovery over on the first ACK of new data. Plain RFC 5681
// Reno knows no recover variable: a further third duplicate ACK retransmits
// again; ns-2's Reno (reno_careful) waits until the ACK passes recover.
type renoRecovery struct{ cumulative }

func (r *renoRecovery) dupAck() dupAction {
	return r.threshold(r.s.cfg.Recovery.RenoCareful)
}

func (r *renoRecovery) enter() { r.enterFastRecovery() }

// ack leaves fast recovery on the first new ACK (RFC 5681 §3.2 step 6).
func (r *renoRecovery) ack(ev *AckEvent) bool {
	r.s.exitRecovery(ev)
	return true
}
