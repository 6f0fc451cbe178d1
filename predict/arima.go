package predict

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// ARMA holds φ(B)y_t = θ(B)e_t with φ(B) = 1 − φ_1B − … − φ_pB^p and
// θ(B) = 1 + θ_1B + … + θ_qB^q, for a zero-mean series y.
type ARMA struct {
	Phi      []float64
	Theta    []float64
	NoiseVar float64
}

// autocov returns the biased sample autocovariance γ(0..maxLag) of y around
// its mean (the biased form keeps the Toeplitz matrix positive definite).
func autocov(y []float64, maxLag int) []float64 {
	n := len(y)
	mean := stat.Mean(y, nil)
	g := make([]float64, maxLag+1)
	for k := 0; k <= maxLag; k++ {
		var s float64
		for t := k; t < n; t++ {
			s += (y[t] - mean) * (y[t-k] - mean)
		}
		g[k] = s / float64(n)
	}
	return g
}

// YuleWalker fits AR(p) by the Durbin-Levinson recursion on the sample
// autocovariance; the result is always stationary.
func YuleWalker(y []float64, p int) (ARMA, error) {
	if p < 0 || len(y) <= p+1 {
		return ARMA{}, fmt.Errorf("AR(%d) needs more than %d samples", p, p+1)
	}
	g := autocov(y, p)
	if g[0] <= 0 {
		return ARMA{}, errors.New("constant series")
	}
	phi, v := levinson(g, p)
	return ARMA{Phi: phi, NoiseVar: v}, nil
}

// levinson solves the Yule-Walker equations of order p for autocovariance g.
func levinson(g []float64, p int) ([]float64, float64) {
	phi := make([]float64, p)
	prev := make([]float64, p)
	v := g[0]
	for k := 1; k <= p; k++ {
		num := g[k]
		for j := 1; j < k; j++ {
			num -= prev[j-1] * g[k-j]
		}
		r := num / v
		phi[k-1] = r
		for j := 1; j < k; j++ {
			phi[j-1] = prev[j-1] - r*prev[k-j-1]
		}
		v *= 1 - r*r
		copy(prev, phi)
	}
	return phi, v
}

// FitARMA fits ARMA(p, q) to the zero-mean series y. For q = 0 it is
// Yule-Walker. Otherwise it follows Hannan & Rissanen (1982): a long AR fit
// supplies estimates of the innovations e_t, and y_t is regressed by least
// squares on y_{t−1..t−p} and ê_{t−1..t−q}. If the resulting θ(B) is not
// invertible (or φ(B) not stationary) the fit falls back to AR(p+q), which
// a predictor can always use.
func FitARMA(y []float64, p, q int) (ARMA, error) {
	if p < 0 || q < 0 {
		return ARMA{}, fmt.Errorf("orders p=%d q=%d negative", p, q)
	}
	if q == 0 {
		return YuleWalker(y, p)
	}
	n := len(y)
	long := max(p+q+5, int(math.Ceil(10*math.Log10(float64(n)))))
	if n < 4*long+p+q {
		return ARMA{}, fmt.Errorf("ARMA(%d,%d) needs more than %d samples", p, q, 4*long+p+q)
	}
	ar, err := YuleWalker(y, long)
	if err != nil {
		return ARMA{}, err
	}
	e := make([]float64, n)
	for t := long; t < n; t++ {
		e[t] = y[t]
		for j, c := range ar.Phi {
			e[t] -= c * y[t-1-j]
		}
	}
	start := long + q
	rows, cols := n-start, p+q
	X := mat.NewDense(rows, cols, nil)
	Y := mat.NewVecDense(rows, nil)
	for r := range rows {
		t := start + r
		for j := range p {
			X.Set(r, j, y[t-1-j])
		}
		for j := range q {
			X.Set(r, p+j, e[t-1-j])
		}
		Y.SetVec(r, y[t])
	}
	var beta mat.VecDense
	if err := beta.SolveVec(X, Y); err != nil {
		return YuleWalker(y, p+q)
	}
	m := ARMA{Phi: make([]float64, p), Theta: make([]float64, q)}
	for j := range p {
		m.Phi[j] = beta.AtVec(j)
	}
	for j := range q {
		m.Theta[j] = beta.AtVec(p + j)
	}
	if !stableRoots(m.Phi, 1) || !stableRoots(m.Theta, -1) {
		return YuleWalker(y, p+q)
	}
	// Noise variance from the model's own one-step residuals.
	res := m.residuals(y)
	var ss float64
	for _, r := range res[start:] {
		ss += r * r
	}
	m.NoiseVar = ss / float64(len(res)-start)
	return m, nil
}

// residuals filters y through φ(B)/θ(B): e_t = y_t − Σφ_j y_{t−j} − Σθ_j e_{t−j},
// with values before the start taken as zero.
func (m ARMA) residuals(y []float64) []float64 {
	e := make([]float64, len(y))
	for t := range y {
		v := y[t]
		for j, c := range m.Phi {
			if t-1-j >= 0 {
				v -= c * y[t-1-j]
			}
		}
		for j, c := range m.Theta {
			if t-1-j >= 0 {
				v -= c * e[t-1-j]
			}
		}
		e[t] = v
	}
	return e
}

