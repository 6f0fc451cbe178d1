package tcp

import "github.com/tcplab/tcplab/sim"

// NewJersey is TCP New Jersey (Xu, Tian & Ansari, Computer Networks 47(2),
// 2005; an extension of TCP Jersey, IEEE JSAC 22(4), 2004): Reno plus two
// parts. TABE, a timestamp-based estimate of the available bandwidth
// (eq. 5), gives the optimal window ownd = RTT·B/S (eq. 6). Congestion
// warning (CW): routers mark every packet while their average queue is at or
// above a threshold (30% of the buffer in New Jersey; network.NewMarker) and
// the receiver echoes the mark. On three duplicate ACKs the CW mark decides:
// marked, a congestion loss, handled as Reno (halve); unmarked, a random
// loss: the window follows the rate estimate, ssthresh = ownd and cwnd
// at most ownd, which on a path without a queue is about the window it had.
// A timeout sets ssthresh = ownd (TCP Jersey) and restarts from one segment.
//
// Needs timestamps: true (CheckConfig says so): eq. 5's t_n is the
// arrival time at the receiver, which the ACK's TSval carries. Needs CW
// marking routers on the path (queue type marker, fraction 0.3): without
// them every loss looks random.
type NewJersey struct {
	Reno
	est tabe
}

func init() {
	Register("newjersey", "newreno", func(params map[string]float64) (Variant, error) {
		if _, err := variantParams("newjersey", params, nil); err != nil {
			return nil, err
		}
		return &NewJersey{Reno: Reno{name: "newjersey"}}, nil
	})
}

// CheckConfig implements ConfigChecker.
func (j *NewJersey) CheckConfig(c *Config, bad func(field, format string, a ...any)) {
	if !c.TS.Enabled {
		bad("timestamps", "variant newjersey needs timestamps: true (TABE, eq. 5)")
	}
}

// tabe is the timestamp-based available-bandwidth estimator (eq. 5):
// B_n = (δ·B_{n-1} + L_n) / ((t_n - t_{n-1}) + δ), δ the smoothed RTT,
// L_n the bytes the nth ACK reports delivered, t_n the receiver's time
// stamp on it. A duplicate ACK reports one segment; the cumulative ACK that
// follows is credited only beyond those.
type tabe struct {
	rate    float64 // B_n, bytes per second
	last    sim.Time
	started bool
	credit  float64
}

func (t *tabe) newAck(s *State, a *AckEvent) {
	acked := max(a.Acked-t.credit, 0)
	t.credit = max(t.credit-a.Acked, 0)
	t.update(s, a, acked)
}

func (t *tabe) dupAck(s *State, a *AckEvent) {
	t.credit += s.MSS
	t.update(s, a, s.MSS)
}

func (t *tabe) update(s *State, a *AckEvent, bytes float64) {
	if !a.HasTS || s.SRTT <= 0 {
		return
	}
	tn := sim.Time(a.TSval) * s.TSTick
	if !t.started {
		t.started, t.last = true, tn
		return
	}
	delta := s.SRTT.Seconds()
	t.rate = (delta*t.rate + bytes) / ((tn - t.last).Seconds() + delta)
	t.last = tn
}

// ownd is eq. 6 in bytes (at least 2 segments), or 0 without an estimate
// yet.
func (t *tabe) ownd(s *State) float64 {
	if t.rate == 0 {
		return 0
	}
	return max(t.rate*s.SRTT.Seconds(), 2*s.MSS)
}

// OnAck implements Variant.
func (j *NewJersey) OnAck(s *State, a *AckEvent) {
	j.est.newAck(s, a)
	RenoIncrease(s, a)
}

// OnDupAck implements Variant.
func (j *NewJersey) OnDupAck(s *State, a *AckEvent) { j.est.dupAck(s, a) }

// OnLoss: CW marked, congestion (Reno); unmarked, random (rate control).
func (j *NewJersey) OnLoss(s *State, l *LossEvent) Response {
	w := j.est.ownd(s)
	if l.CW || l.ECN || w == 0 {
		r := j.Reno.OnLoss(s, l)
		if !l.CW && !l.ECN {
			r.Class = Wireless // no estimate yet, but still unmarked
		}
		return r
	}
	s.Ssthresh, s.Cwnd = w, min(s.Cwnd, w)
	return Response{Class: Wireless}
}

// OnRecoveryExit drops the duplicate-ACK credit (the recovery's cumulative
// ACKs are not shown to variants).
func (j *NewJersey) OnRecoveryExit(*State) { j.est.credit = 0 }

// OnTimeout sets ssthresh = ownd and restarts from one segment; it does not
// judge the cause.
func (j *NewJersey) OnTimeout(s *State) Response {
	j.est.credit = 0
	ss := j.est.ownd(s)
	if ss == 0 {
		ss = s.HalfWindow()
	}
	s.Ssthresh, s.Cwnd = ss, s.MSS
	return Response{Class: Unclassified}
}
