package model

import (
	"errors"
	"fmt"
	"math"
)

// This file rebuilds the TCP-NC model of Zhang, Lan & Li, "Analytic
// Throughput Model for Network Coded TCP in Wireless Mesh Networks" (KSII
// TIIS 8(9), 2014), §3-4. The published text lost its equations; what
// follows is reconstructed from the prose and the worked examples, and
// every step names the paper's section or equation number it stands for.
//
// The abstraction (§3). Congestion avoidance only. The sender works in
// rounds of one RTT: at the start of a round it sends its effective window
// EW = ⌊CW⌋ − AU packets (never more than CWmax), where AU, the accumulated
// unacknowledged number, counts every packet lost so far in the period:
// with network coding a lost packet is never retransmitted, its degree of
// freedom simply stays missing, so AU never decreases. Each packet is lost
// independently with probability p. Each ACK adds 1/⌊CW⌋ to CW (the paper's
// example: with ⌊CW⌋ = 3 the window takes the values 3, 3⅓, 3⅔), so exactly
// w ACKs carry the window from w to w+1; each loss adds 1 to AU. When a
// whole round is lost AU reaches ⌊CW⌋, nothing can be sent, the RTO fires
// and a new period starts at CW = 1, AU = 0.
//
// Two facts make the chain small. (a) The state reached depends only on how
// many packets succeeded and failed, not on their order or on where the round
// boundaries fall: successes move (⌊CW⌋, fraction) forward deterministically,
// losses add to AU. (b) AU can reach ⌊CW⌋ only at the end of a round in which
// every packet was lost (a success inside the round keeps the credit
// ⌊CW⌋ − AU ≥ 1), so "timeout" is exactly "AU = VW". Hence the process can
// be followed packet by packet as a sequence of 0s (loss) and 1s (success),
// and rounds matter only for time.
//
// States (§4.1, eq. 1). VW, the visual window, is ⌊CW⌋ with no cap (EW is
// capped, VW is not). S(w, i) is the state in which VW first reaches w with
// AU = i; S(w, w) is the absorbing (timeout) state of level w, which
// gathers the timeouts at every fractional CW of that level. Conclusions
// 1-5 of §4.1 follow: S(w, i) exists for 0 ≤ i ≤ w−2 (w ≥ 2) plus the start
// S(1, 0), since reaching w needs AU < w−1 throughout level w−1.
//
// Transitions (eq. 4). From S(w−1, j), reaching S(w, i) takes w−1 successes
// with i−j losses among them, the last packet a success; any order of the
// losses among the first w−2 successes keeps AU ≤ i ≤ w−2 < w−1, so every
// such sequence is allowed and
//
//	P(S(w−1, j) → S(w, i)) = C(w−2+i−j, i−j) · (1−p)^(w−1) · p^(i−j),
//	P(S(w, i)) = Σ_{j=0}^{min(i, w−3)} P(S(w−1, j)) · P(S(w−1, j) → S(w, i)),
//
// which is Algorithm 1: three nested loops over w ≤ M, i, j, O(M³) time.
// (This code keeps only the O(M²) table of P(S(w, i)); the paper's O(M³)
// space held the transition probabilities too.)
//
// Lemma 1 (eq. 3). Absorption at level w happens iff VW reaches w and not
// w+1, so with P_w = Σ_i P(S(w, i)) the probability of reaching level w,
//
//	p_w = P_w − P_{w+1},  P_1 = 1.
//
// The accumulated absorbing probability of Fig. 6 is Σ_{w≤M} p_w = 1 − P_{M+1}.
//
// E[cwnd] (eqs. 5-6) is the mean window at timeout with VW taken as CWmax
// above the cap: Σ_w p_w·min(w, CWmax), normalized by Σ_{w≤M} p_w.
//
// Time (§4.3, eqs. 7-13). A period ending at level w lasts
// T_w = T_{S(1,0)→S(w,·)} + Δt_w + t_{w,o}. Lemma 2: the expected time to
// reach level w is the sum of the expected times of each one-level step,
// E[T_{S(1,0)→S(w,·)}] = Σ_{i=1}^{w−1} E[T_{S(i,·)→S(i+1,·)}]. Level i needs
// i successes and a round delivers EW·(1−p) of them on average, so the step
// takes i/(E[EW_i]·(1−p)) rounds (eq. 9), with the effective window at
// entry to level i averaged over the entry states (eqs. 10-11),
//
//	E[EW_i] = Σ_j P(S(i, j))·min(i−j, CWmax) / P_i,  E[EW_1] = 1,
//
// and each round lasting one RTT (eq. 12). The paper sets E[Δt_w], the time
// from entering level w to the fatal round, to (w−1)/2·RTT and the timeout
// t_{w,o} to w·RTT (a fixed RTO may be given instead), so (eq. 13)
//
//	E[T_w] = Σ_{i=1}^{w−1} i·RTT/(E[EW_i](1−p)) + (w−1)/2·RTT + t_{w,o}.
//
// Packets (§4.4, eqs. 14-15). Every level i < w delivers exactly i packets,
// and the last level about half a window: E[rcv_w] = w(w−1)/2 + w/2 = w²/2.
//
// Throughput (eq. 2, eq. 16). By renewal-reward over periods,
//
//	E[Thr] = Σ_w p_w·E[rcv_w] / Σ_w p_w·E[T_w]   (packets/s).
//
// Redundancy (§4.5). With R coded packets per TCP packet the chance that a
// TCP packet is not delivered is taken as p' = 1 − R(1−p) and the chain is
// run with p'. If p' ≤ 0 every loss is masked and Kim et al.'s model applies
// (KimNC).
//
// Δt_w, the w/2 of the last level and the i/(E[EW_i](1−p)) rounds are the
// paper's approximations; TCPNCRounds evaluates the same abstraction without
// them, and the tests measure the difference.

