package wireless

import (
	"fmt"
	"math"
	"slices"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Config sets up a channel and its radios. DefaultConfig gives ns-3.37's
// ad-hoc 802.11b configuration.
type Config struct {
	Rate      float64 // data rate, bit/s: one of Rates
	BasicRate float64 // rate of RTS and CTS (and of the ACK when ACKRate says so)
	// ACKRate is the rate of MAC ACKs; 0 sends them at the data rate, as
	// ns-3 does for an ad-hoc station whose basic rate set holds every
	// 802.11b rate.
	ACKRate float64
	// BroadcastRate is the rate of group-addressed frames (a routing
	// protocol's floods and hellos); 0: the basic rate, as ns-3's
	// non-unicast mode.
	BroadcastRate float64
	// RTSThreshold: data frames (MPDU bytes) above it go with RTS/CTS;
	// negative: never.
	RTSThreshold int
	// ShortRetryLimit bounds transmissions of a frame sent without RTS/CTS
	// and of an RTS; LongRetryLimit those of a data frame after RTS/CTS.
	ShortRetryLimit, LongRetryLimit int
	CWMin, CWMax                    int
	QueueLimit                      int      // packets in the interface queue
	QueueMaxDelay                   sim.Time // older packets are dropped (0: no limit)
	// Ahead are classes of packets that wait in queues of their own (each
	// of QueueLimit packets) and are served before the interface queue,
	// in this order: ns-2.35's CMUPriQueue, the queue its DSR requires,
	// is [Routing, TCPAcks]; its PriQueue [Routing]; ns-3's none.
	Ahead []Class

	Propagation Propagation
	TxPower     float64 // dBm
	NoiseFigure float64 // dB
	// Sensitivity: weaker signals do not exist, not even as interference.
	// CCAThreshold: a total power at least this makes the medium busy.
	// RxThreshold: the weakest frame the PHY locks onto, if its SINR is at
	// least PreambleSNR (dB) as the preamble ends its detection window.
	Sensitivity, CCAThreshold, RxThreshold float64
	PreambleSNR                            float64
	// Reception is how the PHY receives (reception.go): "dsss" (the
	// default) is ns-3.37's preamble detection and DSSS error model;
	// "threshold" is ns-2.35's: lock onto the first bit of any sensed
	// frame, lose both frames of an overlap unless the first is
	// CaptureRatio times stronger (ns-2's CPThresh_ 10), no error model.
	Reception    string
	CaptureRatio float64
}

// DefaultConfig is ns-3.37's 802.11b ad-hoc set-up at 11 Mbit/s over a
// 250 m hard range.
func DefaultConfig() Config {
	return Config{
		Rate: 11e6, BasicRate: 1e6, RTSThreshold: -1,
		ShortRetryLimit: 7, LongRetryLimit: 4, CWMin: 31, CWMax: 1023,
		QueueLimit: 500, QueueMaxDelay: 500 * sim.Millisecond,
		Propagation: Range{Max: 250}, TxPower: 16.0206, NoiseFigure: 7,
		Sensitivity: -101, CCAThreshold: -82, RxThreshold: -82, PreambleSNR: 4,
		Reception: "dsss", CaptureRatio: 10,
	}
}

// Check reports a configuration that cannot work, naming the setting.
func (c Config) Check() error {
	if !slices.Contains(Rates, c.Rate) {
		return component.Errorf("rate", "%g Mbit/s is not an 802.11b rate (1, 2, 5.5 or 11 Mbit/s)", c.Rate/1e6)
	}
	if !slices.Contains(Rates, c.BasicRate) {
		return component.Errorf("basic_rate", "%g Mbit/s is not an 802.11b rate", c.BasicRate/1e6)
	}
	if c.BroadcastRate != 0 && !slices.Contains(Rates, c.BroadcastRate) {
		return component.Errorf("broadcast_rate", "%g Mbit/s is not an 802.11b rate", c.BroadcastRate/1e6)
	}
	if c.ACKRate != 0 && !slices.Contains(Rates, c.ACKRate) {
		return component.Errorf("ack_rate", "%g Mbit/s is not an 802.11b rate", c.ACKRate/1e6)
	}
	if c.ShortRetryLimit < 1 || c.LongRetryLimit < 1 {
		return component.Errorf("retry_limit", "%s", "want at least one transmission")
	}
	if c.CWMin < 1 || c.CWMax < c.CWMin {
		return component.Errorf("cw", "%s", "want 1 ≤ cw_min ≤ cw_max")
	}
	if c.QueueLimit < 1 {
		return component.Errorf("queue.limit", "%s", "want at least 1 packet")
	}
	if err := checkReception(c); err != nil {
		return err
	}
	if c.Propagation == nil {
		return component.Errorf("propagation", "%s", "missing")
	}
	if err := c.Propagation.Validate(); err != nil {
		return component.Errorf("propagation", "%s", err.Error())
	}
	if c.RxThreshold < c.CCAThreshold {
		return component.Errorf("rx_threshold", "%g dBm is below the carrier-sense threshold %g dBm: frames would be decoded farther than the medium is sensed", c.RxThreshold, c.CCAThreshold)
	}
	if c.CCAThreshold < c.Sensitivity {
		return component.Errorf("cs_threshold", "%g dBm is below the sensitivity %g dBm", c.CCAThreshold, c.Sensitivity)
	}
	return nil
}

// Channel is one shared 802.11b medium and the radios on it.
type Channel struct {
	net    *network.Net
	cfg    Config
	radios []*Radio
	byNode map[network.NodeID]*Radio

	noise              float64 // mW: kTB·NF over 22 MHz
	recv               reception
	ccaMW, rxMW, preSN float64
	free               *signal // pool of signals
	tracer             FrameTracer
	ev                 FrameEvent // reused for every traced frame

	// Derived durations (ns).
	ackDur, ctsDur, rtsDur, eifs, respTimeout int64
	bcastRate                                 float64 // group-addressed frames

	// Mobility: with a moving radio, a transmitter's hearers are worked
	// out again when its list is older than step (mobility.go).
	moving bool
	step   int64
	reach2 float64 // the sensing reach, squared
}

// NewChannel makes an empty channel on net; Attach radios, then Build.
func NewChannel(net *network.Net, cfg Config) (*Channel, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	c := &Channel{net: net, cfg: cfg, byNode: map[network.NodeID]*Radio{}}
	// Thermal noise k·T·B at 290 K over the 22 MHz of a DSSS channel, raised
	// by the receiver's noise figure.
	c.noise = 1.380649e-23 * 290 * 22e6 * math.Pow(10, cfg.NoiseFigure/10) * 1e3
	c.ccaMW, c.rxMW = dBmToMW(cfg.CCAThreshold), dBmToMW(cfg.RxThreshold)
	c.preSN = math.Pow(10, cfg.PreambleSNR/10)
	c.recv = newReception(cfg)
	ackRate := cfg.ACKRate
	if ackRate == 0 {
		ackRate = cfg.Rate
	}
	c.bcastRate = cfg.BroadcastRate
	if c.bcastRate == 0 {
		c.bcastRate = cfg.BasicRate
	}
	c.ackDur = airTime(ackBytes, ackRate)
	c.ctsDur = airTime(ctsBytes, cfg.BasicRate)
	c.rtsDur = airTime(rtsBytes, cfg.BasicRate)
	// EIFS counts an ACK at 1 Mbit/s whatever the rates (802.11-2020
	// §10.3.2.3.7).
	c.eifs = sifs + airTime(ackBytes, 1e6) + difs
	// A response is awaited for SIFS + a slot + its PLCP preamble and
	// header after the frame ends (802.11-2020 §10.3.2.9).
	c.respTimeout = sifs + slotTime + plcpTotal
	return c, nil
}

// Config is the channel's configuration.
func (c *Channel) Config() Config { return c.cfg }

// Radios lists the radios in the order they were attached.
func (c *Channel) Radios() []*Radio { return c.radios }

// Attach gives node a radio at (x, y) metres.
func (c *Channel) Attach(nd *network.Node, x, y float64) *Radio {
	r := &Radio{ch: c, Node: nd, X: x, Y: y, idx: len(c.radios), rng: c.net.Stream("wifi/" + nd.Name),
		cw: c.cfg.CWMin, ifs: difs, lastSeq: map[int]uint32{},
		Queue: network.NewDropTail(c.cfg.QueueLimit, 0)}
	for _, cl := range c.cfg.Ahead {
		r.ahead = append(r.ahead, lane{class: cl, q: network.NewDropTail(c.cfg.QueueLimit, 0)})
	}
	r.detect.Init(c.net.Sched, r.onDetect)
	r.txDone.Init(c.net.Sched, r.onTxDone)
	r.wait.Init(c.net.Sched, r.onTimeout)
	r.access.Init(c.net.Sched, r.onAccess)
	r.respond.Init(c.net.Sched, r.onRespond)
	r.nav.Init(c.net.Sched, r.update)
	r.release.Init(c.net.Sched, r.onRelease)
	c.radios = append(c.radios, r)
	c.byNode[nd.ID] = r
	nd.SetRadio(r)
	return r
}

// OverlapError is two radios at one position.
type OverlapError struct{ A, B string }

func (e *OverlapError) Error() string {
	return fmt.Sprintf("nodes %s and %s are at the same position", e.A, e.B)
}

// SetMobility makes r move as m from the start; a radio that moves has
// its hearers worked out again as it transmits, at most step apart (0:
// at every transmission).
func (c *Channel) SetMobility(r *Radio, m Mobility, step sim.Time) {
	r.mob = m
	r.X, r.Y = m.Position(0)
	c.moving, c.step = true, int64(step)
}

// Build works out who hears whom: for every radio, the radios its signal
// reaches above the sensitivity (with received power and propagation
// delay) and the neighbours that can decode it. Only radios in nearby
// cells of a grid as wide as the sensing reach are compared, so the cost
// grows with the density, not the square of the number of radios.
func (c *Channel) Build() error {
	cfg := c.cfg
	reach := Reach(cfg.Propagation, cfg.TxPower, cfg.Sensitivity)
	c.reach2 = reach * reach
	cell := math.Max(reach, 1)
	type key struct{ x, y int64 }
	grid := map[key][]*Radio{}
	at := func(r *Radio) key { return key{int64(math.Floor(r.X / cell)), int64(math.Floor(r.Y / cell))} }
	for _, r := range c.radios {
		k := at(r)
		grid[k] = append(grid[k], r)
	}
	for _, a := range c.radios {
		k := at(a)
		var near []*Radio
		for dx := int64(-1); dx <= 1; dx++ {
			for dy := int64(-1); dy <= 1; dy++ {
				near = append(near, grid[key{k.x + dx, k.y + dy}]...)
			}
		}
		slices.SortFunc(near, func(p, q *Radio) int { return p.idx - q.idx })
		for _, b := range near {
			if b == a {
				continue
			}
			d := math.Hypot(a.X-b.X, a.Y-b.Y)
			if d == 0 {
				return &OverlapError{a.Node.Name, b.Node.Name}
			}
			pr := cfg.Propagation.RxPower(cfg.TxPower, d)
			if pr < cfg.Sensitivity {
				continue
			}
			mw := dBmToMW(pr)
			delay := int64(math.Round(d / lightSpeed * 1e9))
			a.hears = append(a.hears, hearing{r: b, mw: mw, delay: delay})
			a.maxDelay = max(a.maxDelay, delay)
			if pr >= cfg.RxThreshold && mw/c.noise >= c.preSN {
				a.nbrs = append(a.nbrs, b.Node)
			}
		}
	}
	return nil
}

// hearing is one receiver of a radio's signal.
type hearing struct {
	r     *Radio
	mw    float64 // received power
	delay int64   // propagation delay, ns
}

// RadioOf is the radio of a node, or nil.
func (c *Channel) RadioOf(nd *network.Node) *Radio { return c.byNode[nd.ID] }

// signal is one transmission as one receiver sees it, from its first to
// its last bit there. Signals are pooled: a transmission takes one per
// receiver in sensing range and returns it when it has passed.
type signal struct {
	f          frame
	to         *Radio
	mw         float64
	start, end int64
	begun      bool
	t          sim.Timer
	next       *signal
}

func (c *Channel) getSignal() *signal {
	s := c.free
	if s == nil {
		s = &signal{}
		s.t.Init(c.net.Sched, s.fire)
	} else {
		c.free = s.next
	}
	return s
}

func (c *Channel) putSignal(s *signal) {
	s.f = frame{}
	s.to = nil
	s.next = c.free
	c.free = s
}

// fire is the signal reaching its receiver, then leaving it.
func (s *signal) fire() {
	if !s.begun {
		s.begun = true
		s.to.signalStart(s)
		s.t.Arm(sim.Time(s.end))
		return
	}
	r := s.to
	r.signalEnd(s)
	r.ch.putSignal(s)
}

// SetTracer makes t see every frame put on the air.
func (c *Channel) SetTracer(t FrameTracer) { c.tracer = t }

// transmit puts frame f on the air from r for dur ns.
func (c *Channel) transmit(r *Radio, f frame, dur int64) {
	now := int64(c.net.Now())
	if c.moving && now-r.hearsAt >= c.step {
		c.rehear(r, now)
	}
	if c.tracer != nil {
		e := &c.ev
		*e = FrameEvent{Kind: kindNames[f.kind], From: r.Node.ID, To: network.Broadcast, NAV: f.nav, Seq: f.seq,
			Retry: f.retry, Packet: f.pkt, Start: now, AirTime: dur}
		if f.to != nil {
			e.To = f.to.Node.ID
		}
		switch f.kind {
		case dataFrame:
			e.Bytes = int(f.pkt.Size) + macOverhead
		case ackFrame:
			e.Bytes = ackBytes
		case rtsFrame:
			e.Bytes = rtsBytes
		case ctsFrame:
			e.Bytes = ctsBytes
		}
		c.tracer.Frame(e)
	}
	for _, h := range r.hears {
		s := c.getSignal()
		s.f, s.to, s.mw, s.begun = f, h.r, h.mw, false
		s.start, s.end = now+h.delay, now+h.delay+dur
		s.t.Arm(sim.Time(s.start))
	}
}

// rehear works out again, at time now, which radios hear a and how
// strongly, with every radio where its mobility has taken it. Moving
// radios are few hundred at most here, so every radio is compared.
func (c *Channel) rehear(a *Radio, now int64) {
	t := sim.Time(now)
	for _, b := range c.radios {
		if b.mob != nil && b.posAt != now {
			b.X, b.Y = b.mob.Position(t)
			b.posAt = now
		}
	}
	a.hears, a.maxDelay, a.hearsAt = a.hears[:0], 0, now
	cfg := &c.cfg
	for _, b := range c.radios {
		if b == a {
			continue
		}
		dx, dy := a.X-b.X, a.Y-b.Y
		d2 := dx*dx + dy*dy
		if d2 > c.reach2 {
			continue
		}
		d := math.Max(math.Sqrt(d2), 0.01) // two nodes passing through one point
		pr := cfg.Propagation.RxPower(cfg.TxPower, d)
		if pr < cfg.Sensitivity {
			continue
		}
		delay := int64(math.Round(d / lightSpeed * 1e9))
		a.hears = append(a.hears, hearing{r: b, mw: dBmToMW(pr), delay: delay})
		a.maxDelay = max(a.maxDelay, delay)
	}
}
