package model

import (
	"math"
	"testing"
)

func TestKimNC(t *testing.T) {
	cases := []struct {
		name string
		k    KimParams
		thr  float64
	}{
		// Steady state: Wmax per RTT, whatever p.
		{"steady p=0", KimParams{P: 0, R: 1, Wmax: 50, RTT: 0.8}, 62.5},
		{"steady p=0.2", KimParams{P: 0.2, R: 1.5, Wmax: 50, RTT: 0.8}, 62.5},
		// 10 rounds from W0 = 1 to Wmax = 4: 1+2+3+4·7 = 34 packets in 1 s.
		{"ramp", KimParams{P: 0.1, R: 1.2, Wmax: 4, RTT: 0.1, Duration: 1}, 34},
	}
	for _, c := range cases {
		r, err := KimNC(c.k)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Thr-c.thr) > 1e-9 {
			t.Errorf("%s: thr %v, want %v", c.name, r.Thr, c.thr)
		}
	}
	// Masking probability: with p = 0 every round is masked; with R = 1 and
	// p > 0 only a loss-free round is, (1−p)^W.
	r, _ := KimNC(KimParams{P: 0, R: 1, Wmax: 10, RTT: 1})
	if math.Abs(r.MaskProb-1) > 1e-12 {
		t.Errorf("p=0 mask %v", r.MaskProb)
	}
	r, _ = KimNC(KimParams{P: 0.1, R: 1, Wmax: 10, RTT: 1})
	if math.Abs(r.MaskProb-math.Pow(0.9, 10)) > 1e-12 || math.Abs(r.MinR-1/0.9) > 1e-12 {
		t.Errorf("R=1: mask %v minR %v", r.MaskProb, r.MinR)
	}
	if _, err := KimNC(KimParams{P: 1, Wmax: 10, RTT: 1}); err == nil {
		t.Error("p = 1 accepted")
	}
}
