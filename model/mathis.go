package model

import "math"

func init() {
	Register(Model{
		Name: "mathis",
		Doc:  "Mathis et al. square-root law, C/(RTT·sqrt(p)) with C = sqrt(3/(2b))",
		Params: []Param{Loss(0.01), RTT(0.1),
			{Name: "b", Default: 1, Help: "packets per ACK", Min: 1, Max: Inf}, MSS(1460)},
		Eval: func(in Inputs) ([]Output, error) {
			r := Mathis(MathisParams{P: in["p"], RTT: in["rtt"], B: in["b"]})
			return []Output{{"pkts_per_s", r, PacketRate}, {"bits_per_s", BitsPerSecond(r, in.Int("mss")), BitRate}}, nil
		},
	})
}

// MathisParams are the inputs of the Mathis, Semke, Mahdavi & Ott (1997)
// square-root law.
type MathisParams struct {
	P   float64 // loss (congestion-signal) probability per packet
	RTT float64 // round-trip time, seconds
	B   float64 // packets acknowledged per ACK (1 without delayed ACKs; 0 means 1)
}

// MathisC is the constant of the square-root law for b packets per ACK:
// C = sqrt(3/(2b)). The sawtooth between W/2 and W lasts b·W/2 rounds and
// carries 3bW²/8 packets, one loss per cycle gives p = 8/(3bW²), hence
// rate = (3bW²/8)/(RTT·bW/2) = (3W/4)/RTT = sqrt(3/(2bp))/RTT.
func MathisC(b float64) float64 {
	if b <= 0 {
		b = 1
	}
	return math.Sqrt(3 / (2 * b))
}

// Mathis returns the steady-state rate in packets/s, C/(RTT·√p). It is +Inf
// for p = 0: the law has no window limit.
func Mathis(m MathisParams) float64 {
	if m.P <= 0 {
		return math.Inf(1)
	}
	return MathisC(m.B) / (m.RTT * math.Sqrt(m.P))
}

// BitsPerSecond converts a rate in packets/s to bits/s for segments of mss
// bytes.
func BitsPerSecond(pktsPerSec float64, mss int) float64 {
	return pktsPerSec * float64(mss) * 8
}
