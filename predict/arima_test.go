package predict

import (
	"math"
	"math/rand/v2"
	"testing"
)

func simulateARMA(n int, phi, theta []float64, rng *rand.Rand) []float64 {
	burn := 500
	x := make([]float64, n+burn)
	e := make([]float64, n+burn)
	for t := range x {
		e[t] = rng.NormFloat64()
		v := e[t]
		for j, c := range phi {
			if t-1-j >= 0 {
				v += c * x[t-1-j]
			}
		}
		for j, c := range theta {
			if t-1-j >= 0 {
				v += c * e[t-1-j]
			}
		}
		x[t] = v
	}
	return x[burn:]
}

func TestFitARMARecoversCoefficients(t *testing.T) {
	cases := []struct {
		phi, theta []float64
	}{
		{[]float64{0.5, -0.3}, nil},
		{[]float64{0.7}, []float64{0.4}},
		{nil, []float64{-0.5}},
	}
	for i, c := range cases {
		x := simulateARMA(20000, c.phi, c.theta, rand.New(rand.NewPCG(uint64(i), 77)))
		m, err := FitARMA(x, len(c.phi), len(c.theta))
		if err != nil {
			t.Fatal(err)
		}
		for j := range c.phi {
			if math.Abs(m.Phi[j]-c.phi[j]) > 0.05 {
				t.Errorf("case %d: φ = %v, want %v", i, m.Phi, c.phi)
			}
		}
		for j := range c.theta {
			if math.Abs(m.Theta[j]-c.theta[j]) > 0.05 {
				t.Errorf("case %d: θ = %v, want %v", i, m.Theta, c.theta)
			}
		}
		if math.Abs(m.NoiseVar-1) > 0.05 {
			t.Errorf("case %d: σ² = %v", i, m.NoiseVar)
		}
	}
}

func TestLinearForecastsMatchClosedForms(t *testing.T) {
	// AR(1) around μ: x̂_{t+τ} = μ + φ^τ(x_t − μ).
	l := &Linear{Mean: 10, Coef: []float64{0.8}}
	h := []float64{3, 7, 14}
	for _, tau := range []int{1, 2, 5} {
		if got, want := l.Predict(h, tau), 10+math.Pow(0.8, float64(tau))*4; math.Abs(got-want) > 1e-12 {
			t.Errorf("AR(1) τ=%d: %v, want %v", tau, got, want)
		}
	}
	// ARIMA(0,1,0) is the random walk: the forecast is the last value.
	rw := simulateARMA(2000, nil, nil, rand.New(rand.NewPCG(4, 4)))
	for i := 1; i < len(rw); i++ {
		rw[i] += rw[i-1]
	}
	m, err := FitARIMA(rw, 0, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Predict(rw, 7); math.Abs(got-rw[len(rw)-1]) > 1e-9 {
		t.Errorf("random walk forecast %v, last value %v", got, rw[len(rw)-1])
	}
	// EWMA with α = 1 is the last value; with α → 0 the first.
	if got := (EWMA{Alpha: 1}).Predict(h, 3); got != 14 {
		t.Errorf("EWMA α=1: %v", got)
	}
}
