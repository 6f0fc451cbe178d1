package tcp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Twenty segments in flight (cwnd 20, one ACK per segment), the first
// lost: recovery starts on the third duplicate ACK with ssthresh 10,
// RecoverFS 20 and a pipe of 17 (16 not SACKed nor lost, and the
// retransmission). RFC 6675 sends by cwnd − pipe: nothing until the pipe
// has drained below 10, eight ACKs later. PRR (RFC 6937 §3) sends
// ceil(prr_delivered·ssthresh/RecoverFS) − prr_out: one new segment on
// every second ACK from the third (prr_out starts at 1, the
// retransmission; in segments, as Linux counts), so the flight falls
// towards ssthresh as it is delivered, not in one silence.
func TestPRRSpreadsRecoverySending(t *testing.T) {
	for _, c := range []struct {
		name string
		prr  bool
		want []int // new segments sent on each ACK of recovery, from the one that starts it
	}{
		{"rfc6675", false, []int{0, 0, 0, 0, 0, 0, 0, 0, 1, 1}},
		{"prr", true, []int{0, 0, 1, 0, 1, 0, 1, 0, 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, _ := Profile("linux")
			cfg.Variant, cfg.Segments.MSS = "newreno", 1000
			cfg.Segments.InitialWindow, cfg.Segments.Window = 20, 40
			cfg.Acks.DelAckCount = 1
			cfg.Recovery.LimitedTransmit, cfg.Recovery.RACK, cfg.Recovery.PRR = false, false, c.prr
			const first = 1 // data starts after the SYN
			n, f := dumbbell(t, 1, cfg, &dropSeqs{want: map[[2]int64]bool{{first, 1}: true}, seen: map[int64]int64{}})
			f.SetLimit(60 * 1000)
			var perAck []int
			sent := 0
			f.SetProbe(func(s *Sample) {
				switch {
				case s.Event == 's' && !s.Retx:
					sent++
				case s.Event == 'a':
					if f.snd.InRecovery || len(perAck) > 0 && len(perAck) < len(c.want) {
						perAck = append(perAck, sent)
					}
					sent = 0
				}
			})
			n.Run(10 * sim.Second)
			if r := f.Result(n.Now()); r.DeliveredBytes != 60*1000 || r.Timeouts != 0 || r.FastRetransmits != 1 {
				t.Fatalf("delivered %d, timeouts %d, fast retransmits %d; want 60000, 0, 1", r.DeliveredBytes, r.Timeouts, r.FastRetransmits)
			}
			if got := perAck[:min(len(perAck), len(c.want))]; !slices.Equal(got, c.want) {
				t.Errorf("new segments per ACK in recovery %v, want %v", got, c.want)
			}
		})
	}
}

// Recovery is paced as everything else (Linux's tcp_xmit_retransmit_queue
// and ns-3.37's SendPendingData both wait for the pacer): a BBR flow
// paced segment by segment (profile ns3), through a hundred recoveries at
// 2% loss, never sends two segments of a recovery closer than a segment's
// time at the pacing rate, but for the fast retransmission that opens it
// (ns-3's retransmission on a partial ACK, also sent past the pacer, is
// left out here).
func TestRecoveryIsPaced(t *testing.T) {
	cfg, _ := Profile("ns3")
	cfg.Variant, cfg.Segments.MSS, cfg.Segments.Window, cfg.Recovery.SACK = "bbr", 1000, 500, true
	cfg.Recovery.SACKPartialRetransmit = false
	n, f := dumbbell(t, 1, cfg, &bernoulli{p: 0.02, r: rand.New(rand.NewPCG(1, 2))})
	var last sim.Time
	var lastRate float64
	var lastSize int64
	entered, pairs := 0, 0
	wasIn := false
	f.SetProbe(func(s *Sample) {
		in := f.snd.InRecovery
		if s.Event != 's' {
			wasIn = wasIn && in // recovery ended on this ACK
			return
		}
		if in && !wasIn {
			// The fast retransmission is sent on the ACK, past the pacer:
			// the next paced segment keeps its time from the one before.
			entered++
			wasIn = true
			return
		}
		if in && last > 0 {
			pairs++
			if gap, want := s.Time-last, sim.FromSeconds(float64(lastSize)/lastRate); gap < want-sim.Nanosecond {
				t.Fatalf("at %v two segments of a recovery %v apart, less than a segment at %.0f B/s (%v)", s.Time, gap, lastRate, want)
			}
		}
		wasIn = in
		last, lastRate, lastSize = s.Time, f.snd.PacingRate, f.snd.segEnd(s.Seq)-s.Seq
	})
	n.Run(100 * sim.Second)
	if entered < 100 || pairs < 1000 {
		t.Fatalf("%d recoveries, %d paced pairs in them: too few to show anything", entered, pairs)
	}
}

// lossRecorder passes rate samples on to the variant, noting their losses.
type lossRecorder struct {
	RateController
	losses *[]int64
}

func (l lossRecorder) OnRateSample(s *State, rs *RateSample) {
	if rs.Losses != 0 {
		*l.losses = append(*l.losses, rs.Losses)
	}
	l.RateController.OnRateSample(s, rs)
}

// One segment lost in BBR's first round trips (MSS 1000, ns-3 profile,
// watched until its repair is acknowledged): the delivery-
// rate draft (and Linux) count it once, on the ACK after its fast
// retransmission left; ns-3.37 (LossByMarks) hands BBR the change in the
// bytes marked lost, so the hole counts when the third SACK marks it and
// again when its retransmission is acknowledged and the mark comes off.
func TestLossByMarksCountsAHoleWhenMarkedAndWhenRepaired(t *testing.T) {
	for _, c := range []struct {
		marks bool
		want  []int64
	}{
		{false, []int64{1000}},
		{true, []int64{1000, 1000}},
	} {
		cfg, _ := Profile("ns3")
		cfg.Variant, cfg.Segments.MSS = "bbr-ns3", 1000
		cfg.Recovery.LossByMarks = c.marks
		const first = 1 // data starts after the SYN
		n, f := dumbbell(t, 1, cfg, &dropSeqs{want: map[[2]int64]bool{{first + 5*1000, 1}: true}, seen: map[int64]int64{}})
		var losses []int64
		f.snd.ctl = lossRecorder{f.snd.ctl, &losses}
		for f.snd.Una <= first+5*1000 {
			n.Run(n.Now() + sim.Millisecond)
		}
		n.Run(n.Now() + 10*sim.Millisecond)
		if r := f.Result(n.Now()); r.RetransmittedPackets != 1 || r.Timeouts != 0 || r.FastRetransmits != 1 {
			t.Fatalf("marks %v: retransmissions %d, timeouts %d, fast retransmits %d; want 1, 0, 1", c.marks, r.RetransmittedPackets, r.Timeouts, r.FastRetransmits)
		}
		if !slices.Equal(losses, c.want) {
			t.Errorf("marks %v: losses per rate sample %v, want %v", c.marks, losses, c.want)
		}
	}
}
