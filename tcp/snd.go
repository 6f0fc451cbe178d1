package tcp

import (
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Sender is the sending half of a connection. It owns the sequence space,
// the retransmission timer and the scoreboard; its loss recovery
// (recovery.go) repairs windows, its RTO policy (rto.go) sets the timer,
// and the variant (cc.go) decides window sizes and classifies losses.
type Sender struct {
	// The fields an ACK or a segment sent reads come first, packed into
	// ten cache lines (offsets in bytes on the right; a Sender is padded
	// to 1 280 bytes, whole lines, so that they fall on line boundaries:
	// TestSenderHotFieldsFillTenCacheLines); what only the handshake,
	// timeouts, probes and reports read follows. With thousands of flows
	// the senders no longer fit in the caches and each line an ACK
	// touches is a miss (it touched fourteen before).

	// State is the variant's view and the engine's own storage for the
	// windows, the sequence numbers and the RTT estimates.
	State // 0

	f   *Flow        // 120
	net *network.Net // 128
	cfg *Config
	cc  Variant
	rec lossRecovery
	est RTOPolicy

	mss       int64      // 192
	mssDiv    segDivisor // divides by mss (seg)
	dataStart int64      // sequence number of the first data byte
	limit     int64      // one past the last byte the application offers
	dupacks   int
	recover   int64 // RFC 6582 recover / RFC 6675 RecoveryPoint
	backoff   int

	infl int64 // window inflation in fast recovery (ns-2 dupwnd_); 256
	// armedFor is the timeout the running timer was armed with.
	armedFor sim.Time
	lastSend sim.Time // when a data segment last left (idle restart)
	// The single timed segment of rtt_sampling: timed.
	rttSeq  int64
	rttSent sim.Time
	probe   func(*Sample) // time-series observer, nil when off
	// Sizes on the wire of a SYN and of a data segment's headers: the
	// profile's (headerSize), or a program's own (ns-2's Vegas counts no
	// headers: its SYN and segments are packetSize_ bytes).
	synSize, dataHeader int32
	open                bool // handshake done, data may flow
	stopped             bool // the application stopped offering data
	inLoss              bool // repairing after a timeout, until SND.UNA reaches recover
	partial             bool // a partial ACK was seen in this recovery
	// ecnCut: an ECN echo reduced the window for the data below recover;
	// a loss among them is retransmitted without a second reduction
	// (RFC 3168 §6.1.2).
	ecnCut    bool
	cwr       bool // set CWR on the next data segment (RFC 3168 §6.1.2)
	rttActive bool
	// probeAcksOnly: the probe sees ACKs and timeouts, not each segment
	// sent (SetAckProbe), so that observing a large window costs nothing
	// per segment.
	probeAcksOnly bool

	// Events reused for every call: passed to an interface method, a
	// local would escape and allocate per packet.
	ev AckEvent // 320

	timer      sim.Timer    // 384
	sendCC     SendObserver // cc, if it watches the segments sent
	limitBytes int64        // fixed-size transfer length (0: bulk)

	sb     scoreboard    // 448
	spur   spuriousState // 552
	segRTO SegmentRTO    // the policy's optional parts, found once; 600
	stats  senderStats   // 616

	unclamped Unclamped
	synSent   sim.Time
	synFirst  sim.Time // when the first SYN was sent
	synCount  int      // SYNs sent
	// capWindow is the configured window cap (State.Window before any
	// advertisement, 0: none); an advertised receive window lowers
	// State.Window below it (advertise).
	capWindow float64
	rwnd      int64 // the last advertised receive window
	hasRwnd   bool
	probeRow  Sample
	loss      LossEvent // reused, as ev
	sendEv    SendEvent // reused, as ev
	acc       accuracy  // verdicts scored against ground truth (accuracy.go)
	// Delivery-rate estimation (rate.go) and pacing (pacing.go), made
	// only for a flow that uses them; ctl is cc when it steers by the
	// rate samples (BBR).
	rate *rateEstimator
	pace *pacer
	ctl  RateController
	// holdSend: an ACK is being processed for a RateController, which
	// sets the window only once it has seen the whole ACK; sends wait for
	// it (sendHeld).
	holdSend, sendHeld bool
	rack               *rack    // RFC 8985 loss detection (rack.go), if on
	_                  [32]byte // to 1 280 bytes
}

type senderStats struct {
	sentPackets, sentBytes  int64
	retransmits, fastRetx   int64
	timeouts, toAfterLostFR int64
	spuriousTimeouts        int64
	ecnReductions           int64
	minCost                 sim.Time // rto_min_cost_seconds
}

func newSender(f *Flow, cc Variant, recovery string) *Sender {
	c := f.cfg
	s := &Sender{f: f, net: f.net, cfg: c, cc: cc, mss: int64(c.Segments.MSS), mssDiv: newSegDivisor(uint64(c.Segments.MSS))}
	s.sendCC, _ = cc.(SendObserver)
	s.ctl, _ = cc.(RateController)
	if r, ok := cc.(Randomized); ok {
		r.UseRand(f.net.Stream("tcp/" + f.Name + "/cc"))
	}
	if s.ctl != nil {
		s.rate = &rateEstimator{}
	}
	if s.ctl != nil || c.Pacing.Enabled {
		s.pace = &pacer{}
		s.pace.timer.Init(f.net.Sched, s.onPacingTimer)
	}
	s.synSize, s.dataHeader = s.headerSize(), s.headerSize()
	if w, ok := cc.(wireSizer); ok {
		s.synSize, s.dataHeader = w.wireSizes(int32(s.mss))
	}
	if o, ok := cc.(recoveryOwner); ok {
		s.rec = o.newRecovery(s)
	} else {
		s.rec = newRecovery(s, recovery)
	}
	if _, sack := s.rec.(*sackRecovery); sack && c.Recovery.RACK {
		s.newRACK()
	}
	if sr, sack := s.rec.(*sackRecovery); sack && s.rate != nil && c.Recovery.LossByMarks {
		s.rate.marks = sr.marked
	}
	s.est = rtoPolicies[c.Timer.RTO.Policy](c.Timer.RTO, func(name string) *rand.Rand {
		return f.net.Stream("tcp/" + f.Name + "/" + name)
	})
	s.segRTO, _ = s.est.(SegmentRTO)
	s.unclamped, _ = s.est.(Unclamped)
	s.timer.Init(f.net.Sched, s.onRTO)
	s.backoff = 1
	s.recover = -1 // below the first sequence number (RFC 6582: recover = ISS)
	s.limit = math.MaxInt64

	st := &s.State
	st.MSS = float64(s.mss)
	st.TSTick = c.TS.Tick
	st.MinRTT = sim.Never
	st.growth = c.Growth
	st.flight = s.rec.flight
	st.Cwnd = c.Segments.InitialWindow * st.MSS
	if c.Segments.Window > 0 {
		st.Window = float64(c.Segments.Window) * st.MSS
	}
	s.capWindow = st.Window
	switch {
	case c.Segments.InitialSsthresh > 0:
		st.Ssthresh = c.Segments.InitialSsthresh * st.MSS
	case st.Window > 0:
		st.Ssthresh = st.Window // ns-2 sets ssthresh_ = window_ at reset
	default:
		st.Ssthresh = math.MaxFloat64
	}
	return s
}

// start opens the connection at the current time.
func (s *Sender) start() {
	s.Now = s.net.Now()
	s.ccInit()
	s.dataStart, s.Una, s.Nxt, s.High = 1, 0, 0, 0
	if s.cfg.Open.Mode == HandshakeNone {
		s.dataStart = 0
	}
	if s.limitBytes > 0 || s.f.drained != nil {
		// A fixed-size or application-driven flow sends what was
		// offered (an application-driven one, maybe nothing yet), from
		// its first segment on.
		s.limit = s.dataStart + s.limitBytes
	}
	if s.cfg.Open.Mode == HandshakeNone {
		s.f.rcv.expect(0)
		s.established()
		return
	}
	s.sendSYN()
}

// headerSize is the bytes on the wire of a packet without payload.
func (s *Sender) headerSize() int32 {
	n := int32(s.cfg.Segments.HeaderBytes)
	if s.cfg.TS.Enabled && s.cfg.Segments.OptionBytes {
		n += 12 // kind, length, 8 bytes, 2 NOPs (RFC 7323 Appendix A)
	}
	return n
}

func (s *Sender) sendSYN() {
	p := s.packet()
	p.Flags = network.FlagSYN
	p.Seq = 0
	p.Size = s.synSize
	p.Retx = s.synCount > 0
	if s.synCount == 0 {
		s.synFirst = s.net.Now()
	}
	s.synCount++
	s.synSent = s.net.Now()
	s.Nxt, s.High = 1, 1
	// The SYN's timer: ns-3's ConnTimeout, or the initial RTO (RFC 6298
	// §2.1), backed off on each retry.
	to := s.est.RTO(s.backoff)
	if s.cfg.Open.SynTimeout > 0 {
		to = min(s.cfg.Open.SynTimeout*sim.Time(s.backoff), s.cfg.Timer.RTO.Max)
	}
	s.timer.Arm(s.net.Now() + to)
	s.f.toReceiver(p)
}

func (s *Sender) established() {
	s.open = true
	s.Una, s.Nxt, s.High = s.dataStart, s.dataStart, s.dataStart
	s.sb.base = 0
	if s.cfg.Open.Mode == Handshake3Way {
		// The third segment of the handshake: a pure ACK of the SYN-ACK
		// (RFC 9293 §3.5), sent before the first data as ns-3 and real
		// stacks do.
		p := s.packet()
		p.Flags = network.FlagACK
		p.Seq, p.Ack = s.dataStart, 1
		p.Size = s.headerSize()
		s.f.toReceiver(p)
	}
	s.trySend()
}

// packet allocates a packet of this flow toward the receiver.
func (s *Sender) packet() *network.Packet {
	f := s.f
	p := s.net.Alloc()
	p.Flow = f.ID
	p.Src, p.Dst = f.srcID, f.dstID
	p.Port = f.rcvPort
	p.Proto = network.TCP
	if s.cfg.TS.Enabled {
		p.HasTS = true
		p.TSval = f.tsNow()
	}
	p.ECT = s.cfg.ECN
	return p
}

// seg returns the segment number of sequence number seq. It runs several
// times per packet, so it divides by the MSS with a multiplication
// (segDivisor) rather than a 64-bit division, which takes tens of cycles.
func (s *Sender) seg(seq int64) int64 {
	x := seq - s.dataStart
	if x < 0 {
		return x / s.mss // below the first byte: Go's truncation, as before
	}
	return int64(s.mssDiv.div(uint64(x)))
}

// segEnd is the end of the segment that starts at seq.
func (s *Sender) segEnd(seq int64) int64 { return min(seq+s.mss, s.limit) }

// sendSeg transmits the segment starting at seq.
func (s *Sender) sendSeg(seq int64, fast bool) {
	now := s.net.Now()
	s.lastSend = now
	end := s.segEnd(seq)
	p := s.packet()
	p.Flags = network.FlagACK
	if s.cwr {
		p.Flags |= network.FlagCWR // RFC 3168 §6.1.2: the window was reduced
		s.cwr = false
	}
	p.Seq = seq
	p.Payload = int32(end - seq)
	p.Size = s.dataHeader + p.Payload
	k := s.seg(seq)
	info := s.sb.at(k)
	retx := seq < s.High
	if retx {
		info.retx++
		info.fastRetx = fast
		p.Retx, p.FastRetx = true, fast
		s.stats.retransmits++
		if fast {
			s.stats.fastRetx++
		}
		if s.rack != nil {
			s.rack.rtx.PushBack(rackRetx{k, now})
		}
		if seq == s.rttSeq || s.rttActive && seq < s.rttSeq {
			s.rttActive = false // Karn: never time a retransmitted segment
		}
	} else if !s.rttActive && s.cfg.Timer.RTTSampling == SampleTimed {
		s.rttActive, s.rttSeq, s.rttSent = true, seq, now
	}
	if s.rate != nil {
		s.rate.onSend(&info.rate, now, s.High == s.Una)
		if retx {
			s.rate.onLost(int64(p.Payload)) // resent: judged lost
		}
	}
	info.sentAt = now
	info.tsval = p.TSval
	info.lostLast = false
	s.paced(p.Payload)
	s.stats.sentPackets++
	s.stats.sentBytes += int64(p.Size)
	if s.sendCC != nil {
		s.sendEv = SendEvent{Seq: seq, TSval: p.TSval, Retx: retx, Fast: fast}
		s.sendCC.OnSend(&s.State, &s.sendEv)
	}
	if end > s.High {
		s.High = end
	}
	s.armIfIdle()
	if s.probe != nil && !s.probeAcksOnly {
		s.sample('s', seq, 0, 0, retx)
	}
	s.f.toReceiver(p)
}

// armIfIdle starts the retransmission timer if it is not running
// (RFC 6298 §5.1).
func (s *Sender) armIfIdle() {
	if !s.timer.Armed() {
		s.restartTimer()
	}
}

func (s *Sender) restartTimer() {
	s.armedFor = s.est.RTO(s.backoff)
	if s.segRTO != nil {
		s.armedFor = s.segRTO.RTOFor(s.backoff, s.High-s.Una < 2*s.mss)
	}
	s.timer.Arm(s.net.Now() + s.armedFor)
}

// advertise applies a receive window the receiver advertised (RFC 9293
// §3.8.6): the send window is the smaller of it and the configured cap. A
// zero window keeps one byte so that State.Window never reads as "no cap";
// with nothing outstanding sendWindow still lets one segment go, the probe
// of a closed window. It reports whether the window changed.
func (s *Sender) advertise(wnd int64) bool {
	// RFC 5681 §2 compares the advertised windows themselves: an update
	// above the cap changes nothing here but is still not a duplicate.
	changed := !s.hasRwnd || wnd != s.rwnd
	s.rwnd, s.hasRwnd = wnd, true
	w := float64(max(wnd, 1))
	if s.capWindow > 0 && s.capWindow < w {
		w = s.capWindow
	}
	s.Window = w
	return changed
}

// sendWindow is how many bytes beyond SND.UNA may be outstanding.
func (s *Sender) sendWindow() int64 {
	w := math.Floor(s.Cwnd/s.State.MSS)*s.State.MSS + float64(s.infl)
	if s.Window > 0 && w > s.Window {
		w = s.Window
	}
	if w < s.State.MSS && s.Una == s.High {
		w = s.State.MSS // never stall with nothing outstanding
	}
	return int64(w)
}

// trySend sends what the window allows.
func (s *Sender) trySend() {
	if !s.open {
		return
	}
	if s.holdSend {
		s.sendHeld = true
		return
	}
	s.restartAfterIdle()
	if s.pace != nil && s.ctl == nil {
		s.updatePacingRate()
	}
	s.rec.send()
	if s.rate != nil && (s.Nxt >= s.limit || s.stopped && s.Nxt >= s.High) {
		if f := int64(s.Flight()); float64(f) < s.Cwnd {
			s.rate.markAppLimited(f)
		}
	}
}

// restartAfterIdle is RFC 5681 §4.1: a sender that has sent nothing for
// longer than the RTO, with nothing outstanding, restarts from the
// restart window min(IW, cwnd) instead of bursting a stale cwnd.
func (s *Sender) restartAfterIdle() {
	if !s.cfg.Growth.IdleRestart || s.Una != s.High || s.lastSend == 0 || s.High >= s.limit {
		return
	}
	if s.net.Now()-s.lastSend > s.est.RTO(1) {
		s.Cwnd = min(s.Cwnd, s.cfg.Segments.InitialWindow*s.State.MSS)
	}
}

// sendByWindow sends from SND.NXT while the window allows, skipping what
// the receiver is known to hold when going back N.
func (s *Sender) sendByWindow() {
	lim := s.Una + s.sendWindow()
	for s.Nxt < s.limit && s.segEnd(s.Nxt) <= lim {
		if s.stopped && s.Nxt >= s.High {
			return
		}
		if s.Nxt < s.High && s.sb.has(s.seg(s.Nxt)) && s.sb.at(s.seg(s.Nxt)).sacked {
			s.Nxt = s.segEnd(s.Nxt)
			continue
		}
		if !s.paceReady() {
			return
		}
		seq := s.Nxt
		s.Nxt = s.segEnd(seq)
		s.sendSeg(seq, false)
	}
}

// Receive implements network.Endpoint for ACKs.
func (s *Sender) Receive(p *network.Packet) {
	s.Now = s.net.Now()
	if p.Flags&network.FlagACK == 0 {
		s.net.Free(p)
		return
	}
	if !s.open {
		synAck := p.Ack >= 1 && s.cfg.Open.Mode != HandshakeNone
		s.net.Free(p)
		if synAck {
			s.onSynAck()
		}
		return
	}
	s.onAck(p)
	s.net.Free(p)
}

// onSynAck opens the connection when the SYN is acknowledged: its RTT is
// sampled unless it was resent (Karn). After a lost SYN the initial window
// is one segment (RFC 5681 §3.1), and a kept back-off waits for a fresh
// sample.
func (s *Sender) onSynAck() {
	now := s.net.Now()
	switch {
	case s.synCount == 1:
		s.rttSample(now-s.synSent, s.synSent)
		s.backoff = 1
	case s.cfg.Open.SynRTTFromFirst:
		// ns-3.37 times the handshake from the first SYN even when it
		// was resent: after a lost SYN the RTO starts out huge.
		s.rttSample(now-s.synFirst, s.synFirst)
		s.backoff = 1
	case !s.cfg.Timer.KeepBackoff:
		s.backoff = 1
	}
	if s.synCount > 1 && s.cfg.Open.SynLossIW1 {
		s.Cwnd = s.State.MSS
	}
	s.timer.Cancel()
	s.established()
}

// onAck processes an ACK for an open connection.
func (s *Sender) onAck(p *network.Packet) {
	ack := min(p.Ack, s.High) // cannot acknowledge unsent data
	update := p.HasWnd && s.advertise(p.Wnd)
	ev := &s.ev
	*ev = AckEvent{Ack: ack, TSecr: p.TSecr, TSval: p.TSval, HasTS: p.HasTS, CW: p.CWEcho, ECE: p.Flags&network.FlagECE != 0}
	if s.ctl != nil {
		s.rate.begin(int64(s.Flight()))
		s.holdSend = true
	}
	if s.rack != nil {
		s.rack.before = s.rack.fack
	}
	fresh := p.NSack > 0 && s.rec.sack(p)
	if s.rack != nil {
		s.rackOnAck(ack)
	}
	if ev.ECE && s.cfg.ECN {
		s.onECE(ev)
	}
	if s.spur.eifel || s.spur.frto != 0 {
		s.spuriousOnAck(ack, p.HasTS, p.TSecr)
	}
	switch {
	case ack > s.Una:
		s.onNewAck(p, ev)
	case update:
		// RFC 5681 §2: an ACK that changes the advertised window is a
		// window update, not a duplicate; it may open the window.
		s.trySend()
	case ack == s.Una && s.Una < s.High && p.Payload == 0 && s.rec.duplicate(fresh):
		s.dupacks++
		ev.Dupacks = s.dupacks
		if s.rate != nil && !s.cfg.Recovery.SACK {
			s.rate.onDupDelivered(s.mss, s.Now)
		}
		s.ccDupAck(ev)
		s.onDupAck(ev)
	}
	if s.ctl != nil {
		s.control()
	}
	if s.probe != nil {
		s.sample('a', 0, p.Ack, p.TSecr, false)
	}
}

// control gives a RateController the ACK's rate sample, once the ACK has
// done everything else, and then sends what the ACK allowed.
func (s *Sender) control() {
	s.ccRateSample(s.rate.finish(s.Now, s.MinRTT, int64(s.Flight())))
	s.holdSend = false
	if s.sendHeld {
		s.sendHeld = false
		s.trySend()
	}
}

// delivered counts segment k delivered for the rate estimate.
func (s *Sender) delivered(k int64) {
	info := s.sb.at(k)
	seq := s.dataStart + k*s.mss
	s.rate.onDelivered(&info.rate, s.segEnd(seq)-seq, info.sentAt, s.Now, info.retx == 0)
}

func (s *Sender) onNewAck(p *network.Packet, ev *AckEvent) {
	now := s.net.Now()
	ack := ev.Ack
	ev.Acked = float64(ack - s.Una)
	switch s.cfg.Timer.RTTSampling {
	case SampleTimed:
		if s.rttActive && ack > s.rttSeq {
			s.rttActive = false
			ev.RTT = now - s.rttSent
			s.rttSample(ev.RTT, s.rttSent)
			s.backoff = 1
		}
	case SampleEveryAck:
		// The oldest segment the ACK covers, if never retransmitted (Karn;
		// ns-3's RTT history works the same way). Sampling the newest one
		// instead would time, after a hole is repaired, the whole wait.
		if k := s.seg(s.Una); s.sb.has(k) {
			if info := s.sb.at(k); info.retx == 0 {
				ev.RTT = now - info.sentAt
				s.rttSample(ev.RTT, info.sentAt)
			}
		}
	case SampleTimestamps:
		if p.HasTS && p.TSecr > 0 {
			ev.RTT = now - sim.Time(p.TSecr)*s.cfg.TS.Tick
			s.rttSample(ev.RTT, now-ev.RTT)
		}
	}
	if !s.cfg.Timer.KeepBackoff || ev.RTT > 0 {
		s.backoff = 1
	}
	s.Una = ack
	if s.Nxt < ack {
		s.Nxt = ack
	}
	// The ACK that completes the repair after a timeout (ns-3's CA_LOSS
	// exit) does not open cwnd in ns-3.
	exitLoss := false
	if s.inLoss && s.Una >= s.recover {
		s.inLoss, exitLoss = false, true
		s.rec.lossRepair(false)
	}
	if s.ecnCut && s.Una > s.recover {
		s.ecnCut = false
	}
	if k := s.seg(ack - 1); s.sb.has(k) {
		if info := s.sb.at(k); info.retx == 0 {
			ev.NewestRTT = now - info.sentAt
		}
	}
	if s.rate != nil {
		for k := s.sb.base; k < s.seg(ack) && s.sb.has(k); k++ {
			s.delivered(k)
		}
		if !s.cfg.Recovery.SACK {
			s.rate.settleDupDelivered(int64(ev.Acked), s.mss)
		}
	}
	s.sb.trim(s.seg(ack))
	if s.rack != nil {
		s.rackDetect()
	}
	if ack == s.limit || s.Una == s.High && s.limit != math.MaxInt64 && ack >= s.limit {
		s.f.complete(now)
	}
	s.dupacks = 0
	restart := true
	switch {
	case s.InRecovery:
		restart = s.rec.ack(ev)
	case exitLoss && s.cfg.Recovery.LossExitNoGrowth:
	case ev.ECE && s.cfg.ECN:
		// An ACK that echoes congestion does not open the window (ns-2's
		// recv_newack_helper; Linux's CWR state).
	default:
		s.ccAck(ev)
	}
	s.rec.newAck(ev)
	// RFC 6298 §5.2-5.3: stop the timer when all is acknowledged, else restart.
	if s.Una >= s.High {
		s.timer.Cancel()
	} else if restart {
		s.restartTimer()
	}
	s.trySend()
}

// onDupAck handles a duplicate ACK (RFC 5681 §2 definition).
func (s *Sender) onDupAck(ev *AckEvent) {
	if s.InRecovery {
		s.rec.dupAckInRecovery()
		r := s.ccDupAckInRecovery(ev)
		if r.Retransmit {
			s.retransmitLost(r)
		}
		s.trySend()
		return
	}
	switch s.rec.dupAck() {
	case dupSend:
		s.trySend()
	case dupLimited:
		s.limitedTransmit()
	case dupFastRetransmit:
		s.enterRecovery(ev)
	}
}

// recoverPassed reports whether the cumulative ACK covers more than
// recover, the highest byte sent when the last recovery, timeout or ECN
// reduction began (RFC 6582 §3.2 step 1, ns-2's bug_fix_), or reaches it
// (ns-3); or whether the window was reduced by ECN only, whose losses are
// still to be retransmitted (RFC 3168 §6.1.2).
func (s *Sender) recoverPassed() bool {
	return s.Una > s.recover || s.cfg.Recovery.RecoverInclusive && s.Una == s.recover || s.ecnCut
}

// limitedTransmit sends one new segment on each of the first two
// duplicate ACKs (RFC 3042), within cwnd + 2 segments and the window cap.
func (s *Sender) limitedTransmit() {
	if s.Nxt >= s.limit || s.stopped && s.Nxt >= s.High {
		return
	}
	if s.Nxt != s.High && !s.cfg.Recovery.LimitedTransmitGoBackN {
		return
	}
	end := s.segEnd(s.Nxt)
	allowed := int64(s.Cwnd) + int64(s.dupacks)*s.mss
	if s.Window > 0 && int64(s.Window) < allowed {
		allowed = int64(s.Window)
	}
	if end-s.Una > allowed || !s.paceReady() {
		return // a paced sender's extra segment waits for the pacer like any other (ns-3 and Linux send it by their paced path)
	}
	seq := s.Nxt
	s.Nxt = end
	s.sendSeg(seq, false)
}

// enterRecovery asks the variant for the windows and its verdict, then
// lets the loss recovery retransmit.
func (s *Sender) enterRecovery(ev *AckEvent) {
	if s.ecnCut {
		// This window was already reduced for an ECN echo: retransmit,
		// but reduce only once (RFC 3168 §6.1.2; ns-2's dupack_action).
		s.ecnCut = false
	} else {
		s.loss = LossEvent{Seq: s.Una, Dupacks: s.dupacks, CW: ev.CW}
		r := s.ccLoss()
		s.acc.fastRetransmit(s, r.Class)
	}
	s.recover = s.High
	if s.cfg.Timer.RTTSampling == SampleTimed {
		s.rttActive = false // ns-2 reset_rtx_timer stops RTT timing
	}
	s.rec.enter()
}

// retransmitLost resends the first unacknowledged segment after a variant
// judged its retransmission lost (DAC, DDLRP, T-DLRP).
func (s *Sender) retransmitLost(r Response) {
	s.acc.retransmitLost(s, r)
	if s.cfg.Timer.RestartOnFastRetransmit {
		s.restartTimer() // the new retransmission gets a full RTO, as the fast one did
	}
	s.sendSeg(s.Una, true)
}

// partialRestart says whether a partial ACK restarts the retransmission
// timer: only the first one in the impatient variant (RFC 6582 §4; ns-2's
// newreno_changes1_, ns-3 with or without SACK), every one otherwise
// (RFC 6298 §5.3, Linux).
func (s *Sender) partialRestart() bool {
	first := !s.partial
	s.partial = true
	return first || s.cfg.Recovery.PartialAckRestart == RestartEvery
}

// exitRecovery ends fast recovery by the profile's rule, then tells the
// variant.
func (s *Sender) exitRecovery(ev *AckEvent) {
	s.InRecovery, s.partial = false, false
	s.infl = 0
	exit := s.cfg.Recovery.Exit
	// RFC 5681 §3.2 step 6 deflates cwnd to ssthresh. A response that
	// left ssthresh at its initial "infinite" value (T-DLRP's IRTOR and
	// wireless verdicts keep the window) has nothing to deflate to: as
	// Linux's tcp_end_cwnd_reduction, which resets cwnd only while
	// ssthresh < TCP_INFINITE_SSTHRESH, cwnd stays. Before, it became
	// the 2^20-segment clamp and one ACK sent a million segments.
	if exit != ExitGrow && s.Ssthresh < maxCwndSegments*s.State.MSS {
		s.Cwnd = s.Ssthresh
	}
	// ns-2 (its halved cwnd_) and ns-3 (from ssthresh) open the window on
	// the exit ACK like on any new ACK.
	s.ccRecoveryExit(ev, exit != ExitToSsthresh)
}

// onECE reduces the window once per window of data on an ECN echo
// (RFC 3168 §6.1.2), before the ACK is processed (as ns-2): the variant's
// response to a congestion loss, without a retransmission, and CWR on the
// next data segment. An ACK at or below recover belongs to a window
// already reduced, by a loss or an earlier echo.
func (s *Sender) onECE(ev *AckEvent) {
	if s.InRecovery || ev.Ack <= s.recover {
		return
	}
	s.loss = LossEvent{Seq: s.Una, CW: ev.CW, ECN: true}
	s.ccLoss()
	s.stats.ecnReductions++
	s.recover, s.ecnCut = s.High, true
	s.cwr = true
}

// onRTO handles the expiry of the retransmission timer.
func (s *Sender) onRTO() {
	s.Now = s.net.Now()
	if !s.open {
		// The SYN was lost: resend it with back-off. ns-2's timeout also
		// halves ssthresh from the one-segment window of the SYN, to 2.
		s.stats.timeouts++
		s.rtoBackoff()
		if s.cfg.Growth.SsthreshBasis == CwndBasis {
			s.Ssthresh = 2 * s.State.MSS
		}
		s.sendSYN()
		return
	}
	if s.Una >= s.High {
		return
	}
	s.stats.timeouts++
	if s.unclamped != nil {
		// What the minimum made this timeout wait beyond the estimate.
		s.stats.minCost += max(s.armedFor-s.unclamped.UnclampedRTO(s.backoff), 0)
	}
	if s.probe != nil {
		s.sample('t', 0, 0, 0, false)
	}
	k := s.seg(s.Una)
	if s.sb.has(k) {
		info := s.sb.at(k)
		if info.lostFR {
			s.stats.toAfterLostFR++
		}
		// Ground truth: the timeout is spurious if the head segment's latest
		// transmission was not lost (it, or its ACK, was only late).
		if !info.lostLast {
			s.stats.spuriousTimeouts++
		}
	}
	flightBefore, ssthreshBefore := s.Flight(), s.Ssthresh
	r := s.ccTimeout()
	s.acc.timeout(s, r.Class)
	s.rtoBackoff()
	s.rttActive = false
	s.InRecovery, s.partial = false, false
	s.infl = 0
	s.dupacks = 0
	s.recover, s.ecnCut = s.High, false
	if s.pace != nil {
		// The pacer starts afresh (ns-3.37 cancels its pacing timer at
		// the timeout): the retransmission leaves now, the next after it.
		s.pace.timer.Cancel()
		s.pace.next = s.Now
	}
	// Retransmissions sent before the timeout are presumed lost.
	s.sb.clearRx()
	if s.rack != nil {
		s.rackTimeout()
	}
	if r.RepairInPlace {
		s.InRecovery = true
		s.restartTimer()
		s.sendSeg(s.Una, false)
		s.rec.timedOut(s.Una)
		return
	}
	s.inLoss = true
	// Go back N: resend from the first unacknowledged segment.
	sentBefore := sim.Time(0)
	if s.sb.has(s.seg(s.Una)) {
		sentBefore = s.sb.at(s.seg(s.Una)).sentAt
	}
	s.Nxt = s.Una
	s.restartTimer()
	seq := s.Nxt
	s.Nxt = s.segEnd(seq)
	s.sendSeg(seq, false)
	s.rec.timedOut(seq)
	s.rec.lossRepair(s.cfg.Timer.Spurious != FRTO)
	if s.cfg.Timer.Spurious != SpuriousNone {
		ts := int64(0)
		if s.sb.has(s.seg(seq)) {
			ts = s.sb.at(s.seg(seq)).tsval
		}
		if s.spuriousOnRTO(flightBefore, ssthreshBefore, sentBefore, ts) {
			s.Nxt = s.High // F-RTO: hold the go-back-N until the ACKs decide
			return
		}
	}
	s.trySend()
}

// noteDrop records ground truth about a lost packet of this flow.
func (s *Sender) noteDrop(p *network.Packet, cause network.DropCause) {
	if p.Payload == 0 || p.Src != s.f.srcID || !s.open {
		return
	}
	k := s.seg(p.Seq)
	if !s.sb.has(k) {
		return
	}
	info := s.sb.at(k)
	info.lastDrop = cause
	if p.SentAt == info.sentAt {
		info.lostLast = true
	}
	if p.FastRetx {
		info.lostFR = true
		s.acc.lostFastRetransmit(p.Seq, cause)
	}
}

// rttSample feeds the RTO policy and the variant's view.
func (s *Sender) rttSample(rtt, sentAt sim.Time) {
	if rtt < 0 {
		return
	}
	s.LastRTT = rtt
	s.MinRTT = min(s.MinRTT, rtt)
	s.est.Sample(rtt, sentAt)
	s.SRTT = s.est.SRTT()
}

// rtoBackoff doubles the timeout after an expiry (RFC 6298 §5.5).
func (s *Sender) rtoBackoff() {
	s.backoff = s.est.Backoff(s.backoff)
	s.SRTT = s.est.SRTT() // a policy may clear its estimate
}
