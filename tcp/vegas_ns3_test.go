package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// ns-3's TcpVegas truncates the target window: at W = 21 with BaseRTT
// 100 ms and RTT 110 ms, the target is floor(21/1.1) = 19 and diff = 2,
// not below alpha = 2 (vegas.go's 1.9 is): the window stays; at RTT
// 150 ms diff = 21 - 14 = 7 > beta: one segment less, ssthresh =
// max(min(ssthresh, cwnd - 1), 2) then at least 3/4 cwnd (16.5 from the
// first round's 22).
func TestVegasNS3CountsInWholeSegments(t *testing.T) {
	for _, tc := range []struct {
		name           string
		rtt            sim.Time
		wantCwnd, want float64 // segments: cwnd, ssthresh
	}{
		{"diff 2: stays", 110 * sim.Millisecond, 21, 16.5},
		{"diff 7 > beta: -1", 150 * sim.Millisecond, 20, 16.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "vegas-ns3", nil)
			s := testState(21, 10)
			v.Init(s)
			s.LastRTT = 100 * sim.Millisecond
			ackRound(v, s, 100*sim.Millisecond) // BaseRTT (diff 0: cwnd 22)
			setWindow(s, 21)
			s.LastRTT = tc.rtt
			ackRound(v, s, tc.rtt)
			if segs(s.Cwnd) != tc.wantCwnd || segs(s.Ssthresh) != tc.want {
				t.Fatalf("cwnd %.2f ssthresh %.2f, want %v %v", segs(s.Cwnd), segs(s.Ssthresh), tc.wantCwnd, tc.want)
			}
		})
	}
}
