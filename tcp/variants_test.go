package tcp

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
)

// Unit tests: each variant driven through the Variant interface with a
// hand-built State, pinning the behaviour that defines it.

const tMSS = 1000

// testState is a sender with cwnd and ssthresh in segments, everything
// outstanding (flight = cwnd), ns-3's loss basis (bytes in flight).
func testState(cwnd, ssthresh float64) *State {
	s := &State{MSS: tMSS, Ssthresh: ssthresh * tMSS, SRTT: 100 * sim.Millisecond,
		MinRTT: sim.Never, TSTick: sim.Millisecond, Una: 1}
	setWindow(s, cwnd)
	return s
}

// setWindow sets cwnd to cwnd segments, all of them outstanding.
func setWindow(s *State, cwnd float64) {
	s.Cwnd = cwnd * tMSS
	s.Nxt = s.Una + int64(cwnd)*tMSS
	s.High = s.Nxt
}

func newTestVariant(t *testing.T, name string, params map[string]float64) Variant {
	t.Helper()
	spec, ok := variants[name]
	if !ok {
		t.Fatalf("variant %s not registered", name)
	}
	v, err := spec.make(params)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// ackRound delivers one window of ACKs, one segment each, evenly over rtt,
// every ACK carrying the RTT sample rtt, and keeps the window full.
func ackRound(v Variant, s *State, rtt sim.Time) {
	n := int(s.Cwnd / s.MSS)
	for i := 0; i < n; i++ {
		s.Now += rtt / sim.Time(n)
		s.Una += tMSS
		v.OnAck(s, &AckEvent{Ack: s.Una, Acked: tMSS, RTT: rtt})
		s.Nxt = s.Una + int64(s.Cwnd/s.MSS)*tMSS
		s.High = s.Nxt
	}
}

func segs(b float64) float64 { return b / tMSS }

// near compares windows in segments up to rounding of the estimators.
func near(a, b float64) bool { return math.Abs(a-b) < 0.01 }

func TestVenoCutsToFourFifthsOnlyWhenBacklogBelowBeta(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rtt       sim.Time // RTT of the round before the loss (BaseRTT 100 ms)
		wantSsth  float64  // segments
		wantClass LossClass
	}{
		{"no queue: N=0 < 3, random loss, 4/5", 100 * sim.Millisecond, 16, Wireless},
		{"N=2.7 < 3, random loss, 4/5", 115 * sim.Millisecond, 16, Wireless},
		{"N=4 >= 3, congestion loss, 1/2", 125 * sim.Millisecond, 10, Congestion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "veno", nil)
			s := testState(20, 10)
			v.Init(s)
			ackRound(v, s, 100*sim.Millisecond) // BaseRTT
			s.Cwnd = 20 * tMSS                  // measure the next round at cwnd 20
			ackRound(v, s, tc.rtt)
			setWindow(s, 20)
			r := v.OnLoss(s, &LossEvent{})
			if segs(s.Ssthresh) != tc.wantSsth || segs(s.Cwnd) != tc.wantSsth || r.Class != tc.wantClass {
				t.Fatalf("N=%.2f: ssthresh %.1f cwnd %.1f %v, want %v %v", v.(*Veno).Backlog(), segs(s.Ssthresh), segs(s.Cwnd), r.Class, tc.wantSsth, tc.wantClass)
			}
		})
	}
}

func TestVenoGrowsEveryOtherRTTWhenCongested(t *testing.T) {
	for _, tc := range []struct {
		name string
		rtt  sim.Time
		want float64 // segments gained over 4 rounds after the measuring round
	}{
		{"N < beta: Reno, one per RTT", 100 * sim.Millisecond, 4},
		{"N >= beta: one per two RTTs", 150 * sim.Millisecond, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "veno", nil)
			s := testState(20, 10)
			v.Init(s)
			ackRound(v, s, 100*sim.Millisecond)
			ackRound(v, s, tc.rtt)
			start := s.Cwnd
			for i := 0; i < 4; i++ {
				ackRound(v, s, tc.rtt)
			}
			if got := segs(s.Cwnd - start); math.Abs(got-tc.want) > 0.3 {
				t.Fatalf("gained %.2f segments in 4 RTTs, want about %v", got, tc.want)
			}
		})
	}
}

