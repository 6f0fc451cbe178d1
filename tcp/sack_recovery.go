package tcp

import (
	"fmt"
	"math"

	"github.com/tcplab/tcplab/network"
)

// sackRecovery is SACK-based loss recovery (RFC 6675): a scoreboard of
// SACKed segments, IsLost, the pipe estimate and NextSeg. The scoreboard
// itself (seg.go) belongs to the sender, which also keeps ground truth in
// it; the SACK marks and the recovery's retransmission marks are this
// file's.
type sackRecovery struct {
	s *Sender
	// openAt is where open's search resumes: every segment from the
	// first above HighRxt up to it is SACKed or retransmitted in this
	// recovery (valid while the scoreboard's rxEpoch is openEpoch).
	openAt    int64
	openEpoch int
	highRxt   int64 // RFC 6675 HighRxt
	// afterRTO: repairing after a timeout, every segment below recover
	// that is not SACKed counts as lost and the repair goes by the pipe
	// (RFC 6675 §5.1; ns-3.37 marks its sent list lost the same way).
	afterRTO bool
	prr      prr // RFC 6937's state in this recovery, if PRR is on
}

// prr is Proportional Rate Reduction's state (RFC 6937 §3), in bytes.
type prr struct {
	on        bool  // this recovery began by enter (a timeout's repair in place does not)
	recoverFS int64 // the flight when recovery began
	delivered int64 // prr_delivered
	out       int64 // prr_out
	una       int64 // SND.UNA when DeliveredData was last counted
	sacked    int64 // bytes newly SACKed since
	cwnd      int64 // the window sent by: the pipe plus sndcnt at the last delivery (Linux's cwnd)
}

func newSackRecovery(s *Sender) lossRecovery {
	s.sb.keepSackedRx = s.cfg.Recovery.PipeKeepsSackedRetx
	s.sb.dupThresh = s.cfg.Recovery.DupThresh
	s.sb.top = make([]int64, 0, s.sb.dupThresh)
	return &sackRecovery{s: s}
}

// sack records the SACK blocks of an ACK on the scoreboard and reports
// whether the ACK SACKed data not SACKed before, which RFC 6675 §2
// requires of a duplicate acknowledgment.
func (r *sackRecovery) sack(p *network.Packet) (fresh bool) {
	s := r.s
	if !s.InRecovery {
		r.prr.sacked = 0 // DeliveredData counts from the ACK that starts recovery
	}
	for i := 0; i < int(p.NSack); i++ {
		b := p.Sack[i]
		if b.End <= s.Una {
			continue
		}
		start := max(b.Start, s.Una)
		// Only whole segments count as SACKed.
		k := s.seg(start + s.mss - 1)
		if (start-s.dataStart)%s.mss == 0 {
			k = s.seg(start)
		}
		// Segments an earlier ACK SACKed are skipped, not walked.
		for k = s.sb.unsacked(k); s.sb.has(k); k = s.sb.unsacked(k + 1) {
			segStart := s.dataStart + k*s.mss
			if s.segEnd(segStart) > b.End {
				break
			}
			if s.sb.markSacked(k) {
				fresh = true
				r.prr.sacked += s.segEnd(segStart) - segStart
				if s.rack != nil {
					s.rackDelivered(k, &s.ev, s.rack.before)
				}
				if s.rate != nil {
					s.delivered(k)
				}
			}
		}
	}
	return fresh
}

func (r *sackRecovery) duplicate(fresh bool) bool { return fresh }

// dupAck: after a timeout a duplicate ACK's new SACK information may open
// the pipe (ns-3 sends in CA_LOSS the same way). Otherwise DupThresh
// duplicates or IsLost(HighACK+1) enter recovery (RFC 6675 §5), if the
// cumulative ACK has passed recover.
func (r *sackRecovery) dupAck() dupAction {
	s := r.s
	if r.afterRTO {
		return dupSend
	}
	dt := s.cfg.Recovery.DupThresh
	if s.dupacks < dt && !r.lostAt(s.seg(s.Una)) {
		if s.cfg.Recovery.LimitedTransmit {
			return dupLimited
		}
		return dupNothing
	}
	if !s.recoverPassed() {
		return dupNothing
	}
	return dupFastRetransmit
}

