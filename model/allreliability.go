package model

import (
	"fmt"
	"math"
)

// This file implements the reliability and resource model of ALL-TCP
// (Al Shinwan, Abualigah, Le, Kim & Khasawneh, "An intelligent long-lived
// TCP based on real-time traffic regulation", Multimedia Tools and
// Applications, 2020, §4.1, eqs. 10-29).
//
// A packet crosses n routers; router i drops it with probability p_i. In
// end-to-end transport (ETET) the source makes up to R attempts; in
// segment-by-segment transport (SBST) an edge router after router n1 splits
// the path and each segment makes up to R attempts of its own. Both
// quantities of the paper are computed: the probability the packet never
// arrives (reliability) and the expected number of routers it traverses,
// all attempts included (resource consumption). A packet dropped at router
// k is counted as having traversed k routers, as in eq. 13.
//
// Reading of the garbled text. R is the number of attempts: eq. 11 is
// pe = (1 − ps)^R with ps = Π(1 − p_i) (eq. 10), so R = 1 means a single
// transmission. Eq. 17's product is read as the geometric law
// p_r = (1−ps)^(r−1)·ps of success at attempt r.
//
// The paper's sums differ from the process they describe in two places,
// and the ...Paper functions keep them as printed:
//   - eq. 13 sums the drop position k from 1 to n−1, leaving out a drop at
//     the last router;
//   - eq. 18 (and 25, 28 for the segments) sums the successful attempts
//     r = 1..R−1 and adds the all-failed term, leaving out success at the
//     R-th attempt.
// ETET and SBST give the exact values; the tests check them against a Monte
// Carlo of the packet's journey.

func init() {
	Register(Model{
		Name: "alltcp",
		Doc:  "ALL-TCP reliability (eqs. 10-29): loss probability and routers traversed, end-to-end vs segment-by-segment",
		Params: []Param{{Name: "n", Default: 8, Help: "routers on the path", Min: 2, Max: 1e6, Integer: true},
			{Name: "pi", Default: 0.05, Unit: Probability, Help: "drop probability per router", Min: 0, Max: 1},
			{Name: "n1", Default: 4, Help: "routers in the first segment", Min: 1, Max: 1e6, Integer: true},
			{Name: "R", Default: 10, Help: "attempts per transport or segment", Min: 1, Max: 1e6, Integer: true}},
		Eval: func(in Inputs) ([]Output, error) {
			if in["n1"] >= in["n"] {
				return nil, BadInput("n1", in["n1"], "must be below n")
			}
			r, err := AllTCP(UniformLoss(in.Int("n"), in["pi"]), in.Int("n1"), in.Int("R"))
			if err != nil {
				return nil, err
			}
			return []Output{{"etet_loss", r.ETET.Loss, Probability}, {"sbst_loss", r.SBST.Loss, Probability},
				{"etet_hops", r.ETET.Hops, Number}, {"sbst_hops", r.SBST.Hops, Number},
				{"etet_hops_paper", r.ETETPaper.Hops, Number}, {"sbst_hops_paper", r.SBSTPaper.Hops, Number}}, nil
		},
	})
}

// PathStats are one transport's outcomes for one packet.
type PathStats struct {
	Loss float64 // probability the packet never reaches the receiver
	Hops float64 // expected routers traversed, all attempts included
}

// AllTCPResult compares the two transports, exactly and as printed.
type AllTCPResult struct {
	ETET, SBST           PathStats
	ETETPaper, SBSTPaper PathStats
}

// UniformLoss returns n routers each dropping with probability p.
func UniformLoss(n int, p float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = p
	}
	return v
}

// segment is what one attempt over routers p[0..] yields.
type segment struct {
	ps    float64 // one attempt succeeds (eq. 10, 19)
	hFail float64 // E[routers | attempt fails], full sum (eq. 13 with k = 1..n)
	hPap  float64 // the same with eq. 13's k = 1..n−1
	n     int
}

func newSegment(p []float64) segment {
	sg := segment{ps: 1, n: len(p)}
	var sum, sumPap float64
	for k, pk := range p {
		pek := sg.ps * pk // eq. 12: pass routers before k, drop at k
		sum += float64(k+1) * pek
		if k < len(p)-1 {
			sumPap += float64(k+1) * pek
		}
		sg.ps *= 1 - pk
	}
	if f := 1 - sg.ps; f > 0 {
		sg.hFail, sg.hPap = sum/f, sumPap/f
	}
	return sg
}

// exact returns (P(all R attempts fail), E[routers]) for one segment. Attempt
// r happens iff the first r−1 failed, and costs n on success and hFail on
// failure on average.
func (sg segment) exact(r int) (fail, hops float64) {
	f := 1 - sg.ps
	perAttempt := sg.ps*float64(sg.n) + f*sg.hFail
	reach := 1.0
	for range r {
		hops += reach * perAttempt
		reach *= f
	}
	return reach, hops
}

// paper returns eq. 18 (or 25 / 28 without the leading factor): success at
// attempt r < R costs h_r = (r−1)·h_f + n (eq. 15) with probability
// p_r = (1−ps)^(r−1)·ps (eq. 17), and failing all R costs h_R = R·h_f (eq. 14)
// with probability (1−ps)^R (eq. 16).
func (sg segment) paper(r int) (fail, hops float64) {
	f := 1 - sg.ps
	for k := 1; k <= r-1; k++ {
		hops += math.Pow(f, float64(k-1)) * sg.ps * (float64(k-1)*sg.hPap + float64(sg.n))
	}
	fail = math.Pow(f, float64(r))
	hops += fail * float64(r) * sg.hPap
	return fail, hops
}

// AllTCP evaluates eqs. 10-29 for routers with drop probabilities p, the
// split after router n1 (1 ≤ n1 < len(p)) and at most r attempts per
// transport or segment.
func AllTCP(p []float64, n1, r int) (AllTCPResult, error) {
	if len(p) < 2 {
		return AllTCPResult{}, fmt.Errorf("n = %d routers: need at least 2", len(p))
	}
	if n1 < 1 || n1 >= len(p) {
		return AllTCPResult{}, fmt.Errorf("n1 = %d outside [1, %d]", n1, len(p)-1)
	}
	if r < 1 {
		return AllTCPResult{}, fmt.Errorf("R = %d below 1", r)
	}
	for i, pi := range p {
		if !(pi >= 0 && pi <= 1) {
			return AllTCPResult{}, fmt.Errorf("p_%d = %v outside [0, 1]", i+1, pi)
		}
	}
	var res AllTCPResult
	all, s1, s2 := newSegment(p), newSegment(p[:n1]), newSegment(p[n1:])

	res.ETET.Loss, res.ETET.Hops = all.exact(r)
	res.ETETPaper.Loss, res.ETETPaper.Hops = all.paper(r) // eqs. 11, 18

	// SBST: the second segment is tried only if the first delivered
	// (eqs. 21-24); its cost is weighted by that probability (eqs. 26-28).
	f1, h1 := s1.exact(r)
	f2, h2 := s2.exact(r)
	res.SBST.Loss = 1 - (1-f1)*(1-f2)
	res.SBST.Hops = h1 + (1-f1)*h2

	f1p, h1p := s1.paper(r)
	f2p, h2p := s2.paper(r)
	res.SBSTPaper.Loss = 1 - (1-f1p)*(1-f2p) // eq. 24
	res.SBSTPaper.Hops = h1p + (1-f1p)*h2p   // eq. 29
	return res, nil
}
