package stats

import (
	"math"
	"testing"
)

// The expected values below were computed with SciPy 1.10
// (scipy.stats.ttest_ind(equal_var=False), t.sf/t.cdf for the two
// one-sided tests, f_oneway, binomtest(...).proportion_ci('wilson')),
// an implementation independent of gonum's.

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.8g, want %.8g (±%g)", name, got, want, tol)
	}
}

func add(base float64, ds ...float64) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = base + d
	}
	return out
}

var (
	slower = add(88.6, -12, -5, 3, 8, -2, 6, 10, -9, 1, 0)
	faster = add(99.2, -4, 2, 3, -1, 0, 5, -3, 1, -2, -1)
)

func TestWelchMatchesAnIndependentImplementation(t *testing.T) {
	d := Welch(Of(slower), Of(faster))
	near(t, "t", d.T, -4.351675384456597, 1e-9)
	near(t, "p", d.P, 0.0010075571866056134, 1e-9)
	near(t, "df", d.DF, 11.65508910243601, 1e-9)
	near(t, "lo", d.Lo, -15.924718618937671, 1e-6)
	near(t, "hi", d.Hi, -5.275281381062374, 1e-6)
	if !d.Significant() || !d.Decided() {
		t.Fatalf("significant %v decided %v", d.Significant(), d.Decided())
	}
}

func TestWelchOnIdenticalRuns(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		p    float64
	}{
		{"equal constants do not differ", []float64{3, 3, 3}, []float64{3, 3, 3}, 1},
		{"different constants differ surely", []float64{3, 3, 3}, []float64{4, 4, 4}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := Welch(Of(tc.a), Of(tc.b)); d.P != tc.p {
				t.Fatalf("p = %v, want %v", d.P, tc.p)
			}
		})
	}
	if d := Welch(Of([]float64{1}), Of([]float64{2, 3})); !math.IsNaN(d.P) || d.Decided() {
		t.Fatalf("one run: p = %v decided %v", d.P, d.Decided())
	}
}

func TestTOSTDecidesEquivalenceClaims(t *testing.T) {
	tests := []struct {
		name   string
		a, b   []float64
		margin float64
		p      float64 // NaN: not checked
		want   EquivalenceResult
	}{
		// 10.6 apart, Welch p = 0.001: beyond a ±5% (4.96) margin.
		{"a significant gap beyond the margin is a difference", slower, faster, 4.96, 0.9801601559154328, Different},
		// The same runs with a ±15 margin: the 90% interval fits inside.
		{"a wide enough margin shows equivalence", slower, faster, 15, 0.048364964491506596, Equivalent},
		{"noisy runs decide nothing", []float64{50, 150, 80, 120}, []float64{100, 60, 140, 95}, 5, math.NaN(), Undecided},
		{"too few runs decide nothing", []float64{1, 1}, []float64{1, 1}, 5, math.NaN(), Undecided},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := TOST(Of(tc.a), Of(tc.b), tc.margin)
			if !math.IsNaN(tc.p) {
				near(t, "p", e.P, tc.p, 1e-9)
			}
			if got := e.Result(); got != tc.want {
				t.Fatalf("result %v, want %v (%s)", got, tc.want, e.Text(1, ""))
			}
		})
	}
}

func TestWilsonInterval(t *testing.T) {
	tests := []struct {
		k, n   int
		lo, hi float64
	}{
		{21, 50, 0.2937500335471198, 0.5576655823142176},
		{0, 12, 0.0, 0.24249400665524085},
	}
	for _, tc := range tests {
		p := Wilson(tc.k, tc.n)
		near(t, "lo", p.Lo, tc.lo, 1e-9)
		near(t, "hi", p.Hi, tc.hi, 1e-9)
	}
	if Wilson(3, 10).Enough() || !Wilson(3, MinEvents).Enough() {
		t.Fatal("MinEvents not applied")
	}
}

func TestHolmAdjustsAndKeepsOrder(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005, math.NaN()})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i, w := range want {
		near(t, "adjusted p", got[i], w, 1e-12)
	}
	if !math.IsNaN(got[4]) {
		t.Fatalf("NaN adjusted to %v", got[4])
	}
}

func TestEffectOfASweptVariable(t *testing.T) {
	tests := []struct {
		name      string
		groups    [][]float64
		identical bool
		none      bool
		p         float64
	}{
		{"identical runs at every value", [][]float64{{502988.8, 490000}, {502988.8, 490000}, {502988.8, 490000}}, true, true, 1},
		{"a clear effect", [][]float64{{1, 2, 3}, {2, 3, 4}, {5, 6, 7.5}}, false, false, 0.00818896865844728},
		{"noise only", [][]float64{{1, 5, 3}, {2, 4, 3.5}, {3, 2, 4}}, false, true, math.NaN()},
		{"one run a value, different", [][]float64{{1}, {2}, {3}}, false, false, math.NaN()},
		{"one run a value, the same", [][]float64{{2}, {2}, {2}}, true, true, math.NaN()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := EffectOf(tc.groups)
			if e.Identical != tc.identical || e.None() != tc.none {
				t.Fatalf("identical %v none %v (F %v p %v)", e.Identical, e.None(), e.F, e.P)
			}
			if !math.IsNaN(tc.p) {
				near(t, "p", e.P, tc.p, 1e-9)
			}
		})
	}
}

func TestTwoProportions(t *testing.T) {
	c := CompareProportions(Wilson(30, 40), Wilson(15, 40))
	if !c.Significant() || !c.Decided() {
		t.Fatalf("%s", c.Text())
	}
	if c := CompareProportions(Wilson(3, 5), Wilson(1, 5)); c.Decided() {
		t.Fatal("five events decided")
	}
}

func TestSpearmanTrend(t *testing.T) {
	// scipy.stats.spearmanr([1,1,2,2,3,3],[5,6,4,4.5,1,2]) = (-0.9562, 0.00284)
	tr := SpearmanTrend([]float64{1, 1, 2, 2, 3, 3}, []float64{5, 6, 4, 4.5, 1, 2})
	near(t, "rho", tr.Rho, -0.956182887467515, 1e-9)
	near(t, "p", tr.P, 0.002837845926734439, 1e-6)
	if tr := SpearmanTrend([]float64{1, 2, 3}, []float64{4, 4, 4}); tr.P != 1 {
		t.Fatalf("constant: p %v", tr.P)
	}
}

func TestRatioOfProportions(t *testing.T) {
	// 30/40 against 15/40: ratio 2, se = sqrt(1/30-1/40+1/15-1/40) = 0.2236,
	// interval 2·exp(∓1.96·0.2236) = 1.290 to 3.101.
	r := RatioOf(Wilson(30, 40), Wilson(15, 40))
	near(t, "ratio", r.R, 2, 1e-12)
	near(t, "lo", r.Lo, 2*math.Exp(-z95*math.Sqrt(1.0/30-1.0/40+1.0/15-1.0/40)), 1e-12)
	near(t, "lo by hand", r.Lo, 1.290, 1e-3)
	near(t, "hi by hand", r.Hi, 3.101, 1e-3)
	// No event on one side: the Wilson bounds' ratio.
	a, b := Wilson(0, 2000), Wilson(600, 2200)
	if r := RatioOf(a, b); r.R != 0 || r.Lo != 0 || math.Abs(r.Hi-a.Hi/b.Lo) > 1e-12 || r.Hi > 0.01 {
		t.Fatalf("0 of 2000 against 600 of 2200: %+v", r)
	}
	if r := RatioOf(Wilson(0, 0), Wilson(3, 10)); !math.IsNaN(r.Lo) {
		t.Fatal("no trials: an interval")
	}
}
