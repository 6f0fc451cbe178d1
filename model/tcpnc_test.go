package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTCPNCFirstLevelsByHand(t *testing.T) {
	p := 0.1
	q := 1 - p
	s := TCPNCStates(p, 4)
	// Level 1 times out on its first loss: reaching VW = 2 is one success.
	// From S(2,0): two successes with at most one loss before the second,
	// C(1,0)q² or C(2,1)q²p, since two losses give AU = 2 = VW.
	want := map[[2]int]float64{
		{1, 0}: 1,
		{2, 0}: q,
		{3, 0}: q * q * q,
		{3, 1}: q * 2 * q * q * p,
	}
	for k, v := range want {
		if got := s[k[0]][k[1]]; math.Abs(got-v) > 1e-15 {
			t.Errorf("P(S%v) = %v, want %v", k, got, v)
		}
	}
	r, err := TCPNC(TCPNCParams{P: p, CWMax: 10, M: 4, RTT: 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Pw[1]-p) > 1e-15 || math.Abs(r.Pw[2]-(q-q*q*q*(1+2*p))) > 1e-15 {
		t.Errorf("p_1, p_2 = %v, %v", r.Pw[1], r.Pw[2])
	}
	// E[EW_3]: S(3,0) sends 3, S(3,1) sends 2.
	if got, w := r.EEW[3], (3*s[3][0]+2*s[3][1])/(s[3][0]+s[3][1]); math.Abs(got-w) > 1e-12 {
		t.Errorf("E[EW_3] = %v, want %v", got, w)
	}
}

func TestTCPNCAbsorbingProbabilitiesSumToOne(t *testing.T) {
	for _, p := range []float64{0.02, 0.05, 0.1, 0.2} {
		prev := 0.0
		for _, m := range []int{10, 25, 50, 100, 200, 400} {
			r, err := TCPNC(TCPNCParams{P: p, CWMax: 50, M: m, RTT: 0.1})
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for _, v := range r.Pw {
				if v < -1e-15 {
					t.Fatalf("p=%v M=%d: negative p_w %v", p, m, v)
				}
				sum += v
			}
			// Σ_{w≤M} p_w + P(reach M+1) = 1 exactly; the accumulated
			// absorbing probability grows with M (Fig. 6).
			if math.Abs(sum+r.Reach[m+1]-1) > 1e-9 || r.Accum < prev-1e-12 {
				t.Errorf("p=%v M=%d: Σp_w = %v, P_{M+1} = %v, previous accum %v", p, m, sum, r.Reach[m+1], prev)
			}
			prev = r.Accum
		}
		if prev < 1-1e-6 {
			t.Errorf("p=%v: accumulated absorbing probability at M=400 is %v", p, prev)
		}
	}
}

func TestTCPNCMaskedLossesFallBackToKim(t *testing.T) {
	// p = 0 and R(1−p) ≥ 1 leave nothing for TCP to see.
	for _, c := range []TCPNCParams{
		{P: 0, CWMax: 50, RTT: 0.8},
		{P: 0.05, R: 1.1, CWMax: 50, RTT: 0.8},
	} {
		r, err := TCPNC(c)
		if err != nil {
			t.Fatal(err)
		}
		k, _ := KimNC(KimParams{P: c.P, R: c.R, Wmax: c.CWMax, RTT: c.RTT})
		if !r.Masked || r.Thr != k.Thr || r.Thr != 50/0.8 {
			t.Errorf("%+v: masked=%v thr=%v, Kim %v", c, r.Masked, r.Thr, k.Thr)
		}
	}
}

func TestTCPNCRejectsBadInput(t *testing.T) {
	for _, c := range []TCPNCParams{
		{P: -0.1, CWMax: 10, RTT: 1},
		{P: 1.1, CWMax: 10, RTT: 1},
		{P: 0.1, R: 0.5, CWMax: 10, RTT: 1},
		{P: 0.1, CWMax: 0, RTT: 1},
		{P: 0.1, CWMax: 10, RTT: 0},
	} {
		if _, err := TCPNC(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// ncPeriod is one period of the round-based abstraction of §3, simulated
// packet by packet so that the state at entry to each level is seen.
type ncStats struct {
	n                 int
	cw, cw2           float64 // min(VW, CWmax) at timeout
	rounds, rcv, time []float64
	reach             map[int]int     // periods reaching level w
	ewSum, ewSq       map[int]float64 // EW at entry to level w
}

func simulateTCPNC(c TCPNCParams, periods int, rng *rand.Rand, levels []int) ncStats {
	pe := TCPNCEffectiveLoss(c.P, c.R)
	st := ncStats{n: periods, reach: map[int]int{}, ewSum: map[int]float64{}, ewSq: map[int]float64{}}
	watch := map[int]bool{}
	for _, l := range levels {
		watch[l] = true
	}
	for range periods {
		w, s, a, rounds, rcv := 1, 0, 0, 0, 0
		for {
			ew := min(w-a, c.CWMax)
			rounds++
			for range ew {
				if rng.Float64() < pe {
					a++
					continue
				}
				rcv++
				if s++; s == w {
					w, s = w+1, 0
					if watch[w] {
						st.reach[w]++
						e := float64(min(w-a, c.CWMax))
						st.ewSum[w] += e
						st.ewSq[w] += e * e
					}
				}
			}
			if a == w { // the whole round was lost: timeout
				break
			}
		}
		cw := math.Min(float64(w), float64(c.CWMax))
		st.cw += cw
		st.cw2 += cw * cw
		rto := c.RTO
		if rto == 0 {
			rto = float64(w) * c.RTT
		}
		st.rounds = append(st.rounds, float64(rounds))
		st.rcv = append(st.rcv, float64(rcv))
		st.time = append(st.time, float64(rounds)*c.RTT+rto)
	}
	return st
}

// zMean is (model − sample mean)/standard error.
func zMean(model, sum, sq float64, n int) float64 {
	m := sum / float64(n)
	v := (sq/float64(n) - m*m) * float64(n) / float64(n-1)
	if v <= 0 {
		// Every sample equal (the window pinned at CWmax): the model
		// must give the same value up to its tiny chance of another.
		if math.Abs(model-m) <= 1e-3*math.Abs(m)+1e-9 {
			return 0
		}
		return math.Inf(1)
	}
	return (model - m) / math.Sqrt(v/float64(n))
}

// zRatio compares model with Σnum/Σden using the delta-method standard error
// of a ratio estimator over independent periods.
func zRatio(model float64, num, den []float64) (z, est float64) {
	n := float64(len(num))
	var sn, sd float64
	for i := range num {
		sn += num[i]
		sd += den[i]
	}
	est = sn / sd
	var v float64
	for i := range num {
		e := num[i] - est*den[i]
		v += e * e
	}
	v /= n - 1
	se := math.Sqrt(v/n) / (sd / n)
	return (model - est) / se, est
}

func TestTCPNCChainMatchesMonteCarlo(t *testing.T) {
	// 4000 periods even in -short: fewer make the 95% tally too noisy,
	// and the whole test takes under two seconds.
	const periods = 4000
	rng := rand.New(rand.NewPCG(2014, 9))
	var checks, in95 int
	worst := 0.0
	type gap struct {
		p, r float64
		cw   int
		rel  float64
	}
	var gaps []gap
	for _, p := range []float64{0.02, 0.05, 0.1, 0.2} {
		for _, cw := range []int{10, 50, 100} {
			for _, r := range []float64{1, 1.02, 1.1} {
				c := TCPNCParams{P: p, R: r, CWMax: cw, RTT: 0.1}
				pe := TCPNCEffectiveLoss(p, r)
				if pe == 0 || pe < 0.015 {
					continue // masked, or periods too long for a quick test
				}
				chain, err := TCPNC(c)
				if err != nil {
					t.Fatal(err)
				}
				rc := c
				rc.M = min(chain.M, 260)
				exact, err := TCPNCRounds(rc)
				if err != nil {
					t.Fatal(err)
				}
				peak := int(math.Round(2 / pe))
				levels := []int{peak / 2, peak, peak * 3 / 2}
				st := simulateTCPNC(c, periods, rng, levels)
				var zs []float64
				zs = append(zs, zMean(chain.ECwnd, st.cw, st.cw2, st.n))
				zs = append(zs, zMean(exact.ECwnd, st.cw, st.cw2, st.n))
				for _, l := range levels {
					k := float64(st.reach[l])
					ph := k / float64(st.n)
					se := math.Sqrt(math.Max(ph*(1-ph), 1/float64(st.n)) / float64(st.n))
					zs = append(zs, (chain.Reach[l]-ph)/se)
					if st.reach[l] > 30 {
						zs = append(zs, zMean(chain.EEW[l], st.ewSum[l], st.ewSq[l], st.reach[l]))
					}
				}
				zThr, mc := zRatio(exact.Thr, st.rcv, st.time)
				zs = append(zs, zThr)
				for _, z := range zs {
					checks++
					if math.Abs(z) <= 1.96 {
						in95++
					}
					worst = math.Max(worst, math.Abs(z))
					if math.Abs(z) > 3.9 {
						t.Errorf("p=%v R=%v CWmax=%d: |z| = %.2f (all z: %.2f)", p, r, cw, z, zs)
					}
				}
				if exact.Escaped > 1e-4 {
					t.Errorf("p=%v R=%v CWmax=%d: exact evaluation lost %v of the mass", p, r, cw, exact.Escaped)
				}
				gaps = append(gaps, gap{p, r, cw, chain.Thr/mc - 1})
			}
		}
	}
	t.Logf("%d comparisons, %d (%.1f%%) inside the 95%% interval, worst |z| = %.2f", checks, in95, 100*float64(in95)/float64(checks), worst)
	if float64(in95) < 0.9*float64(checks) {
		t.Errorf("only %d of %d comparisons inside the 95%% interval", in95, checks)
	}
	for _, g := range gaps {
		t.Logf("p=%.2f R=%.2f CWmax=%3d: paper's E[Thr] vs Monte Carlo %+.1f%%", g.p, g.r, g.cw, 100*g.rel)
	}
}

func BenchmarkTCPNCAlgorithm1(b *testing.B) {
	for _, m := range []int{100, 200} {
		b.Run("M="+itoa(m), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := TCPNC(TCPNCParams{P: 0.05, CWMax: 50, M: m, RTT: 0.1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// The paper's friendliness choice (§5, Fig. 9): on the 0.05 Mbit/s tandem at
// 6% erasure, half the bottleneck for the coded flow takes R ≈ 1.015.
func TestTCPNCShareRReproducesThePapersChoice(t *testing.T) {
	// RTT: 800 ms of propagation and a 1 KB packet's 160 ms on each of four
	// 0.05 Mbit/s hops.
	r, thr, err := TCPNCShareR(0.06, 25e3, 50, 0.8+4*0.16, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if r < 1.005 || r > 1.025 {
		t.Errorf("R = %.4f for half of 50 kbit/s (%.0f bit/s), the paper chose 1.015", r, thr)
	}
	if thr < 24e3 || thr > 26e3 {
		t.Errorf("throughput at R %.4f is %.0f bit/s, want 25 000", r, thr)
	}
}
