package network

import (
	"math"

	"github.com/tcplab/tcplab/sim"
)

// LinkConfig is what both directions of a link share. Delay comes last: a
// link places the other two in a cache line of its cold fields and the
// delay, which every transmission reads, at the start of its hot ones (see
// Link).
type LinkConfig struct {
	Bandwidth float64  // bits per second
	Cost      int64    // routing cost; 0 means 1
	Delay     sim.Time // propagation delay when DelayProc is nil
}

// DelayProcess gives the propagation delay of a packet that finishes
// transmission at time now. When it falls, later packets may overtake
// earlier ones, as after a route change (Abouzeid & Roy).
type DelayProcess interface {
	Delay(now sim.Time) sim.Time
}

// ErrorModel decides whether a packet that crossed a link is lost, and why
// (ChannelError, or RetxLoss for injected retransmission loss).
type ErrorModel interface {
	Drop(p *Packet, now sim.Time) DropCause
}

// LinkTracer observes one direction of a link (pcap and ns-2 traces).
// Event letters follow ns-2: '+' enqueue, '-' dequeue (transmission
// start), 'r' received at the far end, 'd' dropped.
type LinkTracer interface {
	Trace(event byte, l *Link, p *Packet, now sim.Time)
}

// TraceFunc adapts a function to LinkTracer.
type TraceFunc func(event byte, l *Link, p *Packet, now sim.Time)

// Trace implements LinkTracer.
func (f TraceFunc) Trace(event byte, l *Link, p *Packet, now sim.Time) { f(event, l, p, now) }

// LinkStats counts what crossed one direction of a link.
type LinkStats struct {
	TxPackets, TxBytes int64 // transmissions started
	RxPackets, RxBytes int64 // arrivals at the far end (not lost)
	// Drops by cause; a routing protocol's causes never happen on a
	// link, and the array stops before them to keep Link's layout.
	Drops [BrokenLink]int64
}

// Link is one direction of a point-to-point link: a queue, a transmitter
// and a propagation pipe. Only the transmitter (while packets wait) and the
// pipe's head are scheduled, so the event heap holds at most two entries per
// link whatever the number of packets in flight (as htsim's Pipe).
type Link struct {
	// Fields a packet does not touch come first, with the bandwidth and
	// the cost (LinkConfig's first fields) at the end of the first cache
	// line. What a packet's hop reads and writes, from the delay to the
	// arrival counts, fills the next two lines exactly: a packet queued on
	// an idle link and, a delay later, arriving over it touches two cache
	// lines of it, with thousands of flows two misses. The queue and the
	// hooks (tracer, delay process, error model) follow the drop counters:
	// a flag in the hot lines says which hooks are set, and a drop-tail
	// queue's byte limit is copied there (admit), so that a packet finding
	// the link idle reads neither. That is why they are set through
	// methods. Link is 320 bytes, a size class of whole cache lines, so the
	// lines fall where the offsets say (TestLinkHotFieldsFillTwoCacheLines).
	Name    string
	From    *Node
	Reverse *Link // the other direction
	net     *Net
	// cold is what only some links need, made on first use so that the
	// others do not carry it: the transmitter's own event (eager links)
	// and the queueing-delay record (links whose queue held a packet).
	cold *linkCold
	LinkConfig
	arrive    sim.Timer
	busyUntil sim.Time // the transmitter is sending until then
	txTime    sim.Time
	txSize    int32 // size whose serialization time is txTime
	// admit is the largest packet the queue accepts when empty, 65 535 at
	// most; 0 if the queue must see every arrival (not a drop-tail one).
	admit uint16
	// queued is false when the queue is known to be empty, so that the
	// arrivals of an unqueued link (most of them) skip asking it.
	queued    bool
	hooks     hook // which of the hooks below are set
	To        *Node
	pipe      pipe
	Stats     LinkStats // its packet and byte counts first
	queue     Queue
	tracer    LinkTracer
	delayProc DelayProcess
	errors    ErrorModel
}

// hook is a set of a link's optional hooks.
type hook uint8

const (
	hookTracer hook = 1 << iota
	hookDelay
	hookErrors
)

// set records whether the hook h is present.
func (l *Link) set(h hook, present bool) {
	l.hooks &^= h
	if present {
		l.hooks |= h
	}
}

// Queue is the buffer in front of the transmitter.
func (l *Link) Queue() Queue { return l.queue }