func init() {
	Register(Model{
		Name:   "tcpnc",
		Doc:    "TCP-NC Markov chain (Zhang, Lan & Li 2014): E[cwnd], E[Thr], accumulated absorbing probability",
		Params: tcpncParams(),
		Eval: func(in Inputs) ([]Output, error) {
			r, err := TCPNC(tcpncInputs(in))
			if err != nil {
				return nil, err
			}
			masked := 0.0
			if r.Masked {
				masked = 1
			}
			return []Output{{"p_eff", r.PEff, Probability}, {"M", float64(r.M), Packets}, {"accum_absorb", r.Accum, Probability},
				{"ecwnd", r.ECwnd, Packets}, {"thr_pkts_per_s", r.Thr, PacketRate},
				{"thr_bits_per_s", BitsPerSecond(r.Thr, in.Int("mss")), BitRate}, {"masked", masked, Number}}, nil
		},
	})
}

// tcpncParams are the parameters of the tcpnc and tcpnc-rounds models.
func tcpncParams() []Param {
	return []Param{Loss(0.05), {Name: "r", Default: 1, Help: "redundancy factor R", Min: 1, Max: Inf},
		{Name: "cwmax", Default: 50, Unit: Packets, Help: "maximum window", Min: 1, Max: Inf, Integer: true},
		{Name: "M", Default: 0, Unit: Packets, Help: "upper bound on the visual window (0 = automatic)", Min: 0, Max: 5000, Integer: true},
		RTT(0.8), {Name: "rto", Default: 0, Unit: Time, Help: "timeout (0 = w·RTT, as in the paper)", Min: 0, Max: Inf},
		MSS(1024)}
}

func tcpncInputs(in Inputs) TCPNCParams {
	return TCPNCParams{P: in["p"], R: in["r"], CWMax: in.Int("cwmax"), M: in.Int("M"), RTT: in["rtt"], RTO: in["rto"]}
}

// TCPNCParams are the inputs of the TCP-NC chain.
type TCPNCParams struct {
	P     float64 // end-to-end erasure probability p
	R     float64 // redundancy factor R ≥ 1; 0 means 1
	CWMax int     // maximum (effective) window, packets
	M     int     // upper bound on VW; 0 picks one (see TCPNCAutoM)
	RTT   float64 // seconds
	RTO   float64 // timeout in seconds; 0 means w·RTT at level w (§4.3)
}

// TCPNCResult holds the chain's outputs. Slices are indexed by level w
// (index 0 unused).
type TCPNCResult struct {
	PEff   float64   // p' = 1 − R(1−p), the loss the chain is run with
	M      int       // upper bound used
	Masked bool      // p' ≤ 0: all losses masked, Thr is KimNC's steady state
	Reach  []float64 // Reach[w] = P_w, probability VW reaches w (w = 1..M+1)
	Pw     []float64 // Pw[w] = p_w, absorbing probability at level w (w = 1..M)
	Accum  float64   // Σ_{w≤M} p_w (Fig. 6)
	ECwnd  float64   // E[cwnd], eq. 6
	EEW    []float64 // EEW[i] = E[EW_i], eq. 11 (i = 1..M)
	ET     []float64 // ET[w] = E[T_w], eq. 13, seconds
	ERcv   []float64 // ERcv[w] = E[rcv_w], eq. 15, packets
	Thr    float64   // E[Thr], packets/s
}

// TCPNCEffectiveLoss is p' = 1 − R(1−p) (§4.5), clamped at 0.
func TCPNCEffectiveLoss(p, r float64) float64 {
	if r <= 1 {
		return p // R = 1 is plain TCP-NC; skip the rounding of 1 − (1 − p)
	}
	return math.Max(0, 1-r*(1-p))
}

// TCPNCAutoM picks an upper bound for VW. The window at timeout is about
// the w at which the losses p·w²/2 of a period catch up with w, i.e. 2/p;
// four times that (and at least 2·CWmax, the paper's rule of thumb) leaves
// negligible mass above M for p ≥ 0.01. It is capped at 2000 (about 1.3·10⁹
// inner steps), where the caller should read Accum.
func TCPNCAutoM(p float64, cwmax int) int {
	m := 2 * cwmax
	if p > 0 {
		m = max(m, int(math.Ceil(8/p)))
	}
	return min(max(m, 20), 2000)
}

