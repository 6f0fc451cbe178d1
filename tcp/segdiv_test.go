package tcp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The segment number is found by a multiplication; it must equal the
// division for every divisor and dividend, the extremes included.
func TestSegDivisorEqualsDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []uint64{1, 2, 3, 7, 536, 1000, 1448, 1460, 8960, 65535, 1<<32 + 1, math.MaxInt64, math.MaxUint64} {
		v := newSegDivisor(d)
		xs := []uint64{0, 1, d - 1, d, d + 1, 2*d - 1, 2 * d, math.MaxUint64, math.MaxUint64 - 1, math.MaxInt64}
		for k := uint64(1); k < 1<<20; k = k*3 + 1 {
			xs = append(xs, k*d-1, k*d, k*d+1)
		}
		for range 100000 {
			xs = append(xs, r.Uint64(), r.Uint64()>>r.IntN(64))
		}
		for _, x := range xs {
			if got, want := v.div(x), x/d; got != want {
				t.Fatalf("%d / %d: got %d, want %d", x, d, got, want)
			}
		}
	}
}
