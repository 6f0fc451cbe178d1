// Package stats holds the tests that decide a reproduction's verdicts:
// Welch's t-test for a difference of two means, the two one-sided tests
// (TOST) for equivalence within a margin, Wilson's interval and the
// two-proportion test for counts of events, Holm's correction for several
// comparisons in one claim, and a one-way analysis of variance for
// whether a swept variable moved a measurement at all. The distributions
// are gonum's; this package only puts the textbook formulas together.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Sample is what a test needs of a set of replications: their count,
// mean and sample standard deviation (n-1).
type Sample struct {
	N    int
	Mean float64
	SD   float64
}

// Of summarises xs.
func Of(xs []float64) Sample {
	s := Sample{N: len(xs)}
	if s.N == 0 {
		s.Mean = math.NaN()
		return s
	}
	s.Mean = stat.Mean(xs, nil)
	if s.N > 1 {
		s.SD = stat.StdDev(xs, nil)
	}
	return s
}

// variance of the mean, s²/n.
func (s Sample) varMean() float64 { return s.SD * s.SD / float64(s.N) }

// Alpha is the significance level every verdict uses: a difference is
// significant at p < Alpha, an equivalence is shown by the 1-2·Alpha
// interval (the 90% one) lying inside the margin.
const Alpha = 0.05

// MinRuns is the fewest replications per side a comparison of means is
// decided on; with fewer the verdict is inconclusive.
const MinRuns = 3

// MinEvents is the fewest events (lost retransmissions scored, timeouts
// counted) a proportion is decided on; with fewer it is inconclusive.
const MinEvents = 20
