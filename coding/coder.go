package coding

import (
	"fmt"
	"math/rand/v2"
)

// Coded is one coded packet: a linear combination of the packets numbered
// Base, Base+1, ..., Base+len(Coeffs)-1, with the combined payload. Its
// header on the wire is HeaderBytes(len(Coeffs)).
type Coded struct {
	Base    int64
	Coeffs  []byte
	Payload []byte
}

// HeaderBytes is the coding header of a packet combining n packets: the
// base packet number (4 bytes), the count (2) and one coefficient each.
func HeaderBytes(n int) int { return 6 + n }

// Encoder is the sender's side. TCP hands it packets in order (Add); it
// keeps those the receiver has not yet seen (its coding window) and says
// how many coded packets to send for each: NUM += R per packet, one coded
// packet while NUM ≥ 1 (Sundararajan et al. §IV-A).
type Encoder struct {
	R       float64 // redundancy, at least 1
	f       *field
	rng     *rand.Rand
	size    int      // payload bytes of every packet
	win     [][]byte // payloads of packets base, base+1, ...
	base    int64
	num     float64
	free    [][]byte // payload buffers to reuse
	store   [][]byte // the array win slides along (maxWin entries)
	maxWin  int
	Stats   EncoderStats
	scratch []byte
}

// EncoderStats count what the sender did.
type EncoderStats struct {
	Packets int64 // packets handed down
	Coded   int64 // coded packets produced
	MaxWin  int   // the coding window's high-water mark
}

// NewEncoder codes packets of size bytes with redundancy r, its random
// coefficients drawn from rng; the window holds at most maxWin packets.
func NewEncoder(r float64, size, maxWin int, rng *rand.Rand) (*Encoder, error) {
	if !(r >= 1) {
		return nil, fmt.Errorf("redundancy %g: want at least 1 (R < 1 cannot carry every packet)", r)
	}
	if size <= 0 || maxWin <= 0 || maxWin > MaxWindow {
		return nil, fmt.Errorf("coding window of %d packets of %d bytes: want 1..%d packets", maxWin, size, MaxWindow)
	}
	store := make([][]byte, maxWin)
	return &Encoder{R: r, f: newField(), rng: rng, size: size, maxWin: maxWin, store: store, win: store[:0]}, nil
}

// MaxWindow bounds the coding window (and the decoder's span of packets).
const MaxWindow = 256

// Add puts packet n (the next in order: TCP's next new segment) with its
// payload into the window and returns how many coded packets to send now.
// A packet already in the window (a TCP retransmission) adds redundancy
// only.
func (e *Encoder) Add(n int64, payload []byte) (int, error) {
	e.Stats.Packets++
	switch next := e.base + int64(len(e.win)); {
	case n == next:
		if len(e.win) == e.maxWin {
			return 0, fmt.Errorf("coding window full (%d packets)", e.maxWin)
		}
		var b []byte
		if k := len(e.free); k > 0 {
			b, e.free = e.free[k-1], e.free[:k-1]
		} else {
			b = make([]byte, e.size)
		}
		copy(b, payload)
		clear(b[len(payload):])
		if len(e.win) == cap(e.win) {
			// Seen advanced the window's start through its array: slide
			// it back to the front instead of letting append reallocate.
			e.win = e.store[:copy(e.store, e.win)]
		}
		e.win = append(e.win, b)
		e.Stats.MaxWin = max(e.Stats.MaxWin, len(e.win))
	case n > next:
		return 0, fmt.Errorf("packet %d handed down before %d", n, next)
	}
	e.num += e.R
	k := int(e.num)
	e.num -= float64(k)
	return k, nil
}

// Window is the number of packets being coded over.
func (e *Encoder) Window() int { return len(e.win) }

// Next fills c with a new random combination of the whole window (reusing
// its buffers).
func (e *Encoder) Next(c *Coded) {
	n := len(e.win)
	c.Base = e.base
	c.Coeffs = grow(c.Coeffs, n)
	c.Payload = grow(c.Payload, e.size)
	clear(c.Payload)
	for i := range c.Coeffs {
		// Non-zero coefficients: every packet of the window is in the
		// combination, so a coded packet is never empty.
		x := byte(1 + e.rng.IntN(255))
		c.Coeffs[i] = x
		e.f.mulAdd(c.Payload, e.win[i], x)
	}
	e.Stats.Coded++
}

// Seen drops from the window the packets below n, which the receiver has
// seen (its acknowledgement).
func (e *Encoder) Seen(n int64) {
	for e.base < n && len(e.win) > 0 {
		e.free = append(e.free, e.win[0])
		e.win[0] = nil
		e.win = e.win[1:]
		e.base++
	}
	if len(e.win) == 0 && e.base < n {
		e.base = n
	}
}

func grow(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
