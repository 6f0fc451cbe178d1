package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Trend is Spearman's rank correlation of a measurement with a swept
// variable over every run, and its test (the t approximation with n-2
// degrees of freedom, ties given their mean rank).
type Trend struct {
	N   int
	Rho float64
	P   float64 // two-sided
}

// SpearmanTrend correlates ys with xs (one pair a run).
func SpearmanTrend(xs, ys []float64) Trend {
	t := Trend{N: len(xs), Rho: math.NaN(), P: math.NaN()}
	if len(xs) != len(ys) || len(xs) < 3 {
		return t
	}
	rx, ry := ranks(xs), ranks(ys)
	t.Rho = stat.Correlation(rx, ry, nil)
	switch {
	case math.IsNaN(t.Rho): // a constant side: no trend to see
		t.Rho, t.P = 0, 1
	case math.Abs(t.Rho) >= 1:
		t.P = 0
	default:
		df := float64(t.N - 2)
		ts := t.Rho * math.Sqrt(df/(1-t.Rho*t.Rho))
		t.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(ts))
	}
	return t
}

// ranks gives each value its rank from 1, ties their mean rank.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	// insertion sort keeps it dependency-free and stable; n is runs.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && xs[idx[j]] < xs[idx[j-1]]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mean
		}
		i = j + 1
	}
	return r
}

// Text reads "Spearman ρ = -0.62 over 50 runs, p < 0.001".
func (t Trend) Text() string {
	return fmt.Sprintf("Spearman ρ = %.2f over %d runs, p = %s", t.Rho, t.N, PText(t.P))
}
