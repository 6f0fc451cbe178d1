package tcp

import (
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// segInfo is the scoreboard entry of one MSS-sized segment. The sender
// keeps one per outstanding segment, in a ring, so the per-ACK path does
// not allocate.
type segInfo struct {
	sentAt   sim.Time // last transmission
	tsval    int64    // TSval of the last transmission
	retx     uint16   // retransmissions so far
	fastRetx bool     // the last transmission was a fast retransmission
	sacked   bool     // covered by a SACK block (RFC 6675 "SACKed")
	rxRecov  bool     // retransmitted in the current SACK recovery (counts in pipe)
	// Ground truth, from the network's drop records.
	lastDrop network.DropCause // cause of the last loss of this segment
	lostFR   bool              // a fast retransmission of it was lost
	lostLast bool              // its latest transmission was dropped
}

// scoreboard holds segInfo for segments [base, base+n) by segment number.
type scoreboard struct {
	buf  []segInfo
	head int
	base int64
	n    int
}

// at returns the entry of segment k, growing the ring if k is new. k must
// be >= base.
func (b *scoreboard) at(k int64) *segInfo {
	for k >= b.base+int64(b.n) {
		if b.n == len(b.buf) {
			nb := make([]segInfo, max(64, 2*len(b.buf)))
			for i := 0; i < b.n; i++ {
				nb[i] = b.buf[(b.head+i)%len(b.buf)]
			}
			b.buf, b.head = nb, 0
		}
		b.buf[(b.head+b.n)%len(b.buf)] = segInfo{}
		b.n++
	}
	return &b.buf[(b.head+int(k-b.base))%len(b.buf)]
}

// has reports whether segment k has an entry.
func (b *scoreboard) has(k int64) bool { return k >= b.base && k < b.base+int64(b.n) }

// trim forgets segments below k (cumulatively acknowledged).
func (b *scoreboard) trim(k int64) {
	for b.n > 0 && b.base < k {
		b.head = (b.head + 1) % len(b.buf)
		b.n--
		b.base++
	}
	if b.n == 0 && b.base < k {
		b.base = k
	}
}
