package tcp

import (
	"math"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Sender is the sending half of a connection. It owns the sequence space,
// the retransmission timer and the scoreboard; the variant decides window
// sizes and classifies losses.
type Sender struct {
	f   *Flow
	net *network.Net
	cfg *Config
	cc  Variant
	rec recoveryKind
	st  State // the variant's view, kept current by sync()

	mss       int64
	dataStart int64 // sequence number of the first data byte
	limit     int64 // one past the last byte the application offers
	una       int64 // SND.UNA
	nxt       int64 // SND.NXT
	high      int64 // highest sequence sent + 1 (SND.MAX / HighData)
	cwnd      float64
	ssthresh  float64
	window    float64 // send-window cap in bytes (0: none)

	open     bool // handshake done, data may flow
	stopped  bool // the application stopped offering data
	synSent  sim.Time
	synFirst sim.Time // when the first SYN was sent
	synCount int      // SYNs sent
	dupacks  int
	inRecov  bool
	inLoss   bool  // repairing after a timeout, until una reaches recover
	afterRTO bool  // and with SACK, by the pipe: every segment not SACKed is lost (RFC 6675 §5.1)
	infl     int64 // window inflation in fast recovery (ns-2 dupwnd_)
	recover  int64 // RFC 6582 recover / RFC 6675 RecoveryPoint
	partial  bool  // a partial ACK was seen in this recovery
	highRxt  int64 // RFC 6675 HighRxt
	tsNewSeg int64 // TSval of the first new segment after the fast retransmit

	sb      scoreboard
	rtt     rttEstimator
	backoff int
	rto     sim.Timer

	// ns-2 style single timed segment.
	rttActive bool
	rttSeq    int64
	rttSent   sim.Time

	limitBytes int64 // fixed-size transfer length (0: bulk)

	probe    func(*Sample) // time-series observer, nil when off
	probeRow Sample

	ev    AckEvent  // reused for every ACK (no allocation per packet)
	loss  LossEvent // reused for every loss
	spur  spuriousState
	stats senderStats
	acc   accuracy // verdicts scored against ground truth (accuracy.go)
}

type senderStats struct {
	sentPackets, sentBytes  int64
	retransmits, fastRetx   int64
	timeouts, toAfterLostFR int64
	spuriousTimeouts        int64
}

func newSender(f *Flow, cc Variant, rec recoveryKind) *Sender {
	s := &Sender{f: f, net: f.net, cfg: &f.Cfg, cc: cc, rec: rec, mss: int64(f.Cfg.MSS)}
	s.rto.Init(f.net.Sched, s.onRTO)
	s.rtt.init(f.Cfg.RTO)
	if f.Cfg.RTO.Policy == "ns2" {
		s.rtt.boot = sim.Time(f.net.Stream("tcp/" + f.Name + "/clock").Int64N(int64(f.Cfg.RTO.Granularity)))
	}
	s.backoff = 1
	s.recover = -1 // below the first sequence number (RFC 6582: recover = ISS)
	s.limit = math.MaxInt64
	mss := float64(s.mss)
	s.cwnd = f.Cfg.InitialWindow * mss
	if f.Cfg.Window > 0 {
		s.window = float64(f.Cfg.Window) * mss
	}
	switch {
	case f.Cfg.InitialSsthresh > 0:
		s.ssthresh = f.Cfg.InitialSsthresh * mss
	case s.window > 0:
		s.ssthresh = s.window // ns-2 sets ssthresh_ = window_ at reset
	default:
		s.ssthresh = math.MaxFloat64
	}
	return s
}

// start opens the connection at the current time.
func (s *Sender) start() {
	s.st.MSS = float64(s.mss)
	s.st.ByteCounting = s.cfg.ByteCounting
	s.st.SlowStartCarry = s.cfg.SlowStartCarry
	s.st.MinRTT = sim.Never
	s.st.TSTick = s.cfg.TSTick
	s.sync()
	s.cc.Init(&s.st)
	s.apply()
	if s.cfg.Handshake == "none" {
		s.dataStart, s.una, s.nxt, s.high = 0, 0, 0, 0
		s.f.Rcv.expect(0)
		s.established()
		return
	}
	s.dataStart, s.una, s.nxt, s.high = 1, 0, 0, 0
	s.sendSYN()
}

func (s *Sender) sendSYN() {
	p := s.packet()
	p.Flags = network.FlagSYN
	p.Seq = 0
	p.Size = int32(s.cfg.HeaderBytes)
	if s.cfg.Timestamps && s.cfg.OptionBytes {
		p.Size += 12
	}
	p.Retx = s.synCount > 0
	if s.synCount == 0 {
		s.synFirst = s.net.Now()
	}
	s.synCount++
	s.synSent = s.net.Now()
	s.nxt, s.high = 1, 1
	// The SYN's timer: ns-3's ConnTimeout, or the initial RTO (RFC 6298
	// §2.1), backed off on each retry.
	to := s.rtt.rto(s.backoff)
	if s.cfg.SynTimeout > 0 {
		to = min(s.cfg.SynTimeout*sim.Time(s.backoff), s.cfg.RTO.Max)
	}
	s.rto.Arm(s.net.Now() + to)
	s.f.Src.Send(p)
}

func (s *Sender) established() {
	s.open = true
	s.una, s.nxt, s.high = s.dataStart, s.dataStart, s.dataStart
	s.sb.base = 0
	if s.cfg.Handshake == "3way" {
		// The third segment of the handshake: a pure ACK of the SYN-ACK
		// (RFC 9293 §3.5), sent before the first data as ns-3 and real
		// stacks do.
		p := s.packet()
		p.Flags = network.FlagACK
		p.Seq, p.Ack = s.dataStart, 1
		p.Size = int32(s.cfg.HeaderBytes)
		if s.cfg.Timestamps && s.cfg.OptionBytes {
			p.Size += 12
		}
		s.f.Src.Send(p)
	}
	s.trySend()
}

// packet allocates a packet of this flow toward the receiver.
func (s *Sender) packet() *network.Packet {
	f := s.f
	p := s.net.Alloc()
	p.Flow = f.ID
	p.Src, p.Dst = f.Src.ID, f.Dst.ID
	p.Port = f.rcvPort
	p.Proto = network.TCP
	if s.cfg.Timestamps {
		p.HasTS = true
		p.TSval = f.tsNow()
	}
	p.ECT = s.cfg.ECN
	return p
}

// seg returns the segment number of sequence number seq.
func (s *Sender) seg(seq int64) int64 { return (seq - s.dataStart) / s.mss }

// segEnd is the end of the segment that starts at seq.
func (s *Sender) segEnd(seq int64) int64 { return min(seq+s.mss, s.limit) }

// sendSeg transmits the segment starting at seq.
func (s *Sender) sendSeg(seq int64, fast bool) {
	now := s.net.Now()
	end := s.segEnd(seq)
	p := s.packet()
	p.Flags = network.FlagACK
	p.Seq = seq
	p.Payload = int32(end - seq)
	p.Size = int32(s.cfg.HeaderBytes) + p.Payload
	if s.cfg.Timestamps && s.cfg.OptionBytes {
		p.Size += 12
	}
	k := s.seg(seq)
	info := s.sb.at(k)
	retx := seq < s.high
	if retx {
		info.retx++
		info.fastRetx = fast
		p.Retx, p.FastRetx = true, fast
		s.stats.retransmits++
		if fast {
			s.stats.fastRetx++
		}
		if seq == s.rttSeq || s.rttActive && seq < s.rttSeq {
			s.rttActive = false // Karn: never time a retransmitted segment
		}
	} else {
		if s.inRecov && s.tsNewSeg == 0 {
			s.tsNewSeg = p.TSval
		}
		if !s.rttActive && s.cfg.RTTSampling == "timed" {
			s.rttActive, s.rttSeq, s.rttSent = true, seq, now
		}
	}
	info.sentAt = now
	info.tsval = p.TSval
	info.lostLast = false
	s.stats.sentPackets++
	s.stats.sentBytes += int64(p.Size)
	if end > s.high {
		s.high = end
	}
	s.armIfIdle()
	if s.probe != nil {
		s.sample('s', seq, 0, 0, retx)
	}
	s.f.Src.Send(p)
}

// armIfIdle starts the retransmission timer if it is not running
// (RFC 6298 §5.1).
func (s *Sender) armIfIdle() {
	if !s.rto.Armed() {
		s.restartTimer()
	}
}

func (s *Sender) restartTimer() {
	s.rto.Arm(s.net.Now() + s.rtt.rto(s.backoff))
}

// sendWindow is how many bytes beyond una may be outstanding.
func (s *Sender) sendWindow() int64 {
	w := math.Floor(s.cwnd/float64(s.mss))*float64(s.mss) + float64(s.infl)
	if s.window > 0 && w > s.window {
		w = s.window
	}
	if w < float64(s.mss) && s.una == s.high {
		w = float64(s.mss) // never stall with nothing outstanding
	}
	return int64(w)
}

// trySend sends what the window allows.
func (s *Sender) trySend() {
	if !s.open {
		return
	}
	if s.rec == recSACK && (s.inRecov || s.afterRTO) {
		s.sackSend()
		return
	}
	lim := s.una + s.sendWindow()
	for s.nxt < s.limit && s.segEnd(s.nxt) <= lim {
		if s.stopped && s.nxt >= s.high {
			return
		}
		if s.nxt < s.high && s.rec == recSACK && s.sb.has(s.seg(s.nxt)) && s.sb.at(s.seg(s.nxt)).sacked {
			s.nxt = s.segEnd(s.nxt) // go-back-N skips what the receiver holds
			continue
		}
		seq := s.nxt
		s.nxt = s.segEnd(seq)
		s.sendSeg(seq, false)
	}
}

// Receive implements network.Endpoint for ACKs.
func (s *Sender) Receive(p *network.Packet) {
	if p.Flags&network.FlagACK == 0 {
		s.net.Free(p)
		return
	}
	if !s.open {
		if p.Ack >= 1 && s.cfg.Handshake != "none" {
			// The SYN is acknowledged: sample its RTT unless it was resent
			// (Karn). After a lost SYN the initial window is one segment
			// (RFC 5681 §3.1), and a kept back-off waits for a fresh sample.
			now := s.net.Now()
			switch {
			case s.synCount == 1:
				s.rtt.sample(now-s.synSent, s.synSent)
				s.backoff = 1
			case s.cfg.SynRTTFromFirst:
				// ns-3.37 times the handshake from the first SYN even when it
				// was resent: after a lost SYN the RTO starts out huge.
				s.rtt.sample(now-s.synFirst, s.synFirst)
				s.backoff = 1
			case !s.cfg.KeepBackoff:
				s.backoff = 1
			}
			if s.synCount > 1 && s.cfg.SynLossIW1 {
				s.cwnd = float64(s.mss)
			}
			s.rto.Cancel()
			s.net.Free(p)
			s.established()
			return
		}
		s.net.Free(p)
		return
	}
	s.onAck(p)
	s.net.Free(p)
}

// onAck processes an ACK for an open connection.
func (s *Sender) onAck(p *network.Packet) {
	now := s.net.Now()
	ack := p.Ack
	if ack > s.high {
		ack = s.high // cannot acknowledge unsent data
	}
	// The event lives in the sender: passed to an interface method, a
	// local would escape and allocate on every ACK.
	ev := &s.ev
	*ev = AckEvent{Ack: ack, TSecr: p.TSecr, TSval: p.TSval, HasTS: p.HasTS, CW: p.CWEcho, ECE: p.Flags&network.FlagECE != 0, RecvTime: now, TSvalSent: s.tsNewSeg}
	freshSACK := false
	if s.rec == recSACK && p.NSack > 0 {
		freshSACK = s.markSACK(p)
	}
	if s.spur.eifel || s.spur.frto != 0 {
		s.spuriousOnAck(ack, p.HasTS, p.TSecr)
	}
	switch {
	case ack > s.una:
		s.onNewAck(p, ev)
	case ack == s.una && s.una < s.high && p.Payload == 0 && (s.rec != recSACK || freshSACK):
		// With SACK, only an ACK that SACKs new data is a duplicate
		// acknowledgment (RFC 6675 §2).
		s.dupacks++
		ev.Dupacks = s.dupacks
		s.sync()
		s.cc.OnDupAck(&s.st, ev)
		s.apply()
		s.onDupAck(ev)
	}
	if s.probe != nil {
		s.sample('a', 0, p.Ack, p.TSecr, false)
	}
}

func (s *Sender) onNewAck(p *network.Packet, ev *AckEvent) {
	now := s.net.Now()
	ack := ev.Ack
	acked := ack - s.una
	ev.Acked = float64(acked)
	// RTT sample.
	switch s.cfg.RTTSampling {
	case "timed":
		if s.rttActive && ack > s.rttSeq {
			s.rttActive = false
			ev.RTT = now - s.rttSent
			s.rtt.sample(ev.RTT, s.rttSent)
			s.backoff = 1
		}
	case "every_ack":
		// The oldest segment the ACK covers, if never retransmitted (Karn;
		// ns-3's RTT history works the same way). Sampling the newest one
		// instead would time, after a hole is repaired, the whole wait.
		k := s.seg(s.una)
		if s.sb.has(k) {
			if info := s.sb.at(k); info.retx == 0 {
				ev.RTT = now - info.sentAt
				s.rtt.sample(ev.RTT, info.sentAt)
			}
		}
	case "timestamps":
		if p.HasTS && p.TSecr > 0 {
			ev.RTT = now - sim.Time(p.TSecr)*s.cfg.TSTick
			s.rtt.sample(ev.RTT, now-ev.RTT)
		}
	}
	if !s.cfg.KeepBackoff || ev.RTT > 0 {
		s.backoff = 1
	}
	s.una = ack
	if s.nxt < ack {
		s.nxt = ack
	}
	// The ACK that completes the repair after a timeout (ns-3's CA_LOSS
	// exit) does not open cwnd in ns-3.
	exitLoss := false
	if s.inLoss && s.una >= s.recover {
		s.inLoss, s.afterRTO, exitLoss = false, false, true
	}
	s.sb.trim(s.seg(ack))
	if ack == s.limit || s.una == s.high && s.limit != math.MaxInt64 && ack >= s.limit {
		s.f.complete(now)
	}
	s.dupacks = 0
	restart := true
	switch {
	case s.inRecov:
		restart = s.recoveryAck(ev)
	case exitLoss && s.cfg.LossExitNoGrowth:
	default:
		s.sync()
		s.cc.OnAck(&s.st, ev)
		s.apply()
	}
	// RFC 6298 §5.2-5.3: stop the timer when all is acknowledged, else restart.
	if s.una >= s.high {
		s.rto.Cancel()
	} else if restart {
		s.restartTimer()
	}
	s.trySend()
}

// onRTO handles the expiry of the retransmission timer.
func (s *Sender) onRTO() {
	if !s.open {
		// The SYN was lost: resend it with back-off. ns-2's timeout also
		// halves ssthresh from the one-segment window of the SYN, to 2.
		s.stats.timeouts++
		s.backoff = s.rtt.backoff(s.backoff)
		if s.cfg.SsthreshBasis == "cwnd" {
			s.ssthresh = 2 * float64(s.mss)
		}
		s.sendSYN()
		return
	}
	if s.una >= s.high {
		return
	}
	s.stats.timeouts++
	if s.probe != nil {
		s.sample('t', 0, 0, 0, false)
	}
	k := s.seg(s.una)
	if s.sb.has(k) {
		if info := s.sb.at(k); info.lostFR {
			s.stats.toAfterLostFR++
		}
	}
	// Ground truth: the timeout is spurious if the head segment's latest
	// transmission was not lost (it, or its ACK, was only late).
	if s.sb.has(k) && !s.sb.at(k).lostLast {
		s.stats.spuriousTimeouts++
	}
	s.sync()
	flightBefore, ssthreshBefore := s.st.Flight, s.ssthresh
	r := s.cc.OnTimeout(&s.st)
	s.apply()
	s.acc.timeout(s, r.Class)
	s.backoff = s.rtt.backoff(s.backoff)
	s.rttActive = false
	s.inRecov, s.partial = false, false
	s.infl = 0
	s.dupacks = 0
	s.recover = s.high
	if r.KeepWindow {
		// T-DLRP's IRTOR: recover (Maxsent) = s.high; partial ACKs retransmit.
		s.inRecov, s.tsNewSeg = true, 0
		s.restartTimer()
		s.sendSeg(s.una, false)
		return
	}
	if r.Ssthresh > 0 {
		s.ssthresh = r.Ssthresh
	}
	s.cwnd = float64(s.mss)
	if r.Cwnd > 0 {
		s.cwnd = r.Cwnd
	}
	s.inLoss = true
	// Go back N: resend from the first unacknowledged segment.
	for k := s.seg(s.una); s.sb.has(k); k++ {
		s.sb.at(k).rxRecov = false
	}
	sentBefore := sim.Time(0)
	if s.sb.has(s.seg(s.una)) {
		sentBefore = s.sb.at(s.seg(s.una)).sentAt
	}
	s.nxt = s.una
	s.restartTimer()
	seq := s.nxt
	s.nxt = s.segEnd(seq)
	s.sendSeg(seq, false)
	if s.rec == recSACK {
		// RFC 6675 §5.1: after a timeout every segment not SACKed counts as
		// lost, the scoreboard is kept, and the repair goes by the pipe
		// (ns-3.37 marks its sent list lost the same way).
		s.sb.at(s.seg(seq)).rxRecov = true
		s.highRxt = s.segEnd(seq)
		s.afterRTO = s.cfg.Spurious != "frto"
	}
	if s.cfg.Spurious != "none" {
		ts := int64(0)
		if s.sb.has(s.seg(seq)) {
			ts = s.sb.at(s.seg(seq)).tsval
		}
		if s.spuriousOnRTO(flightBefore, ssthreshBefore, sentBefore, ts) {
			s.nxt = s.high // F-RTO: hold the go-back-N until the ACKs decide
			return
		}
	}
	s.trySend()
}

// noteDrop records ground truth about a lost packet of this flow.
func (s *Sender) noteDrop(p *network.Packet, cause network.DropCause) {
	if p.Payload == 0 || p.Src != s.f.Src.ID || !s.open {
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

// sync copies the engine state into the variant's view.
func (s *Sender) sync() {
	st := &s.st
	st.Now = s.net.Now()
	st.Cwnd, st.Ssthresh = s.cwnd, s.ssthresh
	st.Flight = float64(s.flight())
	st.Window = s.window
	st.SRTT = s.rtt.SRTT()
	st.MinRTT = s.rtt.minRTT
	st.LastRTT = s.rtt.lastRTT
	st.InRecovery = s.inRecov
	st.Una, st.Nxt, st.High = s.una, s.nxt, s.high
	switch s.cfg.SsthreshBasis {
	case "cwnd":
		b := s.cwnd
		if s.window > 0 && s.window < b {
			b = s.window
		}
		st.halfBasis, st.ns2Floor = b, true
	default:
		st.halfBasis, st.ns2Floor = st.Flight, false
	}
}

// apply takes back what the variant set.
func (s *Sender) apply() {
	s.cwnd, s.ssthresh = s.st.Cwnd, s.st.Ssthresh
	if s.cwnd < float64(s.mss) {
		s.cwnd = float64(s.mss) // cwnd never below one segment
	}
}

// flight is the bytes outstanding: the RFC 6675 pipe with SACK, else
// SND.NXT - SND.UNA.
func (s *Sender) flight() int64 {
	if s.rec == recSACK {
		return s.pipe()
	}
	return s.high - s.una
}
