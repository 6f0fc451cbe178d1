package model

import (
	"math"
	"testing"
)

func TestPFTKHandComputedValues(t *testing.T) {
	// Worked by hand for p = 0.01, b = 1, RTT = 0.1, T0 = 1, no limit:
	// W = 1 + sqrt(8·0.99/0.03 + 1) = 1 + sqrt(265) = 17.27882,
	// Q̂ = 0.029701·(1 + 0.970299·(1 − 0.99^14.27882)) / (1 − 0.99^17.27882) = 0.210479,
	// f = 1.0102041,
	// B = (99 + 17.27882 + 0.210479/0.99) / (0.1·(17.27882/2 + 1) + 0.210479·1.0102041/0.99) = 98.8291.
	cases := []struct {
		name        string
		m           PFTKParams
		full, appro float64
	}{
		{"p=1% unlimited", PFTKParams{P: 0.01, RTT: 0.1, RTO: 1, B: 1}, 98.8291, 99.9204},
		// Wm = 10 < W: Q̂(10) = 0.331097, B = (99+10+0.334442)/(0.1·(1.25+9.9+2)+0.337833) = 66.1489.
		{"p=1% Wm=10", PFTKParams{P: 0.01, RTT: 0.1, RTO: 1, Wm: 10, B: 1}, 66.1489, 99.9204},
		// b = 2: W = 2/3 + sqrt(8·0.95/0.3 + 4/9) = 5.74385, Q̂ = 0.621817, f = 1.0555555.
		{"p=5% b=2", PFTKParams{P: 0.05, RTT: 0.2, RTO: 0.8, Wm: 64, B: 2}, 13.3571, 13.0316},
	}
	for _, c := range cases {
		if got := PFTK(c.m); math.Abs(got-c.full) > 1e-3 {
			t.Errorf("%s: PFTK = %.4f, want %.4f", c.name, got, c.full)
		}
		if got := PFTKApprox(c.m); math.Abs(got-c.appro) > 1e-3 {
			t.Errorf("%s: PFTKApprox = %.4f, want %.4f", c.name, got, c.appro)
		}
	}
}

func TestPFTKLimitingForms(t *testing.T) {
	for _, b := range []float64{1, 2} {
		// p → 0 without a window limit: both forms tend to the Mathis law.
		p := 1e-8
		m := PFTKParams{P: p, RTT: 0.1, RTO: 1, B: b}
		want := Mathis(MathisParams{P: p, RTT: 0.1, B: b})
		for name, got := range map[string]float64{"full": PFTK(m), "approx": PFTKApprox(m)} {
			if r := got / want; math.Abs(r-1) > 1e-3 {
				t.Errorf("b=%v %s: ratio to Mathis at p=1e-8 is %.5f", b, name, r)
			}
		}
		// p → 0 with a limit: the window-limited rate Wm/RTT.
		m.Wm = 20
		if got := PFTK(m); math.Abs(got/(20/0.1)-1) > 1e-3 {
			t.Errorf("b=%v: PFTK with Wm=20 at p=1e-8 = %v, want 200", b, got)
		}
		m.P = 0
		if PFTK(m) != 200 || PFTKApprox(m) != 200 {
			t.Errorf("b=%v: p=0 must give Wm/RTT", b)
		}
	}
	// Q̂ → 3/w as p → 0, and Q̂ = 1 for windows of 3 or less.
	for _, w := range []float64{6, 12, 40} {
		if got := PFTKQ(1e-7, w); math.Abs(got-3/w) > 1e-4 {
			t.Errorf("Q̂(0, %v) = %v, want %v", w, got, 3/w)
		}
	}
	if got := PFTKQ(0.1, 3); got != 1 {
		t.Errorf("Q̂(0.1, 3) = %v, want 1", got)
	}
	// Heavy loss: the timeout term dominates and the rate falls steeply.
	prev := math.Inf(1)
	for p := 0.001; p < 0.6; p *= 1.5 {
		got := PFTK(PFTKParams{P: p, RTT: 0.1, RTO: 1, Wm: 64})
		if !(got < prev) {
			t.Fatalf("PFTK not decreasing in p at p=%v: %v after %v", p, got, prev)
		}
		prev = got
	}
}
