package tcp

import (
	"math/bits"

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
	sacked   bool     // covered by a SACK block (RFC 6675 "SACKed"); never cleared
	rxRecov  bool     // retransmitted in the current SACK recovery (counts in pipe)
	// skip, on a SACKed segment, is a later segment with every one in
	// between SACKed too: marking a SACK block jumps over what an earlier
	// ACK marked instead of walking it again (scoreboard.unsacked).
	skip int64
	// Ground truth, from the network's drop records.
	lastDrop network.DropCause // cause of the last loss of this segment
	lostFR   bool              // a fast retransmission of it was lost
	lostLast bool              // its latest transmission was dropped
	rate     rateSnap          // delivery-rate snapshot (rate.go), if estimated
}

// scoreboard holds segInfo for segments [base, base+n) by segment number.
type scoreboard struct {
	buf  []segInfo
	head int
	base int64
	n    int
	// rx counts the segments whose retransmission is in RFC 6675's pipe:
	// rxRecov and not SACKed (or SACKed too, with keepSackedRx, ns-3's
	// count). Kept as flags change so that the pipe is not a scan.
	rx           int
	rxEpoch      int // counts clearRx calls: marks of retransmission do not outlive one
	keepSackedRx bool
	// top holds the highest SACKed segments, at most dupThresh of them,
	// highest first: RFC 6675's IsLost boundary is the last when there
	// are dupThresh. SACK marks are never cleared and the board is
	// trimmed from below, so the set is kept as marks arrive.
	top       []int64
	dupThresh int
	sacked    int // SACKed segments on the board
}

// inPipe reports whether a segment's retransmission counts in rx.
func (b *scoreboard) inPipe(info *segInfo) bool {
	return info.rxRecov && (!info.sacked || b.keepSackedRx)
}

// markRx records a retransmission of segment k in the current recovery.
func (b *scoreboard) markRx(k int64) {
	info := b.at(k)
	if !info.rxRecov {
		info.rxRecov = true
		if b.inPipe(info) {
			b.rx++
		}
	}
}

// unmarkRx forgets the retransmission of segment k (found lost).
func (b *scoreboard) unmarkRx(k int64) {
	info := b.at(k)
	if b.inPipe(info) {
		b.rx--
	}
	info.rxRecov = false
}

// clearRx forgets every recovery retransmission (a timeout presumes them
// lost).
func (b *scoreboard) clearRx() {
	for i := 0; i < b.n; i++ {
		b.buf[(b.head+i)&(len(b.buf)-1)].rxRecov = false
	}
	b.rx = 0
	b.rxEpoch++
}

// markSacked marks segment k SACKed and reports whether it was not yet.
func (b *scoreboard) markSacked(k int64) bool {
	info := b.at(k)
	if info.sacked {
		return false
	}
	in := b.inPipe(info)
	info.sacked, info.skip = true, k+1
	b.sacked++
	if in && !b.inPipe(info) {
		b.rx--
	}
	if len(b.top) < b.dupThresh || k > b.top[len(b.top)-1] {
		if len(b.top) == b.dupThresh {
			b.top = b.top[:len(b.top)-1]
		}
		i := len(b.top)
		b.top = append(b.top, k)
		for ; i > 0 && b.top[i-1] < k; i-- {
			b.top[i] = b.top[i-1]
		}
		b.top[i] = k
	}
	return true
}

// unsacked returns the first segment at or after k that is not SACKed, or
// one past the board; it shortens the skips it followed, so a run of SACKed
// segments costs its length once, not once per ACK that covers it.
func (b *scoreboard) unsacked(k int64) int64 {
	j := k
	for b.has(j) {
		info := b.at(j)
		if !info.sacked {
			break
		}
		j = max(info.skip, j+1)
	}
	for x := k; x < j && b.has(x); {
		info := b.at(x)
		next := max(info.skip, x+1)
		info.skip = j
		x = next
	}
	return j
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
		b.buf[(b.head+b.n)&(len(b.buf)-1)] = segInfo{}
		b.n++
	}
	// The ring's size is a power of two (64, doubled): a mask, not a
	// division, finds the slot.
	return &b.buf[(b.head+int(k-b.base))&(len(b.buf)-1)]
}

// sackedIn counts the SACKed segments from lo up to hi (exclusive). The
// topmost SACKed segments answer for the range above the lowest of them;
// below it the count is the board's less what lies outside, and only the
// part of the range between the lowest top segment and the rest is walked
// (empty when hi is RFC 6675's IsLost boundary or above it).
func (b *scoreboard) sackedIn(lo, hi int64) int {
	if hi <= lo {
		return 0
	}
	walk := func(from, to int64) (n int) {
		for k := max(from, b.base); k < to && b.has(k); k++ {
			if b.at(k).sacked {
				n++
			}
		}
		return n
	}
	above := 0 // SACKed at or above hi
	if len(b.top) < b.dupThresh || hi >= b.top[len(b.top)-1] {
		for _, j := range b.top {
			if j >= hi {
				above++
			}
		}
	} else {
		above = len(b.top) + walk(hi, b.top[len(b.top)-1])
	}
	return b.sacked - walk(b.base, lo) - above
}

// has reports whether segment k has an entry.
func (b *scoreboard) has(k int64) bool { return k >= b.base && k < b.base+int64(b.n) }

// trim forgets segments below k (cumulatively acknowledged).
func (b *scoreboard) trim(k int64) {
	for b.n > 0 && b.base < k {
		if b.inPipe(&b.buf[b.head]) {
			b.rx--
		}
		if b.buf[b.head].sacked {
			b.sacked--
		}
		b.head = (b.head + 1) & (len(b.buf) - 1)
		b.n--
		b.base++
	}
	if b.n == 0 && b.base < k {
		b.base = k
	}
	for len(b.top) > 0 && b.top[len(b.top)-1] < b.base {
		b.top = b.top[:len(b.top)-1] // trimmed: every SACKed one below went too
	}
}

// segDivisor divides by a constant d > 0 exactly: m = ⌊(2⁶⁴−1)/d⌋ makes
// ⌊x·m/2⁶⁴⌋ at most one below ⌊x/d⌋ for every x (the error x·(2⁶⁴/d−m)/2⁶⁴
// is below 1), and one comparison of the remainder corrects it.
type segDivisor struct{ d, m uint64 }

func newSegDivisor(d uint64) segDivisor { return segDivisor{d: d, m: ^uint64(0) / d} }

func (v segDivisor) div(x uint64) uint64 {
	q, _ := bits.Mul64(x, v.m)
	if x-q*v.d >= v.d {
		q++
	}
	return q
}
