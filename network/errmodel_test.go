package network

import (
	"math"
	"slices"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// within reports whether a count of k hits in n trials is within z standard
// deviations of the binomial mean n·p.
func within(k, n int, p, z float64) bool {
	sd := math.Sqrt(float64(n) * p * (1 - p))
	return math.Abs(float64(k)-float64(n)*p) <= z*sd
}

func TestBernoulliLossFractionIsP(t *testing.T) {
	const n = 1_000_000
	for _, p := range []float64{0.001, 0.01, 0.1, 0.5} {
		m := NewBernoulli(p, sim.Stream(1, "bernoulli"))
		pkt := &Packet{Size: 1000, Payload: 960}
		lost := 0
		for range n {
			if m.Drop(pkt, 0) == ChannelError {
				lost++
			}
		}
		t.Logf("p=%v: lost %d of %d (%.5f)", p, lost, n, float64(lost)/n)
		if !within(lost, n, p, 3) {
			t.Errorf("p=%v: %d losses of %d, outside 3σ of %v", p, lost, n, n*p)
		}
	}
}

func TestBernoulliExtremes(t *testing.T) {
	pkt := &Packet{Size: 1000}
	never, always := NewBernoulli(0, sim.Stream(1, "b0")), NewBernoulli(1, sim.Stream(1, "b1"))
	for range 10000 {
		if never.Drop(pkt, 0) != NotDropped || always.Drop(pkt, 0) != ChannelError {
			t.Fatal("p=0 dropped or p=1 delivered")
		}
	}
}

func TestBitErrorLossGrowsWithSize(t *testing.T) {
	const ber, n = 1e-5, 200_000
	m := NewBitError(ber, sim.Stream(1, "ber"))
	prev := 0.0
	for _, size := range []int32{40, 576, 1000, 1500} {
		want := 1 - math.Pow(1-ber, 8*float64(size))
		if got := m.LossProb(int(size)); math.Abs(got-want) > 1e-12 {
			t.Fatalf("LossProb(%d)=%v, want %v", size, got, want)
		}
		pkt := &Packet{Size: size}
		lost := 0
		for range n {
			if m.Drop(pkt, 0) == ChannelError {
				lost++
			}
		}
		frac := float64(lost) / n
		t.Logf("%4d B: lost %.5f, 1-(1-BER)^(8s) = %.5f", size, frac, want)
		if !within(lost, n, want, 4) {
			t.Errorf("%d B: loss %v, want %v within 4σ", size, frac, want)
		}
		if frac <= prev {
			t.Errorf("%d B: loss %v not above smaller packets' %v", size, frac, prev)
		}
		prev = frac
	}
	// Tiny BERs keep their precision: 1e-12 per bit on 1500 B is 1.2e-8.
	if got := NewBitError(1e-12, nil).LossProb(1500); math.Abs(got/1.2e-8-1) > 1e-6 {
		t.Errorf("BER 1e-12, 1500 B: %v, want 1.2e-8", got)
	}
}

// The on/off model's long-run loss is the stationary mix of its states'
// loss probabilities, weighted by mean_down/(mean_up+mean_down). For a
// two-state Markov chain with rates a=1/mean_up, b=1/mean_down, the time
// fraction spent down over a horizon T has variance ≈ 2ab/((a+b)³T); we
// sample every 1 ms for 2000 s (2·10⁶ packets, far finer than the states)
// and allow 4 such σ plus the binomial noise of the per-state draws.
func TestOnOffLongRunLossIsStationaryMix(t *testing.T) {
	cases := []struct {
		name             string
		up, down         sim.Time
		lossUp, lossDown float64
	}{
		{"10% down, lose all", 90 * sim.Millisecond, 10 * sim.Millisecond, 0, 1},
		{"half down, lose all", 50 * sim.Millisecond, 50 * sim.Millisecond, 0, 1},
		{"gilbert-elliott", 200 * sim.Millisecond, 50 * sim.Millisecond, 0.01, 0.5},
	}
	const step, horizon = sim.Millisecond, 2000 * sim.Second
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewOnOff(c.up, c.down, sim.Stream(3, "onoff/"+c.name))
			m.LossUp, m.LossDown = c.lossUp, c.lossDown
			piDown := float64(c.down) / float64(c.up+c.down)
			want := piDown*c.lossDown + (1-piDown)*c.lossUp

			pkt := &Packet{Size: 1000}
			lost, n := 0, 0
			for now := sim.Time(0); now < horizon; now += step {
				if m.Drop(pkt, now) != NotDropped {
					lost++
				}
				n++
			}
			a, b := 1/c.up.Seconds(), 1/c.down.Seconds()
			sdState := math.Sqrt(2*a*b/math.Pow(a+b, 3)/horizon.Seconds()) * math.Abs(c.lossDown-c.lossUp)
			sdDraw := math.Sqrt(want * (1 - want) / float64(n))
			tol := 4 * math.Hypot(sdState, sdDraw)
			got := float64(lost) / float64(n)
			t.Logf("loss %.5f, want %.5f ± %.5f", got, want, tol)
			if math.Abs(got-want) > tol {
				t.Errorf("loss %v, want %v ± %v", got, want, tol)
			}
		})
	}
}

