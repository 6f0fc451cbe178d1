package repro

import (
	"fmt"
	"math"
	"strings"

	"github.com/tcplab/tcplab/stats"
	"github.com/tcplab/tcplab/store"
)

// The verdict rules (docs/verdicts.md) in code: what kind of check a
// claim is, and the tests that decide each shape of claim.

// Kind tells a paper's claim from tcplab's own checks; only paper claims
// are counted as confirmed or refuted on the index.
type Kind int

// Kinds of check.
const (
	// PaperClaim: a sentence or figure of the paper.
	PaperClaim Kind = iota
	// ModelCheck: tcplab's model of the paper against tcplab's
	// simulation, a claim the paper does not make.
	ModelCheck
	// SanityCheck: the simulator doing what it was told (an error model's
	// rate, a mechanism firing at all); it cannot refute the paper.
	SanityCheck
)

func (k Kind) String() string {
	return [...]string{"paper claim", "model check", "sanity check"}[k]
}

// sample is a summary as the tests take it.
func sample(s store.Summary) stats.Sample { return stats.Sample{N: s.N, Mean: s.Mean, SD: s.SD} }

// scaled is s times f: the sample a claim "more than G above" compares
// against, (1+G)·b.
func scaled(s stats.Sample, f float64) stats.Sample {
	return stats.Sample{N: s.N, Mean: s.Mean * f, SD: s.SD * f}
}

// constant is a threshold stated by the paper as a sample without
// spread: Welch's test against it is the one-sample t-test.
func constant(c float64) stats.Sample { return stats.Sample{N: math.MaxInt32, Mean: c} }

// above decides "a is above b" by Welch's t-test: confirmed when a is
// significantly above, refuted when significantly below, inconclusive
// otherwise (or with fewer than stats.MinRuns runs a side). The test's
// text names the numbers, scaled by scale into unit.
func above(a, b stats.Sample, scale float64, unit string) (Verdict, string) {
	d := stats.Welch(a, b)
	return aboveOf(d, d.P), d.Text(scale, unit)
}

func aboveOf(d stats.Difference, p float64) Verdict {
	switch {
	case !d.Decided() || math.IsNaN(p):
		return Inconclusive
	case p < stats.Alpha && d.Diff > 0:
		return Confirmed
	case p < stats.Alpha && d.Diff < 0:
		return Refuted
	}
	return Inconclusive
}

// comparison is one of several in a claim, named for the reason line.
type comparison struct {
	where string
	d     stats.Difference
}

// aboveEverywhere decides "a is above b at every point" from several
// comparisons, Holm-corrected: confirmed when every one is significantly
// above, refuted when any is significantly below, inconclusive otherwise.
func aboveEverywhere(cs []comparison, scale float64, unit string) (Verdict, string) {
	if len(cs) == 0 {
		return Inconclusive, "no point to compare"
	}
	ps := make([]float64, len(cs))
	for i, c := range cs {
		ps[i] = c.d.P
	}
	adj := stats.Holm(ps)
	var up, down, flat []string
	for i, c := range cs {
		switch aboveOf(c.d, adj[i]) {
		case Confirmed:
			up = append(up, c.where)
		case Refuted:
			down = append(down, fmt.Sprintf("%s (%s, Holm p = %s)", c.where, c.d.Text(scale, unit), stats.PText(adj[i])))
		default:
			flat = append(flat, c.where)
		}
	}
	text := fmt.Sprintf("Welch's t-test at %d comparisons, Holm-corrected: significantly above at %d, below at %d, not significant at %d",
		len(cs), len(up), len(down), len(flat))
	if len(down) > 0 {
		text += "; below: " + strings.Join(down, "; ")
	}
	if len(flat) > 0 {
		text += "; not significant: " + strings.Join(flat, ", ")
	}
	switch {
	case len(down) > 0:
		return Refuted, text
	case len(flat) == 0:
		return Confirmed, text
	}
	return Inconclusive, text
}

// equivalent decides "a and b do not differ" (within ±margin, a share of
// b's mean) by TOST.
func equivalent(a, b stats.Sample, margin, scale float64, unit string) (Verdict, string) {
	e := stats.TOST(a, b, margin*math.Abs(b.Mean))
	v := Inconclusive
	switch e.Result() {
	case stats.Equivalent:
		v = Confirmed
	case stats.Different:
		v = Refuted
	}
	return v, fmt.Sprintf("equivalence within ±%.0f%%: %s", 100*margin, e.Text(scale, unit))
}

