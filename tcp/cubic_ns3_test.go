package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// ns-3's TcpCubic counts in whole segments: with no W_max yet the window
// grows one segment per 20 acknowledged (CntClamp); a loss sets ssthresh
// to floor(0.7·W) segments and W_max to W (or (1+beta)/2·W below the
// last one: fast convergence); slow start adds a segment per segment
// acknowledged and gives nothing to congestion avoidance.
func TestCubicNS3WholeSegmentArithmetic(t *testing.T) {
	t.Run("no W_max: one segment per 20 acknowledged", func(t *testing.T) {
		v := newTestVariant(t, "cubic-ns3", map[string]float64{"hystart": 0})
		s := testState(10, 5)
		s.LastRTT = 100 * sim.Millisecond
		for i := 0; i < 40; i++ {
			s.Now += sim.Millisecond
			s.Una += tMSS
			v.OnAck(s, &AckEvent{Ack: s.Una, Acked: tMSS})
		}
		if segs(s.Cwnd) != 12 {
			t.Fatalf("cwnd %.2f after 40 segments, want 12", segs(s.Cwnd))
		}
	})
	t.Run("slow start: a segment per segment, no carry", func(t *testing.T) {
		v := newTestVariant(t, "cubic-ns3", map[string]float64{"hystart": 0})
		s := testState(9, 10)
		s.Una += 3 * tMSS
		v.OnAck(s, &AckEvent{Ack: s.Una, Acked: 3 * tMSS})
		if segs(s.Cwnd) != 12 {
			t.Fatalf("cwnd %.2f, want 12", segs(s.Cwnd))
		}
	})
	t.Run("loss: floor(0.7 W), then fast convergence", func(t *testing.T) {
		v := newTestVariant(t, "cubic-ns3", nil)
		c := v.(*CubicNS3)
		s := testState(101, 1000)
		v.OnLoss(s, &LossEvent{})
		if segs(s.Ssthresh) != 70 || segs(s.Cwnd) != 70 || c.lastMax != 101 {
			t.Fatalf("ssthresh %.1f cwnd %.1f W_max %d, want 70 70 101", segs(s.Ssthresh), segs(s.Cwnd), c.lastMax)
		}
		setWindow(s, 90)
		v.OnLoss(s, &LossEvent{})
		if c.lastMax != 76 { // 90·1.7/2 = 76.5, truncated
			t.Fatalf("W_max %d after a loss below it, want 76", c.lastMax)
		}
	})
}
