package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Proportion is k events of n, with Wilson's 95% score interval (Wilson
// 1927), which stays inside [0, 1] and keeps its coverage at small n and
// at proportions near 0 or 1, where the normal interval does neither.
type Proportion struct {
	K, N   int
	P      float64 // K/N
	Lo, Hi float64
}

// z95 is the standard normal's 97.5% quantile.
var z95 = distuv.UnitNormal.Quantile(1 - Alpha/2)

// Wilson returns k of n with its interval.
func Wilson(k, n int) Proportion {
	p := Proportion{K: k, N: n}
	if n == 0 {
		p.P, p.Lo, p.Hi = math.NaN(), 0, 1
		return p
	}
	nf := float64(n)
	p.P = float64(k) / nf
	z2 := z95 * z95
	centre := (p.P + z2/(2*nf)) / (1 + z2/nf)
	half := z95 / (1 + z2/nf) * math.Sqrt(p.P*(1-p.P)/nf+z2/(4*nf*nf))
	p.Lo, p.Hi = math.Max(0, centre-half), math.Min(1, centre+half)
	// Exactly so at the ends, where the formula leaves rounding.
	if k == 0 {
		p.Lo = 0
	}
	if k == n {
		p.Hi = 1
	}
	return p
}

// Enough reports whether the proportion rests on MinEvents or more.
func (p Proportion) Enough() bool { return p.N >= MinEvents }

// Text reads "42.0% (21 of 50; Wilson 95% CI 29.4-55.8%)".
func (p Proportion) Text() string {
	if p.N == 0 {
		return "no events"
	}
	return fmt.Sprintf("%.1f%% (%d of %d; Wilson 95%% CI %.1f-%.1f%%)", 100*p.P, p.K, p.N, 100*p.Lo, 100*p.Hi)
}

// TwoProportions is the pooled two-proportion z-test of a.P - b.P.
type TwoProportions struct {
	A, B Proportion
	Z, P float64 // two-sided
}

// CompareProportions tests whether two proportions differ.
func CompareProportions(a, b Proportion) TwoProportions {
	t := TwoProportions{A: a, B: b}
	if a.N == 0 || b.N == 0 {
		t.Z, t.P = math.NaN(), math.NaN()
		return t
	}
	pool := float64(a.K+b.K) / float64(a.N+b.N)
	se := math.Sqrt(pool * (1 - pool) * (1/float64(a.N) + 1/float64(b.N)))
	if se == 0 {
		t.Z, t.P = 0, 1
		return t
	}
	t.Z = (a.P - b.P) / se
	t.P = 2 * distuv.UnitNormal.Survival(math.Abs(t.Z))
	return t
}

// Decided reports whether both proportions rest on enough events.
func (t TwoProportions) Decided() bool { return t.A.Enough() && t.B.Enough() }

// Significant reports p < Alpha.
func (t TwoProportions) Significant() bool { return t.P < Alpha }

// Text reads "two-proportion z = 2.10, p = 0.036".
func (t TwoProportions) Text() string {
	return fmt.Sprintf("two-proportion z = %.2f, p = %s", t.Z, PText(t.P))
}

// Ratio is a.P / b.P with its 95% interval by the log method (Katz et al.
// 1978): ln(a/b) ± z·√(1/a.K - 1/a.N + 1/b.K - 1/b.N). Undefined (NaN)
// when either count of events is 0.
type Ratio struct {
	R, Lo, Hi float64
}

// RatioOf returns a.P / b.P with its interval. With no event on a side
// the log method is undefined; the interval is then the Wilson bounds'
// ratio, a.Lo/b.Hi to a.Hi/b.Lo (wider, and still decides "0 of 2000
// against 27%").
func RatioOf(a, b Proportion) Ratio {
	if a.N == 0 || b.N == 0 {
		nan := math.NaN()
		return Ratio{R: nan, Lo: nan, Hi: nan}
	}
	if a.K == 0 || b.K == 0 {
		r := Ratio{R: a.P / b.P, Lo: a.Lo / b.Hi, Hi: math.Inf(1)}
		if b.Lo > 0 {
			r.Hi = a.Hi / b.Lo
		}
		return r
	}
	r := a.P / b.P
	se := math.Sqrt(1/float64(a.K) - 1/float64(a.N) + 1/float64(b.K) - 1/float64(b.N))
	return Ratio{R: r, Lo: r * math.Exp(-z95*se), Hi: r * math.Exp(z95*se)}
}