func TestVegasAdjustsOncePerRTTBetweenAlphaAndBeta(t *testing.T) {
	for _, tc := range []struct {
		name string
		rtt  sim.Time // RTT of the second round (BaseRTT 100 ms); cwnd 21 then
		want float64  // cwnd after the second round
	}{
		{"diff 1.9 < alpha: +1", 110 * sim.Millisecond, 22},
		{"alpha <= diff 2.7 <= beta: hold", 115 * sim.Millisecond, 21},
		{"diff 7 > beta: -1", 150 * sim.Millisecond, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "vegas", nil)
			s := testState(20, 10) // congestion avoidance
			v.Init(s)
			ackRound(v, s, 100*sim.Millisecond) // diff 0: 20 -> 21 at the round's end
			if segs(s.Cwnd) != 21 {
				t.Fatalf("after the first round cwnd %.2f, want 21", segs(s.Cwnd))
			}
			ackRound(v, s, tc.rtt)
			if segs(s.Cwnd) != tc.want {
				t.Fatalf("cwnd %.2f, want %v", segs(s.Cwnd), tc.want)
			}
		})
	}
}

func TestVegasLeavesSlowStartWhenDiffExceedsGamma(t *testing.T) {
	v := newTestVariant(t, "vegas", nil)
	s := testState(8, 1000)
	v.Init(s)
	ackRound(v, s, 100*sim.Millisecond)
	ackRound(v, s, 200*sim.Millisecond) // half the window is queue
	if s.InSlowStart() || segs(s.Cwnd) > 16 {
		t.Fatalf("still in slow start: cwnd %.1f ssthresh %.1f", segs(s.Cwnd), segs(s.Ssthresh))
	}
}

func TestVegasLossRules(t *testing.T) {
	for _, tc := range []struct {
		rule float64
		want float64
	}{{0, 10}, {1, 19}, {2, 15}} {
		v := newTestVariant(t, "vegas", map[string]float64{"loss_rule": tc.rule})
		s := testState(20, 30)
		if v.OnLoss(s, &LossEvent{}); segs(s.Ssthresh) != tc.want {
			t.Errorf("loss_rule %v: ssthresh %.1f, want %v", tc.rule, segs(s.Ssthresh), tc.want)
		}
	}
}

func TestWestwoodSetsSsthreshFromBandwidthNotWindow(t *testing.T) {
	// ACKs of 10 segments per 100 ms RTT: 100 kB/s, BWE·RTTmin = 10 segments
	// whatever cwnd was when the loss came.
	for _, cwnd := range []float64{40, 12} {
		v := newTestVariant(t, "westwood", nil)
		s := testState(10, 5)
		v.Init(s)
		for i := 0; i < 80; i++ {
			s.Cwnd = 10 * tMSS
			ackRound(v, s, 100*sim.Millisecond)
		}
		if bwe := v.(*Westwood).Estimate(); math.Abs(bwe-1e5)/1e5 > 0.02 {
			t.Fatalf("estimate %.0f B/s, want 100000", bwe)
		}
		s.Cwnd = cwnd * tMSS
		v.OnLoss(s, &LossEvent{})
		if got := segs(s.Ssthresh); math.Abs(got-10) > 0.2 || s.Cwnd != s.Ssthresh {
			t.Fatalf("cwnd %v at loss: ssthresh %.2f cwnd %.2f, want 10", cwnd, got, segs(s.Cwnd))
		}
	}
}

