package coding

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Encoding and decoding speed for coding windows of 8 to 128 packets of
// 1000 bytes: bytes/s counts one packet's payload per coded packet.
func BenchmarkCoding(b *testing.B) {
	const size = 1000
	for _, w := range []int{8, 32, 128} {
		enc, _ := NewEncoder(1, size, w, rand.New(rand.NewPCG(1, 1)))
		for n := range int64(w) {
			enc.Add(n, payloadOf(1, n, size))
		}
		var c Coded
		b.Run(fmt.Sprintf("encode/window=%d", w), func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				enc.Next(&c)
			}
		})
		b.Run(fmt.Sprintf("decode/window=%d", w), func(b *testing.B) {
			// A full window decoded from scratch, per coded packet.
			codes := make([]Coded, w)
			for i := range codes {
				enc.Next(&codes[i])
				codes[i].Coeffs = append([]byte(nil), codes[i].Coeffs...)
				codes[i].Payload = append([]byte(nil), codes[i].Payload...)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			var dec *Decoder
			i := 0
			for b.Loop() {
				if i%w == 0 {
					b.StopTimer()
					dec = NewDecoder(size)
					b.StartTimer()
				}
				dec.Receive(&codes[i%w])
				i++
			}
		})
	}
}
