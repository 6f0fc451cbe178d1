package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Difference is the outcome of Welch's t-test of a.Mean - b.Mean.
type Difference struct {
	A, B   Sample
	Diff   float64 // a.Mean - b.Mean
	Lo, Hi float64 // its 95% confidence interval
	T, DF  float64 // Welch's statistic and the Welch-Satterthwaite degrees of freedom
	P      float64 // two-sided p-value
}

// Welch tests whether two means differ without assuming equal variances
// (Welch 1947; the Welch-Satterthwaite degrees of freedom). Two sets of
// identical runs (both standard deviations 0) differ with certainty if
// their means differ (P 0) and not at all if they are equal (P 1).
func Welch(a, b Sample) Difference {
	d := Difference{A: a, B: b, Diff: a.Mean - b.Mean}
	va, vb := a.varMean(), b.varMean()
	se := math.Sqrt(va + vb)
	if a.N < 2 || b.N < 2 {
		d.Lo, d.Hi, d.T, d.DF, d.P = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return d
	}
	if se == 0 {
		d.Lo, d.Hi, d.DF = d.Diff, d.Diff, math.Inf(1)
		if d.Diff == 0 {
			d.T, d.P = 0, 1
		} else {
			d.T, d.P = math.Copysign(math.Inf(1), d.Diff), 0
		}
		return d
	}
	d.T = d.Diff / se
	d.DF = (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: d.DF}
	d.P = 2 * t.Survival(math.Abs(d.T))
	q := t.Quantile(1 - Alpha/2)
	d.Lo, d.Hi = d.Diff-q*se, d.Diff+q*se
	return d
}

// Significant reports p < Alpha.
func (d Difference) Significant() bool { return d.P < Alpha }

// Decided reports whether both sides have enough runs to be compared.
func (d Difference) Decided() bool { return d.A.N >= MinRuns && d.B.N >= MinRuns }

// Text reads "Welch t = -2.24, df 12.0, p = 0.045; difference -10.6
// (95% CI -20.9 to -0.3)", the difference scaled by scale.
func (d Difference) Text(scale float64, unit string) string {
	if math.IsNaN(d.P) {
		return fmt.Sprintf("difference %.3g%s, not tested (n = %d and %d)", d.Diff*scale, unit, d.A.N, d.B.N)
	}
	if math.IsInf(d.DF, 1) {
		return fmt.Sprintf("difference %.3g%s between runs identical within each side (n = %d, %d)", d.Diff*scale, unit, d.A.N, d.B.N)
	}
	return fmt.Sprintf("Welch t = %.2f, df %.1f, p = %s; difference %.3g%s (95%% CI %.3g to %.3g)",
		d.T, d.DF, PText(d.P), d.Diff*scale, unit, d.Lo*scale, d.Hi*scale)
}

// PText prints a p-value as a referee reads it.
func PText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p < 0.001:
		return "< 0.001"
	case p < 0.01:
		return fmt.Sprintf("%.4f", p)
	default:
		return fmt.Sprintf("%.3f", p)
	}
}
