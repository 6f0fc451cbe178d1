package tcp

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Hybla's growth by hand (Caini & Firrincieli eq. 6, as ns-3's TcpHybla):
// with a 200 ms minimum RTT and RTT0 = 50 ms, rho = 4, so slow start adds
// 2^4 - 1 = 15 segments per ACK and congestion avoidance 16/W per
// segment; with RTT <= RTT0 it is Reno.
func TestHyblaScalesGrowthByRho(t *testing.T) {
	for _, tc := range []struct {
		name           string
		rtt            sim.Time
		cwnd, ssthresh float64 // segments
		acks           int
		want           float64 // cwnd after the ACKs, segments
	}{
		{"slow start, rho 4: +15 per ACK", 200 * sim.Millisecond, 10, 1000, 3, 55},
		{"slow start capped at ssthresh, the rest to congestion avoidance", 200 * sim.Millisecond, 10, 20, 1, 20},
		// 16/16 + 16/17 + 16/17 + 16/18 + ...: twelve whole segments in 16 ACKs.
		{"congestion avoidance, rho 4: 16/W per segment, whole segments", 200 * sim.Millisecond, 16, 8, 16, 28},
		{"short RTT: rho 1, Reno's slow start", 20 * sim.Millisecond, 10, 1000, 3, 13},
		{"short RTT: rho 1, Reno's one segment per window", 20 * sim.Millisecond, 16, 8, 16, 17},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "hybla", nil)
			s := testState(tc.cwnd, tc.ssthresh)
			s.MinRTT = tc.rtt
			for i := 0; i < tc.acks; i++ {
				s.Una += tMSS
				v.OnAck(s, &AckEvent{Ack: s.Una, Acked: tMSS, RTT: tc.rtt})
			}
			if got := segs(s.Cwnd); math.Abs(got-tc.want) > 1e-9 {
				t.Fatalf("cwnd %.3f segments, want %v (rho %.2f)", got, tc.want, v.(*Hybla).Rho())
			}
		})
	}
}
