// Package trace writes what crosses links in formats other tools read:
// pcap files with real Ethernet/IPv4/TCP headers (Wireshark, tshark,
// tcptrace) and ns-2 style text traces ("+ - r d" lines), plus a sampled
// congestion-window time series. Each writer is a network.LinkTracer (or
// a timer for the sampler); Tee lets several watch one link.
package trace

import (
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Flow is what a tracer needs to know about a flow that its packets do
// not carry.
type Flow struct {
	Name string
	// Src is the node that sends the flow's data; packets from it are the
	// data direction, the others are the receiver's ACKs.
	Src network.NodeID
	// MSS converts byte sequence numbers to the segment numbers of ns-2
	// traces (0: print bytes).
	MSS int
}

// Tee is several tracers watching one link direction.
type Tee []network.LinkTracer

// Trace passes the event to every tracer in order.
func (t Tee) Trace(ev byte, l *network.Link, p *network.Packet, now sim.Time) {
	for _, x := range t {
		x.Trace(ev, l, p, now)
	}
}

// Attach adds tr to link l, keeping any tracer already there.
func Attach(l *network.Link, tr network.LinkTracer) {
	switch old := l.Tracer().(type) {
	case nil:
		l.SetTracer(tr)
	case Tee:
		l.SetTracer(append(old, tr))
	default:
		l.SetTracer(Tee{old, tr})
	}
}
