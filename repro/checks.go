package repro

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/stats"
	"github.com/tcplab/tcplab/store"
)

// Checks Run makes of a finished sweep before its verdicts are believed
// (docs/verdicts.md): did each swept variable move the measurement, and
// do the replications differ at all.

// comparatorAxes are the axes that pick what is compared (the variants)
// or a sensitivity setting, not a variable of the figure.
var comparatorAxes = map[string]bool{"variant": true, "setting": true}

// inertAxes names each swept axis of sw that changed nothing: runs of the
// same seed bit-identical at every one of its values, or no metric whose
// mean moved with it by a one-way analysis of variance under any setting
// of the other axes.
func inertAxes(sw *experiment.Sweep, runs []*store.Run) []string {
	var out []string
	for _, ax := range sw.Axes {
		if comparatorAxes[ax.Name] || len(ax.Values) < 2 {
			continue
		}
		if msg := inert(ax.Name, runs); msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

// inert returns why axis had no effect, or "".
func inert(axis string, runs []*store.Run) string {
	// Runs grouped by the other axes' values (and, for the bit-identity
	// test, by replication); within a group, by this axis's value.
	type cell struct {
		values []string // the axis's values, in first-seen order
		runs   map[string][]*store.Run
	}
	cells := map[string]*cell{}
	var order []string
	for _, r := range runs {
		var key strings.Builder
		val := ""
		for _, p := range r.Params {
			if p.Name == axis {
				val = p.Value
				continue
			}
			key.WriteString(p.Name + "=" + p.Value + "\x00")
		}
		k := key.String()
		c := cells[k]
		if c == nil {
			c = &cell{runs: map[string][]*store.Run{}}
			cells[k] = c
			order = append(order, k)
		}
		if _, ok := c.runs[val]; !ok {
			c.values = append(c.values, val)
		}
		c.runs[val] = append(c.runs[val], r)
	}
	identical := true
	for _, k := range order {
		c := cells[k]
		first := fingerprints(c.runs[c.values[0]])
		for _, v := range c.values[1:] {
			if !slices.Equal(first, fingerprints(c.runs[v])) {
				identical = false
			}
		}
	}
	if identical {
		return fmt.Sprintf("the swept variable %s had no effect: every run is bit-identical at each of its values (same seed, same result)", axis)
	}
	// Noisy outputs: does any metric's mean move with the axis anywhere?
	for _, k := range order {
		c := cells[k]
		for _, m := range metricNames(c.runs[c.values[0]]) {
			groups := make([][]float64, len(c.values))
			for i, v := range c.values {
				for _, r := range c.runs[v] {
					if x, ok := runTotal(r, m); ok {
						groups[i] = append(groups[i], x)
					}
				}
			}
			if e := stats.EffectOf(groups); !e.None() {
				return ""
			}
		}
	}
	return fmt.Sprintf("the swept variable %s had no detectable effect: no metric's mean moved with it (one-way analysis of variance, p ≥ %.2f, under every setting of the other axes)", axis, stats.Alpha)
}

// fingerprints are the runs' metrics as text, in replication order.
func fingerprints(rs []*store.Run) []string {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b *store.Run) int { return a.Replication - b.Replication })
	out := make([]string, len(rs))
	for i, r := range rs {
		var b strings.Builder
		for _, m := range r.Metrics {
			fmt.Fprintf(&b, "%s/%s=%x;", m.Name, m.Flow, math.Float64bits(m.Value))
		}
		out[i] = b.String()
	}
	return out
}

func metricNames(rs []*store.Run) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rs {
		for _, m := range r.Metrics {
			if !seen[m.Name] {
				seen[m.Name] = true
				out = append(out, m.Name)
			}
		}
	}
	return out
}

// runTotal sums metric over a run's flows.
func runTotal(r *store.Run, metric string) (float64, bool) {
	var s float64
	n := 0
	for _, m := range r.Metrics {
		if m.Name == metric {
			s += m.Value
			n++
		}
	}
	return s, n > 0
}

// sameAcrossReplications reports whether every grid point's replications
// gave bit-identical metrics: a sweep with no random input.
func sameAcrossReplications(runs []*store.Run) bool {
	byPoint := map[int]string{}
	reps := 0
	for _, r := range runs {
		f := fingerprints([]*store.Run{r})[0]
		if prev, ok := byPoint[r.Point]; ok {
			reps++
			if prev != f {
				return false
			}
			continue
		}
		byPoint[r.Point] = f
	}
	return reps > 0
}

// settle applies what the sweep's checks found to the outcome: inert
// axes make every paper claim inconclusive, and the notes say so.
func settle(out *Outcome, inertNotes []string) {
	if len(inertNotes) == 0 {
		return
	}
	out.Notes = append(out.Notes, inertNotes...)
	for i := range out.Claims {
		c := &out.Claims[i]
		if c.Kind != PaperClaim {
			continue
		}
		c.Verdict = Inconclusive
		c.Test = strings.Join(inertNotes, "; ") + " — " + c.Test
	}
}

// runsText is the replications a point and their length as the store
// holds them, "10 runs of 200 s", for captions.
func (c *Context) runsText() string {
	if c.Store == nil {
		return "the runs"
	}
	n := c.Sweep.Replications
	if n == 1 {
		return fmt.Sprintf("one run of %g s (nothing random)", runSeconds(c))
	}
	return fmt.Sprintf("%d runs of %g s", n, runSeconds(c))
}

// captioned is a figure's caption, led under the reduced form by the
// words that make it a preview.
func (c *Context) captioned(caption string) string {
	if !c.Short {
		return caption
	}
	return fmt.Sprintf("REDUCED: %s a point — a preview, not a verdict. %s", c.runsText(), caption)
}
