package wireless

import (
	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// macState is where the DCF is with the frame in service.
type macState uint8

const (
	idle      macState = iota // nothing to send
	reporting                 // idle, while the routing protocol hears of a failed frame
	contend                   // a frame waits for its backoff
	sendRTS                   // RTS on the air
	waitCTS                   //
	sendData                  // data on the air (after the backoff, or SIFS after a CTS)
	waitACK                   //
)

// service is the packet the MAC is sending and its retry state.
type service struct {
	pkt       *network.Packet
	to        *Radio
	seq       uint32
	short     int // transmissions of the frame (or its RTS) that failed
	long      int // data transmissions after RTS/CTS that failed
	sent      bool
	delivered bool // the receiver has it (ground truth: a lost ACK is not a lost packet)
}

// Send implements network.Radio: queue p for the neighbour to, or for
// every neighbour if to is nil (a broadcast: one frame, no ACK, no retry).
func (r *Radio) Send(p *network.Packet, to *network.Node) {
	now := r.now()
	q, side := r.Queue, &r.enqAt
	if len(r.ahead) > 0 {
		q, side = r.queueOf(p)
	}
	if q.Len() >= r.ch.cfg.QueueLimit {
		r.expire(now, q, side)
	}
	if c := q.Enqueue(p, sim.Time(now)); c != network.NotDropped {
		r.Stats.QueueDrops++
		r.ch.net.Drop(p, c, nil)
		return
	}
	e := queued{at: now}
	if to != nil {
		e.to = r.ch.byNode[to.ID]
	}
	side.PushBack(e)
	r.Stats.MaxQueueLen = max(r.Stats.MaxQueueLen, r.queuedLen())
	if r.state == idle {
		r.next(true)
	}
}

// expire drops the packets at the head of queue q (side: its entries)
// that waited longer than the age limit.
func (r *Radio) expire(now int64, q network.Queue, side *ring.Buffer[queued]) {
	limit := int64(r.ch.cfg.QueueMaxDelay)
	for limit > 0 && side.Len() > 0 && now-side.At(0).at > limit {
		side.PopFront()
		p := q.Dequeue(sim.Time(now))
		r.Stats.AgeDrops++
		r.ch.net.Drop(p, network.QueueAge, nil)
	}
}

// next takes the next packet into service, or goes idle; arrival says a
// packet found the MAC idle.
func (r *Radio) next(arrival bool) {
	now := r.now()
	r.expire(now, r.Queue, &r.enqAt)
	for i := range r.ahead {
		r.expire(now, r.ahead[i].q, &r.ahead[i].enqAt)
	}
	q, side := r.Queue, &r.enqAt
	if len(r.ahead) > 0 {
		q, side = r.head()
	}
	if q.Len() == 0 {
		r.state = idle
		return
	}
	to := side.At(0).to
	side.PopFront()
	p := q.Dequeue(sim.Time(now))
	r.seq++
	r.svc = service{pkt: p, to: to, seq: r.seq}
	r.state = contend
	// A frame that arrives to find the backoff done but the medium busy,
	// or idle for less than DIFS, draws a backoff (802.11-2020 §10.3.4.2).
	if arrival && r.slots == 0 && (r.busy || now < r.idleAt+r.ifs) {
		r.slots = r.draw()
	}
	r.arm()
}

func (r *Radio) draw() int { return r.rng.IntN(r.cw + 1) }

// arm sets the access timer while contending on an idle medium.
func (r *Radio) arm() {
	if r.state == contend && !r.busy {
		r.access.Arm(sim.Time(r.idleAt + r.ifs + int64(r.slots)*slotTime))
	}
}

// update re-evaluates the MAC's view of the medium (physical carrier
// sense, the NAV and its own exchange) and runs the backoff's clock.
func (r *Radio) update() {
	now := r.now()
	busy := r.physBusy() || now < r.navEnd || r.state > contend
	if busy == r.busy {
		return
	}
	r.busy = busy
	if busy {
		// Freeze the backoff: the idle slots that ended since the IFS count.
		if start := r.idleAt + r.ifs; now > start {
			r.slots = max(0, r.slots-int((now-start)/slotTime))
		}
		r.access.Cancel()
		return
	}
	r.idleAt = now
	r.arm()
}

// onAccess: the backoff ended on an idle medium.
func (r *Radio) onAccess() {
	if r.state != contend || r.busy {
		return
	}
	r.slots = 0
	cfg := &r.ch.cfg
	size := int(r.svc.pkt.Size) + macOverhead
	if r.svc.to != nil && cfg.RTSThreshold >= 0 && size > cfg.RTSThreshold {
		r.state = sendRTS
		r.Stats.RTS++
		dataDur := airTime(size, cfg.Rate)
		nav := sifs + r.ch.ctsDur + sifs + dataDur + sifs + r.ch.ackDur
		r.startTx(frame{kind: rtsFrame, from: r, to: r.svc.to, nav: nav, rate: cfg.BasicRate}, r.ch.rtsDur)
		return
	}
	r.sendData()
}

func (r *Radio) sendData() {
	cfg := &r.ch.cfg
	r.state = sendData
	r.Stats.DataFrames++
	if r.svc.sent {
		r.Stats.Retries++
	}
	if r.svc.to == nil {
		// A group-addressed frame goes at the broadcast rate with no
		// duration (nothing answers it) and is never retried
		// (802.11-2020 §10.3.6, §10.6.6.1).
		r.Stats.Broadcasts++
		dur := airTime(int(r.svc.pkt.Size)+macOverhead, r.ch.bcastRate)
		r.startTx(frame{kind: dataFrame, from: r, rate: r.ch.bcastRate, pkt: r.svc.pkt, seq: r.svc.seq}, dur)
		r.svc.sent = true
		return
	}
	dur := airTime(int(r.svc.pkt.Size)+macOverhead, cfg.Rate)
	r.startTx(frame{kind: dataFrame, from: r, to: r.svc.to, nav: sifs + r.ch.ackDur, rate: cfg.Rate,
		pkt: r.svc.pkt, seq: r.svc.seq, retry: r.svc.sent}, dur)
	r.svc.sent = true
}

// onTxDone: the radio's own frame left the air.
func (r *Radio) onTxDone() {
	switch r.state {
	case sendRTS:
		r.state = waitCTS
		r.wait.Arm(sim.Time(r.now() + r.ch.respTimeout))
	case sendData:
		if r.svc.to == nil {
			// A broadcast awaits no ACK. Its receivers copy the packet
			// as the frame ends at each of them, up to the longest
			// propagation delay from now: hold it until then.
			if r.held != nil {
				r.ch.net.Free(r.held)
			}
			r.held = r.svc.pkt
			r.release.Arm(sim.Time(r.now() + r.maxDelay + 1))
			r.done(true)
			return
		}
		r.state = waitACK
		r.wait.Arm(sim.Time(r.now() + r.ch.respTimeout))
	}
	r.update()
}

// onTimeout: no response began in time. If one is being received, the
// decision waits for its end.
func (r *Radio) onTimeout() {
	if r.rx != nil {
		r.lateWait = true
		return
	}
	r.failed()
}

// failed counts a missed CTS or ACK: back off with a doubled window, or
// give up at the retry limit.
func (r *Radio) failed() {
	cfg := &r.ch.cfg
	r.Stats.MissedACKs++
	limit, count := cfg.ShortRetryLimit, &r.svc.short
	if r.state == waitACK && cfg.RTSThreshold >= 0 && int(r.svc.pkt.Size)+macOverhead > cfg.RTSThreshold {
		limit, count = cfg.LongRetryLimit, &r.svc.long
	}
	*count++
	if *count >= limit {
		r.Stats.RetryDrops++
		p, to, delivered := r.svc.pkt, r.svc.to, r.svc.delivered
		r.finish(true)
		// The MAC's failure is the routing protocol's news of a broken
		// link (link-layer feedback); it may take the packet to salvage,
		// and the packets queued for that neighbour. It hears before the
		// MAC takes its next packet, which would otherwise go to the
		// neighbour just given up on (ns-2.35's Mac802_11 calls its
		// failure callback, where DSR empties the queue for that hop,
		// before tx_resume; ns-3.37's MAC reports the drop before it
		// next dequeues).
		r.state = reporting
		if !r.Node.LinkFailed(p, to.Node) {
			if delivered {
				r.ch.net.Free(p)
			} else {
				r.ch.net.Drop(p, network.RetryLimit, nil)
			}
		}
		r.state = idle
		r.next(false)
		return
	}
	r.cw = min(2*(r.cw+1)-1, cfg.CWMax)
	r.state = contend
	r.slots = r.draw()
	r.update()
	r.arm()
}

// done ends the service of a packet (sent, or given up) and takes the
// next.
func (r *Radio) done(drop bool) {
	r.finish(drop)
	r.next(false)
}

// finish ends the service of a packet: reset the window and draw the
// post-backoff.
func (r *Radio) finish(drop bool) {
	if !drop {
		r.ch.net.Free(r.svc.pkt)
	}
	r.svc = service{}
	r.cw = r.ch.cfg.CWMin
	r.slots = r.draw()
	r.state = idle
	r.update()
}

// received handles the end of a reception the PHY locked onto.
func (r *Radio) received(f frame, ok, collided bool) {
	now := r.now()
	if ok && f.kind == dataFrame && (f.to == r || f.to == nil) && r.PHYLoss != nil && r.PHYLoss.Drop(f.pkt, sim.Time(now)) != network.NotDropped {
		ok, collided = false, false
	}
	if !ok {
		if collided {
			r.Stats.Collisions++
		} else {
			r.Stats.PHYErrors++
		}
		r.ifs = r.ch.eifs
		r.settleLate()
		r.update()
		return
	}
	r.ifs = difs
	if f.to != r && f.to != nil {
		if f.kind == dataFrame {
			if o, ok := r.Node.Router().(network.Overhearer); ok {
				o.Overheard(f.pkt, f.from.Node)
			}
		}
		// Virtual carrier sense: the exchange holds the medium for f.nav.
		if end := now + f.nav; end > r.navEnd {
			r.navEnd = end
			r.nav.Arm(sim.Time(end))
		}
		r.settleLate()
		r.update()
		return
	}
	switch f.kind {
	case dataFrame:
		r.Stats.Received++
		if f.to == nil {
			r.deliver(f.pkt) // a broadcast: no ACK, no duplicates to detect
			break
		}
		r.reply(frame{kind: ackFrame, from: r, to: f.from, rate: r.ackRate()})
		if last, seen := r.lastSeq[f.from.idx]; seen && last == f.seq && f.retry {
			r.Stats.Duplicates++
		} else {
			r.lastSeq[f.from.idx] = f.seq
			f.from.svc.delivered = f.from.svc.seq == f.seq || f.from.svc.delivered
			r.deliver(f.pkt)
		}
	case rtsFrame:
		if now >= r.navEnd {
			r.reply(frame{kind: ctsFrame, from: r, to: f.from, nav: f.nav - sifs - r.ch.ctsDur, rate: r.ch.cfg.BasicRate})
		}
	case ctsFrame:
		if r.state == waitCTS && f.from == r.svc.to {
			r.wait.Cancel()
			r.lateWait = false
			r.svc.short = 0
			r.state = sendData // SIFS, then the data
			r.resp = frame{kind: dataFrame}
			r.respond.Arm(sim.Time(now + sifs))
		}
	case ackFrame:
		if r.state == waitACK && f.from == r.svc.to {
			r.wait.Cancel()
			r.lateWait = false
			r.done(false)
			return
		}
	}
	r.settleLate()
	r.update()
}

// settleLate decides a response timeout that fell inside a reception
// which turned out not to be the response.
func (r *Radio) settleLate() {
	if r.lateWait {
		r.lateWait = false
		if r.state == waitACK || r.state == waitCTS {
			r.failed()
		}
	}
}

func (r *Radio) ackRate() float64 {
	if r.ch.cfg.ACKRate != 0 {
		return r.ch.cfg.ACKRate
	}
	return r.ch.cfg.Rate
}

// reply sends an ACK or CTS SIFS after the frame it answers, whatever the
// medium (802.11-2020 §10.3.2.9).
func (r *Radio) reply(f frame) {
	r.resp = f
	r.respond.Arm(sim.Time(r.now() + sifs))
}

func (r *Radio) onRespond() {
	f := r.resp
	switch f.kind {
	case ackFrame:
		r.startTx(f, r.ch.ackDur)
	case ctsFrame:
		r.startTx(f, r.ch.ctsDur)
	case dataFrame:
		if r.state == sendData {
			r.sendData()
		}
	}
}

// deliver hands a received packet up: a copy of the sender's, which the
// sender keeps until its ACK, unless the loss model above the MAC drops it.
func (r *Radio) deliver(sent *network.Packet) {
	p := r.ch.net.Alloc()
	id := p.ID
	*p = *sent
	p.ID = id
	if r.Loss != nil {
		if c := r.Loss.Drop(p, sim.Time(r.now())); c != network.NotDropped {
			r.Stats.AboveMAC++
			r.ch.net.Drop(p, c, nil)
			return
		}
	}
	r.Node.Arrive(p)
}

// onRelease frees a broadcast packet once every receiver has copied it.
func (r *Radio) onRelease() {
	if r.held != nil {
		r.ch.net.Free(r.held)
		r.held = nil
	}
}

// Withdraw takes out of the interface queue (and the lanes ahead of it)
// every packet waiting for neighbour to, in order, and hands each to fn
// (a routing protocol salvaging the packets of a link it found broken, as
// ns-2's DSR does); the others keep their order and their enqueue times.
func (r *Radio) Withdraw(to *network.Node, fn func(p *network.Packet)) {
	for i := range r.ahead {
		r.withdraw(r.ahead[i].q, &r.ahead[i].enqAt, to, fn)
	}
	r.withdraw(r.Queue, &r.enqAt, to, fn)
}

// withdraw takes the packets for to out of q (side: its entries). A queue
// that cannot remove packets (network.Remover) is drained and refilled.
func (r *Radio) withdraw(q network.Queue, side *ring.Buffer[queued], to *network.Node, fn func(p *network.Packet)) {
	n := side.Len()
	gone := make([]bool, n) // by queue position (a broken link is rare)
	for i := range n {
		e := side.At(i)
		gone[i] = e.to != nil && e.to.Node == to
	}
	for i := range n { // the side entries of the kept packets, in order
		e := *side.At(0)
		side.PopFront()
		if !gone[i] {
			side.PushBack(e)
		}
	}
	i := 0
	match := func(*network.Packet) bool { g := gone[i]; i++; return g }
	if rm, ok := q.(network.Remover); ok {
		rm.Remove(match, fn)
		return
	}
	now := sim.Time(r.now())
	var out []*network.Packet
	for range n {
		p := q.Dequeue(now)
		if match(p) {
			out = append(out, p)
			continue
		}
		if c := q.Enqueue(p, now); c != network.NotDropped {
			r.ch.net.Drop(p, c, nil)
		}
	}
	for _, p := range out {
		fn(p)
	}
}
