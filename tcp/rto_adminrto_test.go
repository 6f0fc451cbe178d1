package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// AdMINRTO's timeout after steady 10 ms samples: no minimum beyond G when
// a second segment will prompt the ACK, the estimate + min when it may wait
// for the receiver's delayed-ACK timer; back-off doubles either.
func TestAdMINRTOMinimumOnlyForACKsThatMayBeDelayed(t *testing.T) {
	cfg := RTOConfig{Policy: "adminrto", Min: 200 * sim.Millisecond, Max: 60 * sim.Second, Initial: sim.Second,
		Granularity: sim.Millisecond, K: 4, Alpha: 0.125, Beta: 0.25}
	p := newAdMINRTO(cfg, nil).(*adminrto)
	if got := p.RTOFor(1, false); got != sim.Second {
		t.Fatalf("before any sample: %v, want the initial 1s", got)
	}
	for range 50 {
		p.Sample(10*sim.Millisecond, 0)
	}
	// RTTVAR has decayed below G/4: the estimate is SRTT + G = 11 ms.
	cases := []struct {
		name    string
		backoff int
		delayed bool
		want    sim.Time
	}{
		{"prompt ACK: no minimum", 1, false, 11 * sim.Millisecond},
		{"ACK may be delayed: estimate + min", 1, true, 211 * sim.Millisecond},
		{"backed off, prompt", 2, false, 22 * sim.Millisecond},
		{"backed off, delayed", 4, true, 844 * sim.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := p.RTOFor(c.backoff, c.delayed)
			if d := got - c.want; d < -sim.Microsecond || d > sim.Microsecond {
				t.Fatalf("RTOFor(%d, %v) = %v, want %v", c.backoff, c.delayed, got, c.want)
			}
		})
	}
	if got := p.UnclampedRTO(1); got > 12*sim.Millisecond {
		t.Fatalf("unclamped %v, want the 11 ms estimate", got)
	}
}

// adminrtoPath is a 100 Mb/s path of 10 ms RTT whose receiver delays ACKs
// up to 200 ms, carrying one transfer of n segments.
func adminrtoPath(t *testing.T, policy string, min sim.Time, n int64) (*network.Net, *Flow) {
	t.Helper()
	cfg, err := Profile("linux")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Acks.DelAckCount, cfg.Acks.DelAckTimeout = 2, 200*sim.Millisecond
	cfg.Timer.RTO.Policy, cfg.Timer.RTO.Min = policy, min
	cfg.Timer.Spurious = SpuriousNone
	net := network.New(1)
	a, b := net.AddNode("A"), net.AddNode("B")
	q := func() network.Queue { return network.NewDropTail(100, 0) }
	net.Connect("ab", a, b, network.LinkConfig{Bandwidth: 100e6, Delay: 5 * sim.Millisecond}, q)
	net.ComputeRoutes()
	f, err := NewFlow(net, 0, "f", cfg, a, b)
	if err != nil {
		t.Fatal(err)
	}
	f.SetLimit(n * int64(cfg.Segments.MSS))
	f.Start(0)
	return net, f
}

// Which waits get the long minimum: the engine says "may be delayed"
// exactly when fewer than two full segments are outstanding.
func TestAdMINRTOLongMinimumForALoneOrOddLastSegment(t *testing.T) {
	_, f := adminrtoPath(t, "adminrto", 200*sim.Millisecond, 10)
	s := f.snd
	for range 20 {
		s.est.Sample(10*sim.Millisecond, 0)
	}
	mss := s.mss
	cases := []struct {
		name        string
		outstanding int64
		long        bool
	}{
		{"nothing but a partial segment", mss / 2, true},
		{"one full segment (a lone segment)", mss, true},
		{"one and a half (odd end of a flight)", mss + mss/2, true},
		{"two full segments: the second prompts the ACK", 2 * mss, false},
		{"seven segments", 7 * mss, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s.Una, s.High = 1000, 1000+c.outstanding
			s.backoff = 1
			s.restartTimer()
			if got := s.armedFor >= 200*sim.Millisecond; got != c.long {
				t.Fatalf("armed for %v with %d bytes out: long minimum %v, want %v", s.armedFor, c.outstanding, got, c.long)
			}
		})
	}
}

// On a lossless path the only late ACKs are delayed ones. With no
// minimum, the odd last segment of each transfer waits for the receiver's
// 200 ms timer and the sender times out spuriously; AdMINRTO never does,
// and its minimum costs nothing without loss.
func TestAdMINRTONoSpuriousTimeoutFromADelayedACK(t *testing.T) {
	cases := []struct {
		policy       string
		min          sim.Time
		wantSpurious bool
	}{
		{"rfc6298", sim.Millisecond, true},
		{"adminrto", 200 * sim.Millisecond, false},
		{"rfc6298", sim.Second, false},
	}
	for _, c := range cases {
		t.Run(c.policy+"/"+c.min.String(), func(t *testing.T) {
			for _, n := range []int64{1, 3, 5, 11} {
				net, f := adminrtoPath(t, c.policy, c.min, n)
				net.Run(5 * sim.Second)
				r := f.Result(net.Now())
				if r.DeliveredBytes != n*int64(f.Config().Segments.MSS) {
					t.Fatalf("%d segments: delivered %d bytes", n, r.DeliveredBytes)
				}
				if got := r.SpuriousTimeouts > 0; got != c.wantSpurious {
					t.Errorf("%d segments: %d spurious timeouts, want some: %v", n, r.SpuriousTimeouts, c.wantSpurious)
				}
				if c.policy == "adminrto" && r.RTOMinCostSeconds != 0 {
					t.Errorf("%d segments: min cost %v without any timeout", n, r.RTOMinCostSeconds)
				}
			}
		})
	}
}