// During fast recovery no ACK carries an RTT sample, yet segments keep
// leaving the network: a sample window must open on duplicate ACKs too,
// lasting the latest RTT (ns-3.37's TcpWestwood), or the segments they
// report pile up outside any window and are then divided by one RTT. Here
// 100 segments a second arrive throughout: one ACK with a 100 ms sample,
// 50 duplicate ACKs 10 ms apart, the end of the recovery (its cumulative
// ACK not shown to the variant, as under the linux profile's exit rule),
// then new ACKs with samples. Every sample must read about 100 segments a
// second; the old rule, opening a window only on an ACK with an RTT
// sample, read 410 after the recovery.
func TestWestwoodCountsDuplicateACKsInSampleWindows(t *testing.T) {
	v := newTestVariant(t, "westwood", nil)
	w := v.(*Westwood)
	s := testState(10, 5)
	v.Init(s)
	rtt := 100 * sim.Millisecond
	step := 10 * sim.Millisecond
	v.OnAck(s, &AckEvent{Acked: tMSS, RTT: rtt})
	var samples []float64
	start := w.winStart
	record := func() { // a window closed: its sample is the last one
		if w.winStart != start {
			start = w.winStart
			samples = append(samples, w.lastSample/tMSS)
		}
	}
	for range 50 {
		s.Now += step
		v.OnDupAck(s, &AckEvent{Dupacks: 3})
		record()
	}
	v.OnRecoveryExit(s)
	for range 30 {
		s.Now += step
		v.OnAck(s, &AckEvent{Acked: tMSS, RTT: rtt})
		record()
	}
	if len(samples) < 6 {
		t.Fatalf("%d samples: %v", len(samples), samples)
	}
	for i, x := range samples {
		if math.Abs(x-100) > 15 {
			t.Fatalf("sample %d: %.0f segments/s, want about 100 (all: %.0f)", i, x, samples)
		}
	}
}

// cubicCA runs congestion avoidance for d at one ACK per segment per RTT
// (100 ms) and returns the window in segments.
func cubicCA(v Variant, s *State, d sim.Time) float64 {
	end := s.Now + d
	for s.Now < end {
		s.Now += 100 * sim.Millisecond / sim.Time(s.Cwnd/s.MSS)
		v.OnAck(s, &AckEvent{Acked: tMSS})
	}
	return segs(s.Cwnd)
}

func TestCubicReturnsToWmaxAfterK(t *testing.T) {
	v := newTestVariant(t, "cubic", map[string]float64{"tcp_friendliness": 0})
	s := testState(100, 1000)
	v.OnLoss(s, &LossEvent{})
	if segs(s.Ssthresh) != 70 || s.Cwnd != s.Ssthresh {
		t.Fatalf("ssthresh %.1f cwnd %.1f, want 70 (beta 0.7)", segs(s.Ssthresh), segs(s.Cwnd))
	}
	k := math.Cbrt(30 / 0.4) // RFC 9438 eq. 2: 4.22 s
	if w := cubicCA(v, s, sim.FromSeconds(k/2)); w < 85 || w > 97 {
		t.Fatalf("at K/2 cwnd %.1f, want concave growth between 85 and 97", w)
	}
	if w := cubicCA(v, s, sim.FromSeconds(k/2)); w < 98 || w > 101 {
		t.Fatalf("at K cwnd %.1f, want the plateau W_max = 100", w)
	}
	if w := cubicCA(v, s, sim.FromSeconds(k)); w < 110 {
		t.Fatalf("at 2K cwnd %.1f, want convex growth past W_max", w)
	}
}

func TestCubicFastConvergenceLowersWmax(t *testing.T) {
	for _, tc := range []struct {
		fc   float64
		want float64
	}{{1, 90 * 1.7 / 2}, {0, 90}} {
		v := newTestVariant(t, "cubic", map[string]float64{"fast_convergence": tc.fc})
		c := v.(*Cubic)
		v.OnLoss(testState(100, 1000), &LossEvent{})
		v.OnLoss(testState(90, 1000), &LossEvent{}) // below W_max = 100
		if math.Abs(c.wMax-tc.want) > 1e-9 {
			t.Errorf("fast_convergence %v: W_max %.2f, want %.2f", tc.fc, c.wMax, tc.want)
		}
	}
}

func TestCubicRenoFriendlyRegion(t *testing.T) {
	// After a loss at 100 segments with a tiny C, the cubic curve stays
	// near 70; only the Reno-friendly region (eq. 4: 3(1-beta)/(1+beta) =
	// 0.53 segments per RTT) grows the window: 20 RTTs give about 80.6.
	for _, tc := range []struct {
		friendly float64
		min, max float64
	}{{1, 79.5, 81.5}, {0, 70, 71.5}} {
		v := newTestVariant(t, "cubic", map[string]float64{"c": 1e-6, "tcp_friendliness": tc.friendly})
		s := testState(100, 1000)
		v.OnLoss(s, &LossEvent{})
		if w := cubicCA(v, s, 2*sim.Second); w < tc.min || w > tc.max {
			t.Errorf("friendliness %v: cwnd %.2f after 20 RTTs, want %v..%v", tc.friendly, w, tc.min, tc.max)
		}
	}
}

