package wireless

import (
	"math"
	"sync"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// 802.11b DSSS/HR-DSSS timing (802.11-2020 §16.4.4).
const (
	slotTime  = 20 * 1000 // ns
	sifs      = 10 * 1000
	difs      = sifs + 2*slotTime
	preamble  = 144 * 1000 // long PLCP preamble at 1 Mbit/s
	plcpTotal = 192 * 1000 // preamble + 48-bit PLCP header at 1 Mbit/s
	ackBytes  = 14
	rtsBytes  = 20
	ctsBytes  = 14
	// macOverhead is what rides with an IP packet in a data MPDU: a 24-byte
	// header, the 4-byte FCS and 8 bytes of LLC/SNAP.
	macOverhead = 24 + 4 + 8
)

// Rates is the set of 802.11b data rates, bit/s.
var Rates = []float64{1e6, 2e6, 5.5e6, 11e6}

// airTime is the duration of a frame of n bytes at rate bit/s: the PLCP
// preamble and header, then the bits rounded up to whole microseconds as
// the PLCP LENGTH field counts them.
func airTime(n int, rate float64) int64 {
	us := math.Ceil(float64(n)*8/(rate/1e6) - 1e-9)
	return plcpTotal + int64(us)*1000
}

// The chip rate is 11 Mchip/s in a 22 MHz channel; a bit's energy over the
// noise density is the SINR times the processing gain 22 MHz / bit rate.
// The formulas are the error curves of ns-3's DSSS model (the one its
// 802.11b numbers rest on), so that a frame survives the same SINR in both.

// dbpskBER is the bit error rate of DBPSK (1 Mbit/s, and the PLCP header).
func dbpskBER(sinr float64) float64 {
	return 0.5 * math.Exp(-sinr*22e6/1e6)
}

// dqpskBER is the bit error rate of DQPSK (2 Mbit/s).
func dqpskBER(sinr float64) float64 {
	ebn0 := sinr * 22e6 / 2e6
	return (math.Sqrt2 + 1) / math.Sqrt(8*math.Pi*math.Sqrt2) / math.Sqrt(ebn0) * math.Exp(-(2-math.Sqrt2)*ebn0)
}

// sep16 is the symbol error probability of 16 biorthogonal CCK codewords
// at energy ratio e2: one minus the probability that the right codeword's
// correlation beats the other seven in magnitude,
// 1 − ∫_{−β}^{∞} (2Φ(x+β) − 1)^7 φ(x) dx with β = √(2·e2).
// Integrating on every reception would dominate a run, so the function is
// tabulated once over e2 (log-spaced) and interpolated in log-log.
func sep16(e2 float64) float64 {
	sepOnce.Do(tabulateSEP)
	switch {
	case e2 <= sepLo:
		return sep16Exact(e2)
	case e2 >= sepHi:
		return 0
	}
	x := math.Log(e2/sepLo) / sepStep
	i := int(x)
	if i >= len(sepTable)-1 {
		return math.Exp(sepTable[len(sepTable)-1])
	}
	f := x - float64(i)
	return math.Exp(sepTable[i]*(1-f) + sepTable[i+1]*f)
}

const (
	sepLo, sepHi = 1e-3, 200.0
	sepPoints    = 4096
)

var (
	sepOnce  sync.Once
	sepTable []float64 // log sep16 at sepLo·e^(k·sepStep)
	sepStep  = math.Log(sepHi/sepLo) / (sepPoints - 1)
	gaussX   = make([]float64, 96)
	gaussW   = make([]float64, 96)
)

func tabulateSEP() {
	quad.Legendre{}.FixedLocations(gaussX, gaussW, -1, 1)
	sepTable = make([]float64, sepPoints)
	for k := range sepTable {
		sepTable[k] = math.Log(math.Max(sep16Exact(sepLo*math.Exp(float64(k)*sepStep)), 1e-300))
	}
}

// sep16Exact integrates by Gauss-Legendre over [−β, 10]: the integrand is
// negligible 10 standard deviations out.
func sep16Exact(e2 float64) float64 {
	if gaussW[0] == 0 {
		quad.Legendre{}.FixedLocations(gaussX, gaussW, -1, 1)
	}
	beta := math.Sqrt(2 * e2)
	a, b := -beta, 10.0
	sum := 0.0
	for i, x := range gaussX {
		t := (b-a)/2*x + (a+b)/2
		sum += gaussW[i] * math.Pow(2*distuv.UnitNormal.CDF(t+beta)-1, 7) * distuv.UnitNormal.Prob(t)
	}
	return math.Max(0, 1-sum*(b-a)/2)
}

// The reference model declares CCK frames perfect above an SINR of 10
// and lost below 0.1.
const cckPerfect, cckImpossible = 10.0, 0.1

// cckSuccess is the probability that nbits at 5.5 or 11 Mbit/s (CCK with 4
// or 8 bits a symbol) arrive intact at SINR sinr.
func cckSuccess(sinr, nbits float64, bitsPerSymbol int) float64 {
	switch {
	case sinr > cckPerfect:
		return 1
	case sinr < cckImpossible:
		return 0
	}
	ebnoc := sinr * 22e6 / 1.375e6 / float64(bitsPerSymbol)
	ser := sep16(float64(bitsPerSymbol) * ebnoc / 2)
	if bitsPerSymbol == 8 {
		// 256 codewords: two independent 16-codeword decisions at half
		// the energy each.
		ser = 1 - math.Pow(1-sep16(float64(bitsPerSymbol)*ebnoc/4), 2)
	}
	return math.Pow(1-ser, math.Ceil(nbits/float64(bitsPerSymbol)))
}

// chunkSuccess is the probability that nbits sent at rate arrive intact at
// a constant SINR.
func chunkSuccess(sinr, nbits, rate float64) float64 {
	if nbits <= 0 {
		return 1
	}
	// Far above the curves' knees a bit error is below 1e-20: the frame
	// survives, and the exponentials need not be computed.
	switch {
	case rate == 1e6 && sinr > 2.2, rate == 2e6 && sinr > 8, sinr > cckPerfect:
		return 1
	}
	switch rate {
	case 1e6:
		return math.Exp(nbits * math.Log1p(-dbpskBER(sinr)))
	case 2e6:
		return math.Exp(nbits * math.Log1p(-math.Min(dqpskBER(sinr), 1)))
	case 5.5e6:
		return cckSuccess(sinr, nbits, 4)
	}
	return cckSuccess(sinr, nbits, 8)
}
