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

// Forty segments, the fourth lost and its fast retransmission lost too.
// RFC 6675 cannot resend a segment it has resent: the loss waits for the
// retransmission timer. RACK judges a retransmission by when it was sent
// (RFC 8985 §6.2 step 5): once a segment sent after it is SACKed (new data
// recovery sends on), the retransmission is lost (no reordering window in
// recovery) and the segment goes out a third time on that ACK.
func TestRACKResendsALostRetransmission(t *testing.T) {
	for _, c := range []struct {
		name     string
		rack     bool
		timeouts int64
	}{{"rfc6675 alone", false, 1}, {"with rack", true, 0}} {
		t.Run(c.name, func(t *testing.T) {
			cfg, _ := Profile("linux")
			cfg.Variant, cfg.Segments.MSS = "newreno", 1000
			cfg.Recovery.RACK = c.rack
			const lost = 1 + 3*1000
			n, f := dumbbell(t, 1, cfg, &dropSeqs{want: map[[2]int64]bool{{lost, 1}: true, {lost, 2}: true}, seen: map[int64]int64{}})
			f.SetLimit(40 * 1000)
			var tx []sim.Time // transmissions of the fourth segment
			var firstAfter sim.Time
			acks := map[sim.Time]bool{}
			f.SetProbe(func(s *Sample) {
				switch {
				case s.Event == 's' && s.Seq == lost:
					tx = append(tx, s.Time)
				case s.Event == 's' && len(tx) == 2 && firstAfter == 0 && s.Seq > lost:
					firstAfter = s.Time // the first segment sent after the lost retransmission
				case s.Event == 'a':
					acks[s.Time] = true
				}
			})
			n.Run(20 * sim.Second)
			r := f.Result(n.Now())
			if r.DeliveredBytes != 40*1000 {
				t.Fatalf("delivered %d bytes, want 40000", r.DeliveredBytes)
			}
			if r.Timeouts != c.timeouts {
				t.Fatalf("timeouts %d, want %d", r.Timeouts, c.timeouts)
			}
			if len(tx) != 3 {
				t.Fatalf("the fourth segment went out %d times, want 3", len(tx))
			}
			if !c.rack {
				return
			}
			// The third transmission answers an ACK, one round trip after a
			// later segment was sent, well before any timer.
			if !acks[tx[2]] {
				t.Errorf("third transmission at %v is not on an ACK", tx[2])
			}
			if rtt := f.snd.SRTT; tx[2] < firstAfter+rtt/2 || tx[2] > firstAfter+2*rtt {
				t.Errorf("third transmission at %v, want about one RTT (%v) after the first segment sent after the second (%v)", tx[2], rtt, firstAfter)
			}
		})
	}
}

// At a timeout RACK marks lost only the head and what was sent at least
// RACK.rtt ago (Linux's tcp_timeout_mark_lost); RFC 6675 §5.1 counts every
// segment below recover lost. A BBR flow in steady state on a 100 ms path
// has a window sent over the last round trip: forcing the timer there, the
// pipe keeps the segments sent within RACK.rtt.
func TestRACKTimeoutKeepsRecentSegmentsInFlight(t *testing.T) {
	for _, rack := range []bool{false, true} {
		cfg, _ := Profile("linux")
		cfg.Variant, cfg.Segments.MSS, cfg.Segments.Window = "bbr", 1000, 500
		cfg.Recovery.RACK = rack
		cfg.Timer.Spurious = SpuriousNone // F-RTO would hold the repair back
		n, f := dumbbell(t, 1, cfg, nil)
		n.Run(5 * sim.Second)
		s := f.snd
		s.Now = n.Now()
		var recent int64 // segments sent within RACK.rtt (with RACK) of now
		rtt := sim.Time(0)
		if s.rack != nil {
			rtt = s.rack.rtt
		}
		for k := s.seg(s.Una) + 1; s.sb.has(k) && s.dataStart+k*s.mss < s.High; k++ {
			if info := s.sb.at(k); !info.sacked && info.sentAt+rtt > s.Now {
				recent++
			}
		}
		s.onRTO()
		pipe := s.rec.flight()
		// The pipe holds the timeout's retransmission and, with RACK, the
		// recent segments; nothing else was sent at this instant.
		want := s.mss * (1 + recent)
		if !rack {
			want = s.mss
		}
		if pipe != want {
			t.Errorf("rack=%v: pipe after the timeout %d bytes, want %d (%d segments sent within RACK.rtt %v)", rack, pipe, want, recent, rtt)
		}
		if rack && recent == 0 {
			t.Errorf("no segment sent within RACK.rtt: the test shows nothing")
		}
	}
}
