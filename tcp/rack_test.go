package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Five segments go out at once (initial window 10); the fourth is lost.
// Only the fifth's SACK comes back: one duplicate ACK, not RFC 6675's
// three. Without RACK the loss waits for the retransmission timer; with it
// (RFC 8985 §6.2) the fourth is lost once RACK.rtt plus a quarter of the
// minimum RTT has passed since it was sent, and is resent by fast
// recovery: the reordering timer fires at sent(4) + RTT(5) + min RTT/4.
func TestRACKRecoversALossWithOneDuplicateACK(t *testing.T) {
	for _, c := range []struct {
		name     string
		rack     bool
		timeouts int64
		fastRetx int64
	}{{"rfc6675 alone", false, 1, 0}, {"with rack", true, 0, 1}} {
		t.Run(c.name, func(t *testing.T) {
			cfg, _ := Profile("linux")
			cfg.Variant, cfg.Segments.MSS = "newreno", 1000
			cfg.Recovery.RACK = c.rack
			const lost = 1 + 3*1000 // the fourth segment (data starts at 1)
			n, f := dumbbell(t, 1, cfg, &dropSeqs{want: map[[2]int64]bool{{lost, 1}: true}, seen: map[int64]int64{}})
			f.SetLimit(5 * 1000)
			var sent [6]sim.Time // first transmission of segment i (1-based)
			var retxAt, ackOf5 sim.Time
			f.SetProbe(func(s *Sample) {
				switch {
				case s.Event == 's' && !s.Retx && s.Seq >= 1:
					if i := (s.Seq-1)/1000 + 1; i <= 5 && sent[i] == 0 {
						sent[i] = s.Time
					}
				case s.Event == 's' && s.Retx && s.Seq == lost && retxAt == 0:
					retxAt = s.Time
				case s.Event == 'a' && s.Ack == lost && ackOf5 == 0 && s.Time > sent[5]:
					ackOf5 = s.Time // the duplicate ACK that SACKs the fifth
				}
			})
			n.Run(10 * sim.Second)
			r := f.Result(n.Now())
			if r.Timeouts != c.timeouts || r.FastRetransmits != c.fastRetx {
				t.Fatalf("timeouts %d, fast retransmits %d; want %d and %d", r.Timeouts, r.FastRetransmits, c.timeouts, c.fastRetx)
			}
			if r.DeliveredBytes != 5000 {
				t.Fatalf("delivered %d bytes, want 5000", r.DeliveredBytes)
			}
			if !c.rack {
				return
			}
			rtt5 := ackOf5 - sent[5]
			minRTT := f.snd.MinRTT
			want := sent[4] + rtt5 + minRTT/4
			if retxAt != want {
				t.Errorf("retransmitted at %v, want sent(4) %v + RTT(5) %v + min RTT/4 %v = %v", retxAt, sent[4], rtt5, minRTT/4, want)
			}
		})
	}
}
