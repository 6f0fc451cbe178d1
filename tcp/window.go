package tcp

// The engine calls its variant only through these methods: each call that
// may set the windows is followed by the one clamp, so no call site can
// forget it (the variant's view is State; it sets Cwnd and Ssthresh).

// maxCwndSegments clamps cwnd (as Linux's snd_cwnd_clamp does): 2^20
// segments, more than the bandwidth-delay product of a 100 Gb/s path of
// 100 ms. A variant that never reduces its window (T-DLRP calls every
// unmarked loss wireless) would otherwise grow it without bound and send
// an unbounded burst on one ACK.
const maxCwndSegments = 1 << 20

// clampCwnd keeps cwnd at one segment or more, and within the clamp,
// whatever a variant set.
func (s *Sender) clampCwnd() {
	if s.Cwnd < s.State.MSS {
		s.Cwnd = s.State.MSS
	}
	if m := maxCwndSegments * s.State.MSS; s.Cwnd > m {
		s.Cwnd = m
	}
}

func (s *Sender) ccInit() {
	s.cc.Init(&s.State)
	s.clampCwnd()
}

func (s *Sender) ccAck(ev *AckEvent) {
	s.cc.OnAck(&s.State, ev)
	s.clampCwnd()
}

func (s *Sender) ccDupAck(ev *AckEvent) {
	s.cc.OnDupAck(&s.State, ev)
	s.clampCwnd()
}

func (s *Sender) ccDupAckInRecovery(ev *AckEvent) Response {
	r := s.cc.OnDupAckInRecovery(&s.State, ev)
	s.clampCwnd()
	return r
}

// ccLoss hands the variant s.loss, filled by the caller.
func (s *Sender) ccLoss() Response {
	r := s.cc.OnLoss(&s.State, &s.loss)
	s.clampCwnd()
	return r
}

// ccRecoveryExit tells the variant fast recovery ended and, if grow, lets
// the exit ACK open the window as any new ACK; one clamp after both.
func (s *Sender) ccRecoveryExit(ev *AckEvent, grow bool) {
	s.cc.OnRecoveryExit(&s.State)
	if grow {
		s.cc.OnAck(&s.State, ev)
	}
	s.clampCwnd()
}

func (s *Sender) ccTimeout() Response {
	r := s.cc.OnTimeout(&s.State)
	s.clampCwnd()
	return r
}

func (s *Sender) ccRateSample(rs *RateSample) {
	s.ctl.OnRateSample(&s.State, rs)
	s.clampCwnd()
}

// CongState names a sender's congestion state as Linux (TCP_CA_*) and
// ns-3 (TcpSocketState::TcpCongState_t) do.
type CongState uint8

// Congestion states.
const (
	CAOpen     CongState = iota // no loss suspected
	CADisorder                  // duplicate ACKs or SACKs seen, below the threshold
	CACWR                       // the window was reduced for an ECN echo (RFC 3168 §6.1.2)
	CARecovery                  // fast recovery
	CALoss                      // repairing after a timeout, until SND.UNA reaches recover
)

func (c CongState) String() string {
	return [...]string{"open", "disorder", "cwr", "recovery", "loss"}[c]
}

// congState is the state the engine's flags amount to; the most severe
// wins, as in Linux, where Loss overrides Recovery and CWR.
func (s *Sender) congState() CongState {
	switch {
	case s.inLoss:
		return CALoss
	case s.InRecovery:
		return CARecovery
	case s.ecnCut:
		return CACWR
	case s.dupacks > 0:
		return CADisorder
	}
	return CAOpen
}
