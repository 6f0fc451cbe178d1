package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Equivalence is the outcome of the two one-sided tests (Schuirmann 1987)
// of |a.Mean - b.Mean| < Margin.
type Equivalence struct {
	Difference
	Margin float64 // absolute
	// Lo90, Hi90 is the 90% interval of the difference: equivalence at
	// level Alpha is shown when it lies inside ±Margin.
	Lo90, Hi90 float64
	P          float64 // the larger of the two one-sided p-values
}

// EquivalenceResult is what an equivalence claim ("neither helps nor
// hurts", "no difference") comes to.
type EquivalenceResult int

// Results of TOST.
const (
	// Equivalent: the 90% interval lies inside the margin.
	Equivalent EquivalenceResult = iota
	// Different: Welch's test finds a difference (p < Alpha) and its
	// estimate lies outside the margin: a real difference larger than the
	// claim allows.
	Different
	// Undecided: neither; more runs would be needed to tell.
	Undecided
)

// TOST tests whether a and b are equivalent within ±margin (absolute, in
// the samples' unit).
func TOST(a, b Sample, margin float64) Equivalence {
	e := Equivalence{Difference: Welch(a, b), Margin: margin}
	d := e.Difference
	if math.IsNaN(d.P) {
		e.Lo90, e.Hi90, e.P = math.NaN(), math.NaN(), math.NaN()
		return e
	}
	se := math.Sqrt(a.varMean() + b.varMean())
	if se == 0 {
		e.Lo90, e.Hi90 = d.Diff, d.Diff
		e.P = 1
		if math.Abs(d.Diff) < margin {
			e.P = 0
		}
		return e
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: d.DF}
	pLower := t.Survival((d.Diff + margin) / se) // H0: diff <= -margin
	pUpper := t.CDF((d.Diff - margin) / se)      // H0: diff >= +margin
	e.P = math.Max(pLower, pUpper)
	q := t.Quantile(1 - Alpha)
	e.Lo90, e.Hi90 = d.Diff-q*se, d.Diff+q*se
	return e
}

// Result decides the equivalence claim.
func (e Equivalence) Result() EquivalenceResult {
	switch {
	case math.IsNaN(e.P) || !e.Decided():
		return Undecided
	case e.P < Alpha:
		return Equivalent
	case e.Difference.Significant() && math.Abs(e.Diff) >= e.Margin:
		return Different
	}
	return Undecided
}

// Text reads "TOST margin ±4.96: 90% CI of the difference -19.1 to -2.1,
// p = 0.74; Welch p = 0.045", scaled by scale.
func (e Equivalence) Text(scale float64, unit string) string {
	if math.IsNaN(e.P) {
		return fmt.Sprintf("TOST not run (n = %d and %d)", e.A.N, e.B.N)
	}
	return fmt.Sprintf("TOST within ±%.3g%s: difference %.3g%s, 90%% CI %.3g to %.3g, p = %s; Welch p = %s",
		e.Margin*scale, unit, e.Diff*scale, unit, e.Lo90*scale, e.Hi90*scale, PText(e.P), PText(e.Difference.P))
}