// Stepping exactly onto each state change reads off every stay: their means
// must be MeanUp and MeanDown (exponential, so the sample mean of n stays
// has relative σ 1/√n; 10⁵ stays each, 4σ ≈ 1.3%).
func TestOnOffStaysHaveConfiguredMeans(t *testing.T) {
	const up, down = 90 * sim.Millisecond, 10 * sim.Millisecond
	m := NewOnOff(up, down, sim.Stream(4, "onoff/stays"))
	var sum [2]float64
	var cnt [2]int
	prev := m.next
	m.Down(prev) // leave the initial (residual) stay
	for cnt[0] < 100_000 || cnt[1] < 100_000 {
		state := 0
		if m.down {
			state = 1
		}
		end := m.next
		sum[state] += float64(end - prev)
		cnt[state]++
		prev = end
		m.Down(end)
	}
	for i, want := range []sim.Time{up, down} {
		mean := sum[i] / float64(cnt[i])
		t.Logf("state %d: %d stays, mean %v, want %v", i, cnt[i], sim.Time(mean), want)
		if math.Abs(mean/float64(want)-1) > 4/math.Sqrt(float64(cnt[i])) {
			t.Errorf("state %d: mean stay %v, want %v", i, sim.Time(mean), want)
		}
	}
}

func TestDropListDropsExactlyTheListedPackets(t *testing.T) {
	data := &Packet{Size: 1040, Payload: 1000}
	ack := &Packet{Size: 40, Flags: FlagACK}
	// Pattern of packets seen by the link: D A D D A D D D A D ...
	kinds := []*Packet{data, ack, data, data, ack, data, data, data, ack, data}
	cases := []struct {
		name  string
		model func() ErrorModel
		want  []int // 1-based positions among all packets that are lost
	}{
		{"all packets", func() ErrorModel { return NewDropList(1, 3, 7) }, []int{1, 3, 7}},
		{"data only counts data", func() ErrorModel {
			return &Filter{Kind: DataOnly, Inner: NewDropList(1, 3, 7)}
		}, []int{1, 4, 10}},
		{"acks only counts acks", func() ErrorModel {
			return &Filter{Kind: AcksOnly, Inner: NewDropList(2, 3)}
		}, []int{5, 9}},
		{"beyond the end", func() ErrorModel { return NewDropList(10, 11) }, []int{10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := c.model()
			var got []int
			for i, p := range kinds {
				if m.Drop(p, 0) == ChannelError {
					got = append(got, i+1)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("dropped %v, want %v", got, c.want)
			}
		})
	}
}

func TestTargetedDropsOnlyRetransmissionsAtRate(t *testing.T) {
	const n, p = 100_000, 0.3
	cases := []struct {
		name     string
		fastOnly bool
		hit      func(*Packet) bool
	}{
		{"every retransmission", false, func(q *Packet) bool { return q.Retx }},
		{"fast retransmissions only", true, func(q *Packet) bool { return q.FastRetx }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := NewTargeted(p, c.fastOnly, sim.Stream(5, "targeted"))
			kinds := []Packet{
				{Size: 1040, Payload: 1000},                             // original
				{Size: 1040, Payload: 1000, Retx: true},                 // timeout retransmission
				{Size: 1040, Payload: 1000, Retx: true, FastRetx: true}, // fast retransmission
				{Size: 40, Flags: FlagACK},                              // ACK
			}
			for i := range kinds {
				pkt := &kinds[i]
				lost := 0
				for range n {
					switch m.Drop(pkt, 0) {
					case RetxLoss:
						lost++
					case NotDropped:
					default:
						t.Fatal("cause other than RetxLoss")
					}
				}
				if !c.hit(pkt) {
					if lost != 0 {
						t.Errorf("kind %d (%+v): %d losses, want none", i, *pkt, lost)
					}
					continue
				}
				t.Logf("kind %d: lost %.4f", i, float64(lost)/n)
				if !within(lost, n, p, 4) {
					t.Errorf("kind %d: %d losses of %d, want %v", i, lost, n, p*n)
				}
			}
		})
	}
}

