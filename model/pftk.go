package model

import "math"

func init() {
	Register(Model{
		Name: "pftk",
		Doc:  "Padhye-Firoiu-Towsley-Kurose: full model with timeouts and window limit, and its approximation",
		Params: []Param{Loss(0.01), RTT(0.114),
			{Name: "rto", Default: 0.4, Unit: Time, Help: "first timeout T0", Min: 0, Max: Inf},
			{Name: "wm", Default: 32, Unit: Packets, Help: "window limit (0 = none)", Min: 0, Max: Inf},
			{Name: "b", Default: 1, Help: "packets per ACK", Min: 1, Max: Inf}, MSS(1460)},
		Eval: func(in Inputs) ([]Output, error) {
			m := PFTKParams{P: in["p"], RTT: in["rtt"], RTO: in["rto"], Wm: in["wm"], B: in["b"]}
			full, appr := PFTK(m), PFTKApprox(m)
			mss := in.Int("mss")
			return []Output{{"full_pkts_per_s", full, PacketRate}, {"approx_pkts_per_s", appr, PacketRate},
				{"full_bits_per_s", BitsPerSecond(full, mss), BitRate}, {"approx_bits_per_s", BitsPerSecond(appr, mss), BitRate}}, nil
		},
	})
}

// PFTKParams are the inputs of the Padhye, Firoiu, Towsley & Kurose model
// (SIGCOMM '98; IEEE/ACM ToN 8(2), 2000).
type PFTKParams struct {
	P   float64 // loss-indication probability per packet
	RTT float64 // round-trip time, seconds
	RTO float64 // T0, the first retransmission timeout, seconds
	Wm  float64 // receiver window limit in packets; 0 or less means none
	B   float64 // packets acknowledged per ACK; 0 means 1
}

func (m PFTKParams) b() float64 {
	if m.B <= 0 {
		return 1
	}
	return m.B
}

// pftkF is f(p) = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶: the expected length
// of a timeout sequence in units of T0, with the RTO doubling up to 64·T0.
func pftkF(p float64) float64 {
	return 1 + p + 2*p*p + 4*math.Pow(p, 3) + 8*math.Pow(p, 4) + 16*math.Pow(p, 5) + 32*math.Pow(p, 6)
}

// pftkW is E[W_u], the expected unconstrained window at a loss indication:
// (2+b)/(3b) + sqrt(8(1-p)/(3bp) + ((2+b)/(3b))²).
func pftkW(p, b float64) float64 {
	a := (2 + b) / (3 * b)
	return a + math.Sqrt(8*(1-p)/(3*b*p)+a*a)
}

// PFTKQ is Q̂(p, w), the probability that a loss indication in a window of w
// packets is a timeout rather than a triple duplicate ACK:
// min(1, (1-(1-p)³)(1+(1-p)³(1-(1-p)^(w-3))) / (1-(1-p)^w)).
func PFTKQ(p, w float64) float64 {
	if p <= 0 {
		return 0
	}
	q := 1 - p
	q3 := q * q * q
	v := (1 - q3) * (1 + q3*(1-math.Pow(q, w-3))) / (1 - math.Pow(q, w))
	return math.Min(1, v)
}

// PFTK returns the full model's send rate in packets/s, with timeouts and the
// window limit (ToN 2000, eq. 30/32):
//
//	W(p) < Wm:  B = [(1-p)/p + W + Q̂(W)/(1-p)] / [RTT(bW/2 + 1) + Q̂(W)·T0·f(p)/(1-p)]
//	otherwise:  B = [(1-p)/p + Wm + Q̂(Wm)/(1-p)] / [RTT(b·Wm/8 + (1-p)/(p·Wm) + 2) + Q̂(Wm)·T0·f(p)/(1-p)]
//
// At p = 0 it returns the limit Wm/RTT (+Inf without a limit).
func PFTK(m PFTKParams) float64 {
	p, b := m.P, m.b()
	if p <= 0 {
		if m.Wm > 0 {
			return m.Wm / m.RTT
		}
		return math.Inf(1)
	}
	if p >= 1 {
		return 0
	}
	w := pftkW(p, b)
	to := m.RTO * pftkF(p) / (1 - p)
	if m.Wm <= 0 || w < m.Wm {
		q := PFTKQ(p, w)
		return ((1-p)/p + w + q/(1-p)) / (m.RTT*(b*w/2+1) + q*to)
	}
	q := PFTKQ(p, m.Wm)
	return ((1-p)/p + m.Wm + q/(1-p)) / (m.RTT*(b*m.Wm/8+(1-p)/(p*m.Wm)+2) + q*to)
}

// PFTKApprox returns the approximate model (ToN 2000, eq. 33):
//
//	B ≈ min(Wm/RTT, 1 / (RTT·sqrt(2bp/3) + T0·min(1, 3·sqrt(3bp/8))·p·(1+32p²)))
func PFTKApprox(m PFTKParams) float64 {
	p, b := m.P, m.b()
	lim := math.Inf(1)
	if m.Wm > 0 {
		lim = m.Wm / m.RTT
	}
	if p <= 0 {
		return lim
	}
	d := m.RTT*math.Sqrt(2*b*p/3) + m.RTO*math.Min(1, 3*math.Sqrt(3*b*p/8))*p*(1+32*p*p)
	return math.Min(lim, 1/d)
}
