package tcp

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// CubicNS3 is ns-3.37's TcpCubic, which `profile: ns3, variant: cubic`
// runs (and `variant: cubic-ns3` under any profile). It is Linux's
// bictcp of about 2010 rather than RFC 9438 (cubic.go), and differs from
// it in what decides throughput at high loss:
//
//   - no Reno-friendly region: the window follows the cubic alone, so at
//     small windows it grows more slowly than Reno would;
//   - whole segments: the target W(t + delayMin) is truncated to an
//     integer, cwnd grows by one segment each time cnt = W/(target - W)
//     segments have been acknowledged (at most one per two), cnt clamped
//     to 20 while no W_max is known;
//   - the curve is evaluated one minimum RTT ahead (not one SRTT);
//   - slow start adds a segment per segment acknowledged and never hands
//     the rest of an ACK to congestion avoidance; HyStart (packet train and
//     delay, once until the next timeout) may end it early;
//   - a timeout forgets W_max, K and the minimum delay (CubicReset).
//
// Params: c (0.4), beta (0.7), fast_convergence (1), hystart (1),
// cnt_clamp (20).
type CubicNS3 struct {
	Reno
	c, beta             float64
	fastConv, hystart   bool
	cntClamp            int64
	cwndCnt             int64    // segments acknowledged toward the next increment
	lastMax, origin     int64    // W_max and the curve's origin, segments
	k                   float64  // seconds to the origin
	epoch               sim.Time // start of the epoch (-1: none)
	delayMin            sim.Time // minimum RTT (-1: none)
	found               bool     // HyStart found the exit
	roundStart, lastAck sim.Time
	endSeq              int64
	currRTT             sim.Time // minimum RTT of this round's first samples (-1: none)
	samples             int
	timedOut            bool
}

func init() {
	Register("cubic-ns3", "newreno", func(params map[string]float64) (Variant, error) {
		p, err := cubicParams("cubic-ns3", params, map[string]float64{"hystart": 1, "cnt_clamp": 20})
		if err != nil {
			return nil, err
		}
		return &CubicNS3{Reno: Reno{name: "cubic-ns3"}, c: p["c"], beta: p["beta"], fastConv: p["fast_convergence"] != 0,
			hystart: p["hystart"] != 0, cntClamp: max(int64(p["cnt_clamp"]), 1), epoch: -1, delayMin: -1, currRTT: -1}, nil
	})
	RegisterProfileVariant("ns3", "cubic", "cubic-ns3")
}

// OnAck is PktsAcked then IncreaseWindow.
func (c *CubicNS3) OnAck(s *State, a *AckEvent) {
	c.timedOut = false
	segs := int64(a.Acked / s.MSS)
	c.pktsAcked(s, s.LastRTT)
	if s.InSlowStart() {
		if c.hystart && a.Ack > c.endSeq {
			c.hystartReset(s)
		}
		s.Cwnd += float64(segs) * s.MSS
		return
	}
	if segs == 0 {
		return
	}
	c.cwndCnt += segs
	if cnt := c.update(s); c.cwndCnt >= cnt {
		s.Cwnd += s.MSS
		c.cwndCnt -= cnt
	}
}

// OnDupAck implements Variant.
func (c *CubicNS3) OnDupAck(*State, *AckEvent) { c.timedOut = false }

func (c *CubicNS3) hystartReset(s *State) {
	c.roundStart, c.lastAck = s.Now, s.Now
	c.endSeq = s.High
	c.currRTT, c.samples = -1, 0
}

// pktsAcked tracks the minimum delay (ignoring the first 10 ms of an
// epoch, ns-3's CubicDelta) and runs HyStart in slow start from 16
// segments.
func (c *CubicNS3) pktsAcked(s *State, rtt sim.Time) {
	if c.epoch >= 0 && s.Now-c.epoch < 10*sim.Millisecond {
		return
	}
	if c.delayMin < 0 || c.delayMin > rtt {
		c.delayMin = rtt
	}
	if !c.hystart || s.Cwnd > s.Ssthresh || s.Cwnd < 16*s.MSS || c.found {
		return
	}
	if s.Now-c.lastAck <= 2*sim.Millisecond { // an ACK train
		c.lastAck = s.Now
		if s.Now-c.roundStart > c.delayMin {
			c.found = true
		}
	}
	if c.samples < 8 {
		if c.currRTT < 0 || c.currRTT > rtt {
			c.currRTT = rtt
		}
		c.samples++
	} else if c.currRTT > c.delayMin+min(max(c.delayMin, 4*sim.Millisecond), sim.Second) {
		c.found = true
	}
	if c.found {
		s.Ssthresh = s.Cwnd
	}
}

// update is ns-3's Update: the segments to acknowledge per increment.
func (c *CubicNS3) update(s *State) int64 {
	w := int64(s.Cwnd / s.MSS)
	if c.epoch < 0 {
		c.epoch = s.Now
		if c.lastMax <= w {
			c.k, c.origin = 0, w
		} else {
			c.k, c.origin = math.Cbrt(float64(c.lastMax-w)/c.c), c.lastMax
		}
	}
	t := (s.Now + max(c.delayMin, 0) - c.epoch).Seconds()
	delta := int64(c.c * math.Pow(math.Abs(t-c.k), 3))
	target := c.origin + delta
	if t < c.k {
		target = c.origin - delta
	}
	cnt := 100 * w
	if target > w {
		cnt = w / (target - w)
	}
	if c.lastMax == 0 && cnt > c.cntClamp {
		cnt = c.cntClamp
	}
	return max(cnt, 2)
}

// reduce is GetSsThresh.
func (c *CubicNS3) reduce(s *State) float64 {
	w := int64(s.Cwnd / s.MSS)
	if w < c.lastMax && c.fastConv {
		c.lastMax = int64(float64(w) * (1 + c.beta) / 2)
	} else {
		c.lastMax = w
	}
	c.epoch = -1
	return float64(max(int64(float64(w)*c.beta), 2)) * s.MSS
}

// OnLoss implements Variant.
func (c *CubicNS3) OnLoss(s *State, _ *LossEvent) Response {
	s.Ssthresh = c.reduce(s)
	s.Cwnd = s.Ssthresh
	return Response{Class: Congestion}
}

// OnTimeout: ssthresh as for a loss (not again while the head's
// retransmission times out too), one segment, then CubicReset and
// HystartReset (ns-3 entering CA_LOSS).
func (c *CubicNS3) OnTimeout(s *State) Response {
	if !c.timedOut {
		s.Ssthresh = c.reduce(s)
	}
	s.Cwnd = s.MSS
	c.timedOut = true
	c.lastMax, c.origin, c.k, c.delayMin, c.found = 0, 0, 0, -1, false
	c.hystartReset(s)
	return Response{Class: Congestion}
}
