package coding

import "fmt"

// MaxSpan bounds how far apart the oldest undecoded packet and the newest
// combined one may be at the receiver. Packets seen but not yet decoded
// wait for the unseen ones they depend on; with too little redundancy
// (R(1−p) below 1 for long) that wait grows, and beyond MaxSpan Receive
// reports an error rather than alias two packets.
const MaxSpan = 4096

// Decoder is the receiver's side: incremental Gaussian elimination over
// GF(2^8) into reduced row echelon form. A row is kept per pivot packet;
// its coefficients sit in a ring indexed by packet number modulo
// MaxSpan, so rows covering different spans combine column by column.
type Decoder struct {
	f       *field
	size    int
	rows    [MaxSpan][]byte // by pivot packet number mod MaxSpan: coefficients then payload
	has     [MaxSpan]bool
	seen    int64 // packets 0..seen-1 are seen: the acknowledgement
	end     int64 // one past the highest packet any coded packet combined
	next    int64 // the next packet to deliver
	low     int64 // rows below low are freed (the sender no longer codes them)
	work    []byte
	scratch []byte
	Stats   DecoderStats
}

// DecoderStats count what the receiver got.
type DecoderStats struct {
	Innovative    int64 // coded packets that raised the rank
	NonInnovative int64 // coded packets that did not (a duplicate ACK)
	Delivered     int64 // packets decoded and handed up
	// SpanOverflows counts coded packets refused because the undecoded
	// span would pass MaxSpan (each also counts as non-innovative).
	SpanOverflows int64
}

// NewDecoder decodes packets of size payload bytes.
func NewDecoder(size int) *Decoder {
	return &Decoder{f: newField(), size: size, work: make([]byte, MaxSpan+size), scratch: make([]byte, MaxSpan+size)}
}

// Seen is the acknowledgement: the number of the oldest packet not yet
// seen.
func (d *Decoder) Seen() int64 { return d.seen }

func slot(n int64) int { return int(n % MaxSpan) }

// Receive takes a coded packet and reports whether it was innovative.
func (d *Decoder) Receive(c *Coded) (bool, error) {
	if len(c.Payload) != d.size || len(c.Coeffs) > MaxSpan {
		return false, fmt.Errorf("coded packet of %d coefficients and %d bytes, want at most %d and %d", len(c.Coeffs), len(c.Payload), MaxSpan, d.size)
	}
	// The sender codes from c.Base on: rows below are delivered and free.
	for ; d.low < c.Base && d.low < d.next; d.low++ {
		d.has[slot(d.low)] = false
	}
	if c.Base+int64(len(c.Coeffs)) > d.low+MaxSpan {
		d.Stats.SpanOverflows++
		d.Stats.NonInnovative++
		return false, fmt.Errorf("coded packet spans %d..%d beyond the decoder's %d packets from %d", c.Base, c.Base+int64(len(c.Coeffs)), MaxSpan, d.low)
	}
	// Lay the packet out as a row: coefficients by slot, then payload.
	w := d.work[:MaxSpan+d.size]
	clear(w[:MaxSpan])
	for i, x := range c.Coeffs {
		n := c.Base + int64(i)
		if n < d.low {
			if x != 0 {
				return false, fmt.Errorf("coded packet combines packet %d, already released", n)
			}
			continue
		}
		w[slot(n)] = x
	}
	copy(w[MaxSpan:], c.Payload)
	// Eliminate every pivot it touches, lowest packet first; find its own.
	end := c.Base + int64(len(c.Coeffs))
	d.end = max(d.end, end)
	pivot := int64(-1)
	for n := max(c.Base, d.low); n < end; n++ {
		x := w[slot(n)]
		if x == 0 {
			continue
		}
		if d.has[slot(n)] {
			d.rowOp(w, d.rows[slot(n)], x, d.f.mulAdd)
			continue
		}
		if pivot < 0 {
			pivot = n
		}
	}
	if pivot < 0 {
		d.Stats.NonInnovative++
		return false, nil
	}
	d.Stats.Innovative++
	// Normalise, then clear the new pivot's column from every other row
	// (reduced form: a row that is only its pivot is a decoded packet).
	d.rowOp(w, nil, inv(w[slot(pivot)]), d.scale)
	for n := d.low; n < d.end; n++ {
		if r := d.rows[slot(n)]; d.has[slot(n)] && r[slot(pivot)] != 0 {
			d.rowOp(r, w, r[slot(pivot)], d.f.mulAdd)
		}
	}
	r := d.rows[slot(pivot)]
	if r == nil {
		r = make([]byte, MaxSpan+d.size)
		d.rows[slot(pivot)] = r
	}
	copy(r, w)
	d.has[slot(pivot)] = true
	for d.has[slot(d.seen)] && d.seen-d.low < MaxSpan {
		d.seen++
	}
	return true, nil
}

// rowOp applies op (dst ^= c·src, or dst = c·dst) to the parts of a row
// that can be non-zero: the coefficients of packets low..end−1, one or two
// runs of slots as the ring wraps, and the payload. Every other
// coefficient is zero in every row (released packets were decoded, so
// reduced form cleared their columns; later ones were never coded), so a
// row costs the span and the payload, not MaxSpan.
func (d *Decoder) rowOp(dst, src []byte, c byte, op func(dst, src []byte, c byte)) {
	part := func(a, b int) {
		var s []byte
		if src != nil {
			s = src[a:b]
		}
		op(dst[a:b], s, c)
	}
	switch span := d.end - d.low; {
	case span >= MaxSpan:
		part(0, MaxSpan)
	case span > 0:
		a, b := slot(d.low), slot(d.end-1)+1
		if a < b {
			part(a, b)
		} else {
			part(a, MaxSpan)
			part(0, b)
		}
	}
	part(MaxSpan, len(dst))
}

// scale is rowOp's form of field.scale: dst = c·dst (src unused).
func (d *Decoder) scale(dst, _ []byte, c byte) { d.f.scale(dst, c, d.scratch) }

// Deliver hands up, in order, every packet now decoded: its row has no
// coefficient left but its pivot.
func (d *Decoder) Deliver(up func(n int64, payload []byte)) {
	for d.next < d.seen {
		r := d.rows[slot(d.next)]
		for n := d.next + 1; n < d.end; n++ {
			if r[slot(n)] != 0 {
				return
			}
		}
		up(d.next, r[MaxSpan:])
		d.Stats.Delivered++
		d.next++
	}
}
