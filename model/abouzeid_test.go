package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestAbouzeidIdealIndependentOfHoldingFactor(t *testing.T) {
	for _, h := range []float64{0, 0.1, 1, 10} {
		a := AbouzeidParams{Wm: 12, T1: 0.1, T2: 0.3, H: h}
		if got, want := AbouzeidIdeal(a), 2*12/(0.1+0.3); math.Abs(got-want) > 1e-9 {
			t.Errorf("h=%v: R = %v, want 2·Wm/(T1+T2) = %v", h, got, want)
		}
	}
}

// The ideal goodput is a time average of Wm/T(t); simulate the alternating
// process V_i = T_i + Exp(h·T_i) and average directly.
func TestAbouzeidIdealMatchesAlternatingProcess(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	cases := []AbouzeidParams{
		{Wm: 12, T1: 0.1, T2: 0.3, H: 0.1},
		{Wm: 26, T1: 0.2, T2: 0.3, H: 4},
	}
	for _, a := range cases {
		var pkts, time float64
		for range 200000 {
			for _, ti := range []float64{a.T1, a.T2} {
				v := ti + rng.ExpFloat64()*a.H*ti
				pkts += v * a.Wm / ti
				time += v
			}
		}
		if got, want := pkts/time, AbouzeidIdeal(a); math.Abs(got/want-1) > 0.01 {
			t.Errorf("%+v: simulated %v, model %v", a, got, want)
		}
	}
}