// SetQueue replaces the link's queue; it is meant for set-up, before
// packets wait in the old one.
func (l *Link) SetQueue(q Queue) {
	l.queue, l.admit = q, 0
	if d, ok := q.(DequeueDropper); ok {
		d.SetDrop(l.drop)
	}
	if d, ok := q.(*DropTail); ok {
		// An empty drop-tail queue takes any packet within its byte
		// limit (its packet limit is at least one or none).
		l.admit = math.MaxUint16
		if d.limitBytes > 0 {
			l.admit = uint16(min(d.limitBytes, math.MaxUint16))
		}
	}
}

// Tracer is the link's tracer, or nil.
func (l *Link) Tracer() LinkTracer { return l.tracer }

// SetTracer makes t observe the link (nil: none).
func (l *Link) SetTracer(t LinkTracer) {
	l.tracer = t
	l.set(hookTracer, t != nil)
}

// DelayProcess gives the link's propagation delays, or is nil (Delay
// then).
func (l *Link) DelayProcess() DelayProcess { return l.delayProc }

// SetDelayProcess makes d give the link's propagation delays (nil: the
// constant Delay).
func (l *Link) SetDelayProcess(d DelayProcess) {
	l.delayProc = d
	l.set(hookDelay, d != nil)
}

// ErrorModel decides which packets crossing the link are lost, or is nil.
func (l *Link) ErrorModel() ErrorModel { return l.errors }

// SetErrorModel makes m decide which packets crossing the link are lost
// (nil: none).
func (l *Link) SetErrorModel(m ErrorModel) {
	l.errors = m
	l.set(hookErrors, m != nil)
}

// Enqueue offers p to the link's queue and starts transmitting if idle.
func (l *Link) Enqueue(p *Packet) {
	now := l.arrive.Now()
	if l.hooks&hookTracer != 0 {
		l.tracer.Trace('+', l, p, now)
	}
	l.catchUp(now)
	if l.busyUntil <= now && !l.queued && l.admit != 0 && p.Size <= int32(l.admit) {
		// An idle transmitter and an empty drop-tail queue that takes
		// p: the packet would be accepted and taken straight back out
		// (most packets of a run), so it skips the queue. Other
		// disciplines see every arrival (RED averages on it).
		l.transmit(p, now)
		return
	}
	// Until it is on the wire a packet's arrival time is free: it keeps
	// when the packet reached the link, for its queueing delay.
	p.arriveAt = now
	if c := l.queue.Enqueue(p, now); c != NotDropped {
		l.drop(p, c)
		return
	}
	l.queued = true
	if l.busyUntil <= now {
		l.startTx(now)
	} else if l.eager() && (l.cold == nil || l.cold.txDone == nil || !l.cold.txDone.Armed()) {
		l.armTxDone()
	}
}

// linkCold is a link's state that a packet's hop does not touch.
type linkCold struct {
	// txDone starts transmissions at their own times on an eager link
	// (see eager).
	txDone *sim.Timer
	delay  queueDelay
}

func (l *Link) coldState() *linkCold {
	if l.cold == nil {
		l.cold = &linkCold{}
	}
	return l.cold
}

// QueueDelay summarizes how long the packets this link transmitted waited
// for its transmitter (queueDelay).
func (l *Link) QueueDelay() QueueStats {
	if l.cold == nil {
		return QueueStats{Packets: l.Stats.TxPackets}
	}
	return l.cold.delay.stats(l.Stats.TxPackets)
}

func (l *Link) drop(p *Packet, c DropCause) {
	if l.hooks&hookTracer != 0 {
		l.tracer.Trace('d', l, p, l.arrive.Now())
	}
	l.net.Drop(p, c, l)
}

// eager reports whether each transmission start needs its own event. With
// a constant delay and no tracer it does not: the packet on the wire
// arrives at end+delay, and the next one, starting at end, arrives later
// still, so starting it when the first one arrives (or when the next
// packet is enqueued, whichever comes first) is never too late. That makes
// every hop cost one event per packet. A delay process may shorten the
// delay, and a tracer wants its lines in time order: both keep the
// transmitter's own event.
func (l *Link) eager() bool { return l.hooks&(hookDelay|hookTracer) != 0 }

// catchUp starts, at their own times, the transmissions that were due by
// now, so the queue holds exactly what it would hold at now.
func (l *Link) catchUp(now sim.Time) {
	for l.queued && l.busyUntil <= now {
		if l.queue.Len() == 0 {
			l.queued = false
			return
		}
		l.startTx(l.busyUntil)
	}
}

