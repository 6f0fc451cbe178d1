package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// VegasNS2 is ns-2.35's Agent/TCP/Vegas (tcp-vegas.cc, Kuo's port of
// USC's NetBSD Vegas), which `profile: ns2, variant: vegas` runs. It is a
// sender of its own rather than Brakmo & Peterson's algorithm as vegas.go
// has it (Linux, ns-3), and differs in:
//
//   - recovery: Reno without NewReno's partial ACKs, the window inflated
//     in cwnd itself by each duplicate ACK past the third and deflated to
//     the cut window on the next new ACK (ssthresh then 2);
//   - a fine-grained timer: every transmission is stamped in a ring of
//     window_ slots; a duplicate ACK, even the first, retransmits the head
//     at once if it has been out longer than v_timeout (a smoothed RTT
//     estimate of its own); the two new ACKs after a retransmission
//     retransmit the next hole the same way;
//   - the cut: only if cwnd was not cut since the lost segment left, to
//     3/4 (1/2 if it was sent more than once, 2 segments below 4), and each
//     such retransmission backs off the coarse timer (reset_rtx_timer(1));
//   - slow start grows every other RTT; leaving it (diff > gamma) sets
//     ssthresh to 2 and cuts cwnd by 1/8;
//   - diff = round((expected - actual)·BaseRTT) from the segments sent in
//     the last round over the mean of its RTT samples (not the minimum);
//     expected counts one segment more than is outstanding;
//   - congestion avoidance adds 1/cwnd per ACK for a whole round when
//     diff < alpha, and nothing while cwnd runs more than 2 segments
//     ahead of what is outstanding;
//   - a timeout halves ssthresh and restarts from 2 segments;
//   - cwnd is 1 until the first data segment is acknowledged, then the
//     initial window (delay_growth_);
//   - no limited transmit, no SACK;
//   - packets of packetSize_ bytes on the wire, the SYN too: its output()
//     adds no header bytes (ns-2 scripts that count goodput as received
//     bytes over packetSize_ + 40 understate Vegas by 40/1064);
//   - not reproduced: ns-2 lets cwnd_ fall to 0 (the deflation to
//     v_newcwnd_, which a timeout set to 0, after more than three duplicate
//     ACKs) and then sends nothing until the next timeout, or ever, if
//     nothing is outstanding; here cwnd keeps its floor of one segment, as
//     for every variant (compare/vegas_test.go counts ns-2's stalls);
//   - the ring's slots of acknowledged segments are cleared by a loop that
//     does nothing when the acknowledged range wraps around the ring: a
//     later segment in such a slot counts as sent twice (no RTT sample,
//     the halving cut). It is ns-2's behaviour and it is kept.
//
// Params: alpha (1), beta (3), gamma (1), ns-2's defaults.
type VegasNS2 struct {
	Reno
	alpha, beta, gamma float64
	snd                *Sender // for segment numbers and the clock

	started bool     // the SYN's ACK was accounted
	opened  sim.Time // firstsent_: vegastime() counts from here
	iw      float64  // the initial window, bytes
	acked   bool     // a data segment was acknowledged
	cwnd    float64  // cwnd_ in segments: may be below 1, even 0
	lastAck int64    // last_ack_: the highest segment acknowledged (SYN: 0)

	ring    []fgSlot // v_sendtime_ and v_transmits_, by segment number mod window_
	begSeq  int64    // v_begseq_: the round's first segment
	begTime sim.Time // v_begtime_
	sumRTT  sim.Time // v_sumRTT_ and v_cntRTT_: this round's samples
	cntRTT  int
	baseRTT sim.Time
	incFlag bool    // v_inc_flag_: slow start grows every other round
	incr    float64 // v_incr_: segments added per ACK in this round
	sa, sd  float64 // v_sa_ (8·RTT) and v_sd_ (4·mean deviation), seconds
	timeout sim.Time
	newCwnd float64  // v_newcwnd_, segments
	cutAt   sim.Time // t_cwnd_changed_

	dupThresh int  // numdupacks_
	dupacks   int  // the duplicate ACKs before this new ACK
	worried   int  // v_worried_: new ACKs that check the next hole
	timedOut  bool // last_cwnd_action_ == CWND_ACTION_TIMEOUT
}

type fgSlot struct {
	sent sim.Time // vegastime() of the last transmission (-1: cleared)
	tx   int      // transmissions
}

func init() {
	Register("vegas-ns2", "reno", func(params map[string]float64) (Variant, error) {
		p, err := variantParams("vegas-ns2", params, map[string]float64{"alpha": 1, "beta": 3, "gamma": 1})
		if err != nil {
			return nil, err
		}
		if p["alpha"] > p["beta"] {
			return nil, ParamError("alpha", "must not exceed beta (%v > %v)", p["alpha"], p["beta"])
		}
		return &VegasNS2{Reno: Reno{name: "vegas-ns2"}, alpha: p["alpha"], beta: p["beta"], gamma: p["gamma"],
			incFlag: true, baseRTT: sim.Never, timeout: 1000 * sim.Second}, nil
	})
	RegisterProfileVariant("ns2", "vegas", "vegas-ns2")
}