// enter is RFC 6675 §5 steps 4.1-4.3: no inflation (the pipe already
// discounts SACKed segments; ns-3's recovery also sends by cwnd =
// ssthresh against the pipe), the head retransmitted, then NextSeg.
func (r *sackRecovery) enter() {
	s := r.s
	s.InRecovery, s.partial = true, false
	s.infl = 0
	if s.cfg.Timer.RestartOnFastRetransmit {
		s.restartTimer()
	}
	r.highRxt = s.Una
	s.sb.markRx(s.seg(s.Una))
	r.prr = prr{on: true, recoverFS: max(s.High-s.Una, s.mss), una: s.Una, sacked: r.prr.sacked, out: s.segEnd(s.Una) - s.Una}
	s.sendSeg(s.Una, true)
	s.trySend()
}

// prrOn reports whether PRR paces this recovery.
func (r *sackRecovery) prrOn() bool { return r.s.cfg.Recovery.PRR && r.s.ctl == nil && r.prr.on }

// prrWindow is the window PRR lets recovery send by, given the pipe: on
// each delivery (RFC 6937 §3, DeliveredData = the advance of SND.UNA plus
// the bytes newly SACKed), sndcnt is the proportional share of what was
// delivered while the pipe exceeds ssthresh; below it, the slow-start
// reduction bound when the delivery advanced SND.UNA, else the
// conservative one (no more than was delivered). Counted in segments, as
// Linux's tcp_cwnd_reduction does (a share rounds up to a whole segment
// one ACK sooner than in bytes). Between deliveries (a RACK timer) the
// window stays.
func (r *sackRecovery) prrWindow(pipe int64) int64 {
	s, p := r.s, &r.prr
	advanced := s.Una - p.una
	dd := advanced + p.sacked
	if dd <= 0 {
		return p.cwnd
	}
	p.una, p.sacked = s.Una, 0
	p.delivered += dd
	segs := func(b int64) int64 { return (b + s.mss - 1) / s.mss }
	ssthresh, inFlight := int64(s.Ssthresh)/s.mss, segs(pipe)
	var sndcnt int64
	switch delta := ssthresh - inFlight; {
	case delta < 0:
		fs := segs(p.recoverFS)
		sndcnt = (segs(p.delivered)*ssthresh+fs-1)/fs - segs(p.out)
	case advanced > 0:
		sndcnt = min(delta, max(segs(p.delivered)-segs(p.out), segs(dd))+1)
	default:
		sndcnt = min(delta, segs(dd))
	}
	p.cwnd = pipe + max(sndcnt, 0)*s.mss
	return p.cwnd
}

func (r *sackRecovery) dupAckInRecovery() {}

func (r *sackRecovery) newAck(*AckEvent) {}

// ack ends recovery once recover is acknowledged; a partial ACK may send
// one NextSeg segment whatever the pipe (ns-3.37, RFC 6582's partial-ACK
// retransmission carried into SACK recovery).
func (r *sackRecovery) ack(ev *AckEvent) bool {
	s := r.s
	if ev.Ack >= s.recover {
		s.exitRecovery(ev)
		return true
	}
	restart := s.partialRestart()
	if s.cfg.Recovery.SACKPartialRetransmit {
		r.sendNextSeg(&nextSegCursor{lost: r.lostBelow()})
	}
	return restart
}

// timedOut marks the timeout's retransmission as in the pipe.
func (r *sackRecovery) timedOut(seq int64) {
	s := r.s
	r.prr.on = false
	s.sb.markRx(s.seg(seq))
	r.highRxt = s.segEnd(seq)
}

