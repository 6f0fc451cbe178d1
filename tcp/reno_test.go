package tcp

import "testing"

// Reno's growth and cut under each profile's arithmetic: per ACK (ns-2,
// ns-3) or by bytes acknowledged (Linux, RFC 3465), and the cut from the
// flight (RFC 5681 eq. 4, ns-3) or from cwnd (ns-2; Linux's
// tcp_reno_ssthresh). A delayed ACK covers two segments.
func TestRenoGrowthAndCutFollowTheProfile(t *testing.T) {
	cases := []struct {
		name        string
		growth      GrowthConfig
		acked       float64 // segments per ACK
		wantGrowth  float64 // segments added by one ACK at cwnd 10 in congestion avoidance
		flight      float64 // segments outstanding at the loss (SACKed ones out of the pipe)
		wantSsthr   float64 // segments after the loss at cwnd 10
		wantCwndCut float64
	}{
		{"per ACK, flight basis (ns-3)", GrowthConfig{SsthreshBasis: FlightBasis}, 2, 0.1, 7, 3.5, 3.5},
		{"bytes acked, flight basis", GrowthConfig{SsthreshBasis: FlightBasis, ByteCounting: true}, 2, 0.2, 7, 3.5, 3.5},
		{"bytes acked, cwnd basis (linux)", GrowthConfig{SsthreshBasis: CwndBasis, ByteCounting: true}, 2, 0.2, 7, 5, 5},
		{"per ACK, cwnd basis (ns-2)", GrowthConfig{SsthreshBasis: CwndBasis}, 1, 0.1, 7, 5, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := testState(10, 5)
			s.growth = c.growth
			RenoIncrease(s, &AckEvent{Acked: c.acked * tMSS})
			if got := segs(s.Cwnd) - 10; !near(got, c.wantGrowth) {
				t.Errorf("one ACK of %g segments grew cwnd by %.3f segments, want %g", c.acked, got, c.wantGrowth)
			}
			s = testState(10, 100)
			s.growth = c.growth
			pipe := int64(c.flight * tMSS)
			s.flight = func() int64 { return pipe }
			(&Reno{}).OnLoss(s, &LossEvent{})
			if !near(segs(s.Ssthresh), c.wantSsthr) || !near(segs(s.Cwnd), c.wantCwndCut) {
				t.Errorf("after a loss at cwnd 10 (pipe %g): ssthresh %.2f cwnd %.2f, want %g and %g",
					c.flight, segs(s.Ssthresh), segs(s.Cwnd), c.wantSsthr, c.wantCwndCut)
			}
		})
	}
}