// An ACK that covers a repaired hole after a timeout (here 156 segments
// at cwnd 1) takes slow start to ssthresh, not past it (RFC 5681 §3.1,
// Linux's tcp_slow_start): uncapped it had jumped to 157 segments and
// flooded a 50-packet queue.
func TestCubicSlowStartStopsAtSsthresh(t *testing.T) {
	v := newTestVariant(t, "cubic", nil)
	s := testState(1, 9)
	v.OnAck(s, &AckEvent{Ack: s.Una + 156*tMSS, Acked: 156 * tMSS, RTT: 100 * sim.Millisecond})
	if segs(s.Cwnd) != 9 {
		t.Errorf("cwnd %.1f segments after a 156-segment ACK at ssthresh 9", segs(s.Cwnd))
	}
	s = testState(4, 9)
	v.OnAck(s, &AckEvent{Ack: s.Una + 2*tMSS, Acked: 2 * tMSS, RTT: 100 * sim.Millisecond})
	if segs(s.Cwnd) != 6 {
		t.Errorf("cwnd %.1f after a delayed ACK of 2 segments at 4, want 6", segs(s.Cwnd))
	}
}

// In congestion avoidance, with byte counting (the linux profile) a
// delayed ACK covering two segments grows the window as much as two ACKs
// of one (Linux's tcp_cong_avoid_ai counts acknowledged segments); per ACK
// (RFC 9438 as written) it grows it half as much.
func TestCubicCountsAcknowledgedSegmentsWithByteCounting(t *testing.T) {
	growth := func(byteCounting bool, perACK float64, acks int) float64 {
		v := newTestVariant(t, "cubic", map[string]float64{"tcp_friendliness": 0})
		s := testState(100, 1000)
		s.growth.ByteCounting = byteCounting
		v.OnLoss(s, &LossEvent{})
		start := s.Cwnd
		for range acks { // over the same 200 ms
			s.Now += sim.Time(perACK) * 10 * sim.Millisecond
			s.Una += int64(perACK * tMSS)
			v.OnAck(s, &AckEvent{Ack: s.Una, Acked: perACK * tMSS, RTT: 100 * sim.Millisecond})
		}
		return segs(s.Cwnd - start)
	}
	one, two := growth(true, 1, 20), growth(true, 2, 10)
	if math.Abs(one-two) > 0.02*one || one <= 0 {
		t.Errorf("byte counting: 20 ACKs of 1 segment grew %.3f, 10 of 2 grew %.3f; want equal", one, two)
	}
	if perACK := growth(false, 2, 10); math.Abs(perACK-two/2) > 0.1*two/2 {
		t.Errorf("per ACK: 10 ACKs of 2 segments grew %.3f, want half of %.3f", perACK, two)
	}
}

// jerseyRate feeds a NewJersey/T-DLRP estimator 10 segments per 100 ms for
// a few seconds (receiver timestamps 10 ms apart).
func jerseyRate(v Variant, s *State) {
	for i := 0; i < 400; i++ {
		s.Now += 10 * sim.Millisecond
		s.Una += tMSS
		v.OnAck(s, &AckEvent{Ack: s.Una, Acked: tMSS, HasTS: true, TSval: int64(s.Now / s.TSTick)})
	}
}

