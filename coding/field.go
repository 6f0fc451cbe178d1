// Package coding is the network-coding layer of TCP-NC (Sundararajan et
// al., "Network coding meets TCP", INFOCOM 2009): below TCP the sender
// sends random linear combinations over GF(2^8) of the packets in its
// coding window, R of them for every packet TCP hands down; the receiver
// keeps what it gets in reduced row echelon form, acknowledges a packet as
// soon as it is "seen" (its pivot appears, so every innovative coded
// packet advances the acknowledgement) and delivers packets in order as
// they decode. The arithmetic works on real payload bytes.
package coding

import (
	"github.com/klauspost/reedsolomon"
)

// field does GF(2^8) multiply-adds on byte slices (dst ^= c·src) with the
// SIMD routines of klauspost/reedsolomon. The library exposes them through
// its encoder, whose EncodeIdx adds one data shard times a column of the
// coding matrix to the parity: an encoder with 255 data shards, one parity
// shard and the matrix row (1, 2, ..., 255) therefore multiplies by the
// shard index plus one.
type field struct {
	enc reedsolomon.Encoder
	out [][]byte // the one parity shard, reused so a call does not allocate
}

func newField() *field {
	row := make([]byte, 255)
	for i := range row {
		row[i] = byte(i + 1)
	}
	enc, err := reedsolomon.New(255, 1, reedsolomon.WithCustomMatrix([][]byte{row}))
	if err != nil {
		panic("coding: GF(2^8) encoder: " + err.Error())
	}
	return &field{enc: enc, out: make([][]byte, 1)}
}

// mulAdd sets dst ^= c·src (len(dst) == len(src)).
func (f *field) mulAdd(dst, src []byte, c byte) {
	switch c {
	case 0:
		return
	case 1:
		for i := range dst {
			dst[i] ^= src[i]
		}
		return
	}
	f.out[0] = dst
	if err := f.enc.EncodeIdx(src, int(c)-1, f.out); err != nil {
		panic("coding: " + err.Error())
	}
}

// scale sets v = c·v, using scratch (at least len(v) bytes).
func (f *field) scale(v []byte, c byte, scratch []byte) {
	if c == 1 {
		return
	}
	s := scratch[:len(v)]
	clear(s)
	f.mulAdd(s, v, c)
	copy(v, s)
}

// inv is the multiplicative inverse of a non-zero element.
func inv(c byte) byte { return reedsolomon.Inv(c) }
