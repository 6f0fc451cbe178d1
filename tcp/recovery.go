package tcp

import "github.com/tcplab/tcplab/network"

// Loss recovery is how the sender repairs a window after duplicate ACKs
// (or SACK blocks) reveal a loss, and how it sends during that repair: the
// part of ns-3's TcpRecoveryOps and gVisor's lossRecovery. Each algorithm
// is one file: OldTahoe and Tahoe (tahoe_recovery.go), Reno (RFC 5681,
// reno_recovery.go), NewReno (RFC 6582, newreno_recovery.go) and SACK
// (RFC 6675, sack_recovery.go). The engine (snd.go) owns the sequence
// space, the timer and the scoreboard, asks the variant for windows and
// verdicts, and calls the recovery at these points only.
type lossRecovery interface {
	// sack records an ACK's SACK blocks and reports whether they SACK data
	// not SACKed before.
	sack(p *network.Packet) (fresh bool)
	// duplicate reports whether an ACK at SND.UNA that carries no data and
	// does not open the window is a duplicate ACK (RFC 5681 §2; with SACK,
	// RFC 6675 §2: only if it SACKs new data).
	duplicate(fresh bool) bool
	// dupAck decides what a duplicate ACK outside fast recovery does; the
	// sender's duplicate count already includes it.
	dupAck() dupAction
	// enter performs the fast retransmit; the variant has set the windows.
	enter()
	// dupAckInRecovery sees a duplicate ACK in fast recovery before the
	// variant does (RFC 5681 §3.2 step 4's inflation).
	dupAckInRecovery()
	// ack handles an ACK of new data in fast recovery (partial or ending
	// it) and reports whether the retransmission timer is to restart.
	ack(ev *AckEvent) (restart bool)
	// newAck sees every ACK of new data, after the variant (ns-2 Vegas
	// checks its fine-grained timer there).
	newAck(ev *AckEvent)
	// timedOut is told that seq was retransmitted because the timer expired.
	timedOut(seq int64)
	// lossRepair says whether, after a timeout, every segment below
	// recover that is not SACKed counts as lost (RFC 6675 §5.1).
	lossRepair(on bool)
	// send transmits what the window allows.
	send()
	// flight is the bytes outstanding (RFC 6675's pipe with SACK).
	flight() int64
}

// dupAction is what a duplicate ACK outside recovery makes the sender do.
type dupAction uint8

const (
	dupNothing        dupAction = iota
	dupSend                     // send what the window now allows
	dupLimited                  // limited transmit (RFC 3042)
	dupFastRetransmit           // enter loss recovery
)

// recoveryOwner is a variant that is one program with its own loss
// recovery (ns-2's Vegas): the engine takes the recovery from it.
type recoveryOwner interface {
	newRecovery(s *Sender) lossRecovery
}

// wireSizer is a variant that is a program with its own packet sizes on
// the wire (ns-2's Vegas counts no headers); the engine sizes its packets
// by them.
type wireSizer interface {
	wireSizes(mss int32) (syn, dataHeader int32)
}

type recoverySpec struct {
	make func(s *Sender) lossRecovery
	// sack: with sack: true the flow uses RFC 6675 instead (not the
	// Tahoes, which have no fast recovery to replace).
	sack bool
}

var recoveries = map[string]recoverySpec{
	"oldtahoe": {func(s *Sender) lossRecovery { return &tahoeRecovery{cumulative{s}, true} }, false},
	"tahoe":    {func(s *Sender) lossRecovery { return &tahoeRecovery{cumulative{s}, false} }, false},
	"reno":     {func(s *Sender) lossRecovery { return &renoRecovery{cumulative{s}} }, true},
	"newreno":  {func(s *Sender) lossRecovery { return &newRenoRecovery{cumulative{s}} }, true},
	"sack":     {newSackRecovery, true},
}

// newRecovery is the loss recovery a variant registered with, or RFC 6675
// when the flow has SACK and the variant's recovery can use it.
func newRecovery(s *Sender, name string) lossRecovery {
	spec := recoveries[name]
	if s.cfg.Recovery.SACK && spec.sack {
		spec = recoveries["sack"]
	}
	return spec.make(s)
}

// cumulative holds what the recoveries without SACK share: they know
// only the cumulative ACK, send by cwnd (plus the inflation of fast
// recovery) from SND.NXT, and count SND.MAX - SND.UNA as in flight.
type cumulative struct{ s *Sender }

func (c cumulative) sack(*network.Packet) bool { return false }
func (c cumulative) duplicate(bool) bool       { return true }
func (c cumulative) timedOut(int64)            {}
func (c cumulative) newAck(*AckEvent)          {}
func (c cumulative) lossRepair(bool)           {}
func (c cumulative) send()                     { c.s.sendByWindow() }
func (c cumulative) flight() int64             { return c.s.High - c.s.Una }

// dupAckInRecovery inflates the window by one segment per duplicate ACK
// (RFC 5681 §3.2 step 4): a segment has left the network.
func (c cumulative) dupAckInRecovery() { c.s.infl += c.s.mss }

// threshold is the decision of RFC 5681 §3.2 step 2 without SACK: the
// DupThresh-th duplicate ACK retransmits, if recover allows; the ones
// before it may send new data (RFC 3042).
func (c cumulative) threshold(careful bool) dupAction {
	s := c.s
	switch {
	case s.dupacks < s.cfg.Recovery.DupThresh:
		if s.cfg.Recovery.LimitedTransmit {
			return dupLimited
		}
	case s.dupacks == s.cfg.Recovery.DupThresh && (!careful || s.recoverPassed()):
		return dupFastRetransmit
	}
	return dupNothing
}

// enterFastRecovery is RFC 5681 §3.2 step 3 for Reno and NewReno: the
// window inflated by the segments the duplicate ACKs report gone.
func (c cumulative) enterFastRecovery() {
	s := c.s
	s.InRecovery, s.partial = true, false
	s.infl = int64(s.cfg.Recovery.DupThresh) * s.mss
	if s.cfg.Timer.RestartOnFastRetransmit {
		s.restartTimer()
	}
	s.sendSeg(s.Una, true)
	s.trySend()
}
