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
	power float64 // mW of every signal present
	nsig  int     // signals present
	cand  *signal // in its preamble detection window (dsssReception)
	rx    *signal // the frame being received
	// rxBad: the frame being received is lost whatever follows; rxColl:
	// another signal overlapped it (thresholdReception).
	rxBad, rxColl bool
	segs          []segment
	txEnd         int64 // own transmission ends (ns)
	detect        sim.Timer

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
	r.ch.recv.arrived(r, s)
	r.update()
}

func (r *Radio) signalEnd(s *signal) {
	if s == r.rx {
		r.rx = nil
		ok, collided := r.ch.recv.decode(r, s)
		r.remove(s)
		r.received(s.f, ok, collided)
		return
	}
	r.remove(s)
	r.ch.recv.left(r, s)
	r.update()
}

func (r *Radio) remove(s *signal) {
	r.nsig--
	r.power -= s.mw
	if r.nsig == 0 {
		r.power = 0 // no rounding residue once the air is empty
	}
}

// startTx puts a frame on the air; what becomes of a reception in
// progress is the reception model's to say.
func (r *Radio) startTx(f frame, dur int64) {
	r.ch.recv.sending(r)
	r.txEnd = r.now() + dur
	r.txDone.Arm(sim.Time(r.txEnd))
	r.ch.transmit(r, f, dur)
	r.update()
}
