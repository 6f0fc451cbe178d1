package model

import (
	"fmt"
	"math"
)

func init() {
	Register(Model{
		Name: "tcpnc-share",
		Doc:  "The redundancy R at which one TCP-NC flow takes a given share of a bottleneck, by the TCP-NC chain (the paper's friendliness choice, §5: 1.015 at p = 0.06)",
		Params: []Param{Loss(0.06),
			{Name: "bandwidth", Default: 50e3, Unit: BitRate, Help: "bottleneck rate", Min: 1, Max: Inf},
			{Name: "share", Default: 0.5, Unit: Probability, Help: "share of the bottleneck the coded flow should take", Min: 1e-6, Max: 1},
			{Name: "cwmax", Default: 50, Unit: Packets, Help: "maximum window", Min: 1, Max: Inf, Integer: true},
			RTT(1.44), MSS(1000)},
		Eval: func(in Inputs) ([]Output, error) {
			r, thr, err := TCPNCShareR(in["p"], in["share"]*in["bandwidth"], in.Int("cwmax"), in["rtt"], in.Int("mss"))
			if err != nil {
				return nil, err
			}
			return []Output{{"r", r, Number}, {"thr_bits_per_s", thr, BitRate}}, nil
		},
	})
}

// TCPNCShareR finds by bisection the redundancy R in [1, 1/(1−p)] at which
// the chain's throughput is target bit/s (the chain's throughput grows
// with R: more of the losses are masked). At 1/(1−p) every loss is masked
// on average; if even that falls short, or R = 1 already exceeds the
// target, the bound is returned with its throughput.
func TCPNCShareR(p, target float64, cwmax int, rtt float64, mss int) (r, thr float64, err error) {
	if !(p > 0 && p < 1) {
		return 0, 0, fmt.Errorf("p = %v: want an erasure rate in (0, 1)", p)
	}
	at := func(r float64) (float64, error) {
		res, err := TCPNC(TCPNCParams{P: p, R: r, CWMax: cwmax, RTT: rtt})
		return BitsPerSecond(res.Thr, mss), err
	}
	lo, hi := 1.0, 1/(1-p)
	tlo, err := at(lo)
	if err != nil || tlo >= target {
		return lo, tlo, err
	}
	// At 1/(1−p) every loss is masked and the window sits at CWmax (the
	// chain's p' = 0 limit, not evaluated: it is a pole of the chain).
	if thi := BitsPerSecond(float64(cwmax)/rtt, mss); thi <= target {
		return hi, thi, nil
	}
	for range 40 {
		mid := (lo + hi) / 2
		t, err := at(mid)
		if err != nil {
			return 0, 0, err
		}
		if t < target {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-5 {
			break
		}
	}
	r = (lo + hi) / 2
	thr, err = at(r)
	return math.Round(r*1e5) / 1e5, thr, err
}
