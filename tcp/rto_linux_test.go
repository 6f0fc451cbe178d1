package tcp

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Linux's estimator worked by hand (tcp_rtt_estimator, rto_min 200 ms):
// the first sample sets SRTT and mdev = 2·RTT, rttvar at least rto_min;
// a sample above SRTT raises mdev by its error less a quarter of mdev, one
// below by an eighth of that; mdev's round maximum feeds rttvar, which
// decays by a quarter of its excess over it once a round.
func TestLinuxRTOAsWorkedByHand(t *testing.T) {
	ms := func(x float64) sim.Time { return sim.FromSeconds(x / 1e3) }
	e := &linuxRTO{cfg: RTOConfig{Min: 200 * sim.Millisecond, Max: 120 * sim.Second, Initial: sim.Second}}
	steps := []struct {
		rtt, sent float64 // ms
		want      float64 // RTO, s
	}{
		{100, 0, 0.3},               // SRTT 0.1, rttvar max(0.2, 0.2)
		{100, 50, 0.3},              // same round: mdev 0.15, rttvar kept
		{100, 150, 0.3},             // a new round: rttvar = mdev_max = 0.2, no decay
		{180, 300, 0.31},            // SRTT 0.11; mdev 0.164 stays below the round's 0.2
		{400, 600, 0.55953125},      // SRTT 0.14625; mdev 0.41328 becomes rttvar
		{150, 1100, 0.535107421875}, // mdev 0.31371; rttvar decays by (0.41328 − 0.31371)/4
	}
	if got := e.RTO(1); got != sim.Second {
		t.Fatalf("before any sample: %v, want the initial 1 s", got)
	}
	for i, st := range steps {
		e.Sample(ms(st.rtt), ms(st.sent))
		if got := e.RTO(1).Seconds(); math.Abs(got-st.want) > 1e-6 {
			t.Fatalf("after sample %d (%v ms): RTO %.9f s, want %.9f", i+1, st.rtt, got, st.want)
		}
	}
}

// The point of the policy: over a path whose RTT does not vary, RFC 6298
// gives max(SRTT + 4·RTTVAR, 200 ms), a hair above the RTT, while Linux
// keeps rto_min on top of SRTT.
func TestLinuxRTOKeepsTheMinimumAboveSRTT(t *testing.T) {
	cfg := RTOConfig{Min: 200 * sim.Millisecond, Max: 120 * sim.Second, Initial: sim.Second, K: 4, Alpha: 0.125, Beta: 0.25, Granularity: sim.Millisecond}
	lx, rfc := &linuxRTO{cfg: cfg}, &rfc6298{cfg: cfg}
	for i := range 200 {
		sent := sim.Time(i) * 20 * sim.Millisecond
		lx.Sample(200*sim.Millisecond, sent)
		rfc.Sample(200*sim.Millisecond, sent)
	}
	// rttvar starts at 2·RTT = 400 ms and decays by a quarter of its
	// excess a round (about 20 rounds here) towards rto_min.
	if got := lx.RTO(1); got < 400*sim.Millisecond || got > 402*sim.Millisecond {
		t.Errorf("linux: %v, want SRTT 200 ms + rto_min 200 ms", got)
	}
	if got := rfc.RTO(1); got < 200*sim.Millisecond || got > 205*sim.Millisecond {
		t.Errorf("rfc6298: %v, want just above 200 ms", got)
	}
}
