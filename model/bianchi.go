package model

import (
	"fmt"
	"math"
)

// IEEE 802.11b DSSS timing (802.11-2020 §16.3): a 20 µs slot, SIFS 10 µs,
// DIFS = SIFS + 2 slots, CW from 31 to 1023, every frame behind a long PLCP
// preamble and header sent at 1 Mbit/s (192 µs).
const (
	dsssSlot  = 20e-6
	dsssSIFS  = 10e-6
	dsssDIFS  = dsssSIFS + 2*dsssSlot
	dsssPLCP  = 192e-6
	dsssCWMin = 31
	dsssCWMax = 1023
	ackBytes  = 14
	rtsBytes  = 20
	ctsBytes  = 14
)

// DSSSFrameTime is the air time of an 802.11b frame of n bytes at rate
// bit/s: the PLCP preamble and header, then the bits rounded up to whole
// microseconds (as 802.11's LENGTH field and ns-3 count them).
func DSSSFrameTime(n int, rate float64) float64 {
	us := math.Ceil(float64(n)*8/(rate/1e6) - 1e-9)
	return dsssPLCP + us*1e-6
}

// BianchiParams describe one saturated 802.11b cell (Bianchi, "Performance
// analysis of the IEEE 802.11 distributed coordination function", IEEE
// JSAC 18(3), 2000).
type BianchiParams struct {
	N        int     // stations, each always with a frame to send
	Rate     float64 // data rate, bit/s
	Payload  int     // bytes counted as throughput per frame
	Overhead int     // bytes sent with the payload in the MPDU (34: Bianchi's MAC header and FCS; 64: ns-3's MAC, LLC, IPv4 and UDP)
	ACKRate  float64 // rate of the ACK, bit/s; 0: the data rate (what ns-3 does)
	CtlRate  float64 // rate of RTS and CTS, bit/s
	RTS      bool    // RTS/CTS before every frame
	EIFS     bool    // a collision costs EIFS (SIFS + a 1 Mbit/s ACK + DIFS) instead of the paper's DIFS
	Delta    float64 // propagation delay, s
	Retry    int     // attempts per frame; 0: infinite, as in the paper
}

// BianchiResult is the model's fixed point and throughput.
type BianchiResult struct {
	Tau    float64 // probability that a station transmits in a slot
	P      float64 // conditional collision probability
	S      float64 // payload throughput, bit/s
	Ts, Tc float64 // durations of a success and of a collision, s
}

// bianchiTau is τ(p): the long-run share of slots in which a station
// transmits, the mean number of attempts per frame over the mean number of
// backoff slots per frame. Stage j draws from W_j = W·2^min(j, m) slots
// (mean (W_j+1)/2 counting the transmission slot) and is reached with
// probability p^j; with infinite retries this is the paper's eq. 7,
// 2(1−2p) / ((1−2p)(W+1) + pW(1−(2p)^m)), written without its pole at
// p = 1/2.
func bianchiTau(p float64, retry int) float64 {
	const w = dsssCWMin + 1
	m := int(math.Round(math.Log2((dsssCWMax + 1) / float64(w))))
	if retry <= 0 {
		s := 0.0
		for i := range m {
			s += math.Pow(2*p, float64(i))
		}
		return 2 / (1 + w + p*w*s)
	}
	var attempts, slots float64
	for j := range retry {
		wj := float64(w) * math.Pow(2, float64(min(j, m)))
		attempts += math.Pow(p, float64(j))
		slots += math.Pow(p, float64(j)) * (wj + 1) / 2
	}
	return attempts / slots
}

