package routing

import (
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// buffer holds a node's data packets while their route is sought (AODV's
// request queue, RFC 3561 §6.3; DSR's send buffer, RFC 4728 §8.2): at most
// limit packets, each at most maxAge. As ns-3's RequestQueue, expiry is
// checked whenever the buffer is touched, and a full buffer drops its
// oldest packet to take a new one.
type buffer struct {
	net    *network.Net
	limit  int
	maxAge sim.Time
	items  []waiting
}

type waiting struct {
	p  *network.Packet
	at sim.Time
}

// add queues p.
func (b *buffer) add(p *network.Packet) {
	b.purge()
	if len(b.items) >= b.limit {
		old := b.items[0]
		b.items = b.items[1:]
		b.net.Drop(old.p, network.RouteBufferFull, nil)
	}
	b.items = append(b.items, waiting{p: p, at: b.net.Now()})
}

// purge drops the packets that waited longer than maxAge.
func (b *buffer) purge() {
	now := b.net.Now()
	kept := b.items[:0]
	for _, w := range b.items {
		if now-w.at > b.maxAge {
			b.net.Drop(w.p, network.RouteTimeout, nil)
			continue
		}
		kept = append(kept, w)
	}
	clear(b.items[len(kept):])
	b.items = kept
}

// has reports whether a packet for dst waits.
func (b *buffer) has(dst network.NodeID) bool {
	b.purge()
	for _, w := range b.items {
		if w.p.Dst == dst {
			return true
		}
	}
	return false
}

// take removes the packets for dst, in order, and passes each to fn.
func (b *buffer) take(dst network.NodeID, fn func(p *network.Packet)) {
	b.purge()
	var out []*network.Packet
	kept := b.items[:0]
	for _, w := range b.items {
		if w.p.Dst == dst {
			out = append(out, w.p)
			continue
		}
		kept = append(kept, w)
	}
	clear(b.items[len(kept):])
	b.items = kept
	for _, p := range out {
		fn(p)
	}
}

// drop discards the packets for dst with cause.
func (b *buffer) drop(dst network.NodeID, cause network.DropCause) {
	b.take(dst, func(p *network.Packet) { b.net.Drop(p, cause, nil) })
}
