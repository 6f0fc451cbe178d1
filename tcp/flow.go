package tcp

import (
	"fmt"
	"math"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Flow is one TCP connection: a sender at Src and a receiver at Dst.
type Flow struct {
	// What every packet of the flow reads comes first, in one cache line:
	// with thousands of flows each further line is a miss per packet.
	ID           int32
	sndPort      int32
	rcvPort      int32
	srcID, dstID network.NodeID
	Src, Dst     *network.Node
	// sendOut and ackOut, if set, take the packets the sender and the
	// receiver emit instead of their nodes' Send: the hook of a layer
	// below TCP (network coding, Interpose).
	sendOut, ackOut func(p *network.Packet)
	net             *network.Net
	snd             *Sender
	rcv             *Receiver

	Name string
	// cfg is shared with the flows made before it with an equal
	// configuration (see shareConfig).
	cfg     *Config
	start   sim.Time
	stop    sim.Time
	started bool
	done    sim.Time // completion of a fixed-size transfer (0: not done)
	// What had been delivered and sent when the flow stopped: a stopped
	// flow's rates count its active time only (the data still in flight
	// arrives later and counts in DeliveredBytes, not in the goodput).
	stoppedDelivered, stoppedSent int64
	stoppedAt                     bool
	dropCause                     [network.NumDropCauses]int64
	startTm                       sim.Timer
	stopTm                        sim.Timer
	drained                       func(now sim.Time) // OnDrained
}

// Config is the flow's configuration. It is shared with other flows of
// the network: read it, do not change it.
func (f *Flow) Config() *Config { return f.cfg }

// toReceiver sends a packet of the sender's.
func (f *Flow) toReceiver(p *network.Packet) {
	if f.sendOut != nil {
		f.sendOut(p)
		return
	}
	f.Src.Send(p)
}

// toSender sends a packet of the receiver's.
func (f *Flow) toSender(p *network.Packet) {
	if f.ackOut != nil {
		f.ackOut(p)
		return
	}
	f.Dst.Send(p)
}

// NewFlow builds a connection from src to dst and binds its two endpoints.
// It does not send until Start.
func NewFlow(net *network.Net, id int32, name string, cfg Config, src, dst *network.Node) (*Flow, error) {
	cc, err := cfg.validate()
	if err != nil {
		return nil, fmt.Errorf("flow %s: %w", name, err)
	}
	impl := cfg.VariantImpl()
	cfg.Recovery.SACK = cfg.UsesSACK()
	f := &Flow{ID: id, Name: name, cfg: shareConfig(net, &cfg), Src: src, Dst: dst, srcID: src.ID, dstID: dst.ID, net: net, stop: sim.Never}
	f.snd = newSender(f, cc, variants[impl].recovery)
	f.rcv = newReceiver(f)
	f.sndPort = net.Bind(f.snd)
	f.rcvPort = net.Bind(f.rcv)
	f.startTm.Init(net.Sched, f.onStart)
	f.stopTm.Init(net.Sched, f.onStop)
	net.OnFlowDrop(id, f.noteDrop)
	return f, nil
}

// SetLimit makes the flow a fixed-size transfer of n application bytes
// (0: bulk, an unlimited backlog as ns-2's FTP).
func (f *Flow) SetLimit(n int64) {
	if n <= 0 {
		f.snd.limit = math.MaxInt64
		return
	}
	f.snd.limit = f.snd.dataStart + n
	f.snd.limitBytes = n
}

// Offer gives the sender n more application bytes (an object requested on
// a persistent connection), to send as soon as the window allows.
func (f *Flow) Offer(n int64) {
	f.snd.limitBytes += n
	if !f.started {
		return // onStart sets the limit
	}
	f.snd.limit = f.snd.dataStart + f.snd.limitBytes
	if f.snd.open {
		f.snd.Now = f.net.Now()
		f.snd.trySend()
	}
}

// Ports are the endpoints the sender and the receiver are bound to.
func (f *Flow) Ports() (sender, receiver int32) { return f.sndPort, f.rcvPort }

// DataStart is the sequence number of the first data byte (1 after a
// handshake's SYN, else 0).
func (f *Flow) DataStart() int64 { return f.snd.dataStart }

// OnDrained makes the flow an application-driven one: fn is called each
// time everything offered so far has been acknowledged (instead of the
// flow completing), and may Offer more.
func (f *Flow) OnDrained(fn func(now sim.Time)) { f.drained = fn }

// StartTime is when the connection opens (Start's argument).
func (f *Flow) StartTime() sim.Time { return f.start }

// Start schedules the connection to open at time at.
func (f *Flow) Start(at sim.Time) {
	f.start = at
	f.startTm.Arm(at)
}

// StopAt makes the sender stop offering new data at time at.
func (f *Flow) StopAt(at sim.Time) {
	f.stop = at
	f.stopTm.Arm(at)
}

func (f *Flow) onStart() {
	f.started = true
	f.snd.start()
}

func (f *Flow) onStop() {
	f.snd.stopped = true
	f.stoppedAt = true
	f.stoppedDelivered, f.stoppedSent = f.rcv.Delivered, f.snd.stats.sentBytes
}

func (f *Flow) complete(now sim.Time) {
	if f.drained != nil {
		f.drained(now)
		return
	}
	if f.done == 0 {
		f.done = now
	}
}

// tsNow is the timestamp clock (RFC 7323 §5.4), in ticks of TSTick.
func (f *Flow) tsNow() int64 { return int64(f.net.Now()/f.cfg.TS.Tick) + 1 }

func (f *Flow) noteDrop(p *network.Packet, cause network.DropCause, _ *network.Link) {
	f.dropCause[cause]++
	f.snd.noteDrop(p, cause)
}

// Result summarises the flow at time now (the end of the run).
func (f *Flow) Result(now sim.Time) metrics.Flow {
	s := f.snd
	end := min(now, f.stop)
	if f.done > 0 {
		// A finite transfer is active until its last byte is acknowledged:
		// its goodput is size / completion time, not size / run length.
		end = min(end, f.done)
	}
	active := (end - f.start).Seconds()
	r := metrics.Flow{
		ID: f.Name, Variant: f.cfg.VariantImpl(), Transport: "tcp",
		Src: f.Src.Name, Dst: f.Dst.Name,
		StartSeconds: f.start.Seconds(), StopSeconds: end.Seconds(),
		DeliveredBytes:                  f.rcv.Delivered,
		SentPackets:                     s.stats.sentPackets,
		RetransmittedPackets:            s.stats.retransmits,
		FastRetransmits:                 s.stats.fastRetx,
		Timeouts:                        s.stats.timeouts,
		TimeoutsAfterLostFastRetransmit: s.stats.toAfterLostFR,
		SpuriousRetransmits:             f.rcv.SpuriousRetx,
		SpuriousTimeouts:                s.stats.spuriousTimeouts,
		SpuriousTimeoutsDetected:        s.spur.detected,
		ECNReductions:                   s.stats.ecnReductions,
		RTOMinCostSeconds:               s.stats.minCost.Seconds(),
		Dropped:                         map[string]int64{},
	}
	if f.cfg.Recovery.SACK && f.cfg.VariantImpl() != "sack" {
		r.Variant += "+sack"
	}
	delivered, sent := f.rcv.Delivered, s.stats.sentBytes
	if f.stoppedAt && f.stop < now {
		delivered, sent = f.stoppedDelivered, f.stoppedSent
	}
	if active > 0 {
		r.GoodputBps = float64(delivered) * 8 / active
		r.ThroughputBps = float64(sent) * 8 / active
	}
	for _, c := range network.DropCauses() {
		if n := f.dropCause[c]; n > 0 {
			r.Dropped[c.String()] = n
		}
	}
	r.Accuracy = f.snd.acc.report()
	if f.done > 0 {
		r.CompletionSeconds = (f.done - f.start).Seconds()
	}
	return r
}

// Cwnd is the current congestion window in bytes (uninflated).
func (f *Flow) Cwnd() float64 { return f.snd.Cwnd }

// Ssthresh is the current slow-start threshold in bytes.
func (f *Flow) Ssthresh() float64 { return f.snd.Ssthresh }