// BianchiFixedPoint solves τ = τ(p), p = 1 − (1 − τ)^(n−1) by bisection
// (τ − τ(p(τ)) increases with τ).
func BianchiFixedPoint(n, retry int) (tau, p float64) {
	if n <= 1 {
		return bianchiTau(0, retry), 0
	}
	lo, hi := 1e-12, 1-1e-12
	for range 200 {
		mid := (lo + hi) / 2
		if mid-bianchiTau(1-math.Pow(1-mid, float64(n-1)), retry) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	tau = (lo + hi) / 2
	return tau, 1 - math.Pow(1-tau, float64(n-1))
}

// Bianchi evaluates the saturation throughput (the paper's eq. 13):
// S = Ps·Ptr·E[P] / ((1 − Ptr)σ + Ptr·Ps·Ts + Ptr(1 − Ps)Tc), with
// Ts and Tc of its eqs. 14 (basic access) and 15 (RTS/CTS).
func Bianchi(b BianchiParams) (BianchiResult, error) {
	if b.N < 1 || b.Rate <= 0 || b.Payload <= 0 || b.CtlRate <= 0 {
		return BianchiResult{}, fmt.Errorf("bianchi: want n ≥ 1 and positive rates and payload")
	}
	tau, p := BianchiFixedPoint(b.N, b.Retry)
	n := float64(b.N)
	ptr := 1 - math.Pow(1-tau, n)
	ps := n * tau * math.Pow(1-tau, n-1) / ptr
	ackRate := b.ACKRate
	if ackRate == 0 {
		ackRate = b.Rate
	}
	data := DSSSFrameTime(b.Payload+b.Overhead, b.Rate)
	ack := DSSSFrameTime(ackBytes, ackRate)
	d := b.Delta
	var ts, first float64
	if b.RTS {
		rts, cts := DSSSFrameTime(rtsBytes, b.CtlRate), DSSSFrameTime(ctsBytes, b.CtlRate)
		ts = rts + dsssSIFS + d + cts + dsssSIFS + d + data + dsssSIFS + d + ack + dsssDIFS + d
		first = rts
	} else {
		ts = data + dsssSIFS + d + ack + dsssDIFS + d
		first = data
	}
	tc := first + dsssDIFS + d
	if b.EIFS {
		// Stations that heard the collision wait EIFS, whose ACK term is
		// always the 1 Mbit/s ACK (802.11-2020 §10.3.2.3.7).
		tc = first + dsssSIFS + d + DSSSFrameTime(ackBytes, 1e6) + dsssDIFS + d
	}
	s := ps * ptr * float64(b.Payload) * 8 / ((1-ptr)*dsssSlot + ptr*ps*ts + ptr*(1-ps)*tc)
	return BianchiResult{Tau: tau, P: p, S: s, Ts: ts, Tc: tc}, nil
}

func init() {
	params := func(overhead int, ackRate, delta float64) []Param {
		return []Param{
			{Name: "n", Default: 5, Help: "saturated stations", Min: 1, Max: 1000, Integer: true},
			{Name: "rate", Default: 11e6, Unit: BitRate, Help: "data rate (1, 2, 5.5 or 11 Mbps)", Min: 1e6, Max: 11e6},
			{Name: "payload", Default: 1024, Unit: Size, Help: "payload bytes per frame", Min: 1, Max: 2304, Integer: true},
			{Name: "rts", Default: 0, Help: "1: RTS/CTS before every frame", Min: 0, Max: 1, Integer: true},
			{Name: "overhead", Default: float64(overhead), Unit: Size, Help: "bytes sent with the payload", Min: 0, Max: 2304, Integer: true},
			{Name: "ack_rate", Default: ackRate, Unit: BitRate, Help: "ACK rate (0: the data rate)", Min: 0, Max: 11e6},
			{Name: "ctl_rate", Default: 1e6, Unit: BitRate, Help: "RTS and CTS rate", Min: 1e6, Max: 11e6},
			{Name: "eifs", Default: 0, Help: "1: a collision costs EIFS, 0: DIFS (the paper)", Min: 0, Max: 1, Integer: true},
			{Name: "delta", Default: delta, Unit: Time, Help: "propagation delay", Min: 0, Max: 1e-3},
			{Name: "retry", Default: 0, Help: "attempts per frame (0: infinite)", Min: 0, Max: 100, Integer: true},
		}
	}
	eval := func(in Inputs) ([]Output, error) {
		r, err := Bianchi(BianchiParams{N: in.Int("n"), Rate: in["rate"], Payload: in.Int("payload"),
			Overhead: in.Int("overhead"), ACKRate: in["ack_rate"], CtlRate: in["ctl_rate"],
			RTS: in["rts"] == 1, EIFS: in["eifs"] == 1, Delta: in["delta"], Retry: in.Int("retry")})
		if err != nil {
			return nil, err
		}
		return []Output{{"throughput_bps", r.S, BitRate}, {"tau", r.Tau, Probability},
			{"p", r.P, Probability}, {"ts", r.Ts, Time}, {"tc", r.Tc, Time}}, nil
	}
	Register(Model{
		Name:   "bianchi",
		Doc:    "Bianchi's 802.11 DCF saturation throughput (JSAC 2000) with 802.11b timing, the paper's frame accounting",
		Params: params(34, 1e6, 1e-6),
		Eval:   eval,
	})
	Register(Model{
		Name:   "bianchi-ns3",
		Doc:    "Bianchi's model fed what ns-3.37 sends: 64 bytes of MAC, LLC, IPv4 and UDP with the payload, ACK at the data rate",
		Params: params(64, 0, 0),
		Eval:   eval,
	})
}
