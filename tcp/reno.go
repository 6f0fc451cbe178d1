package tcp

// Reno is standard AIMD congestion control (RFC 5681): slow start, then
// congestion avoidance adding about one segment per RTT; halve on loss.
// OldTahoe, Tahoe, Reno, NewReno and SACK share it and differ only in the
// engine's loss recovery. Other variants embed it for their defaults.
type Reno struct {
	name string
}

func init() {
	for _, n := range []string{"oldtahoe", "tahoe", "reno", "newreno", "sack"} {
		Register(n, n, func(params map[string]float64) (Variant, error) {
			if _, err := variantParams(n, params, nil); err != nil {
				return nil, err
			}
			return &Reno{name: n}, nil
		})
	}
}

// Name implements Variant.
func (r *Reno) Name() string { return r.name }

// Init implements Variant.
func (r *Reno) Init(*State) {}

// OnAck grows cwnd: +1 segment per ACK in slow start, +MSS²/cwnd per ACK in
// congestion avoidance (RFC 5681 eq. 2-3; ns-2 windowOption_ 1).
func (r *Reno) OnAck(s *State, a *AckEvent) { RenoIncrease(s, a) }

// RenoIncrease is Reno's window growth, for variants to reuse.
func RenoIncrease(s *State, a *AckEvent) {
	if s.InSlowStart() {
		if s.growth.ByteCounting {
			// RFC 3465 §2.2 with L = 2 SMSS.
			s.Cwnd += min(a.Acked, 2*s.MSS)
			return
		}
		s.Cwnd += s.MSS
		// ns-3's TcpNewReno hands the segments slow start did not use to
		// congestion avoidance, once, when this ACK reached ssthresh.
		if !s.growth.SlowStartCarry || a.Acked < 2*s.MSS || s.InSlowStart() {
			return
		}
	}
	if s.growth.ByteCounting {
		// RFC 3465 §2.1: one SMSS per cwnd of bytes acknowledged, so a
		// delayed ACK covering two segments counts twice (Linux's
		// tcp_cong_avoid_ai counts acknowledged segments the same way).
		s.Cwnd += s.MSS * a.Acked / s.Cwnd
		return
	}
	s.Cwnd += s.MSS * s.MSS / s.Cwnd
}

// OnDupAck implements Variant.
func (r *Reno) OnDupAck(*State, *AckEvent) {}

// OnLoss halves the window (RFC 5681 eq. 4).
func (r *Reno) OnLoss(s *State, _ *LossEvent) Response {
	s.Halve()
	return Response{Class: Congestion}
}

// OnDupAckInRecovery implements Variant: Reno never detects a lost
// retransmission; only the timer does.
func (r *Reno) OnDupAckInRecovery(*State, *AckEvent) Response { return Response{} }

// OnRecoveryExit implements Variant.
func (r *Reno) OnRecoveryExit(*State) {}

// OnTimeout halves ssthresh and restarts from one segment (RFC 5681 eq. 4,
// loss window LW = 1 SMSS).
func (r *Reno) OnTimeout(s *State) Response {
	s.Ssthresh = s.HalfWindow()
	s.Cwnd = s.MSS
	return Response{Class: Congestion}
}