// trend decides "the measurement falls (sign -1) or rises (+1) with x"
// on the whole curve: Spearman's ρ over every run must be significant in
// that direction, and no step between neighbouring points may go
// significantly the other way (Welch, Holm-corrected): a U-shaped curve
// whose ends happen to differ is not a monotone one.
func trend(xs []float64, groups [][]float64, sign float64) (Verdict, string) {
	var px, py []float64
	for i, g := range groups {
		for _, y := range g {
			px, py = append(px, xs[i]), append(py, y)
		}
	}
	tr := stats.SpearmanTrend(px, py)
	var steps []float64
	var ds []stats.Difference
	for i := 1; i < len(groups); i++ {
		d := stats.Welch(stats.Of(groups[i]), stats.Of(groups[i-1]))
		ds, steps = append(ds, d), append(steps, d.P)
	}
	adj := stats.Holm(steps)
	var against []string
	for i, d := range ds {
		if adj[i] < stats.Alpha && d.Diff*sign < 0 {
			against = append(against, fmt.Sprintf("%g to %g (Holm p = %s)", xs[i], xs[i+1], stats.PText(adj[i])))
		}
	}
	text := tr.Text()
	if len(against) > 0 {
		text += "; steps significantly the other way: " + strings.Join(against, ", ")
	}
	switch {
	case tr.N < 2*stats.MinRuns || math.IsNaN(tr.P):
		return Inconclusive, text
	case len(against) > 0 || tr.P < stats.Alpha && tr.Rho*sign < 0:
		return Refuted, text
	case tr.P < stats.Alpha && tr.Rho*sign > 0:
		return Confirmed, text
	}
	return Inconclusive, text
}

// fewer decides "the share k/n is below limit" from events: Wilson's
// interval wholly below confirms, wholly at or above refutes; fewer than
// stats.MinEvents events are inconclusive.
func shareBelow(p stats.Proportion, limit float64) (Verdict, string) {
	text := fmt.Sprintf("%s against %.0f%%", p.Text(), 100*limit)
	switch {
	case !p.Enough():
		return Inconclusive, text + fmt.Sprintf(" (fewer than %d events)", stats.MinEvents)
	case p.Hi < limit:
		return Confirmed, text
	case p.Lo >= limit:
		return Refuted, text
	}
	return Inconclusive, text
}

// deterministic marks a claim decided on runs without randomness: the
// replications are one run repeated, so no interval applies.
const deterministic = "deterministic: one run (no random input; every seed gives the same run)"

// Tally counts paper claims by verdict and tcplab's own checks apart:
// the numbers an index or a summary prints.
type Tally struct {
	Confirmed, Refuted, Depends, Inconclusive int // paper claims
	Models, ModelsFailed                      int // model checks, and of them not confirmed
	Sanity, SanityFailed                      int // sanity checks, likewise
}

// Add counts cs into t.
func (t *Tally) Add(cs []Claim) {
	for _, c := range cs {
		switch c.Kind {
		case ModelCheck:
			t.Models++
			if c.Verdict != Confirmed {
				t.ModelsFailed++
			}
		case SanityCheck:
			t.Sanity++
			if c.Verdict != Confirmed {
				t.SanityFailed++
			}
		default:
			switch c.Verdict {
			case Confirmed:
				t.Confirmed++
			case Refuted:
				t.Refuted++
			case Depends:
				t.Depends++
			default:
				t.Inconclusive++
			}
		}
	}
}

// Claims is the number of paper claims counted.
func (t Tally) Claims() int { return t.Confirmed + t.Refuted + t.Depends + t.Inconclusive }

// String reads "paper claims: 12 confirmed, 9 refuted, 2 depends, 3
// inconclusive; model checks: 4 (1 not confirmed); sanity checks: 3 (0
// failed)".
func (t Tally) String() string {
	return fmt.Sprintf("paper claims: %d confirmed, %d refuted, %d depends, %d inconclusive; model checks: %d (%d not confirmed); sanity checks: %d (%d failed)",
		t.Confirmed, t.Refuted, t.Depends, t.Inconclusive, t.Models, t.ModelsFailed, t.Sanity, t.SanityFailed)
}
