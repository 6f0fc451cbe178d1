package tcp

import (
	"math"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// lineConfig is a plain sender for hand-worked traces: no handshake, no
// window cap, a known initial window, immediate ACKs, 1000-byte segments.
func lineConfig(t *testing.T, variant string, iw float64) Config {
	c := ns2Config(t, variant, 1000, 0)
	c.Open.Mode = HandshakeNone
	c.Segments.InitialWindow = iw
	c.Segments.InitialSsthresh = 64
	return c
}

// transmissions returns an error model dropping the given transmissions:
// {segment number (1-based), which transmission of it (1 = original)}.
func transmissions(mss int64, drops ...[2]int64) *dropSeqs {
	d := &dropSeqs{want: map[[2]int64]bool{}, seen: map[int64]int64{}}
	for _, x := range drops {
		d.want[[2]int64{(x[0] - 1) * mss, x[1]}] = true
	}
	return d
}

// A one-shot transfer of 30 segments over the dumbbell of the anchors,
// with chosen segments lost: the outcome of each recovery is worked out by
// hand from RFC 5681/6582 and the T-DLRP paper's §2.
func TestHandWorkedLossRecovery(t *testing.T) {
	cases := []struct {
		name     string
		variant  string
		drops    [][2]int64
		fastRetx int64
		timeouts int64
		toLostFR int64 // timeouts caused by a lost fast retransmission
	}{
		// T-DLRP Fig. 2: cwnd 12, segments 1 and 5 lost, then the fast
		// retransmission of 1 lost as well. Dupacks from 2-4 trigger the
		// fast retransmit; NewReno can only wait in fast recovery, and the
		// retransmission timer ends it.
		{"fig2 newreno: lost fast retransmission ends in a timeout", "newreno",
			[][2]int64{{1, 1}, {5, 1}, {1, 2}}, 1, 1, 1},
		// The same two losses without losing the retransmission: NewReno
		// repairs both in one recovery, the second on the partial ACK.
		{"newreno repairs two losses in one window", "newreno",
			[][2]int64{{1, 1}, {5, 1}}, 1, 0, 0},
		// Reno leaves recovery on the partial ACK for segment 5 and needs
		// three more dupacks; with cwnd halved to 6 and 12 segments out it
		// still gets them (segments 6-12 are above the hole), so plain
		// RFC 5681 Reno fast retransmits a second time, halving again...
		{"plain reno needs a second fast retransmit for two losses", "reno",
			[][2]int64{{1, 1}, {5, 1}}, 2, 0, 0},
		// ...while ns-2's Reno (bug_fix_: the ACK has not passed recover)
		// refuses the second fast retransmit and waits for the timer.
		{"careful reno waits for the timer on a second loss", "reno-careful",
			[][2]int64{{1, 1}, {5, 1}}, 1, 1, 0},
		// Tahoe: one fast retransmit, then slow start from one segment,
		// go-back-N covers segment 5: no timeout.
		{"tahoe goes back N after its fast retransmit", "tahoe",
			[][2]int64{{1, 1}, {5, 1}}, 1, 0, 0},
		// OldTahoe has no fast retransmit: the timer recovers.
		{"oldtahoe waits for the timer", "oldtahoe",
			[][2]int64{{1, 1}}, 0, 1, 0},
		// SACK (RFC 6675) retransmits both holes in the first recovery.
		{"sack repairs two losses in one window", "sack",
			[][2]int64{{1, 1}, {5, 1}}, 1, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			variant, careful := strings.CutSuffix(c.variant, "-careful")
			cfg := lineConfig(t, variant, 12)
			cfg.Recovery.SACK = variant == "sack"
			cfg.Recovery.RenoCareful = careful
			n, f := dumbbell(t, 1, cfg, transmissions(1000, c.drops...))
			f.SetLimit(30 * 1000)
			n.Run(60 * sim.Second)
			r := f.Result(n.Now())
			if r.DeliveredBytes != 30000 {
				t.Fatalf("delivered %d bytes, want 30000", r.DeliveredBytes)
			}
			if r.FastRetransmits != c.fastRetx || r.Timeouts != c.timeouts || r.TimeoutsAfterLostFastRetransmit != c.toLostFR {
				t.Fatalf("fast retransmits %d, timeouts %d (after lost FR %d); want %d, %d (%d)",
					r.FastRetransmits, r.Timeouts, r.TimeoutsAfterLostFastRetransmit, c.fastRetx, c.timeouts, c.toLostFR)
			}
		})
	}
}

