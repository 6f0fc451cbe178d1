package model

import (
	"math"
	"math/rand/v2"
	"testing"
)

// journey sends one packet over routers p with at most r attempts per
// segment; splits are the indices where a segment ends (the last is len(p)).
func journey(p []float64, splits []int, r int, rng *rand.Rand) (lost bool, hops int) {
	start := 0
	for _, end := range splits {
		delivered := false
		for range r {
			k := start
			for ; k < end; k++ {
				hops++
				if rng.Float64() < p[k] {
					break
				}
			}
			if k == end {
				delivered = true
				break
			}
		}
		if !delivered {
			return true, hops
		}
		start = end
	}
	return false, hops
}

func TestAllTCPMatchesPacketMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(2020, 8856))
	trials := 200000
	if testing.Short() {
		trials = 50000
	}
	nonUniform := []float64{0.02, 0.1, 0.05, 0.08, 0.01, 0.2, 0.03}
	cases := []struct {
		name string
		p    []float64
		n1   int
		r    int
	}{
		{"fig n=8 p=0.05 R=1", UniformLoss(8, 0.05), 4, 1},
		{"fig n=8 p=0.05 R=2", UniformLoss(8, 0.05), 4, 2},
		{"fig n=8 p=0.05 R=5", UniformLoss(8, 0.05), 4, 5},
		{"heavy n=8 p=0.2 R=3", UniformLoss(8, 0.2), 3, 3},
		{"uneven n=7 R=2", nonUniform, 2, 2},
		{"uneven n=7 R=4", nonUniform, 5, 4},
	}
	for _, c := range cases {
		res, err := AllTCP(c.p, c.n1, c.r)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range []struct {
			name   string
			splits []int
			want   PathStats
		}{
			{"ETET", []int{len(c.p)}, res.ETET},
			{"SBST", []int{c.n1, len(c.p)}, res.SBST},
		} {
			var lost, h, h2 float64
			for range trials {
				l, hops := journey(c.p, tr.splits, c.r, rng)
				if l {
					lost++
				}
				h += float64(hops)
				h2 += float64(hops * hops)
			}
			n := float64(trials)
			pl := lost / n
			seL := math.Sqrt(math.Max(pl*(1-pl), 1/n) / n)
			if z := (tr.want.Loss - pl) / seL; math.Abs(z) > 3.3 {
				t.Errorf("%s %s: loss model %.5f, Monte Carlo %.5f (z=%.1f)", c.name, tr.name, tr.want.Loss, pl, z)
			}
			if z := zMean(tr.want.Hops, h, h2, trials); math.Abs(z) > 3.3 {
				t.Errorf("%s %s: hops model %.4f, Monte Carlo %.4f (z=%.1f)", c.name, tr.name, tr.want.Hops, h/n, z)
			}
		}
	}
}

func TestAllTCPPaperFormulasAsPrinted(t *testing.T) {
	// The loss probabilities (eqs. 11, 24) are exact; the printed hop
	// counts (eqs. 18, 29) drop success at the last attempt and a drop at
	// the last router, so they fall below the exact value.
	for r := 1; r <= 10; r++ {
		res, err := AllTCP(UniformLoss(8, 0.05), 4, r)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(res.ETET.Loss-res.ETETPaper.Loss) > 1e-15 || math.Abs(res.SBST.Loss-res.SBSTPaper.Loss) > 1e-15 {
			t.Errorf("R=%d: loss differs from eqs. 11/24", r)
		}
		if !(res.ETETPaper.Hops < res.ETET.Hops && res.SBSTPaper.Hops < res.SBST.Hops) {
			t.Errorf("R=%d: printed hop counts not below exact: %+v", r, res)
		}
		// SBST is never less reliable and never costlier than ETET.
		if res.SBST.Loss > res.ETET.Loss+1e-15 || res.SBST.Hops > res.ETET.Hops+1e-12 {
			t.Errorf("R=%d: SBST worse than ETET: %+v", r, res)
		}
	}
	// Hand check at R = 1: one attempt, loss 1 − 0.95⁸ = 0.3365796 for both.
	res, _ := AllTCP(UniformLoss(8, 0.05), 4, 1)
	if math.Abs(res.ETET.Loss-0.3365796) > 1e-7 || math.Abs(res.SBST.Loss-0.3365796) > 1e-7 {
		t.Errorf("R=1 loss %+v", res)
	}
}

func TestAllTCPRejectsBadInput(t *testing.T) {
	for _, c := range []struct {
		p     []float64
		n1, r int
	}{
		{UniformLoss(8, 0.05), 0, 3},
		{UniformLoss(8, 0.05), 8, 3},
		{UniformLoss(8, 0.05), 4, 0},
		{UniformLoss(8, 1.5), 4, 3},
		{UniformLoss(1, 0.1), 1, 3},
	} {
		if _, err := AllTCP(c.p, c.n1, c.r); err == nil {
			t.Errorf("AllTCP(%v, %d, %d) accepted", c.p, c.n1, c.r)
		}
	}
}