func (r *sackRecovery) lossRepair(on bool) { r.afterRTO = on }

// send transmits by the pipe in recovery and while repairing after a
// timeout, by the window otherwise.
func (r *sackRecovery) send() {
	if r.s.InRecovery || r.afterRTO {
		r.sendByPipe()
		return
	}
	r.s.sendByWindow()
}

func (r *sackRecovery) flight() int64 { return r.pipe() }

// lostAt is IsLost (RFC 6675 §4) for segment k: at least DupThresh
// SACKed segments above it.
func (r *sackRecovery) lostAt(k int64) bool { return k < r.lostBelow() }

// lostBelow is the IsLost boundary: the segment with exactly DupThresh
// SACKed segments at or above it, counting from the top. The count above a
// segment only grows downward, so every segment below the boundary IsLost
// and none at or above it: one boundary answers IsLost for the whole
// window. Without that many SACKed segments it is the lowest segment (none
// lost). The scoreboard keeps the topmost SACKed segments (scoreboard.top).
func (r *sackRecovery) lostBelow() int64 {
	s := r.s
	lost := s.sb.base
	if len(s.sb.top) >= s.cfg.Recovery.DupThresh {
		lost = s.sb.top[len(s.sb.top)-1]
	}
	if s.rack != nil && s.rack.lost > lost {
		lost = s.rack.lost // RACK's prefix of lost segments (rack.go)
	}
	if checkPipe {
		if want := r.scanLostBelow(); want != lost {
			panic(fmt.Sprintf("tcp: IsLost boundary %d, the scan finds %d", lost, want))
		}
	}
	return lost
}

// scanLostBelow is lostBelow by a scan from the top: the check of
// scoreboard.top.
func (r *sackRecovery) scanLostBelow() int64 {
	s := r.s
	lost := s.sb.base
	n := 0
	for j := s.sb.base + int64(s.sb.n) - 1; j >= s.sb.base; j-- {
		if s.sb.at(j).sacked {
			if n++; n >= s.cfg.Recovery.DupThresh {
				lost = j
				break
			}
		}
	}
	if s.rack != nil && s.rack.lost > lost {
		lost = s.rack.lost
	}
	return lost
}

// marked is the bytes ns-3.37 holds marked lost (TcpTxBuffer's lost
// count, which Recovery.LossByMarks feeds to the rate sample): the
// segments not SACKed below the IsLost boundary, and below recover while
// repairing after a timeout (ns-3 marks its whole sent list), each until
// SACKed or acknowledged. (ns-3 also marks the head lost on entering
// recovery; SACK recovery begins with the head below the boundary, so
// that mark adds nothing here.)
func (r *sackRecovery) marked() int64 {
	s := r.s
	lo := max(s.seg(s.Una), s.sb.base)
	hi := r.lostBelow()
	if r.afterRTO {
		hi = max(hi, (s.recover-s.dataStart+s.mss-1)/s.mss)
	}
	hi = min(hi, s.sb.base+int64(s.sb.n))
	var n int64
	if hi > lo {
		n = hi - lo - int64(s.sb.sackedIn(lo, hi))
		if checkPipe {
			want := hi - lo
			for k := lo; k < hi; k++ {
				if s.sb.at(k).sacked {
					want--
				}
			}
			if want != n {
				panic(fmt.Sprintf("tcp: %d segments marked lost in [%d, %d), the scan finds %d", n, lo, hi, want))
			}
		}
	}
	return n * s.mss
}

// pipe is SetPipe (RFC 6675 §4): bytes believed in the network.
func (r *sackRecovery) pipe() int64 { return r.pipeAt(r.lostBelow()) }