func (v *VegasNS2) newRecovery(s *Sender) lossRecovery {
	v.snd, v.dupThresh = s, s.cfg.Recovery.DupThresh
	slots := s.cfg.Segments.Window // v_maxwnd_ = window_
	if slots <= 0 {
		slots = 1 << 16
	}
	v.ring = make([]fgSlot, slots)
	for i := range v.ring {
		v.ring[i].sent = -1
	}
	return &vegasNS2Recovery{cumulative{s}, v}
}

// wireSizes implements wireSizer: VegasTcpAgent::output sizes every
// packet, the SYN included, at packetSize_, with no header bytes.
func (v *VegasNS2) wireSizes(mss int32) (syn, dataHeader int32) { return mss, 0 }

// vegastime is the clock since the first transmission.
func (v *VegasNS2) vegastime() sim.Time { return v.snd.net.Now() - v.opened }

// segNum is ns-2's packet number of the segment starting at seq (the SYN
// is 0).
func (v *VegasNS2) segNum(seq int64) int64 { return (seq-v.snd.dataStart)/v.snd.mss + 1 }

func (v *VegasNS2) slot(n int64) *fgSlot { return &v.ring[n%int64(len(v.ring))] }

// Init stamps the SYN (segment 0, at vegastime 0) and holds cwnd at one
// segment until the first data is acknowledged.
func (v *VegasNS2) Init(s *State) {
	v.opened, v.iw = s.Now, s.Cwnd/s.MSS
	v.setCwnd(s, 1)
	*v.slot(0) = fgSlot{0, 1}
}

// setCwnd sets cwnd_, at least one segment (the engine's floor).
func (v *VegasNS2) setCwnd(s *State, c float64) {
	v.cwnd = max(c, 1)
	s.Cwnd = v.cwnd * s.MSS
}

// OnSend stamps every transmission. The first data segment leaves when
// the SYN is acknowledged, an ACK ns-2's Vegas handles as any other: it
// starts the RTT estimates and ends the first round.
func (v *VegasNS2) OnSend(s *State, e *SendEvent) {
	n := v.segNum(e.Seq)
	if !v.started {
		v.started = true
		r := v.vegastime()
		v.baseRTT = r
		v.sa, v.sd = 8*r.Seconds(), r.Seconds()
		v.timeout = sim.FromSeconds((v.sa/4 + v.sd) / 2)
		v.incFlag = !v.incFlag // the SYN's round: no growth
		v.incr = 0
		v.begSeq, v.begTime = n, r
		v.ackRange(-1, 0) // the SYN's slot, read before it is cleared
	}
	sl := v.slot(n)
	sl.sent = v.vegastime()
	sl.tx++
}

// ackRange clears the slots of segments old+1..n, as ns-2's loop does:
// not at all when the range wraps around the ring.
func (v *VegasNS2) ackRange(old, n int64) {
	w := int64(len(v.ring))
	for k, left := (old+1)%w, n-old; k <= n%w && left > 0; k, left = (k+1)%w, left-1 {
		v.ring[k] = fgSlot{-1, 0}
	}
}

// outstanding is ns-2's t_seqno_ - last_ack_.
func (v *VegasNS2) outstanding() float64 { return float64(v.segNum(v.snd.Nxt) - v.lastAck) }

// OnDupAck keeps count for the deflation on the next new ACK.
func (v *VegasNS2) OnDupAck(_ *State, a *AckEvent) { v.dupacks = a.Dupacks }

// OnAck is the new-ACK half of ns-2's VegasTcpAgent::recv.
func (v *VegasNS2) OnAck(s *State, a *AckEvent) {
	if !v.acked {
		v.acked = true
		v.cwnd = v.iw // delay_growth_
	}
	cwnd := v.cwnd
	if v.dupacks > v.dupThresh && cwnd > v.newCwnd { // the window was inflated
		cwnd = v.newCwnd
		s.Ssthresh = 2 * s.MSS
	}
	v.dupacks = 0
	old := v.lastAck
	v.lastAck = v.segNum(a.Ack) - 1
	now := v.vegastime()
	if v.lastAck >= v.begSeq { // once a round
		rtt := now - v.begTime
		if v.cntRTT > 0 {
			rtt = v.sumRTT / sim.Time(v.cntRTT)
		}
		v.sumRTT, v.cntRTT = 0, 0
		sent := float64(v.segNum(s.Nxt) - v.begSeq)
		if rtt > 0 {
			if rtt < v.baseRTT || sent <= 1 {
				v.baseRTT = rtt
			}
			base := v.baseRTT.Seconds()
			actual := sent / rtt.Seconds()
			expect := v.outstanding() / base
			diff := float64(int((expect-actual)*base + 0.5))
			if cwnd < s.Ssthresh/s.MSS {
				v.incFlag = !v.incFlag
				switch {
				case !v.incFlag:
					v.incr = 0
				case diff > v.gamma:
					s.Ssthresh = 2 * s.MSS
					cwnd = max(cwnd-cwnd/8, 2)
					v.incr = 0
				default:
					v.incr = 1
				}
			} else {
				switch {
				case diff > v.beta:
					cwnd = max(cwnd-1, 2)
					v.incr = 0
				case diff < v.alpha:
					v.incr = 1 / cwnd
				default:
					v.incr = 0
				}
			}
		}
		v.begSeq, v.begTime = v.segNum(s.Nxt), now
	}
	if v.incr == 1 && cwnd >= s.Ssthresh/s.MSS {
		v.incr = 0
	}
	if v.incr > 0 && cwnd-v.outstanding() <= 2 {
		cwnd += v.incr
	}
	v.setCwnd(s, cwnd)
	// The fine-grained sample: the newest segment acknowledged, if it was
	// sent once, read before its slot is cleared.
	sl := *v.slot(v.lastAck)
	v.ackRange(old, v.lastAck)
	if sl.sent != 0 && sl.tx == 1 {
		r := now - sl.sent
		v.sumRTT += r
		v.cntRTT++
		if r > 0 {
			v.baseRTT = min(v.baseRTT, r)
			n := r.Seconds() - v.sa/8
			v.sa += n
			v.sd += math.Abs(n) - v.sd/4
			t := (v.sa/4 + v.sd) / 2
			v.timeout = sim.FromSeconds(t + t/16)
		}
	}
}