func TestNewJerseyKeepsWindowOnUnmarkedLoss(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cwnd      float64
		cw        bool
		wantSsth  float64
		wantCwnd  float64
		wantClass LossClass
	}{
		{"unmarked, cwnd = ownd: random loss, window kept", 10, false, 10, 10, Wireless},
		{"unmarked, cwnd above ownd: rate control to ownd", 16, false, 10, 10, Wireless},
		{"CW-marked: congestion, Reno halves", 10, true, 5, 5, Congestion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "newjersey", nil)
			s := testState(10, 5)
			jerseyRate(v, s)
			setWindow(s, tc.cwnd)
			r := v.OnLoss(s, &LossEvent{CW: tc.cw})
			if !near(segs(s.Ssthresh), tc.wantSsth) || !near(segs(s.Cwnd), tc.wantCwnd) || r.Class != tc.wantClass {
				t.Fatalf("ssthresh %.2f cwnd %.2f %v, want %v %v %v", segs(s.Ssthresh), segs(s.Cwnd), r.Class, tc.wantSsth, tc.wantCwnd, tc.wantClass)
			}
		})
	}
}

func TestCERLJudgesRandomWhileQueueBelowThreshold(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lastRTT   sim.Time // T = 100 ms, l_max from a 150 ms sample: N = 0.55·50 ms
		wantClass LossClass
		wantSsth  float64
	}{
		{"l = 10 ms < N = 27.5 ms: random, window kept", 110 * sim.Millisecond, Wireless, 5},
		{"l = 40 ms >= N: congestion, halved", 140 * sim.Millisecond, Congestion, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "cerl", nil)
			s := testState(20, 5)
			for _, rtt := range []sim.Time{100 * sim.Millisecond, 150 * sim.Millisecond, tc.lastRTT} {
				v.OnAck(s, &AckEvent{Acked: tMSS, RTT: rtt})
			}
			setWindow(s, 20)
			r := v.OnLoss(s, &LossEvent{})
			if r.Class != tc.wantClass || segs(s.Ssthresh) != tc.wantSsth {
				t.Fatalf("%v ssthresh %.1f, want %v %v", r.Class, segs(s.Ssthresh), tc.wantClass, tc.wantSsth)
			}
			if tc.wantClass == Wireless {
				// The window is kept through the recovery, whatever the
				// engine's exit rule did to it.
				s.Cwnd = s.Ssthresh
				v.OnRecoveryExit(s)
				if segs(s.Cwnd) != 20 {
					t.Fatalf("random loss: cwnd %.1f after recovery, want 20", segs(s.Cwnd))
				}
			}
		})
	}
}

// dupacksInRecovery sends duplicate ACKs number from..to and returns the
// number of the first that asked for a retransmission (0: none).
func dupacksInRecovery(v Variant, s *State, from, to int, cw bool) (int, Response) {
	for d := from; d <= to; d++ {
		if r := v.OnDupAckInRecovery(s, &AckEvent{Ack: s.Una, Dupacks: d, CW: cw}); r.Retransmit {
			return d, r
		}
	}
	return 0, Response{}
}

func TestDACHalvesTwiceOnLostRetransmission(t *testing.T) {
	v := newTestVariant(t, "dac", nil)
	s := testState(20, 100) // 20 outstanding: 19 can follow the lost head
	v.OnLoss(s, &LossEvent{Dupacks: 3})
	if segs(s.Ssthresh) != 10 || segs(s.Cwnd) != 10 {
		t.Fatalf("first halving: ssthresh %.1f", segs(s.Ssthresh))
	}
	s.High += 5 * tMSS // five new segments sent during recovery
	d, r := dupacksInRecovery(v, s, 4, 30, false)
	if d != 20 {
		t.Fatalf("retransmission judged lost at dupack %d, want 20 (19 explained)", d)
	}
	if segs(s.Ssthresh) != 5 || segs(s.Cwnd) != 5 || r.Class != Congestion {
		t.Fatalf("second halving: ssthresh %.1f cwnd %.1f %v, want 5 5 congestion", segs(s.Ssthresh), segs(s.Cwnd), r.Class)
	}
	// The new retransmission is explained by the 24 then outstanding.
	if d, _ := dupacksInRecovery(v, s, 21, 24, false); d != 0 {
		t.Fatalf("retransmitted again at dupack %d", d)
	}
	if d, _ := dupacksInRecovery(v, s, 25, 25, false); d != 25 {
		t.Fatal("second lost retransmission not detected")
	}
}

