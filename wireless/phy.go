package wireless

import (
	"math/rand/v2"

	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Radio is a node's 802.11b interface: the PHY that hears every signal
// within sensing range (this file) and the DCF MAC above it (mac.go).
type Radio struct {
	Node *network.Node
	X, Y float64
	// PHYLoss, if set, corrupts data frames addressed to this radio that
	// survived the channel: the MAC sends no ACK and the sender retries.
	// Loss, if set, drops packets after the MAC acknowledged them, before
	// IP: the loss TCP sees.
	PHYLoss, Loss network.ErrorModel
	// Queue is the interface queue (default: drop-tail of the configured
	// limit); any FIFO discipline fits, e.g. a marker for the congestion
	// warnings of NewJersey and T-DLRP. The age limit applies on top.
	Queue network.Queue
	Stats Stats

	ch    *Channel
	idx   int
	rng   *rand.Rand
	hears []hearing
	nbrs  []*network.Node

	// PHY state.
	power  float64 // mW of every signal present
	nsig   int     // signals present
	cand   *signal // in its preamble detection window
	rx     *signal // the frame being received
	segs   []segment
	txEnd  int64 // own transmission ends (ns)
	detect sim.Timer

	// MAC state (mac.go).
	state    macState
	svc      service
	enqAt    ring.Buffer[queued] // the queued packets' enqueue times and next hops, in order
	ahead    []lane              // the classes served before Queue (Config.Ahead)
	held     *network.Packet     // a broadcast's packet until its receivers have it
	maxDelay int64               // the longest propagation delay to a radio that hears this one
	release  sim.Timer
	mob      Mobility // nil: the radio stays where it was placed
	posAt    int64    // X, Y are the position at this time
	hearsAt  int64    // hears was worked out at this time
	cw       int
	slots    int   // backoff slots left, counted from idleAt + ifs
	busy     bool  // the MAC's view of the medium, last evaluated
	idleAt   int64 // when the medium last became idle
	ifs      int64 // DIFS, or EIFS after a frame received in error
	navEnd   int64
	seq      uint32
	lastSeq  map[int]uint32 // duplicate detection: last sequence number by sender
	resp     frame          // response to send SIFS after a reception
	lateWait bool           // the response timeout fell inside a reception: decide at its end
	txDone   sim.Timer
	wait     sim.Timer // ACK or CTS timeout
	access   sim.Timer // backoff ends
	respond  sim.Timer
	nav      sim.Timer
}

// queued is what the MAC keeps beside a queued packet: when it came, and
// the neighbour it goes to (nil: a broadcast).
type queued struct {
	at int64
	to *Radio
}

// segment is the interference a reception saw from time t on.
type segment struct {
	t  int64
	mw float64
}

// Neighbours implements network.Radio: the nodes that can decode this
// radio's frames.
func (r *Radio) Neighbours() []*network.Node { return r.nbrs }

func (r *Radio) now() int64 { return int64(r.ch.net.Now()) }

// transmitting reports whether the radio is sending.
func (r *Radio) transmitting() bool { return r.now() < r.txEnd }

// physBusy is the PHY's clear-channel assessment: sending, receiving, or
// enough energy on the air.
func (r *Radio) physBusy() bool {
	return r.transmitting() || r.rx != nil || r.power >= r.ch.ccaMW
}

func (r *Radio) signalStart(s *signal) {
	r.power += s.mw
	r.nsig++
	switch {
	case r.rx != nil:
		r.segs = append(r.segs, segment{r.now(), r.power - r.rx.mw})
	case r.cand == nil && !r.transmitting() && s.mw >= r.ch.rxMW:
		// The preamble is detected, or not, 4 µs in (ns-3's threshold
		// detection): a frame that starts together with another is lost
		// to both receivers' detection.
		r.cand = s
		r.detect.Arm(sim.Time(r.now() + 4000))
	}
	r.update()
}

func (r *Radio) onDetect() {
	s := r.cand
	r.cand = nil
	if s == nil || r.rx != nil || r.transmitting() {
		return
	}
	if s.mw/(r.ch.noise+r.power-s.mw) < r.ch.preSN {
		return // only energy: it makes the medium busy if strong enough
	}
	r.rx = s
	r.segs = append(r.segs[:0], segment{r.now(), r.power - s.mw})
	r.update()
}

func (r *Radio) signalEnd(s *signal) {
	if s == r.cand {
		r.cand = nil
		r.detect.Cancel()
	}
	if s == r.rx {
		r.rx = nil
		ok, collided := r.decode(s)
		r.remove(s)
		r.received(s.f, ok, collided)
		return
	}
	r.remove(s)
	if r.rx != nil {
		r.segs = append(r.segs, segment{r.now(), r.power - r.rx.mw})
	}
	r.update()
}

func (r *Radio) remove(s *signal) {
	r.nsig--
	r.power -= s.mw
	if r.nsig == 0 {
		r.power = 0 // no rounding residue once the air is empty
	}
}

// decode draws whether the frame s survived: the PLCP header at 1 Mbit/s
// DBPSK and the rest at the frame's rate, each piece at the SINR of its
// interference segment. The preamble itself is not error-modelled (its
// detection was). collided says another signal overlapped the frame.
func (r *Radio) decode(s *signal) (ok, collided bool) {
	hdrStart, hdrEnd := s.start+preamble, s.start+plcpTotal
	p := 1.0
	for i, seg := range r.segs {
		end := s.end
		if i+1 < len(r.segs) {
			end = r.segs[i+1].t
		}
		if seg.mw > r.ch.noise*1e-3 {
			collided = true
		}
		sinr := s.mw / (r.ch.noise + seg.mw)
		if h := overlap(seg.t, end, hdrStart, hdrEnd); h > 0 {
			p *= chunkSuccess(sinr, float64(h)/1000, 1e6) // 1 bit a µs
		}
		if b := overlap(seg.t, end, hdrEnd, s.end); b > 0 {
			p *= chunkSuccess(sinr, float64(b)*s.f.rate/1e9, s.f.rate)
		}
	}
	return p >= 1 || r.rng.Float64() < p, collided
}

func overlap(a0, a1, b0, b1 int64) int64 {
	return max(0, min(a1, b1)-max(a0, b0))
}

// startTx puts a frame on the air; a reception in progress is abandoned.
func (r *Radio) startTx(f frame, dur int64) {
	r.rx, r.cand = nil, nil
	r.detect.Cancel()
	r.txEnd = r.now() + dur
	r.txDone.Arm(sim.Time(r.txEnd))
	r.ch.transmit(r, f, dur)
	r.update()
}
