package predict

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFitFARIMARecoversDAndAR(t *testing.T) {
	// FARIMA(1, 0.3, 0): filter a FARIMA(0, 0.3, 0) series through 1/(1−0.5B).
	z, err := Spectral(1<<15, 0.3, rand.New(rand.NewPCG(21, 1)))
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(z))
	for i := range z {
		x[i] = z[i] + 100
		if i > 0 {
			x[i] += 0.5 * (x[i-1] - 100)
		}
	}
	f, err := FitFARIMA(x, FARIMAOptions{P: 1})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.D-0.3) > 0.1 || math.Abs(f.ARMA.Phi[0]-0.5) > 0.1 || math.Abs(f.Mean-100) > 1 {
		t.Errorf("fit d=%.3f φ=%.3f μ=%.2f, want 0.3, 0.5, 100", f.D, f.ARMA.Phi[0], f.Mean)
	}
	// With d known the AR part is sharp.
	g, err := FitFARIMA(x, FARIMAOptions{P: 1, Method: DFixed, D: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(g.ARMA.Phi[0]-0.5) > 0.03 || math.Abs(g.NoiseVar-1) > 0.05 {
		t.Errorf("d fixed: φ=%.3f σ²=%.3f", g.ARMA.Phi[0], g.NoiseVar)
	}
}

func TestFARIMAWeightsAndVariance(t *testing.T) {
	d := 0.3
	f := &FARIMA{D: d, ARMA: ARMA{NoiseVar: 4}}
	h := f.MAWeights(5)
	// ψ of (1−B)^(−d): 1, d, d(1+d)/2, … times σ_e = 2.
	want := []float64{2, 2 * d, 2 * d * (1 + d) / 2}
	for i, w := range want {
		if math.Abs(h[i]-w) > 1e-12 {
			t.Errorf("h_%d = %v, want %v", i, h[i], w)
		}
	}
	if got, want := f.Variance(), 4*FARIMAAutocov(d, 0)[0]; math.Abs(got/want-1) > 1e-3 {
		t.Errorf("variance %v, want Γ(1−2d)/Γ(1−d)²·σ² = %v", got, want)
	}
	// Fractional differencing undoes fractional integration.
	x := []float64{1, -2, 3, 0.5, 4, -1, 2}
	y := FracDiff(FracDiff(x, d), -d)
	for i := range x {
		if math.Abs(x[i]-y[i]) > 1e-9 {
			t.Fatalf("(1−B)^−d(1−B)^d x ≠ x: %v vs %v", y, x)
		}
	}
}

func BenchmarkFARIMAFit1e4(b *testing.B) {
	x, err := AggregateOnOff(50, 1.4, 1.4, 1, 1, 1, 1, 10000, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FitFARIMA(x, FARIMAOptions{P: 1, Q: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
