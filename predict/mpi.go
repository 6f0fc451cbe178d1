package predict

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcplab/tcplab/model"
)

func init() {
	model.Register(model.Model{
		Name: "mpi",
		Doc:  "ALL-TCP maximum prediction interval (eqs. 1-6) of a FARIMA(1,d,0) traffic model",
		Params: []model.Param{
			{Name: "d", Default: 0.3, Help: "memory parameter", Min: -0.49, Max: 0.49},
			{Name: "phi", Default: 0, Help: "AR(1) coefficient", Min: -0.99, Max: 0.99},
			{Name: "sigma", Default: 1, Help: "innovation standard deviation", Min: 1e-12, Max: model.Inf},
			{Name: "mean", Default: 10, Help: "mean traffic level", Min: 1e-12, Max: model.Inf},
			{Name: "eps", Default: 0.2, Help: "tolerance on the relative error", Min: 1e-9, Max: 0.999},
			{Name: "peps", Default: 0.1, Unit: model.Probability, Help: "allowed probability of exceeding eps", Min: 1e-9, Max: 0.499}},
		Eval: func(in model.Inputs) ([]model.Output, error) {
			f := &FARIMA{D: in["d"], ARMA: ARMA{NoiseVar: in["sigma"] * in["sigma"]}}
			if in["phi"] != 0 {
				f.ARMA.Phi = []float64{in["phi"]}
			}
			variance := f.Variance()
			n, err := MPI(MPIParams{H: f.MAWeights(10000), Var: variance, Mean: in["mean"], Eps: in["eps"], PEps: in["peps"]})
			if err != nil {
				return nil, err
			}
			return []model.Output{{Name: "mpi", Value: float64(n), Unit: model.Number},
				{Name: "variance", Value: variance, Unit: model.Number},
				{Name: "cv", Value: math.Sqrt(variance) / in["mean"], Unit: model.Number}}, nil
		},
	})
}

// This file implements ALL-TCP's maximum prediction interval (Al Shinwan
// et al., MTAP 2020, §3.1, eqs. 1-6).
//
// Traffic is Y(t) = X(t) + μ with X a zero-mean Gaussian process written by
// Wold's theorem as X(t) = Σ_{u≥0} h_u n(t−u) with unit white noise n (eq. 2).
// The best τ-step forecast keeps the terms already seen,
// X̂(t+τ) = Σ_{u≥0} h_{u+τ} n(t−u) (eq. 3), and misses e = Σ_{u<τ} h_u n(t+τ−u),
// of variance σ̂²_τ = Σ_{u<τ} h_u² = σ² − Σ_{u≥τ} h_u² (eq. 4), σ² = Var X.
//
// The normalized error (Ŷ − Y)/Ŷ exceeds ε iff Z = (Ŷ − Y) − εŶ > 0, and
// Z = −e − εX̂ − εμ is Gaussian with mean −εμ and, e and X̂ being independent,
// variance σ²_{ε,τ} = σ̂²_τ + ε²(σ² − σ̂²_τ) = (1−ε²)σ̂²_τ + ε²σ² (eq. 5). So
//
//	P_error(τ, ε) = P(Z > 0) = 1 − Φ(εμ/σ_{ε,τ}),
//
// and P_error ≤ P_ε iff σ²_{ε,τ} ≤ ε²μ²/z² with z = Φ⁻¹(1 − P_ε), i.e.
//
//	σ̂²_τ/σ² ≤ (1/(C²z²) − 1)·ε²/(1−ε²),   C = σ/μ   (eq. 6).
//
// MPI is the largest τ satisfying it; σ̂²_τ grows with τ, so it is the last τ
// before the first failure.

// MPIParams are the inputs of eq. 6.
type MPIParams struct {
	H    []float64 // moving-average weights h_0, h_1, … in units of Y
	Var  float64   // σ² = Var X; 0 means Σ h_u² over H (H must then hold the whole tail)
	Mean float64   // μ > 0
	Eps  float64   // tolerance ε in (0, 1)
	PEps float64   // allowed probability P_ε in (0, 0.5)
}

func (m MPIParams) check() (float64, error) {
	switch {
	case len(m.H) == 0:
		return 0, fmt.Errorf("no moving-average weights")
	case !(m.Mean > 0):
		return 0, fmt.Errorf("mean %v must be positive", m.Mean)
	case !(m.Eps > 0 && m.Eps < 1):
		return 0, fmt.Errorf("epsilon %v outside (0, 1)", m.Eps)
	case !(m.PEps > 0 && m.PEps < 0.5):
		return 0, fmt.Errorf("P_epsilon %v outside (0, 0.5)", m.PEps)
	}
	v := m.Var
	if v <= 0 {
		for _, h := range m.H {
			v += h * h
		}
	}
	return v, nil
}

// PredictionErrorProb is P_error(τ, ε) of eq. 1 for τ ≥ 1 (τ ≤ len(H)).
func PredictionErrorProb(m MPIParams, tau int) (float64, error) {
	v, err := m.check()
	if err != nil {
		return 0, err
	}
	if tau < 1 || tau > len(m.H) {
		return 0, fmt.Errorf("tau %d outside [1, %d]", tau, len(m.H))
	}
	var s float64
	for _, h := range m.H[:tau] {
		s += h * h
	}
	sd := math.Sqrt((1-m.Eps*m.Eps)*s + m.Eps*m.Eps*v)
	return 1 - distuv.UnitNormal.CDF(m.Eps*m.Mean/sd), nil
}

// MPI returns the maximum prediction interval of eq. 6 (0 when even one step
// ahead is not confident), searching τ up to len(H).
func MPI(m MPIParams) (int, error) {
	v, err := m.check()
	if err != nil {
		return 0, err
	}
	z := distuv.UnitNormal.Quantile(1 - m.PEps)
	c2 := v / (m.Mean * m.Mean)
	bound := (1/(c2*z*z) - 1) * m.Eps * m.Eps / (1 - m.Eps*m.Eps)
	var s float64
	for tau := 1; tau <= len(m.H); tau++ {
		s += m.H[tau-1] * m.H[tau-1]
		if s/v > bound {
			return tau - 1, nil
		}
	}
	return len(m.H), nil
}