// pipeAt is SetPipe given the IsLost boundary lost (lostBelow, just
// called). It is the sum of two terms, neither a scan of the window:
//   - segments neither SACKed nor lost: every segment from
//     max(SND.UNA, lost) (and from recover after a timeout) to the top,
//     less the SACKed ones there, which are among the DupThresh highest
//     (scoreboard.top);
//   - retransmissions in flight: the scoreboard's rx count.
//
// Every segment is MSS bytes but the one the application's limit cuts.
func (r *sackRecovery) pipeAt(lost int64) int64 {
	s := r.s
	// As the definition's loop: from the segment holding SND.MAX − 1 down
	// to SND.UNA's (a short last segment counts while SND.UNA is inside
	// it, even once acknowledged).
	top := s.seg(s.High - 1)
	if !s.sb.has(top) {
		return 0
	}
	size := func(k int64) int64 { start := s.dataStart + k*s.mss; return s.segEnd(start) - start }
	lo := max(s.seg(s.Una), s.sb.base)
	a := max(lo, lost)
	if r.afterRTO && s.rack == nil {
		// Segments starting below recover count as lost.
		a = max(a, (s.recover-s.dataStart+s.mss-1)/s.mss)
	}
	var pipe int64
	if a <= top {
		pipe = (top-a)*s.mss + size(top)
		for _, j := range s.sb.top {
			if j >= a {
				pipe -= size(j)
			}
		}
	}
	pipe += int64(s.sb.rx) * s.mss
	for k := s.sb.base; k < lo; k++ {
		// Acknowledged, not yet trimmed (a variant asks for the flight
		// in the middle of an ACK): outside the pipe.
		if s.sb.inPipe(s.sb.at(k)) {
			pipe -= s.mss
		}
	}
	if s.limit != math.MaxInt64 {
		// The limit's segment may be short: correct its retransmission.
		if kp := s.seg(s.limit - 1); kp >= lo && kp <= top {
			if info := s.sb.at(kp); s.sb.inPipe(info) {
				pipe -= s.mss - size(kp)
			}
		}
	}
	if checkPipe {
		if want := r.scanPipe(); want != pipe {
			panic(fmt.Sprintf("tcp: pipe %d, the scan finds %d", pipe, want))
		}
	}
	return pipe
}

// checkPipe makes pipeAt compare itself with scanPipe (tests set it).
var checkPipe bool

// scanPipe is SetPipe by its definition, segment by segment: the check of
// pipeAt.
func (r *sackRecovery) scanPipe() int64 {
	s := r.s
	var pipe int64
	sacked := 0
	top := s.seg(s.High - 1)
	for k := top; k >= s.seg(s.Una) && s.sb.has(k); k-- {
		info := s.sb.at(k)
		start := s.dataStart + k*s.mss
		size := s.segEnd(start) - start
		if info.sacked {
			sacked++
			if info.rxRecov && s.cfg.Recovery.PipeKeepsSackedRetx {
				pipe += size
			}
			continue
		}
		rackLost := s.rack != nil && k < s.rack.lost
		if sacked < s.cfg.Recovery.DupThresh && !rackLost && !(r.afterRTO && s.rack == nil && start < s.recover) {
			pipe += size // not SACKed and not lost: still in flight
		}
		if info.rxRecov {
			pipe += size // its retransmission is in flight
		}
	}
	return pipe
}

// sendByPipe transmits while cwnd - pipe >= 1 SMSS, choosing segments by
// NextSeg (RFC 6675 §4 rules 1-3; no rescue retransmission). Each segment
// sent adds its size to the pipe, whichever rule chose it: new data, a
// lost segment now retransmitted, or a retransmission of one still in
// flight; so the pipe is computed once, not once per segment.
func (r *sackRecovery) sendByPipe() {
	s := r.s
	cwnd := int64(s.Cwnd) + s.infl
	// Sending changes no SACK flag: the IsLost boundary and how far the
	// scans for rules 1 and 3 found nothing hold for the whole loop.
	c := nextSegCursor{lost: r.lostBelow()}
	pipe := r.pipeAt(c.lost)
	prr := s.InRecovery && r.prrOn()
	if prr {
		cwnd = r.prrWindow(pipe)
	}
	for cwnd-pipe >= s.mss {
		if !s.paceReady() {
			return // recovery is paced too (Linux's tcp_xmit_retransmit_queue, ns-3's SendPendingData)
		}
		n := r.sendNextSeg(&c)
		if n == 0 {
			return
		}
		pipe += n
		if prr {
			r.prr.out += n
		}
	}
}

