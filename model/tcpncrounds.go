package model

import "math"

func init() {
	Register(Model{
		Name:   "tcpnc-rounds",
		Doc:    "exact round-by-round evaluation of the TCP-NC abstraction (slow: O(M^3·cwmax))",
		Params: tcpncParams(),
		Eval: func(in Inputs) ([]Output, error) {
			r, err := TCPNCRounds(tcpncInputs(in))
			if err != nil {
				return nil, err
			}
			return []Output{{"p_eff", r.PEff, Probability}, {"M", float64(r.M), Packets}, {"escaped", r.Escaped, Probability},
				{"ecwnd", r.ECwnd, Packets}, {"rounds", r.Rounds, Number}, {"thr_pkts_per_s", r.Thr, PacketRate},
				{"thr_bits_per_s", BitsPerSecond(r.Thr, in.Int("mss")), BitRate}}, nil
		},
	})
}

// TCPNCRoundsResult is the exact evaluation of the round-based TCP-NC
// abstraction (see tcpnc.go), without the paper's three approximations.
type TCPNCRoundsResult struct {
	PEff    float64
	M       int
	Pw      []float64 // absorbing probability at level w (w = 1..M)
	Escaped float64   // mass not followed: VW passing M, or states below 1e-18
	ECwnd   float64   // E[min(VW, CWmax)] at timeout, given absorption ≤ M
	Rounds  float64   // E[rounds per period] (excluding the timeout)
	Rcv     float64   // E[packets delivered per period]
	Time    float64   // E[period length], seconds (rounds·RTT + timeout)
	Thr     float64   // Rcv/Time, packets/s
}

// TCPNCRounds follows the abstraction round by round. A state between rounds
// is (w, s, a): VW = w, s successes already counted at level w (CW = w + s/w)
// and AU = a < w. A round sends EW = min(w − a, CWmax) packets; if k of them
// arrive, (w, s) moves k successes forward (at most one level, because
// k ≤ w) and a grows by EW − k; k = 0 with EW = w − a is the timeout.
// Every round strictly increases (w, s, a) in lexicographic order (k ≥ 1
// raises (w, s), k = 0 raises a), so one pass in that order propagates all
// the probability mass. There are about M³/3 states and each round has up to
// CWmax+1 outcomes, so the cost is O(M³·CWmax): a check for the chain, not a
// replacement. The timeout lasts RTO, or w·RTT at level w when RTO = 0, as in
// TCPNC.
func TCPNCRounds(t TCPNCParams) (TCPNCRoundsResult, error) {
	if err := t.validate(); err != nil {
		return TCPNCRoundsResult{}, err
	}
	pe := TCPNCEffectiveLoss(t.P, t.R)
	res := TCPNCRoundsResult{PEff: pe, M: t.M}
	if res.M == 0 {
		res.M = TCPNCAutoM(pe, t.CWMax)
	}
	m, cwmax := res.M, t.CWMax
	if pe == 0 {
		res.Escaped = 1
		res.Thr = float64(cwmax) / t.RTT
		res.ECwnd = float64(cwmax)
		return res, nil
	}
	q := 1 - pe
	// binom[n][k] = P(k of n arrive).
	binom := make([][]float64, cwmax+1)
	for n := 1; n <= cwmax; n++ {
		b := make([]float64, n+1)
		for k := 0; k <= n; k++ {
			lc := lchoose(n, k)
			b[k] = math.Exp(lc + float64(k)*math.Log(q) + float64(n-k)*math.Log(pe))
			if q == 0 {
				b[k] = 0
				if k == 0 {
					b[k] = 1
				}
			}
		}
		binom[n] = b
	}
	// base[w] is the offset of level w in mass; level w holds w·w states
	// indexed s·w + a.
	base := make([]int, m+2)
	for w := 1; w <= m; w++ {
		base[w+1] = base[w] + w*w
	}
	mass := make([]float64, base[m+1])
	mass[base[1]] = 1
	res.Pw = make([]float64, m+1)
	var timeout float64
	for w := 1; w <= m; w++ {
		rto := t.RTO
		if rto == 0 {
			rto = float64(w) * t.RTT
		}
		for s := 0; s < w; s++ {
			for a := 0; a < w; a++ {
				x := mass[base[w]+s*w+a]
				if x < 1e-18 {
					// Far tails of AU: counting them as not followed
					// changes no reported digit and skips most states.
					res.Escaped += x
					continue
				}
				ew := min(w-a, cwmax)
				res.Rounds += x
				res.Rcv += x * float64(ew) * q
				b := binom[ew]
				// k = 0: every packet of the round lost.
				if a+ew == w {
					res.Pw[w] += x * b[0]
					timeout += x * b[0] * rto
				} else {
					mass[base[w]+s*w+a+ew] += x * b[0]
				}
				for k := 1; k <= ew; k++ {
					nw, ns, na := w, s+k, a+ew-k
					if ns >= w {
						nw, ns = w+1, ns-w
					}
					if nw > m {
						res.Escaped += x * b[k]
						continue
					}
					mass[base[nw]+ns*nw+na] += x * b[k]
				}
			}
		}
	}
	var acc, cw float64
	for w := 1; w <= m; w++ {
		acc += res.Pw[w]
		cw += res.Pw[w] * math.Min(float64(w), float64(cwmax))
	}
	if acc > 0 {
		res.ECwnd = cw / acc
	}
	res.Time = res.Rounds*t.RTT + timeout
	if res.Time > 0 {
		res.Thr = res.Rcv / res.Time
	}
	return res, nil
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