// The RFC 6298 §2 estimator by hand: first sample R gives SRTT = R,
// RTTVAR = R/2; then RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'| before
// SRTT = 7/8 SRTT + 1/8 R'; RTO = SRTT + max(G, 4 RTTVAR). The ns2 policy
// does the same in 10 ms ticks with ns-2's integer filter.
func TestRTOSequence(t *testing.T) {
	ms := sim.Millisecond
	cases := []struct {
		policy  string
		samples []sim.Time
		want    []sim.Time // RTO after each sample (min RTO 0)
	}{
		{"rfc6298", []sim.Time{100 * ms, 120 * ms, 80 * ms},
			[]sim.Time{300 * ms, 272500 * sim.Microsecond, 249687500 * sim.Nanosecond}},
		// ns-2 ticks: 10, then 12, then 8. t_srtt 80 -> 82 -> 80,
		// t_rttvar 20 -> 17 -> 15; RTO = (8 t_rttvar + t_srtt) >> 3 ticks.
		{"ns2", []sim.Time{100 * ms, 120 * ms, 80 * ms},
			[]sim.Time{300 * ms, 270 * ms, 250 * ms}},
	}
	for _, c := range cases {
		t.Run(c.policy, func(t *testing.T) {
			cfg := RTOConfig{Policy: c.policy, Min: 0, Max: 60 * sim.Second, Initial: sim.Second,
				Granularity: 10 * ms, K: 4, Alpha: 0.125, Beta: 0.25}
			var e RTOPolicy = &ns2RTO{cfg: cfg} // clock phase 0
			if c.policy == "rfc6298" {
				cfg.Granularity = ms
				e = &rfc6298{cfg: cfg}
			}
			for i, s := range c.samples {
				e.Sample(s, 0)
				if got := e.RTO(1); got != c.want[i] {
					t.Fatalf("after sample %d (%v): RTO %v, want %v", i+1, s, got, c.want[i])
				}
			}
			// Back-off doubles (RFC 6298 §5.5) and is clamped at the maximum.
			b := 1
			for i := 0; i < 20; i++ {
				b = e.Backoff(b)
			}
			if got := e.RTO(b); got != 60*sim.Second {
				t.Fatalf("backed-off RTO %v, want the 60 s maximum", got)
			}
		})
	}
}

// RFC 1122 / RFC 5681 §4.2: ACK every second full-sized segment. On a
// clean path the receiver sends half as many ACKs.
func TestDelayedAcksHalveTheAckCount(t *testing.T) {
	count := func(delack int) (acks, segs int64) {
		cfg := ns2Config(t, "newreno", 1024, 32)
		cfg.Acks.DelAckCount = delack
		cfg.Acks.DelAckTimeout = 200 * sim.Millisecond
		n, f := dumbbell(t, 1, cfg, nil)
		n.Run(20 * sim.Second)
		return f.rcv.acksSent, f.rcv.ReceivedData
	}
	a1, s1 := count(1)
	a2, s2 := count(2)
	r1, r2 := float64(a1)/float64(s1), float64(a2)/float64(s2)
	if math.Abs(r1-1) > 0.01 || math.Abs(r2-0.5) > 0.01 {
		t.Fatalf("ACKs per segment: %.3f without and %.3f with delayed ACKs; want 1 and 0.5", r1, r2)
	}
}

var _ network.ErrorModel = (*dropSeqs)(nil)