// startTx takes the head of the queue onto the wire at time at. The
// packet goes straight into the pipe with its arrival time.
func (l *Link) startTx(at sim.Time) {
	p := l.queue.Dequeue(at)
	if p == nil {
		return
	}
	l.coldState().delay.add(at - p.arriveAt)
	l.transmit(p, at)
	switch {
	case l.queue.Len() == 0:
		l.queued = false
		// Tell the queue the transmitter idles from end (RED's idle-time
		// decay); a packet arriving before then simply clears it.
		l.queue.Dequeue(l.busyUntil)
	case l.eager():
		l.armTxDone()
	}
}

// transmit puts p on the wire at time at: it goes straight into the pipe
// with its arrival time.
func (l *Link) transmit(p *Packet, at sim.Time) {
	l.Stats.TxPackets++
	l.Stats.TxBytes += int64(p.Size)
	if l.hooks&hookTracer != 0 {
		l.tracer.Trace('-', l, p, at)
	}
	if p.Size != l.txSize {
		// Most packets of a link have one of two sizes (data, ACK): cache
		// the last serialization time instead of dividing every time.
		l.txSize, l.txTime = p.Size, sim.TxTime(int(p.Size), l.Bandwidth)
	}
	end := at + l.txTime
	l.busyUntil = end
	d := l.Delay
	if l.hooks&hookDelay != 0 {
		d = l.delayProc.Delay(end)
	}
	if l.pipe.push(p, end+d) {
		l.arrive.Arm(end + d) // new head
	}
}

// armTxDone arms the transmitter's own event for the end of the current
// transmission.
func (l *Link) armTxDone() {
	c := l.coldState()
	if c.txDone == nil {
		c.txDone = sim.NewTimer(l.net.Sched, l.onTxDone)
	}
	c.txDone.Arm(l.busyUntil)
}

// onTxDone starts what is due by now, each transmission at its own time,
// as catchUp does for an arrival or an enqueue: one of those at this very
// instant may have started the next packet already, and starting another
// here would put two on the wire at once.
func (l *Link) onTxDone() {
	l.catchUp(l.arrive.Now())
	if l.queued {
		l.armTxDone()
	}
}

func (l *Link) onArrive() {
	now := l.arrive.Now()
	l.catchUp(now)
	for {
		p := l.pipe.head
		if p == nil {
			return
		}
		if p.arriveAt > now {
			l.arrive.Arm(p.arriveAt)
			return
		}
		l.pipe.pop()
		if l.hooks&hookErrors != 0 {
			if c := l.errors.Drop(p, now); c != NotDropped {
				l.drop(p, c)
				continue
			}
		}
		l.Stats.RxPackets++
		l.Stats.RxBytes += int64(p.Size)
		if l.hooks&hookTracer != 0 {
			l.tracer.Trace('r', l, p, now)
		}
		l.To.receive(p, l)
	}
}

// Busy reports whether the transmitter is sending.
func (l *Link) Busy() bool { return l.busyUntil > l.arrive.Now() }

// InFlight is the number of packets propagating on the link.
func (l *Link) InFlight() int {
	n := 0
	for p := l.pipe.head; p != nil; p = p.next {
		n++
	}
	return n
}

// pipe holds packets in propagation, sorted by arrival time (stable for
// equal times), as a list threaded through the packets themselves: the
// packet is touched anyway when it is sent and when it arrives, so the
// pipe costs no memory of its own and no extra cache line per hop. With a
// constant delay every push lands at the tail; a falling delay inserts a
// packet before slower ones, which then arrive out of order, as after a
// route change.
type pipe struct{ head, tail *Packet }

// push inserts p to arrive at time at and reports whether it became the head.
func (q *pipe) push(p *Packet, at sim.Time) bool {
	p.arriveAt = at
	switch {
	case q.tail == nil:
		p.next = nil
		q.head, q.tail = p, p
		return true
	case q.tail.arriveAt <= at:
		p.next = nil
		q.tail.next, q.tail = p, p
		return false
	case at < q.head.arriveAt:
		p.next, q.head = q.head, p
		return true
	}
	// Overtaking (a delay process only): after the last entry that
	// arrives no later than p.
	prev := q.head
	for prev.next.arriveAt <= at {
		prev = prev.next
	}
	p.next, prev.next = prev.next, p
	return false
}

// pop removes the head.
func (q *pipe) pop() {
	p := q.head
	q.head = p.next
	if q.head == nil {
		q.tail = nil
	}
	p.next = nil
}
