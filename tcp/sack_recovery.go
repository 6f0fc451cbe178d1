package tcp

import "github.com/tcplab/tcplab/network"

// SACK-based loss recovery (RFC 6675): a scoreboard of SACKed segments,
// IsLost, the pipe estimate and NextSeg.

// markSACK records the SACK blocks of an ACK on the scoreboard.
// It reports whether the ACK SACKed data not SACKed before, which RFC 6675
// §2 requires of a duplicate acknowledgment.
func (s *Sender) markSACK(p *network.Packet) (fresh bool) {
	for i := 0; i < int(p.NSack); i++ {
		b := p.Sack[i]
		if b.End <= s.una {
			continue
		}
		start := max(b.Start, s.una)
		// Only whole segments count as SACKed.
		k := s.seg(start + s.mss - 1)
		if (start-s.dataStart)%s.mss == 0 {
			k = s.seg(start)
		}
		for ; s.sb.has(k); k++ {
			segStart := s.dataStart + k*s.mss
			if s.segEnd(segStart) > b.End {
				break
			}
			if info := s.sb.at(k); !info.sacked {
				info.sacked, fresh = true, true
			}
		}
	}
	return fresh
}

// lostAt is IsLost (RFC 6675 §4) for segment k: at least DupThresh
// SACKed segments above it.
func (s *Sender) lostAt(k int64) bool {
	n := 0
	top := s.sb.base + int64(s.sb.n)
	for j := k + 1; j < top; j++ {
		if s.sb.at(j).sacked {
			n++
			if n >= s.cfg.DupThresh {
				return true
			}
		}
	}
	return false
}

// pipe is SetPipe (RFC 6675 §4): bytes believed in the network.
func (s *Sender) pipe() int64 {
	var pipe int64
	sacked := 0
	top := s.seg(s.high - 1)
	for k := top; k >= s.seg(s.una) && s.sb.has(k); k-- {
		info := s.sb.at(k)
		start := s.dataStart + k*s.mss
		size := s.segEnd(start) - start
		if info.sacked {
			sacked++
			if info.rxRecov && s.cfg.PipeKeepsSackedRetx {
				pipe += size
			}
			continue
		}
		if sacked < s.cfg.DupThresh && !(s.afterRTO && start < s.recover) {
			pipe += size // not SACKed and not lost: still in flight
		}
		if info.rxRecov {
			pipe += size // its retransmission is in flight
		}
	}
	return pipe
}

// sackSend transmits while cwnd - pipe >= 1 SMSS, choosing segments by
// NextSeg (RFC 6675 §4 rules 1-3; no rescue retransmission).
func (s *Sender) sackSend() {
	cwnd := int64(s.cwnd) + s.infl
	for cwnd-s.pipe() >= s.mss && s.sendNextSeg() {
	}
}

// sendNextSeg sends the segment NextSeg chooses and reports whether there
// was one.
func (s *Sender) sendNextSeg() bool {
	k, ok := s.nextSeg()
	if !ok {
		return false
	}
	if k < 0 {
		// Rule 2: new data.
		seq := s.high
		s.nxt = s.segEnd(seq)
		s.sendSeg(seq, false)
		return true
	}
	seq := s.dataStart + k*s.mss
	s.sb.at(k).rxRecov = true
	if seq+s.mss > s.highRxt {
		s.highRxt = seq + s.mss
	}
	s.sendSeg(seq, false)
	return true
}

// nextSeg returns the segment to (re)send, -1 for new data, or false.
func (s *Sender) nextSeg() (int64, bool) {
	first := s.seg(max(s.una, s.highRxt))
	top := s.seg(s.high - 1)
	// Rule 1: the lowest unSACKed segment above HighRxt that IsLost.
	for k := first; k <= top && s.sb.has(k); k++ {
		info := s.sb.at(k)
		if !info.sacked && !info.rxRecov && (s.afterRTO && s.dataStart+k*s.mss < s.recover || s.lostAt(k)) {
			return k, true
		}
	}
	// Rule 2: new data, if the window cap and the application allow. While
	// unsent data waits only for the window, send nothing (as ns-3's
	// NextSeg): rule 3 would resend segments that are merely in flight.
	if s.high < s.limit && !s.stopped {
		if s.window <= 0 || s.segEnd(s.high)-s.una <= int64(s.window) {
			return -1, true
		}
		return 0, false
	}
	// Rule 3: the lowest unSACKed segment above HighRxt.
	for k := first; k <= top && s.sb.has(k); k++ {
		info := s.sb.at(k)
		if !info.sacked && !info.rxRecov {
			return k, true
		}
	}
	return 0, false
}
