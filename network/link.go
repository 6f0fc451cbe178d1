package network

import "github.com/tcplab/tcplab/sim"

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

// LinkStats counts what crossed one direction of a link.
type LinkStats struct {
	TxPackets, TxBytes int64 // transmissions started
	RxPackets, RxBytes int64 // arrivals at the far end (not lost)
	Drops              [NumDropCauses]int64
}

// Link is one direction of a point-to-point link: a queue, a transmitter
// and a propagation pipe. Only the transmitter (while packets wait) and the
// pipe's head are scheduled, so the event heap holds at most two entries per
// link whatever the number of packets in flight (as htsim's Pipe).
type Link struct {
	// Fields a packet does not touch come first, with the bandwidth and
	// the cost (LinkConfig's first fields) at the end of the first cache
	// line. The fields every packet touches, from the delay on, fill the
	// next three lines exactly, and the drop counters follow: the link a
	// packet is queued on and, a delay later, arrives over touches three
	// cache lines, not five. With thousands of flows the links no longer
	// fit in the caches and each line is a miss. Link is 320 bytes, a size
	// class of whole cache lines, so the lines fall where the offsets say
	// (TestLinkHotFieldsFillThreeCacheLines).
	Name    string
	From    *Node
	Reverse *Link // the other direction
	net     *Net
	// txDone starts transmissions at their own times on an eager link
	// (see eager); made on first use, so that the others do not carry it.
	txDone *sim.Timer
	LinkConfig
	arrive    sim.Timer
	busyUntil sim.Time // the transmitter is sending until then
	txTime    sim.Time
	txSize    int32 // size whose serialization time is txTime
	// queued is false when the queue is known to be empty, so that the
	// arrivals of an unqueued link (most of them) skip asking it.
	queued    bool
	pipe      pipe
	Tracer    LinkTracer
	To        *Node
	Queue     Queue
	DelayProc DelayProcess
	Errors    ErrorModel
	Stats     LinkStats // its packet and byte counts first
}

// Enqueue offers p to the link's queue and starts transmitting if idle.
func (l *Link) Enqueue(p *Packet) {
	now := l.arrive.Now()
	if l.Tracer != nil {
		l.Tracer.Trace('+', l, p, now)
	}
	l.catchUp(now)
	if l.busyUntil <= now && !l.queued {
		if dt, ok := l.Queue.(*DropTail); ok && (dt.LimitBytes == 0 || int(p.Size) <= dt.LimitBytes) {
			// An idle transmitter and an empty drop-tail queue: the
			// packet would be accepted and taken straight back out
			// (most packets of a run), so it skips the queue. Other
			// disciplines see every arrival (RED averages on it).
			l.transmit(p, now)
			return
		}
	}
	if c := l.Queue.Enqueue(p, now); c != NotDropped {
		l.drop(p, c)
		return
	}
	l.queued = true
	if l.busyUntil <= now {
		l.startTx(now)
	} else if l.eager() && (l.txDone == nil || !l.txDone.Armed()) {
		l.armTxDone()
	}
}

func (l *Link) drop(p *Packet, c DropCause) {
	if l.Tracer != nil {
		l.Tracer.Trace('d', l, p, l.arrive.Now())
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
func (l *Link) eager() bool { return l.DelayProc != nil || l.Tracer != nil }

// catchUp starts, at their own times, the transmissions that were due by
// now, so the queue holds exactly what it would hold at now.
func (l *Link) catchUp(now sim.Time) {
	for l.queued && l.busyUntil <= now {
		if l.Queue.Len() == 0 {
			l.queued = false
			return
		}
		l.startTx(l.busyUntil)
	}
}

// startTx takes the head of the queue onto the wire at time at. The
// packet goes straight into the pipe with its arrival time.
func (l *Link) startTx(at sim.Time) {
	p := l.Queue.Dequeue(at)
	if p == nil {
		return
	}
	l.transmit(p, at)
	switch {
	case l.Queue.Len() == 0:
		l.queued = false
		// Tell the queue the transmitter idles from end (RED's idle-time
		// decay); a packet arriving before then simply clears it.
		l.Queue.Dequeue(l.busyUntil)
	case l.eager():
		l.armTxDone()
	}
}

// transmit puts p on the wire at time at: it goes straight into the pipe
// with its arrival time.
func (l *Link) transmit(p *Packet, at sim.Time) {
	l.Stats.TxPackets++
	l.Stats.TxBytes += int64(p.Size)
	if l.Tracer != nil {
		l.Tracer.Trace('-', l, p, at)
	}
	if p.Size != l.txSize {
		// Most packets of a link have one of two sizes (data, ACK): cache
		// the last serialization time instead of dividing every time.
		l.txSize, l.txTime = p.Size, sim.TxTime(int(p.Size), l.Bandwidth)
	}
	end := at + l.txTime
	l.busyUntil = end
	d := l.Delay
	if l.DelayProc != nil {
		d = l.DelayProc.Delay(end)
	}
	if l.pipe.push(p, end+d) {
		l.arrive.Arm(end + d) // new head
	}
}

// armTxDone arms the transmitter's own event for the end of the current
// transmission.
func (l *Link) armTxDone() {
	if l.txDone == nil {
		l.txDone = sim.NewTimer(l.net.Sched, l.onTxDone)
	}
	l.txDone.Arm(l.busyUntil)
}

func (l *Link) onTxDone() { l.startTx(l.arrive.Now()) }

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
		if l.Errors != nil {
			if c := l.Errors.Drop(p, now); c != NotDropped {
				l.drop(p, c)
				continue
			}
		}
		l.Stats.RxPackets++
		l.Stats.RxBytes += int64(p.Size)
		if l.Tracer != nil {
			l.Tracer.Trace('r', l, p, now)
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