func TestDDLRPDifferentiatesAndStopsAfterPartialAck(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cw        bool
		wantClass LossClass
		wantSsth  float64
	}{
		// After the first halving (ssthresh 10) ten new segments go out:
		// a second halving is of 30 outstanding.
		{"CW-marked: congestion, halve", true, Congestion, 15},
		{"unmarked: wireless, window kept", false, Wireless, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "ddlrp", nil)
			s := testState(20, 100)
			v.OnLoss(s, &LossEvent{Dupacks: 3})
			s.High += 10 * tMSS
			d, r := dupacksInRecovery(v, s, 4, 30, tc.cw)
			if d != 20 || r.Class != tc.wantClass || segs(s.Ssthresh) != tc.wantSsth {
				t.Fatalf("dupack %d %v ssthresh %.1f, want 20 %v %v", d, r.Class, segs(s.Ssthresh), tc.wantClass, tc.wantSsth)
			}
		})
	}
	v := newTestVariant(t, "ddlrp", nil)
	s := testState(20, 100)
	v.OnLoss(s, &LossEvent{Dupacks: 3})
	s.Una += 5 * tMSS // partial ACK
	if d, _ := dupacksInRecovery(v, s, 1, 40, true); d != 0 {
		t.Fatalf("DDLRP detected after a partial ACK (dupack %d)", d)
	}
}

func TestTDLRPDetectsLostFastRetransmissionByTimestamp(t *testing.T) {
	for _, tc := range []struct {
		name      string
		tsNew     int64 // Timestamp_new (0: no new segment sent yet)
		tsecr     int64
		cw        bool
		wantRetx  bool
		wantClass LossClass
		wantCwnd  float64 // segments; 0: kept
	}{
		{"echo of a segment sent before the retransmission", 500, 499, false, false, Unclassified, 0},
		{"no new segment sent yet", 0, 499, false, false, Unclassified, 0},
		{"echo of Timestamp_new itself (Fig. 6)", 500, 500, false, true, Wireless, 0},
		{"later echo, CW-marked: eq. 7 window", 500, 510, true, true, Congestion, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newTestVariant(t, "tdlrp", nil)
			s := testState(10, 5)
			jerseyRate(v, s) // ownd = 10 segments
			s.Cwnd = 20 * tMSS
			// The fast retransmission, then (maybe) the first new segment.
			s.InRecovery = true
			v.(SendObserver).OnSend(s, &SendEvent{Seq: s.Una, TSval: 400, Retx: true, Fast: true})
			if tc.tsNew != 0 {
				v.(SendObserver).OnSend(s, &SendEvent{Seq: s.High, TSval: tc.tsNew})
				v.(SendObserver).OnSend(s, &SendEvent{Seq: s.High + tMSS, TSval: tc.tsNew + 5})
			}
			r := v.OnDupAckInRecovery(s, &AckEvent{Ack: s.Una, Dupacks: 5, HasTS: true, TSecr: tc.tsecr, CW: tc.cw})
			wantCwnd := tc.wantCwnd
			if wantCwnd == 0 {
				wantCwnd = 20
			}
			if r.Retransmit != tc.wantRetx || r.Class != tc.wantClass || !near(segs(s.Cwnd), wantCwnd) || segs(s.Ssthresh) != 5 {
				t.Fatalf("got %+v cwnd %.1f ssthresh %.1f, want retransmit %v %v cwnd %v, ssthresh kept", r, segs(s.Cwnd), segs(s.Ssthresh), tc.wantRetx, tc.wantClass, wantCwnd)
			}
		})
	}
}

