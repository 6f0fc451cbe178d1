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
	c := means("", a, b, scale, unit)
	return directionOf(c, c.p), "Welch's t-test: " + c.text
}

// comparison is one of several in a claim: where it is, the difference
// found, its p-value, whether it rests on enough runs or events, and the
// test's text.
type comparison struct {
	where   string
	diff, p float64
	decided bool
	text    string
}

// means compares two means by Welch's test.
func means(where string, a, b stats.Sample, scale float64, unit string) comparison {
	d := stats.Welch(a, b)
	return comparison{where: where, diff: d.Diff, p: d.P, decided: d.Decided(), text: d.Text(scale, unit)}
}

// shares compares two proportions by the two-proportion test.
func shares(where string, a, b stats.Proportion) comparison {
	t := stats.CompareProportions(a, b)
	return comparison{where: where, diff: a.P - b.P, p: t.P, decided: t.Decided(),
		text: fmt.Sprintf("%s against %s, %s", a.Text(), b.Text(), t.Text())}
}

// aboveEverywhere decides "a is above b at every point" from several
// comparisons, Holm-corrected: confirmed when every one is significantly
// above, refuted when any is significantly below, inconclusive otherwise.
func aboveEverywhere(cs []comparison) (Verdict, string) {
	if len(cs) == 0 {
		return Inconclusive, "no point to compare"
	}
	ps := make([]float64, len(cs))
	for i, c := range cs {
		ps[i] = c.p
	}
	adj := stats.Holm(ps)
	var up, down, flat []string
	for i, c := range cs {
		switch v := directionOf(c, adj[i]); v {
		case Confirmed:
			up = append(up, c.where)
		case Refuted:
			down = append(down, fmt.Sprintf("%s (%s, Holm p = %s)", c.where, c.text, stats.PText(adj[i])))
		default:
			why := ""
			if !c.decided {
				why = ": too few runs or events"
			}
			flat = append(flat, c.where+why)
		}
	}
	text := fmt.Sprintf("%d comparisons, Holm-corrected: significantly above at %d, below at %d, neither at %d",
		len(cs), len(up), len(down), len(flat))
	if len(down) > 0 {
		text += "; below: " + strings.Join(down, "; ")
	}
	if len(flat) > 0 {
		text += "; neither: " + strings.Join(flat, ", ")
	}
	switch {
	case len(down) > 0:
		return Refuted, text
	case len(flat) == 0:
		return Confirmed, text
	}
	return Inconclusive, text
}

