package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// A lost fast retransmission on the anchors' dumbbell: the first and the
// second transmission (the fast retransmission) of one segment are lost on
// the wireless hop. NewReno waits for the timer; DAC counts duplicate ACKs
// and T-DLRP reads the echoed timestamps, both retransmit it again first.
// Both need new segments sent after the fast retransmission (so not at the
// window cap) and their duplicate ACKs back before the timer: the minimum
// RTO is RFC 6298's 1 s here (with ns-2's 200 ms DAC, which halves and so
// sends new data later than T-DLRP, loses that race at this RTT).
func TestLostFastRetransmissionOnDumbbell(t *testing.T) {
	for _, tc := range []struct {
		variant      string
		wantTimeouts int64
		wantDetected bool
		wantARLWL    float64 // eq. 10: detected and called wireless
	}{
		{"newreno", 1, false, 0},
		{"dac", 0, true, 0}, // DAC takes every loss for congestion
		{"tdlrp", 0, true, 100},
	} {
		t.Run(tc.variant, func(t *testing.T) {
			for _, seg := range []int64{10, 20} {
				cfg := ns2Config(t, tc.variant, 1024, 32)
				cfg.TS.Enabled, cfg.TS.Echo, cfg.TS.Tick = true, EchoLatest, sim.Millisecond
				cfg.Timer.RTTSampling = SampleEveryAck
				cfg.Timer.RTO.Min = sim.Second
				seq := 1 + seg*1024 // data starts at 1 after the SYN
				drops := &dropSeqs{want: map[[2]int64]bool{{seq, 1}: true, {seq, 2}: true}, seen: map[int64]int64{}}
				n, f := dumbbell(t, 1, cfg, drops)
				f.LogClassifications()
				n.Run(30 * sim.Second)
				r := f.Result(n.Now())
				if r.FastRetransmits == 0 || drops.seen[seq] < 3 {
					t.Fatalf("segment %d: %d fast retransmits, %d transmissions", seg, r.FastRetransmits, drops.seen[seq])
				}
				detected := false
				for _, c := range f.Classifications() {
					if c.Event == "lost_retransmission" {
						if c.Seq != seq || c.Truth != Wireless {
							t.Fatalf("segment %d: detection %+v, want seq %d, truth wireless", seg, c, seq)
						}
						detected = true
					}
				}
				if r.Timeouts != tc.wantTimeouts || detected != tc.wantDetected {
					t.Fatalf("segment %d: %d timeouts, detected %v; want %d, %v", seg, r.Timeouts, detected, tc.wantTimeouts, tc.wantDetected)
				}
				if r.Accuracy["a_rlwl"] != tc.wantARLWL {
					t.Fatalf("segment %d: accuracy %v, want a_rlwl %v", seg, r.Accuracy, tc.wantARLWL)
				}
			}
		})
	}
}
