package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Effect says whether a swept variable moved a measurement: the groups
// are the runs at each of its values.
type Effect struct {
	// Identical: every group holds the same values in the same order
	// (the same seeds gave the same runs at every value): the variable
	// did nothing at all.
	Identical bool
	F, P      float64 // one-way analysis of variance; NaN when not defined
}

// EffectOf tests the groups for an effect: first for bit-identical runs,
// then by a one-way analysis of variance (Fisher's F), which asks whether
// the groups' means differ by more than their runs' spread allows.
func EffectOf(groups [][]float64) Effect {
	e := Effect{Identical: len(groups) > 1, F: math.NaN(), P: math.NaN()}
	for _, g := range groups[min(1, len(groups)):] {
		if len(g) != len(groups[0]) {
			e.Identical = false
			break
		}
		for i := range g {
			if g[i] != groups[0][i] {
				e.Identical = false
				break
			}
		}
	}
	var n int
	var total float64
	k := 0
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		k++
		for _, x := range g {
			total += x
			n++
		}
	}
	if k < 2 || n <= k {
		return e
	}
	grand := total / float64(n)
	var ssb, ssw float64
	for _, g := range groups {
		if len(g) == 0 {
			continue
		}
		var s float64
		for _, x := range g {
			s += x
		}
		m := s / float64(len(g))
		ssb += float64(len(g)) * (m - grand) * (m - grand)
		for _, x := range g {
			ssw += (x - m) * (x - m)
		}
	}
	dfb, dfw := float64(k-1), float64(n-k)
	switch {
	case ssw == 0 && ssb == 0:
		e.F, e.P = 0, 1
	case ssw == 0:
		e.F, e.P = math.Inf(1), 0
	default:
		e.F = (ssb / dfb) / (ssw / dfw)
		e.P = distuv.F{D1: dfb, D2: dfw}.Survival(e.F)
	}
	return e
}

// None reports whether the variable had no effect: identical runs, or
// no difference of means the analysis of variance can see. With one run
// a value (no spread to test against) only identity counts.
func (e Effect) None() bool {
	if e.Identical {
		return true
	}
	if math.IsNaN(e.P) {
		return false
	}
	return e.P >= Alpha
}
