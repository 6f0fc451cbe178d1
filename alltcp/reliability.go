package alltcp

import (
	"fmt"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Reliability is what a packet-level simulation of §4.1's process
// measured: the fraction of packets that never arrived and the routers
// traversed per packet, all attempts included.
type Reliability struct {
	Loss, Hops float64
	Packets    int
}

// SimulateReliability sends packets one at a time over a path of n routers
// that each drop a packet with probability p (a Bernoulli error model on
// the link into each router), with at most r attempts per transport: end to
// end (ETET) when split is 0, else segment by segment (SBST) with the
// split after router split, each segment making r attempts of its own. A
// drop is known at once (the model's ideal retransmission), and a packet
// dropped at router k has traversed k routers (eq. 13's count).
func SimulateReliability(n int, p float64, split, r, packets int, seed uint64) (Reliability, error) {
	if n < 1 || r < 1 || packets < 1 || split < 0 || split >= n {
		return Reliability{}, fmt.Errorf("reliability: n %d, split %d, r %d, packets %d", n, split, r, packets)
	}
	net := network.New(seed)
	nodes := []*network.Node{net.AddNode("src")}
	hopOf := map[*network.Link]int{}
	for i := 1; i <= n; i++ {
		nodes = append(nodes, net.AddNode(fmt.Sprintf("r%d", i)))
		ab, _ := net.Connect(fmt.Sprintf("l%d", i), nodes[i-1], nodes[i],
			network.LinkConfig{Bandwidth: 1e9, Delay: sim.Microsecond}, func() network.Queue { return network.NewDropTail(10, 0) })
		ab.SetErrorModel(network.NewBernoulli(p, net.Stream(ab.Name)))
		hopOf[ab] = i
	}
	net.ComputeRoutes()
	// A segment runs over routers (first, last]: its sender tries again
	// on a drop while attempts remain.
	type segment struct{ first, last int }
	segs := []segment{{0, n}}
	if split > 0 {
		segs = []segment{{0, split}, {split, n}}
	}
	var res Reliability
	var hops int64
	var port int32
	seg, attempt, lost := 0, 0, 0
	send := func() {
		attempt++
		q := net.Alloc()
		q.Src, q.Dst, q.Port = nodes[segs[seg].first].ID, nodes[segs[seg].last].ID, port
		q.Proto, q.Size, q.Payload = network.UDP, 1000, 960
		nodes[segs[seg].first].Send(q)
	}
	done := func() { // the packet arrived or was given up: the next one
		res.Packets++
		seg, attempt = 0, 0
		if res.Packets < packets {
			send()
		}
	}
	port = net.Bind(endpoint(func(q *network.Packet) {
		net.Free(q)
		hops += int64(segs[seg].last - segs[seg].first)
		if seg+1 < len(segs) {
			seg, attempt = seg+1, 0 // the agent relays it with attempts of its own
			send()
			return
		}
		done()
	}))
	net.OnDrop(func(_ *network.Packet, _ network.DropCause, on *network.Link) {
		hops += int64(hopOf[on] - segs[seg].first)
		if attempt < r {
			send()
			return
		}
		lost++
		done()
	})
	send()
	net.Run(sim.Never - 1)
	res.Loss = float64(lost) / float64(res.Packets)
	res.Hops = float64(hops) / float64(res.Packets)
	return res, nil
}

// endpoint is a function as a network endpoint.
type endpoint func(*network.Packet)

func (e endpoint) Receive(p *network.Packet) { e(p) }
