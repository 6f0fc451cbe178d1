package predict

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/dsp/fourier"
)

// FARIMAAutocov returns γ(0..maxLag) of a FARIMA(0, d, 0) process with unit
// innovation variance: γ(0) = Γ(1−2d)/Γ(1−d)², γ(k) = γ(k−1)·(k−1+d)/(k−d).
func FARIMAAutocov(d float64, maxLag int) []float64 {
	g := make([]float64, maxLag+1)
	a, _ := math.Lgamma(1 - 2*d)
	b, _ := math.Lgamma(1 - d)
	g[0] = math.Exp(a - 2*b)
	for k := 1; k <= maxLag; k++ {
		g[k] = g[k-1] * (float64(k) - 1 + d) / (float64(k) - d)
	}
	return g
}

func checkD(d float64) error {
	if !(d > -0.5 && d < 0.5) {
		return fmt.Errorf("d = %v outside (−0.5, 0.5)", d)
	}
	return nil
}

// Hosking generates n samples of FARIMA(0, d, 0) with unit innovation
// variance exactly, by the Durbin-Levinson recursion on the known
// autocovariance (Hosking 1984): each x_t is drawn from its Gaussian law
// given x_0..x_{t−1}. It costs O(n²): fine up to a few 10⁴ samples.
func Hosking(n int, d float64, rng *rand.Rand) ([]float64, error) {
	if err := checkD(d); err != nil {
		return nil, err
	}
	g := FARIMAAutocov(d, n)
	x := make([]float64, n)
	phi := make([]float64, n)
	prev := make([]float64, n)
	v := g[0]
	if n == 0 {
		return x, nil
	}
	x[0] = math.Sqrt(v) * rng.NormFloat64()
	for t := 1; t < n; t++ {
		// Durbin-Levinson: φ_tt = (γ(t) − Σ φ_{t−1,j} γ(t−j)) / v_{t−1}.
		num := g[t]
		for j := 1; j < t; j++ {
			num -= prev[j] * g[t-j]
		}
		phi[t] = num / v
		for j := 1; j < t; j++ {
			phi[j] = prev[j] - phi[t]*prev[t-j]
		}
		v *= 1 - phi[t]*phi[t]
		var mean float64
		for j := 1; j <= t; j++ {
			mean += phi[j] * x[t-j]
		}
		x[t] = mean + math.Sqrt(v)*rng.NormFloat64()
		copy(prev[1:t+1], phi[1:t+1])
	}
	return x, nil
}

// Spectral generates n samples of FARIMA(0, d, 0) with unit innovation
// variance by circulant embedding (Davies & Harte 1987): the autocovariance
// wrapped onto a circle of 2n points has the eigenvalues λ_k = DFT(c)_k,
// which are non-negative for FARIMA(0, d, 0); a DFT of independent complex
// normals scaled by sqrt(λ_k/2n) then has exactly that covariance in its
// real part. Exact like Hosking, but O(n log n).
func Spectral(n int, d float64, rng *rand.Rand) ([]float64, error) {
	if err := checkD(d); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	g := FARIMAAutocov(d, n)
	m := 2 * n
	c := make([]complex128, m)
	for k := 0; k <= n; k++ {
		c[k] = complex(g[k], 0)
	}
	for k := 1; k < n; k++ {
		c[m-k] = complex(g[k], 0)
	}
	fft := fourier.NewCmplxFFT(m)
	lam := fft.Coefficients(nil, c)
	w := make([]complex128, m)
	for k, l := range lam {
		e := real(l)
		if e < 0 {
			if e < -1e-8*real(lam[0]) {
				return nil, fmt.Errorf("circulant embedding not positive for d = %v", d)
			}
			e = 0
		}
		a := math.Sqrt(e / float64(m))
		w[k] = complex(a*rng.NormFloat64(), a*rng.NormFloat64())
	}
	y := fft.Coefficients(nil, w)
	x := make([]float64, n)
	for i := range x {
		x[i] = real(y[i])
	}
	return x, nil
}