// nextSegCursor carries NextSeg's work from one call to the next within
// one burst: the IsLost boundary (sending changes no SACK mark).
type nextSegCursor struct {
	lost int64
}

// sendNextSeg sends the segment NextSeg chooses and returns its size (0:
// there was none).
func (r *sackRecovery) sendNextSeg(c *nextSegCursor) int64 {
	s := r.s
	k, ok := r.nextSeg(c)
	if !ok {
		return 0
	}
	if k < 0 {
		// Rule 2: new data.
		seq := s.High
		s.Nxt = s.segEnd(seq)
		s.sendSeg(seq, false)
		return s.segEnd(seq) - seq
	}
	seq := s.dataStart + k*s.mss
	s.sb.markRx(k)
	if seq+s.mss > r.highRxt {
		r.highRxt = seq + s.mss
	}
	if seq == s.Una && s.rack != nil && s.cfg.Timer.RestartOnFastRetransmit {
		// The head sent again (RACK found its retransmission lost): the
		// timer restarts as at the fast retransmit (Linux's
		// tcp_xmit_retransmit_queue).
		s.restartTimer()
	}
	s.sendSeg(seq, false)
	return s.segEnd(seq) - seq
}

// nextSeg returns the segment to (re)send, -1 for new data, or false.
// Rules 1 and 3 both look at the lowest segment above HighRxt that is
// neither SACKed nor retransmitted in this recovery (open): rule 1 takes
// it if it IsLost (being lost is a bound from below, so no higher one
// would be), rule 3 takes it whatever.
func (r *sackRecovery) nextSeg(c *nextSegCursor) (int64, bool) {
	s := r.s
	if s.rack != nil {
		// A lost retransmission: below HighRxt, so before rule 1's.
		if k, ok := s.rackRelost(); ok {
			return k, true
		}
	}
	top := s.seg(s.High - 1)
	k := r.open(s.seg(max(s.Una, r.highRxt)))
	candidate := k <= top && s.sb.has(k)
	// Rule 1: the lowest unSACKed segment above HighRxt that IsLost (after
	// a timeout without RACK: every one below recover).
	if candidate && (r.afterRTO && s.rack == nil && s.dataStart+k*s.mss < s.recover || k < c.lost) {
		return k, true
	}
	// Rule 2: new data, if the window cap and the application allow. While
	// unsent data waits only for the window, send nothing (as ns-3's
	// NextSeg): rule 3 would resend segments that are merely in flight.
	if s.High < s.limit && !s.stopped {
		if s.Window <= 0 || s.segEnd(s.High)-s.Una <= int64(s.Window) {
			return -1, true
		}
		return 0, false
	}
	// Rule 3: the lowest unSACKed segment above HighRxt.
	if candidate {
		return k, true
	}
	return 0, false
}

// open returns the lowest segment at or above first that is neither SACKed
// nor retransmitted in this recovery (one past the board if none). Both
// marks last until a timeout clears the retransmissions (the scoreboard's
// rxEpoch), so each search resumes where the last one stopped: amortised
// O(1) per ACK instead of a scan of the window.
func (r *sackRecovery) open(first int64) int64 {
	s := r.s
	if r.openEpoch != s.sb.rxEpoch {
		r.openAt, r.openEpoch = 0, s.sb.rxEpoch
	}
	k := max(first, r.openAt)
	for s.sb.has(k) {
		if info := s.sb.at(k); !info.sacked && !info.rxRecov {
			break
		}
		k++
	}
	r.openAt = k
	return k
}