func directionOf(c comparison, p float64) Verdict {
	switch {
	case !c.decided || math.IsNaN(p):
		return Inconclusive
	case p < stats.Alpha && c.diff > 0:
		return Confirmed
	case p < stats.Alpha && c.diff < 0:
		return Refuted
	}
	return Inconclusive
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

// shareAgainst decides "the share k/n is below limit" (below) or above
// it from events: Wilson's interval wholly on the claimed side confirms,
// wholly on the other refutes; fewer than stats.MinEvents events are
// inconclusive.
func shareAgainst(p stats.Proportion, limit float64, below bool) (Verdict, string) {
	text := fmt.Sprintf("Wilson interval: %s against %.0f%%", p.Text(), 100*limit)
	lo, hi := p.Lo, p.Hi
	if !below { // above limit: mirror the interval
		lo, hi, limit = -hi, -lo, -limit
	}
	switch {
	case !p.Enough():
		return Inconclusive, text + fmt.Sprintf(" (fewer than %d events)", stats.MinEvents)
	case hi < limit:
		return Confirmed, text
	case lo >= limit:
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

// Plus is t and o counted together.
func (t Tally) Plus(o Tally) Tally {
	return Tally{t.Confirmed + o.Confirmed, t.Refuted + o.Refuted, t.Depends + o.Depends, t.Inconclusive + o.Inconclusive,
		t.Models + o.Models, t.ModelsFailed + o.ModelsFailed, t.Sanity + o.Sanity, t.SanityFailed + o.SanityFailed}
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

// across decides claims checked under several values of a setting (the
// same claims, in the same order, under each value in order). stated
// tells the values the paper states, or is consistent with: the claim is
// decided there alone, and the other values become sensitivity lines
// ("holds if w_m = 13"). Among the stated values, decided verdicts that
// agree stand; verdicts that disagree make the claim Depends, naming each
// value and its verdict (the paper leaves the setting out). A value that
// produced no claim (no data) is named as such and never counted as
// agreeing.
func across(per map[string][]Claim, order []string, axis string, stated func(string) bool) []Claim {
	var have []string
	for _, s := range order {
		if len(per[s]) > 0 {
			have = append(have, s)
		}
	}
	if len(have) == 0 {
		return nil
	}
	var missing []string
	for _, s := range order {
		if len(per[s]) == 0 {
			missing = append(missing, s)
		}
	}
	var out []Claim
	for i, c := range per[have[0]] {
		var in, beyond []string
		for _, s := range have {
			if stated == nil || stated(s) {
				in = append(in, s)
			} else {
				beyond = append(beyond, s)
			}
		}
		c.Sensitivity = nil
		var meas []string
		for _, s := range have {
			meas = append(meas, s+": "+per[s][i].Measured)
		}
		c.Measured = strings.Join(meas, "; ")
		if len(in) == 0 {
			c.Verdict, c.Test = Inconclusive, fmt.Sprintf("no data at the paper's %s", axis)
		} else {
			decided := map[Verdict][]string{}
			var tests, reasons []string
			for _, s := range in {
				o := per[s][i]
				if o.Verdict != Inconclusive {
					decided[o.Verdict] = append(decided[o.Verdict], s)
				}
				tests = append(tests, s+": "+string(o.Verdict)+" ("+o.Test+")")
				if o.Reason != "" {
					reasons = append(reasons, s+": "+o.Reason)
				}
			}
			switch {
			case len(in) == 1:
				o := per[in[0]][i]
				c.Verdict, c.Test, c.Reason = o.Verdict, axis+" "+in[0]+" (the paper's): "+o.Test, o.Reason
			case len(decided) == 0:
				c.Verdict, c.Test = Inconclusive, strings.Join(tests, "; ")
			case len(decided) == 1:
				var under []string
				for v, ss := range decided {
					c.Verdict, under = v, ss
				}
				if len(under) == len(in) {
					c.Test = fmt.Sprintf("the same under each %s the paper leaves open: %s", axis, strings.Join(tests, "; "))
				} else {
					c.Test = fmt.Sprintf("%s under %s %s, inconclusive under the others the paper leaves open: %s", c.Verdict, axis, strings.Join(under, ", "), strings.Join(tests, "; "))
				}
				c.Reason = strings.Join(reasons, "; ")
			default:
				c.Verdict = Depends
				c.Test = fmt.Sprintf("depends on the %s, which the paper leaves out: %s", axis, strings.Join(tests, "; "))
				c.Reason = strings.Join(reasons, "; ")
			}
		}
		for _, s := range beyond {
			o := per[s][i]
			line := fmt.Sprintf("%s %s: %s (%s)", axis, s, o.Verdict, o.Measured)
			if o.Verdict == Confirmed && c.Verdict != Confirmed {
				line = fmt.Sprintf("holds if %s = %s (%s)", axis, s, o.Measured)
			}
			c.Sensitivity = append(c.Sensitivity, line)
		}
		for _, s := range missing {
			c.Sensitivity = append(c.Sensitivity, fmt.Sprintf("%s %s: no data (nothing to score)", axis, s))
		}
		out = append(out, c)
	}
	return out
}

// everywhereClaim is a claim that holds at every one of n points unless
// misses lists some: "highest at 3 of 5 points", confirmed only without a
// miss, the reason naming the misses. It compares point values with a
// stated tolerance, no interval: for model checks and the like.
func everywhereClaim(fig, text, paper, what, unit string, n int, misses []string, missPrefix, allReason string) Claim {
	c := Claim{Figure: fig, Text: text, Paper: paper,
		Measured: fmt.Sprintf("%s at %d of %d %s", what, n-len(misses), n, unit), Verdict: verdictOf(len(misses) == 0),
		Test: fmt.Sprintf("%s at every one of %d %s (a point-by-point count against the stated tolerance)", what, n, unit)}
	if len(misses) > 0 {
		c.Reason = missPrefix + strings.Join(misses, "; ")
	} else {
		c.Reason = allReason
	}
	return c
}

// equivalencePoint is one point of an equivalence claim: a measurement
// against what it should equal.
type equivalencePoint struct {
	where string
	a, b  stats.Sample
}

// equivalentEverywhere decides "a equals b within ±margin (a share of
// b) at every point" by TOST at each: confirmed when every point is
// equivalent, refuted when any differs significantly beyond the margin,
// inconclusive otherwise.
func equivalentEverywhere(ps []equivalencePoint, margin float64) (Verdict, string) {
	by := map[Verdict]int{}
	var tests []string
	for _, p := range ps {
		v, t := equivalent(p.a, p.b, margin, 1, "")
		by[v]++
		tests = append(tests, p.where+": "+string(v)+" ("+t+")")
	}
	text := strings.Join(tests, "; ")
	switch {
	case len(ps) == 0:
		return Inconclusive, "no point"
	case by[Refuted] > 0:
		return Refuted, text
	case by[Confirmed] == len(ps):
		return Confirmed, text
	}
	return Inconclusive, text
}