// ParetoOnOff is one on/off source whose ON and OFF periods are Pareto
// distributed. With tail index 1 < α < 2 the periods have infinite
// variance, and the superposition of many such sources is asymptotically
// self-similar with H = (3 − α_min)/2 (Willinger, Taqqu, Sherman & Wilson
// 1997). The source is a deterministic function of its Rand.
type ParetoOnOff struct {
	AlphaOn, AlphaOff float64 // tail indices, > 1
	MeanOn, MeanOff   float64 // mean period lengths, seconds
	rng               *rand.Rand
	on                bool
}

// NewParetoOnOff returns a source whose first period is ON with the
// stationary probability MeanOn/(MeanOn+MeanOff).
func NewParetoOnOff(alphaOn, alphaOff, meanOn, meanOff float64, rng *rand.Rand) (*ParetoOnOff, error) {
	if !(alphaOn > 1 && alphaOff > 1) {
		return nil, fmt.Errorf("tail indices %v, %v must exceed 1 for finite means", alphaOn, alphaOff)
	}
	if !(meanOn > 0 && meanOff > 0) {
		return nil, fmt.Errorf("mean periods %v, %v must be positive", meanOn, meanOff)
	}
	s := &ParetoOnOff{AlphaOn: alphaOn, AlphaOff: alphaOff, MeanOn: meanOn, MeanOff: meanOff, rng: rng}
	// Next flips the state before drawing, so store the opposite.
	s.on = rng.Float64() >= meanOn/(meanOn+meanOff)
	return s, nil
}

// pareto draws from a Pareto law with tail index a and the given mean: the
// scale is x_m = mean·(a−1)/a and X = x_m·U^(−1/a) with U uniform on (0, 1].
func pareto(rng *rand.Rand, a, mean float64) float64 {
	xm := mean * (a - 1) / a
	return xm * math.Pow(1-rng.Float64(), -1/a)
}

// Next returns the next period: whether the source is ON during it and its
// length in seconds. Periods alternate.
func (s *ParetoOnOff) Next() (on bool, length float64) {
	s.on = !s.on
	if s.on {
		return true, pareto(s.rng, s.AlphaOn, s.MeanOn)
	}
	return false, pareto(s.rng, s.AlphaOff, s.MeanOff)
}

// AggregateOnOff superposes n independent Pareto on/off sources, each
// sending at rate peak while ON, and returns the amount sent in each of
// slots intervals of length slot. The sources draw from rng in turn, so
// the series is fixed by rng's seed.
func AggregateOnOff(n int, alphaOn, alphaOff, meanOn, meanOff, peak, slot float64, slots int, rng *rand.Rand) ([]float64, error) {
	out := make([]float64, slots)
	end := slot * float64(slots)
	for range n {
		src, err := NewParetoOnOff(alphaOn, alphaOff, meanOn, meanOff, rng)
		if err != nil {
			return nil, err
		}
		// A random phase into the first period, so that sources do not
		// all switch at t = 0.
		t := 0.0
		first := true
		for t < end {
			on, l := src.Next()
			if first {
				l *= rng.Float64()
				first = false
			}
			if on {
				addInterval(out, t, math.Min(t+l, end), slot, peak)
			}
			t += l
		}
	}
	return out, nil
}

// addInterval spreads rate·(b−a) over the slots that [a, b) overlaps. It
// works in slot units so that a boundary computed as (i+1)·slot cannot
// round to a itself and stall the loop.
func addInterval(out []float64, a, b, slot, rate float64) {
	u, v := a/slot, b/slot
	for i := int(u); u < v && i < len(out); i++ {
		e := math.Min(v, float64(i+1))
		if e > u {
			out[i] += rate * slot * (e - u)
			u = e
		}
	}
}