func (t TCPNCParams) validate() error {
	switch {
	case !(t.P >= 0 && t.P <= 1):
		return fmt.Errorf("p = %v outside [0, 1]", t.P)
	case t.R != 0 && !(t.R >= 1):
		return fmt.Errorf("redundancy R = %v below 1", t.R)
	case t.CWMax < 1:
		return fmt.Errorf("cwmax = %d below 1", t.CWMax)
	case t.M < 0:
		return fmt.Errorf("M = %d negative", t.M)
	case !(t.RTT > 0):
		return fmt.Errorf("rtt = %v not positive", t.RTT)
	case t.RTO < 0:
		return errors.New("rto negative")
	}
	return nil
}

// TCPNCStates runs Algorithm 1: it returns s with s[w][i] = P(S(w, i)) for
// w = 1..m+1 and 0 ≤ i ≤ max(0, w−2). The negative-binomial factor is
// computed in logarithms so that large w cannot underflow (1−p)^(w−1) to zero
// before the binomial coefficient brings it back.
func TCPNCStates(p float64, m int) [][]float64 {
	s := make([][]float64, m+2)
	s[1] = []float64{1}
	q := 1 - p
	lq, lp := math.Log(q), math.Log(p)
	coef := make([]float64, m+1)
	for w := 2; w <= m+1; w++ {
		n := max(1, w-1) // AU values at level w: 0..w−2
		cur := make([]float64, n)
		prev := s[w-1]
		// coef[k] = C(w−2+k, k)·q^(w−1)·p^k, the chance of k losses
		// before the (w−1)-th success.
		lgw, _ := math.Lgamma(float64(w - 1))
		for k := 0; k < n; k++ {
			switch {
			case p == 0:
				coef[k] = 0
				if k == 0 {
					coef[k] = 1
				}
			case q == 0:
				coef[k] = 0
			default:
				lg1, _ := math.Lgamma(float64(w - 1 + k))
				lg2, _ := math.Lgamma(float64(k + 1))
				coef[k] = math.Exp(lg1 - lg2 - lgw + float64(w-1)*lq + float64(k)*lp)
			}
		}
		for i := range cur {
			var sum float64
			for j := 0; j <= i && j < len(prev); j++ {
				sum += prev[j] * coef[i-j]
			}
			cur[i] = sum
		}
		s[w] = cur
	}
	return s
}

// TCPNC evaluates the chain (see the derivation above).
func TCPNC(t TCPNCParams) (TCPNCResult, error) {
	if err := t.validate(); err != nil {
		return TCPNCResult{}, err
	}
	pe := TCPNCEffectiveLoss(t.P, t.R)
	res := TCPNCResult{PEff: pe, M: t.M}
	if res.M == 0 {
		res.M = TCPNCAutoM(pe, t.CWMax)
	}
	m := res.M
	if pe == 0 {
		// Nothing is ever lost: the window climbs to CWmax and stays (the
		// limit of the chain as p' → 0, and Kim et al.'s steady state).
		res.Masked = true
		res.Thr = float64(t.CWMax) / t.RTT
		res.ECwnd = float64(t.CWMax)
		return res, nil
	}
	s := TCPNCStates(pe, m)
	q := 1 - pe
	res.Reach = make([]float64, m+2)
	for w := 1; w <= m+1; w++ {
		for _, v := range s[w] {
			res.Reach[w] += v
		}
	}
	res.Pw = make([]float64, m+1)
	res.EEW = make([]float64, m+1)
	res.ET = make([]float64, m+1)
	res.ERcv = make([]float64, m+1)
	cwmax := float64(t.CWMax)
	var cw, num, den, climb float64
	for w := 1; w <= m; w++ {
		pw := res.Reach[w] - res.Reach[w+1] // Lemma 1
		res.Pw[w] = pw
		res.Accum += pw
		cw += pw * math.Min(float64(w), cwmax) // eq. 6
		// eq. 10-11
		if res.Reach[w] > 0 {
			var ew float64
			for i, v := range s[w] {
				ew += v * math.Min(float64(w-i), cwmax)
			}
			res.EEW[w] = ew / res.Reach[w]
		}
		rto := t.RTO
		if rto == 0 {
			rto = float64(w) * t.RTT
		}
		res.ET[w] = climb + float64(w-1)/2*t.RTT + rto // eq. 13
		if res.EEW[w] > 0 {
			climb += float64(w) * t.RTT / (res.EEW[w] * q) // eq. 12, step w → w+1
		} else {
			climb = math.Inf(1)
		}
		res.ERcv[w] = float64(w) * float64(w) / 2 // eq. 15
		if pw > 0 {
			num += pw * res.ERcv[w]
			den += pw * res.ET[w]
		}
	}
	if res.Accum > 0 {
		res.ECwnd = cw / res.Accum
	}
	if den > 0 {
		res.Thr = num / den // eq. 2 / 16
	}
	return res, nil
}
