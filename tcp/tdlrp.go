package tcp

// TDLRP is T-DLRP (Sreekumari, Chung, Lee & Kim, "T-DLRP: Detection of Fast
// Retransmission Losses Using TCP Timestamp ...", Int. J. Distributed Sensor
// Networks 2013, 592502): NewReno with three parts. All of its state is
// here; the engine only reports the segments it sends (OnSend).
//
// FRL (§4.1): the receiver echoes the TSval of the newest segment to arrive,
// in order or not (ts_echo: latest). Timestamp_new is the TSval of the first
// new segment sent after the fast retransmission. A duplicate ACK in fast
// recovery whose TSecr is at or after Timestamp_new was caused by a segment
// sent after the retransmission, which on a FIFO path means the
// retransmission was lost. (§4.1's prose and the Fig. 6 example say so;
// Algorithm 1 prints Timestamp_new >= TSecr, which every duplicate ACK of
// the older segments satisfies.) Each retransmission in the recovery has a
// Timestamp_new of its own, and the head's is the one compared: with
// NewReno's recovery (the paper's) that is Timestamp_new restarting with
// each retransmission of the head; with SACK, where holes are resent before
// they become the head, a single Timestamp_new from an earlier
// retransmission flagged the head's later one lost on the ACKs of segments
// sent before it.
//
// IFR (§4.2): on a detected lost retransmission, retransmit; with a CW mark on
// the detecting ACK (congestion) cwnd = BW·RTT/size (eq. 7, BW from TCP New
// Jersey's TABE) and ssthresh stays; without (wireless) both stay.
//
// IRTOR (§4.3, Algorithm 2): a timeout whose last ACK carried no CW mark is
// judged wireless: retransmit one segment, keep cwnd and ssthresh, remember
// Maxsent; partial ACKs retransmit the next hole until Maxsent is acked
// (Response.RepairInPlace). With a CW mark the timeout is Reno's.
//
// Fast retransmit (§4.4): CW marked, congestion, NewReno's halving; unmarked,
// wireless: keep cwnd and ssthresh, as IFR does. A window kept is restored
// when the recovery ends, whatever the engine's exit rule did to it.
//
// Needs timestamps: true and ts_echo: latest (CheckConfig says so), and a
// timestamp tick finer than the gap between the last segment sent before the
// fast retransmission and the first after it (1 ms; ns-2's 10 ms tick can
// put both in one tick and report false losses). Needs CW-marking routers
// (queue type marker, fraction 0.9): without them every loss looks wireless.
type TDLRP struct {
	Reno
	est    tabe
	lastCW bool // the latest ACK echoed a CW mark
	// marks are the retransmissions of this recovery in the order sent,
	// each with its Timestamp_new once a new segment followed it; the ones
	// from unset on have none yet.
	marks []frlMark
	unset int

	kept               float64 // cwnd to restore when this recovery ends (0: none)
	irtor              bool    // in IRTOR's recovery: restore the window at its end
	keptCwnd, keptSsth float64
}

func init() {
	Register("tdlrp", "newreno", func(params map[string]float64) (Variant, error) {
		if _, err := variantParams("tdlrp", params, nil); err != nil {
			return nil, err
		}
		return &TDLRP{Reno: Reno{name: "tdlrp"}}, nil
	})
}

// CheckConfig implements ConfigChecker.
func (t *TDLRP) CheckConfig(c *Config, bad func(field, format string, a ...any)) {
	if !c.TS.Enabled {
		bad("timestamps", "variant tdlrp needs timestamps: true (FRL, §4.1)")
	}
	if c.TS.Echo != EchoLatest {
		bad("ts_echo", "variant tdlrp needs ts_echo: latest (the receiver echoes the newest segment's TSval, §4.1)")
	}
}

// frlMark is a retransmission of segment seq and its Timestamp_new: the
// TSval of the first new segment sent after it (0: none yet).
type frlMark struct{ seq, tsNew int64 }

// OnSend notes each retransmission in recovery and gives the ones still
// without a Timestamp_new the TSval of the first new segment after them.
func (t *TDLRP) OnSend(s *State, e *SendEvent) {
	switch {
	case !s.InRecovery:
		t.marks, t.unset = t.marks[:0], 0
	case e.Retx:
		t.marks = append(t.marks, frlMark{seq: e.Seq})
	default:
		for i := t.unset; i < len(t.marks); i++ {
			t.marks[i].tsNew = e.TSval
		}
		t.unset = len(t.marks)
	}
}

// tsNew is Timestamp_new of the head's latest retransmission (0: not
// resent in this recovery, or no new segment since).
func (t *TDLRP) tsNew(s *State) int64 {
	for i := len(t.marks) - 1; i >= 0; i-- {
		if t.marks[i].seq == s.Una {
			return t.marks[i].tsNew
		}
	}
	return 0
}

// OnAck implements Variant.
func (t *TDLRP) OnAck(s *State, a *AckEvent) {
	t.lastCW = a.CW
	t.est.newAck(s, a)
	RenoIncrease(s, a)
}

// OnDupAck implements Variant.
func (t *TDLRP) OnDupAck(s *State, a *AckEvent) {
	t.lastCW = a.CW
	t.est.dupAck(s, a)
}

// OnLoss classifies by the CW mark of the third duplicate ACK.
func (t *TDLRP) OnLoss(s *State, l *LossEvent) Response {
	t.kept = 0
	t.marks, t.unset = t.marks[:0], 0 // a new recovery
	if l.CW || l.ECN {
		return t.Reno.OnLoss(s, l)
	}
	t.kept = s.Cwnd
	return Response{Class: Wireless}
}

// OnDupAckInRecovery is FRL and IFR.
func (t *TDLRP) OnDupAckInRecovery(s *State, a *AckEvent) Response {
	ts := t.tsNew(s)
	if !a.HasTS || ts == 0 || a.TSecr < ts {
		return Response{}
	}
	if !a.CW {
		return Response{Retransmit: true, Class: Wireless}
	}
	if w := t.est.ownd(s); w > 0 {
		s.Cwnd = w // eq. 7
	} else {
		s.Cwnd = s.HalfWindow() // no estimate yet
	}
	t.kept = 0
	return Response{Retransmit: true, Class: Congestion}
}

// OnRecoveryExit restores the window a wireless verdict or IRTOR kept.
func (t *TDLRP) OnRecoveryExit(s *State) {
	t.est.credit = 0
	if t.kept > 0 {
		s.Cwnd, t.kept = t.kept, 0
	}
	if t.irtor {
		t.irtor = false
		s.Cwnd, s.Ssthresh = max(s.Cwnd, t.keptCwnd), t.keptSsth
	}
}

// OnTimeout is IRTOR unless the last ACK was CW-marked.
func (t *TDLRP) OnTimeout(s *State) Response {
	t.est.credit = 0
	t.kept = 0
	if t.lastCW {
		t.irtor = false
		return t.Reno.OnTimeout(s)
	}
	t.irtor, t.keptCwnd, t.keptSsth = true, s.Cwnd, s.Ssthresh
	return Response{RepairInPlace: true, Class: Wireless}
}
