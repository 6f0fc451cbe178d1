package tcp

import "math"

// DAC is duplicate acknowledgment counting (B. Kim & J. Lee, "Retransmission
// loss recovery by duplicate acknowledgment counting", IEEE Commun. Lett.
// 8(1), 2004) on NewReno: at a fast retransmit the sender remembers how many
// duplicate ACKs the segments then outstanding can still cause (one each,
// FIFO path: all arrive before the retransmission). More duplicate ACKs than
// that mean a segment sent after the retransmission overtook it: the
// retransmission was lost. DAC then retransmits again at once and halves
// again (ssthresh = ssthresh/2, cwnd = ssthresh), taking every loss for
// congestion; the expected count is set afresh for the new retransmission.
//
// After a partial ACK NewReno retransmits the next hole; DAC counts for it
// too, from the segments outstanding at its first duplicate ACK (an upper
// bound, so it never fires early). Reordering breaks the FIFO assumption.
type DAC struct {
	Reno
	head     int64 // the segment being watched
	expected int   // duplicate ACKs it can still explain
}

func init() {
	Register("dac", "newreno", func(params map[string]float64) (Variant, error) {
		if _, err := variantParams("dac", params, nil); err != nil {
			return nil, err
		}
		return &DAC{Reno: Reno{name: "dac"}}, nil
	})
}

// outstandingBeyondHead is the segments sent and not acknowledged, the
// head excluded: the duplicate ACKs they can cause.
func outstandingBeyondHead(s *State) int {
	return int(math.Ceil(float64(s.High-s.Una)/s.MSS)) - 1
}

// OnLoss halves as NewReno and starts counting.
func (d *DAC) OnLoss(s *State, l *LossEvent) Response {
	d.head, d.expected = s.Una, outstandingBeyondHead(s)
	return d.Reno.OnLoss(s, l)
}

// OnDupAckInRecovery detects a lost retransmission by counting.
func (d *DAC) OnDupAckInRecovery(s *State, a *AckEvent) Response {
	if a.Ack != d.head { // a partial ACK: watch the next hole
		d.head, d.expected = a.Ack, outstandingBeyondHead(s)
	}
	if a.Dupacks <= d.expected {
		return Response{}
	}
	d.expected = outstandingBeyondHead(s)
	s.Ssthresh = max(s.Ssthresh/2, 2*s.MSS)
	s.Cwnd = s.Ssthresh
	return Response{Retransmit: true, Class: Congestion}
}
