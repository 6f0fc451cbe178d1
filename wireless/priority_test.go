package wireless

import (
	"slices"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// arrivals records the order packets reach a node in, by Flow.
type arrivals struct{ flows []int32 }

func (a *arrivals) Intercept(at *network.Node, p *network.Packet, _ *network.Link) bool {
	a.flows = append(a.flows, p.Flow)
	at.Net().Free(p)
	return true
}

func TestPriorityClassesGoFirst(t *testing.T) {
	// a sends b six packets back to back; the first goes into service at
	// once, the rest wait. Behind ns-2.35's CMUPriQueue ([routing,
	// tcp_acks]) the routing packet leaves first, then the TCP ACKs, then
	// the data, each class in its own order; without priority, in order.
	kinds := []network.Proto{network.UDP, network.UDP, network.TCP, network.Control, network.UDP, network.TCP}
	for _, c := range []struct {
		ahead []Class
		want  []int32
	}{
		{nil, []int32{0, 1, 2, 3, 4, 5}},
		{[]Class{Routing, TCPAcks}, []int32{0, 3, 2, 5, 1, 4}},
		{[]Class{TCPAcks, Routing}, []int32{0, 2, 5, 3, 1, 4}},
		{[]Class{Routing}, []int32{0, 3, 1, 2, 4, 5}},
	} {
		cfg := DefaultConfig()
		cfg.Ahead = c.ahead
		net, ch, a, b := pairWith(t, cfg, 100)
		got := &arrivals{}
		b.Hook = got
		for i, k := range kinds {
			p := net.Alloc()
			p.Proto, p.Src, p.Dst, p.Size, p.Flow = k, a.ID, b.ID, 1000, int32(i)
			if k == network.TCP {
				p.Size = 40 // an ACK: no payload
			}
			ch.RadioOf(a).Send(p, b)
		}
		net.Run(sim.Second)
		if !slices.Equal(got.flows, c.want) {
			t.Errorf("ahead %v: b received %v, want %v", c.ahead, got.flows, c.want)
		}
	}
}

func TestWithdrawTakesPacketsFromThePriorityQueuesToo(t *testing.T) {
	// With routing packets served first, a's queue holds, behind the one
	// in service, two data packets and two routing packets for b: a
	// broken link to b takes back all four, the routing ones (their queue
	// comes first) before the data, each kind in its order.
	cfg := DefaultConfig()
	cfg.Ahead = []Class{Routing}
	net, ch, a, b := pairWith(t, cfg, 100)
	b.Hook = &arrivals{}
	kinds := []network.Proto{network.UDP, network.UDP, network.Control, network.UDP, network.Control}
	for i, k := range kinds {
		p := net.Alloc()
		p.Proto, p.Src, p.Dst, p.Size, p.Flow = k, a.ID, b.ID, 1000, int32(i)
		ch.RadioOf(a).Send(p, b)
	}
	var got []int32
	ch.RadioOf(a).Withdraw(b, func(p *network.Packet) { got = append(got, p.Flow); net.Free(p) })
	if want := []int32{2, 4, 1, 3}; !slices.Equal(got, want) {
		t.Errorf("withdrew %v, want %v", got, want)
	}
}