// stableRoots reports whether 1 − sign·Σc_jz^j has all its roots outside the
// unit circle, i.e. whether the companion matrix of the polynomial has
// spectral radius below 1 (sign = +1 for φ, −1 for θ's 1 + Σθ_jz^j).
func stableRoots(c []float64, sign float64) bool {
	k := len(c)
	if k == 0 {
		return true
	}
	A := mat.NewDense(k, k, nil)
	for j := range k {
		A.Set(0, j, sign*c[j])
	}
	for i := 1; i < k; i++ {
		A.Set(i, i-1, 1)
	}
	var eig mat.Eigen
	if !eig.Factorize(A, mat.EigenNone) {
		return false
	}
	for _, v := range eig.Values(nil) {
		if math.Hypot(real(v), imag(v)) >= 0.999 {
			return false
		}
	}
	return true
}

// Linear is a fitted model in truncated AR(∞) form:
// x_t − Mean = Σ_{k=1}^{len(Coef)} Coef[k−1]·(x_{t−k} − Mean) + e_t.
// AR, ARIMA and FARIMA fits all end up here, so they forecast alike.
type Linear struct {
	Name     string
	Mean     float64
	Coef     []float64
	NoiseVar float64
}

// Predict iterates the one-step recursion tau times, feeding forecasts back
// in place of the unknown future values.
func (l *Linear) Predict(history []float64, tau int) float64 {
	L := len(l.Coef)
	h := history
	if len(h) > L {
		h = h[len(h)-L:]
	}
	buf := make([]float64, len(h), len(h)+tau)
	for i, v := range h {
		buf[i] = v - l.Mean
	}
	for range tau {
		var s float64
		n := len(buf)
		for k := 0; k < L && k < n; k++ {
			s += l.Coef[k] * buf[n-1-k]
		}
		buf = append(buf, s)
	}
	return buf[len(buf)-1] + l.Mean
}

// arInfinity expands π(B) = φ(B)·diff(B)/θ(B) to L terms and returns
// Coef_k = −π_k, k = 1..L. diff holds the weights of the differencing
// operator ((1−B)^D or (1−B)^d), diff[0] = 1.
func arInfinity(m ARMA, diff []float64, L int) []float64 {
	a := make([]float64, L+1) // φ(B)·diff(B)
	for k := 0; k <= L; k++ {
		if k < len(diff) {
			a[k] = diff[k]
		}
		for j, c := range m.Phi {
			if k-1-j >= 0 && k-1-j < len(diff) {
				a[k] -= c * diff[k-1-j]
			}
		}
	}
	pi := make([]float64, L+1) // a(B)/θ(B)
	for k := 0; k <= L; k++ {
		v := a[k]
		for j, c := range m.Theta {
			if k-1-j >= 0 {
				v -= c * pi[k-1-j]
			}
		}
		pi[k] = v
	}
	coef := make([]float64, L)
	for k := 1; k <= L; k++ {
		coef[k-1] = -pi[k]
	}
	return coef
}

// intDiff returns the weights of (1−B)^D for integer D.
func intDiff(D int) []float64 {
	w := []float64{1}
	for range D {
		nw := make([]float64, len(w)+1)
		for i, v := range w {
			nw[i] += v
			nw[i+1] -= v
		}
		w = nw
	}
	return w
}

// FitAR fits AR(p) around the mean by Yule-Walker; p = 0 picks the order
// in 1..20 with the least AIC, n·log σ² + 2p.
func FitAR(x []float64, p int) (*Linear, error) {
	mean := stat.Mean(x, nil)
	if p == 0 {
		best := math.Inf(1)
		for k := 1; k <= 20 && k < len(x)/4; k++ {
			m, err := YuleWalker(x, k)
			if err != nil {
				return nil, err
			}
			if aic := float64(len(x))*math.Log(m.NoiseVar) + 2*float64(k); aic < best {
				best, p = aic, k
			}
		}
	}
	m, err := YuleWalker(x, p)
	if err != nil {
		return nil, err
	}
	return &Linear{Name: fmt.Sprintf("AR(%d)", p), Mean: mean, Coef: m.Phi, NoiseVar: m.NoiseVar}, nil
}

// FitARIMA fits ARIMA(p, D, q): ARMA(p, q) on the D-th difference of x, with
// no drift. The forecast integrates back through (1−B)^D.
func FitARIMA(x []float64, p, D, q int) (*Linear, error) {
	if D < 0 {
		return nil, fmt.Errorf("D = %d negative", D)
	}
	y := x
	for range D {
		dy := make([]float64, len(y)-1)
		for i := range dy {
			dy[i] = y[i+1] - y[i]
		}
		y = dy
	}
	mean := 0.0
	if D == 0 {
		mean = stat.Mean(x, nil)
	}
	yc := make([]float64, len(y))
	for i, v := range y {
		yc[i] = v - mean
	}
	m, err := FitARMA(yc, p, q)
	if err != nil {
		return nil, err
	}
	L := 200
	return &Linear{
		Name:     fmt.Sprintf("ARIMA(%d,%d,%d)", p, D, q),
		Mean:     mean,
		Coef:     arInfinity(m, intDiff(D), L),
		NoiseVar: m.NoiseVar,
	}, nil
}
