package model

import (
	"fmt"
	"math"
)

func init() {
	Register(Model{
		Name: "kim",
		Doc:  "Kim, Médard & Barros TCP/NC with losses masked (R ≥ 1/(1−p))",
		Params: []Param{Loss(0.05), {Name: "r", Default: 1.1, Help: "redundancy factor", Min: 1, Max: Inf},
			{Name: "wmax", Default: 50, Unit: Packets, Help: "maximum window", Min: 1, Max: Inf, Integer: true},
			RTT(0.8), {Name: "w0", Default: 1, Unit: Packets, Help: "initial window", Min: 1, Max: Inf, Integer: true},
			{Name: "duration", Default: 0, Unit: Time, Help: "connection length (0 = steady state)", Min: 0, Max: Inf}, MSS(1460)},
		Eval: func(in Inputs) ([]Output, error) {
			if in["p"] >= 1 {
				return nil, BadInput("p", in["p"], "must be below 1")
			}
			r, err := KimNC(KimParams{P: in["p"], R: in["r"], Wmax: in.Int("wmax"), RTT: in["rtt"], W0: in.Int("w0"), Duration: in["duration"]})
			if err != nil {
				return nil, err
			}
			return []Output{{"thr_pkts_per_s", r.Thr, PacketRate}, {"thr_bits_per_s", BitsPerSecond(r.Thr, in.Int("mss")), BitRate},
				{"min_r", r.MinR, Number}, {"mask_prob", r.MaskProb, Probability}}, nil
		},
	})
}

// KimParams are the inputs of the TCP/NC model of Kim, Médard & Barros
// ("Modeling network coded TCP throughput: a simple model and its
// validation", VALUETOOLS 2011), in the regime the TCP-NC Markov paper
// compares with: R large enough that the coding masks every random erasure.
type KimParams struct {
	P        float64 // erasure probability
	R        float64 // redundancy: coded packets per TCP packet
	Wmax     int     // maximum window, packets
	RTT      float64 // seconds
	W0       int     // window at the start of the connection; 0 means 1
	Duration float64 // connection length in seconds; 0 means steady state
}

// KimResult holds the model's outputs.
type KimResult struct {
	Thr      float64 // packets/s delivered to TCP
	MinR     float64 // 1/(1−p): the redundancy that matches the mean erasure
	MaskProb float64 // P(a round at Wmax is masked): ≥ Wmax of ⌈R·Wmax⌉ coded packets arrive
}

// KimNC follows Padhye et al.'s round framework with the losses hidden from
// TCP: in each round TCP/NC releases its window W and the coding layer sends
// ⌈R·W⌉ random combinations; TCP sees the round as loss-free when at least W
// of them arrive, which for R > 1/(1−p) holds with a probability that tends
// to 1 as W grows (MaskProb reports it at Wmax). Taking every round as
// masked, the window follows congestion avoidance without decrease,
// W_k = min(W0 + k, Wmax) in round k, and a connection of n = Duration/RTT
// rounds delivers Σ_{k<n} W_k packets: the throughput is that sum over
// n·RTT, which tends to Wmax/RTT in steady state. It does not depend on p;
// that is the horizontal line of the TCP-NC paper's Fig. 8.
func KimNC(k KimParams) (KimResult, error) {
	switch {
	case !(k.P >= 0 && k.P < 1):
		return KimResult{}, fmt.Errorf("p = %v outside [0, 1)", k.P)
	case k.Wmax < 1:
		return KimResult{}, fmt.Errorf("wmax = %d below 1", k.Wmax)
	case !(k.RTT > 0):
		return KimResult{}, fmt.Errorf("rtt = %v not positive", k.RTT)
	case k.Duration < 0:
		return KimResult{}, fmt.Errorf("duration = %v negative", k.Duration)
	}
	r := k.R
	if r <= 0 {
		r = 1
	}
	w0 := max(1, k.W0)
	res := KimResult{MinR: 1 / (1 - k.P)}
	n := int(math.Ceil(r*float64(k.Wmax) - 1e-9))
	for j := k.Wmax; j <= n; j++ {
		l := lchoose(n, j) + float64(j)*math.Log1p(-k.P)
		if n > j {
			l += float64(n-j) * logOrInf(k.P)
		}
		res.MaskProb += math.Exp(l)
	}
	wmax := float64(k.Wmax)
	if k.Duration == 0 {
		res.Thr = wmax / k.RTT
		return res, nil
	}
	rounds := k.Duration / k.RTT
	// Rounds of growth from W0 to Wmax carry W0 + (W0+1) + ... ; the rest
	// carry Wmax each; a fractional last round counts pro rata.
	var pkts, left float64 = 0, rounds
	for w := float64(min(w0, k.Wmax)); w < wmax && left > 0; w++ {
		f := math.Min(1, left)
		pkts += f * w
		left -= f
	}
	pkts += left * wmax
	res.Thr = pkts / k.Duration
	return res, nil
}

func logOrInf(p float64) float64 {
	if p == 0 {
		return math.Inf(-1)
	}
	return math.Log(p)
}