// OnLoss: the cut is the recovery's (it needs the lost segment's slot).
func (v *VegasNS2) OnLoss(*State, *LossEvent) Response { return Response{Class: Congestion} }

// OnTimeout halves ssthresh and restarts from 2 segments.
func (v *VegasNS2) OnTimeout(s *State) Response {
	s.Cwnd = v.cwnd * s.MSS // the window the halving is of
	s.Ssthresh = s.HalfWindow()
	v.setCwnd(s, 2)
	v.newCwnd, v.cutAt, v.timedOut = 0, v.vegastime(), true
	v.dupacks = 0
	return Response{Class: Congestion}
}

// vegasNS2Recovery is the duplicate-ACK half of VegasTcpAgent::recv and
// the fine-grained retransmissions after new ACKs.
type vegasNS2Recovery struct {
	cumulative
	v *VegasNS2
}

// expired is vegas_expire: the head has been out for v_timeout.
func (r *vegasNS2Recovery) expired() bool {
	return r.v.vegastime()-r.v.slot(r.v.lastAck+1).sent >= r.v.timeout
}

func (r *vegasNS2Recovery) dupAck() dupAction {
	s := r.s
	dt := s.cfg.Recovery.DupThresh
	if r.expired() || s.dupacks == dt {
		// bugFix_: no fast retransmit right after a timeout until the ACK
		// passes what was sent before it.
		if s.Una > s.recover || !r.v.timedOut {
			return dupFastRetransmit
		}
	} else if s.dupacks > dt {
		r.v.setCwnd(&s.State, r.v.cwnd+1) // the inflation
	}
	if s.dupacks >= dt {
		return dupSend
	}
	return dupNothing
}

// enter retransmits the head: the cut if cwnd was not cut since it was
// sent, a longer fine-grained timeout, a backed-off coarse one.
func (r *vegasNS2Recovery) enter() {
	s, v := r.s, r.v
	head := *v.slot(v.lastAck + 1)
	v.timedOut = false
	v.worried = int(min(2, v.outstanding()))
	if head.tx > 1 {
		v.timeout *= 2
	} else {
		v.timeout += v.timeout / 8
	}
	if v.cutAt < head.sent {
		win := int(v.cwnd) // ns-2's window(): min(cwnd_, window_)
		if s.Window > 0 {
			win = min(win, int(s.Window/s.State.MSS))
		}
		switch {
		case win <= 3:
			win = 2
		case head.tx > 1:
			win >>= 1
		default:
			win -= win >> 2
		}
		v.newCwnd = float64(win)
		v.setCwnd(&s.State, float64(win+s.dupacks))
		v.cutAt = v.vegastime()
	}
	s.rtoBackoff()
	s.restartTimer()
	s.sendSeg(s.Una, true)
	if head.tx == 1 {
		s.dupacks = s.cfg.Recovery.DupThresh
	}
	s.trySend()
}

// newAck: the two new ACKs after a retransmission resend the next hole if
// its fine-grained timer expired.
func (r *vegasNS2Recovery) newAck(*AckEvent) {
	if r.v.worried == 0 {
		return
	}
	r.v.worried--
	if !r.expired() {
		r.v.worried = 0
		return
	}
	s := r.s
	s.dupacks = s.cfg.Recovery.DupThresh
	// VegasTcpAgent::output does not stop the coarse RTT timing for a
	// retransmission (only reset_rtx_timer does, at a cut or a timeout).
	active, seq, sent := s.rttActive, s.rttSeq, s.rttSent
	s.sendSeg(s.Una, true)
	s.rttActive, s.rttSeq, s.rttSent = active, seq, sent
}

// ack: ns-2's Vegas never enters fast recovery as a state.
func (r *vegasNS2Recovery) ack(ev *AckEvent) bool {
	r.s.exitRecovery(ev)
	return true
}
