package tcp

import "github.com/tcplab/tcplab/sim"

// Sample is one row of a flow's time series: the sender's state right
// after an event. Probes receive a pointer to a reused Sample and must copy
// what they keep.
type Sample struct {
	Time     sim.Time
	Event    byte  // 's' segment sent, 'a' ACK processed, 't' timeout
	Seq      int64 // sequence number sent ('s')
	Ack      int64 // cumulative ACK ('a')
	TSecr    int64 // TSecr on the ACK ('a', timestamps only)
	Una      int64
	High     int64
	Cwnd     float64 // bytes, uninflated
	Ssthresh float64
	Flight   int64
	RTO      sim.Time // current timeout, back-off included
	SRTT     sim.Time
	Retx     bool // the segment sent was a retransmission ('s')
}

// SetProbe calls fn after every segment sent, ACK processed and timeout.
// A nil fn turns probing off (the default, free on the per-packet path).
func (f *Flow) SetProbe(fn func(*Sample)) { f.snd.probe, f.snd.probeAcksOnly = fn, false }

// SetAckProbe calls fn after every ACK processed and timeout only: the
// state an invariant checker needs, without a sample (and the pipe
// computed for it) per segment sent.
func (f *Flow) SetAckProbe(fn func(*Sample)) { f.snd.probe, f.snd.probeAcksOnly = fn, true }

// sample fills the reused Sample and hands it to the probe.
func (s *Sender) sample(ev byte, seq, ack, tsecr int64, retx bool) {
	p := &s.probeRow
	*p = Sample{
		Time: s.net.Now(), Event: ev, Seq: seq, Ack: ack, TSecr: tsecr,
		Una: s.Una, High: s.High, Cwnd: s.Cwnd, Ssthresh: s.Ssthresh,
		Flight: s.rec.flight(), RTO: s.est.RTO(s.backoff), SRTT: s.SRTT, Retx: retx,
	}
	s.probe(p)
}
