package tcp

// DDLRP detects and differentiates the loss of retransmitted packets
// (Sreekumari, Chung et al.; as summarised in §3 of the T-DLRP paper): at
// the third duplicate ACK it sets a threshold from the flight size, the
// duplicate ACKs the segments then outstanding can still cause. More
// additional duplicate ACKs than the threshold mean the fast retransmission
// was lost: retransmit at once. It watches only the fast retransmission:
// after a partial ACK it cannot tell (the weakness T-DLRP fixes).
//
// The DDLRP paper's differentiation is not available to us; as T-DLRP's IFR
// (same authors) it uses the congestion-warning mark of the detecting
// duplicate ACK: marked, congestion, halve again; unmarked, wireless, keep
// cwnd and ssthresh. Needs CW-marking routers for that; without them every
// lost retransmission is judged wireless.
type DDLRP struct {
	Reno
	head      int64
	watching  bool
	base      int // duplicate ACKs when the watched retransmission was sent
	threshold int // additional duplicate ACKs it can explain
}

func init() {
	Register("ddlrp", "newreno", func(params map[string]float64) (Variant, error) {
		if _, err := variantParams("ddlrp", params, nil); err != nil {
			return nil, err
		}
		return &DDLRP{Reno: Reno{name: "ddlrp"}}, nil
	})
}

// watch sets the threshold for a retransmission sent now: FlightSize
// (RFC 5681: sent, not cumulatively acknowledged) in segments, less the
// head, less the duplicate ACKs already in.
func (d *DDLRP) watch(s *State, dupacks int) {
	d.head, d.watching, d.base = s.Una, true, dupacks
	d.threshold = outstandingBeyondHead(s) - dupacks
}

// OnLoss halves as NewReno and sets the threshold.
func (d *DDLRP) OnLoss(s *State, l *LossEvent) Response {
	d.watch(s, l.Dupacks)
	return d.Reno.OnLoss(s, l)
}

// OnDupAckInRecovery implements Variant.
func (d *DDLRP) OnDupAckInRecovery(s *State, a *AckEvent) Response {
	if !d.watching || a.Ack != d.head {
		d.watching = false // a partial ACK: DDLRP stops watching
		return Response{}
	}
	if a.Dupacks-d.base <= d.threshold {
		return Response{}
	}
	d.watch(s, a.Dupacks)
	if a.CW {
		s.Ssthresh = s.HalfWindow()
		s.Cwnd = s.Ssthresh
		return Response{Retransmit: true, Class: Congestion}
	}
	return Response{Retransmit: true, Class: Wireless}
}

// OnRecoveryExit implements Variant.
func (d *DDLRP) OnRecoveryExit(*State) { d.watching = false }
