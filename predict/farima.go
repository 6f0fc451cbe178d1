package predict

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/stat"
)

// DMethod selects how FitFARIMA estimates d.
type DMethod int

const (
	DByGPH    DMethod = iota // log-periodogram regression, bandwidth n^0.5
	DByAggVar                // aggregated variance, d = H − 1/2
	DFixed                   // use FARIMAOptions.D as given
)

// FARIMAOptions control FitFARIMA.
type FARIMAOptions struct {
	P, Q   int     // ARMA orders
	Method DMethod // how to find d
	D      float64 // d for DFixed
	Lags   int     // length of the truncated AR(∞) predictor; 0 means min(n/2, 1000)
}

// FARIMA is a fitted FARIMA(p, d, q) model,
// φ(B)(1−B)^d (x_t − μ) = θ(B) e_t, with its AR(∞) predictor.
type FARIMA struct {
	Linear
	D    float64
	ARMA ARMA
}

// FracDiffWeights returns the first n weights of (1−B)^d:
// w_0 = 1, w_k = w_{k−1}·(k−1−d)/k.
func FracDiffWeights(d float64, n int) []float64 {
	w := make([]float64, n)
	if n == 0 {
		return w
	}
	w[0] = 1
	for k := 1; k < n; k++ {
		w[k] = w[k-1] * (float64(k) - 1 - d) / float64(k)
	}
	return w
}

// FracDiff applies (1−B)^d to x, truncated at the start of the series
// (y_t = Σ_{k≤t} w_k x_{t−k}), by FFT convolution in O(n log n).
func FracDiff(x []float64, d float64) []float64 {
	n := len(x)
	w := FracDiffWeights(d, n)
	m := 1
	for m < 2*n {
		m <<= 1
	}
	fft := fourier.NewFFT(m)
	a := make([]float64, m)
	b := make([]float64, m)
	copy(a, x)
	copy(b, w)
	ca := fft.Coefficients(nil, a)
	cb := fft.Coefficients(nil, b)
	for i := range ca {
		ca[i] *= cb[i]
	}
	y := fft.Sequence(nil, ca)
	out := make([]float64, n)
	for i := range out {
		out[i] = y[i] / float64(m) // gonum's inverse is unnormalized
	}
	return out
}

// FitFARIMA fits FARIMA(p, d, q) in the two steps of the usual procedure
// (Hosking 1981; Shu et al., ICC 1999, which ALL-TCP's §3.1 follows):
// estimate d from the long-memory signature of the series, remove it by
// fractional differencing, and fit ARMA(p, q) to what is left. The first
// tenth of the differenced series (at most 200 samples) is skipped because
// its truncated filter has not yet seen the whole past.
func FitFARIMA(x []float64, o FARIMAOptions) (*FARIMA, error) {
	n := len(x)
	if n < 100 {
		return nil, fmt.Errorf("FARIMA needs at least 100 samples, got %d", n)
	}
	var d float64
	switch o.Method {
	case DByGPH:
		v, _, err := GPH(x, 0.5)
		if err != nil {
			return nil, err
		}
		d = v
	case DByAggVar:
		h, err := AggVar(x)
		if err != nil {
			return nil, err
		}
		d = h - 0.5
	case DFixed:
		d = o.D
	default:
		return nil, fmt.Errorf("unknown d method %d", o.Method)
	}
	// Keep d inside the stationary, invertible range.
	d = math.Max(-0.45, math.Min(0.45, d))
	mean := stat.Mean(x, nil)
	xc := make([]float64, n)
	for i, v := range x {
		xc[i] = v - mean
	}
	y := FracDiff(xc, d)
	skip := min(n/10, 200)
	m, err := FitARMA(y[skip:], o.P, o.Q)
	if err != nil {
		return nil, err
	}
	L := o.Lags
	if L <= 0 {
		L = min(n/2, 1000)
	}
	f := &FARIMA{D: d, ARMA: m}
	f.Linear = Linear{
		Name:     fmt.Sprintf("FARIMA(%d,%.3f,%d)", len(m.Phi), d, len(m.Theta)),
		Mean:     mean,
		Coef:     arInfinity(m, FracDiffWeights(d, L+1), L),
		NoiseVar: m.NoiseVar,
	}
	return f, nil
}

// MAWeights returns h_u, u = 0..n−1, the moving-average (Wold) weights of
// the fitted model in the units of x: h_u = σ_e·ψ_u with
// ψ(B) = θ(B) / (φ(B)(1−B)^d). These are the h_u of ALL-TCP's eq. 2.
func (f *FARIMA) MAWeights(n int) []float64 {
	g := FracDiffWeights(-f.D, n) // (1−B)^(−d)
	b := make([]float64, n)       // θ(B)·(1−B)^(−d)
	for k := range n {
		b[k] = g[k]
		for j, c := range f.ARMA.Theta {
			if k-1-j >= 0 {
				b[k] += c * g[k-1-j]
			}
		}
	}
	psi := make([]float64, n)
	s := math.Sqrt(f.ARMA.NoiseVar)
	for k := range n {
		v := b[k]
		for j, c := range f.ARMA.Phi {
			if k-1-j >= 0 {
				v += c * psi[k-1-j]
			}
		}
		psi[k] = v
	}
	for k := range psi {
		psi[k] *= s
	}
	return psi
}

// Variance returns σ² = Σ h_u² of the fitted model, summing 2^16 weights and
// adding the tail: far out h_u ≈ c·u^(d−1), whose squares sum to about
// c²·L^(2d−1)/(1−2d) beyond L.
func (f *FARIMA) Variance() float64 {
	const L = 1 << 16
	h := f.MAWeights(L)
	var s float64
	for _, v := range h {
		s += v * v
	}
	if f.D > 0 {
		c := h[L-1] / math.Pow(L-1, f.D-1)
		s += c * c * math.Pow(L, 2*f.D-1) / (1 - 2*f.D)
	}
	return s
}

// FitFARIMAAuto fits FARIMA(p, d, q) for p ≤ maxP, q ≤ maxQ with d from
// o.Method and keeps the orders with the least AIC, n·log σ² + 2(p+q), on the
// fractionally differenced series.
func FitFARIMAAuto(x []float64, maxP, maxQ int, o FARIMAOptions) (*FARIMA, error) {
	var best *FARIMA
	bestAIC := math.Inf(1)
	for p := 0; p <= maxP; p++ {
		for q := 0; q <= maxQ; q++ {
			o.P, o.Q = p, q
			f, err := FitFARIMA(x, o)
			if err != nil {
				continue
			}
			k := len(f.ARMA.Phi) + len(f.ARMA.Theta)
			if aic := float64(len(x))*math.Log(f.NoiseVar) + 2*float64(k); aic < bestAIC {
				best, bestAIC = f, aic
			}
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no FARIMA(p≤%d, d, q≤%d) could be fitted", maxP, maxQ)
	}
	return best, nil
}
