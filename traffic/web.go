package traffic

import (
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
)

// WebConfig describes a browsing session: pages of Objects objects each,
// object sizes Pareto with the given mean and shape (heavy-tailed, as web
// object sizes are: Crovella & Bestavros 1997), and an exponential think
// time of mean Think between a page's last byte and the next request.
type WebConfig struct {
	Objects    int
	ObjectSize float64 // mean, bytes
	Shape      float64 // Pareto shape α > 1
	Think      sim.Time
}

// Web drives a TCP flow as a browser's persistent connection (HTTP/1.1
// keep-alive, objects fetched one after the other): it offers a page's
// objects one at a time, each when the previous one is acknowledged, then
// thinks. The request direction is not modelled (a request is small and
// would add one RTT per object to every policy alike). It records each
// page's response time: from the first object's offer to the last one's
// acknowledgement.
type Web struct {
	cfg   WebConfig
	flow  *tcp.Flow
	rand  *rand.Rand
	think sim.Timer
	net   *network.Net

	left      int      // objects of this page not yet offered
	pageStart sim.Time // when this page's first object was offered
	pages     int64
	pageSum   sim.Time
}

// NewWeb attaches a browsing session to flow (before the flow starts); its
// first page is requested when the flow starts.
func NewWeb(net *network.Net, flow *tcp.Flow, cfg WebConfig, r *rand.Rand) *Web {
	w := &Web{cfg: cfg, flow: flow, rand: r, net: net}
	w.think.Init(net.Sched, w.request)
	flow.OnDrained(w.drained)
	w.left = cfg.Objects - 1
	flow.Offer(w.object())
	w.pageStart = -1 // the flow's start time, filled in at its first drain
	return w
}

// object draws an object size: Pareto with scale x_m = mean·(α−1)/α, by
// inversion x_m·U^(−1/α).
func (w *Web) object() int64 {
	xm := w.cfg.ObjectSize * (w.cfg.Shape - 1) / w.cfg.Shape
	u := 1 - w.rand.Float64() // (0, 1]
	return max(int64(math.Round(xm*math.Pow(u, -1/w.cfg.Shape))), 1)
}

func (w *Web) drained(now sim.Time) {
	if w.left > 0 {
		w.left--
		w.flow.Offer(w.object())
		return
	}
	start := w.pageStart
	if start < 0 {
		start = w.flow.StartTime()
	}
	w.pages++
	w.pageSum += now - start
	w.think.Arm(now + sim.Time(w.rand.ExpFloat64()*float64(w.cfg.Think)))
}

// request starts the next page.
func (w *Web) request() {
	w.pageStart = w.net.Now()
	w.left = w.cfg.Objects - 1
	w.flow.Offer(w.object())
}

// Pages is how many pages were completed and their mean response time.
func (w *Web) Pages() (n int64, mean sim.Time) {
	if w.pages == 0 {
		return 0, 0
	}
	return w.pages, w.pageSum / sim.Time(w.pages)
}