// With SACK a hole is resent before it becomes the head: a duplicate ACK
// echoing a segment sent between the first retransmission and the hole's
// says nothing of the hole's (it was judged lost on such ACKs when one
// Timestamp_new served the whole recovery); one echoing a segment sent
// after the hole's retransmission does.
func TestTDLRPJudgesEachHoleByItsOwnRetransmission(t *testing.T) {
	for _, tc := range []struct {
		tsecr    int64
		wantRetx bool
	}{{410, false}, {425, false}, {430, true}} {
		v := newTestVariant(t, "tdlrp", nil)
		s := testState(10, 5)
		s.Cwnd = 20 * tMSS
		s.InRecovery = true
		hole := s.Una + 5*tMSS
		send := v.(SendObserver).OnSend
		send(s, &SendEvent{Seq: s.Una, TSval: 400, Retx: true, Fast: true})
		send(s, &SendEvent{Seq: s.High, TSval: 405})
		send(s, &SendEvent{Seq: hole, TSval: 420, Retx: true})
		send(s, &SendEvent{Seq: s.High + tMSS, TSval: 430})
		s.Una = hole // a partial ACK: the resent hole is now the head
		r := v.OnDupAckInRecovery(s, &AckEvent{Ack: s.Una, Dupacks: 4, HasTS: true, TSecr: tc.tsecr})
		if r.Retransmit != tc.wantRetx {
			t.Errorf("TSecr %d: retransmit %v, want %v", tc.tsecr, r.Retransmit, tc.wantRetx)
		}
	}
}

func TestTDLRPTimeoutWithoutCWKeepsWindow(t *testing.T) {
	for _, tc := range []struct {
		lastCW   bool
		wantKeep bool
		class    LossClass
	}{{false, true, Wireless}, {true, false, Congestion}} {
		v := newTestVariant(t, "tdlrp", nil)
		s := testState(20, 10)
		v.OnAck(s, &AckEvent{Acked: tMSS, CW: tc.lastCW})
		s.Cwnd = 20 * tMSS
		r := v.OnTimeout(s)
		if r.RepairInPlace != tc.wantKeep || r.Class != tc.class {
			t.Errorf("last ACK CW %v: %+v, want RepairInPlace %v %v", tc.lastCW, r, tc.wantKeep, tc.class)
		}
		// IRTOR keeps cwnd and ssthresh through its recovery.
		if tc.wantKeep {
			s.Cwnd = s.Ssthresh // what the engine does on leaving recovery
			v.OnRecoveryExit(s)
			if segs(s.Cwnd) != 20 || segs(s.Ssthresh) != 10 {
				t.Errorf("after IRTOR cwnd %.1f ssthresh %.1f, want 20 10", segs(s.Cwnd), segs(s.Ssthresh))
			}
		}
	}
}

func TestVariantConfigChecks(t *testing.T) {
	for _, tc := range []struct {
		name, variant string
		edit          func(*Config)
		wantErr       string // "" : valid
	}{
		{"tdlrp without timestamps", "tdlrp", func(c *Config) {}, "timestamps"},
		{"tdlrp with rfc7323 echo", "tdlrp", func(c *Config) { c.TS.Enabled = true }, "ts_echo"},
		{"tdlrp complete", "tdlrp", func(c *Config) { c.TS.Enabled, c.TS.Echo = true, EchoLatest }, ""},
		{"newjersey without timestamps", "newjersey", func(c *Config) {}, "timestamps"},
		{"vegas with one timed sample per RTT", "vegas", func(c *Config) { c.Profile = "linux" }, "rtt_sampling"},
		{"vegas with every-ACK samples", "vegas", func(c *Config) { c.Profile, c.Timer.RTTSampling = "linux", SampleEveryAck }, ""},
		{"ns-2's vegas times every segment itself", "vegas", func(c *Config) {}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := ns2Config(t, tc.variant, 1000, 32)
			tc.edit(&c)
			err := c.Validate()
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("Validate: %v, want error mentioning %q", err, tc.wantErr)
			}
		})
	}
	// Params are checked by Validate too (the same checks for validate and
	// run), each error naming the param.
	for _, tc := range []struct {
		variant string
		params  map[string]float64
		field   string
	}{
		{"veno", map[string]float64{"betta": 3}, "params.betta"},
		{"newreno", map[string]float64{"alpha": 1}, "params.alpha"},
		{"cubic", map[string]float64{"beta": 1.5}, "params.beta"},
		{"vegas", map[string]float64{"alpha": 5, "beta": 4}, "params.alpha"},
	} {
		c := ns2Config(t, "newreno", 1000, 32)
		c.Variant, c.Params = tc.variant, tc.params
		c.Timer.RTTSampling = SampleEveryAck
		var fe *component.FieldError
		if err := c.Validate(); !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%s %v: Validate %v, want a FieldError at %s", tc.variant, tc.params, err, tc.field)
		}
	}
}
