package stats

import (
	"math"
	"slices"
)

// Holm adjusts the p-values of m comparisons made for one claim (Holm
// 1979): the i-th smallest is multiplied by m-i (i from 0), made
// monotone, and capped at 1. A comparison is significant for the claim
// when its adjusted p-value is below Alpha. NaN stays NaN and is not
// counted among the m.
func Holm(ps []float64) []float64 {
	idx := make([]int, 0, len(ps))
	for i, p := range ps {
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case ps[a] < ps[b]:
			return -1
		case ps[a] > ps[b]:
			return 1
		}
		return 0
	})
	adj := make([]float64, len(ps))
	for i := range adj {
		adj[i] = math.NaN()
	}
	m, run := len(idx), 0.0
	for rank, i := range idx {
		run = math.Max(run, math.Min(1, float64(m-rank)*ps[i]))
		adj[i] = run
	}
	return adj
}