func TestChainFirstDropWins(t *testing.T) {
	retx := &Packet{Size: 1040, Payload: 1000, Retx: true}
	c := Chain{NewDropList(2), NewTargeted(1, false, sim.Stream(1, "t"))}
	// Packet 2 is the DropList's: ChannelError; every other retransmission
	// falls to Targeted.
	want := []DropCause{RetxLoss, ChannelError, RetxLoss}
	for i, w := range want {
		if got := c.Drop(retx, 0); got != w {
			t.Errorf("packet %d: %v, want %v", i+1, got, w)
		}
	}
	if got := (Chain{}).Drop(retx, 0); got != NotDropped {
		t.Errorf("empty chain: %v", got)
	}
}

// A channel error model on a real link: lost packets are counted as
// ChannelError on the link and never delivered.
func TestErrorModelOnLinkCountsChannelErrors(t *testing.T) {
	n, a, b, ab, r := pair(8e6, sim.Millisecond, 1000)
	ab.SetErrorModel(NewDropList(2, 5))
	for range 6 {
		a.Send(dataPacket(n, a, b, r, 1000))
	}
	n.Run(sim.Second)
	if got := r.ids(); !slices.Equal(got, []uint64{1, 3, 4, 6}) {
		t.Fatalf("delivered %v", got)
	}
	if ab.Stats.Drops[ChannelError] != 2 || ab.Stats.RxPackets != 4 || ab.Stats.TxPackets != 6 {
		t.Fatalf("stats %+v", ab.Stats)
	}
}

func TestTargetedPerPacketLosesAShareOfAllPacketsOnRetransmissions(t *testing.T) {
	// One fast retransmission every 50 packets, a 0.1% rate of all
	// packets: about 100 of the 100 000 packets' draws hit, and each
	// hit falls on the next fast retransmission, none on another packet.
	const n, p, every = 100_000, 0.001, 50
	for _, tc := range []struct {
		name  string
		cause DropCause
		want  DropCause
	}{
		{"as a wireless loss", NotDropped, RetxLoss},
		{"as congestion", AQMDrop, AQMDrop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewTargeted(p, true, sim.Stream(9, "targeted"))
			m.PerPacket, m.Cause = true, tc.cause
			lost := 0
			for i := range n {
				pkt := &Packet{Size: 1040, Payload: 1000}
				if i%every == every-1 {
					pkt.Retx, pkt.FastRetx = true, true
				}
				switch c := m.Drop(pkt, 0); {
				case c == NotDropped:
				case c != tc.want:
					t.Fatalf("cause %v, want %v", c, tc.want)
				case !pkt.FastRetx:
					t.Fatal("a packet other than a fast retransmission lost")
				default:
					lost++
				}
			}
			if !within(lost, n, p, 4) {
				t.Fatalf("%d lost of %d packets, want about %v", lost, n, p*n)
			}
		})
	}
}
