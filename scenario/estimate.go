package scenario

import (
	"container/heap"
	"math"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/traffic"
)

// EstimatedEvents is about how many events the run needs if every flow
// sends as fast as its path lets it from its start to its end, flows
// sharing each link (and each node's radio) max-min fairly: a data packet
// costs an event per hop on its way, and a TCP segment's acknowledgement
// one per hop back (C-big: about 6 events per delivered packet, as
// measured). Losses, windows and applications that idle only lower the
// count, so it is what a user is warned with before a long run, not a
// prediction. Summing every link's capacity instead counted each host's
// access link as if it were busy: 3 × 10¹⁰ events for 10 000 flows
// sharing one 100 Mbit/s bottleneck for 20 s, which take 1.7 × 10⁶.
func (r *Run) EstimatedEvents() float64 {
	s, nodes := r.Scenario, len(r.Net.Nodes)
	// The links and radios the flows cross are the resources, numbered
	// as first met; a node's radio is one: its transmissions share the air.
	var capacity []float64
	links := map[*network.Link]int32{}
	radios := map[*network.Node]int32{}
	var radioRate float64
	if s.Wireless != nil {
		radioRate = float64(s.Wireless.Rate) // defaulted when decoded
	}
	type flow struct {
		hops, back int     // hops of a data packet, and of its ACK (0 for UDP)
		bits       float64 // per data packet on the wire
		active     float64 // seconds
		packets    float64 // most it sends (a transfer's size), or +Inf
	}
	flows := make([]flow, 0, len(s.Flows))
	paths := make([][]int32, 0, len(s.Flows))
	for i := range s.Flows {
		f := &s.Flows[i]
		src, dst := r.ends[i][0], r.ends[i][1]
		end := s.Duration
		if f.Stop > 0 && f.Stop < end {
			end = f.Stop
		}
		if src == nil || dst == nil || src == dst || end <= f.Start {
			continue
		}
		var path []int32
		hops, ok := walk(src, dst, nodes, func(from *network.Node, l *network.Link) {
			if l != nil {
				k, seen := links[l]
				if !seen {
					k = int32(len(capacity))
					links[l] = k
					capacity = append(capacity, l.Bandwidth)
				}
				path = append(path, k)
				return
			}
			k, seen := radios[from]
			if !seen {
				k = int32(len(capacity))
				radios[from] = k
				capacity = append(capacity, radioRate)
			}
			path = append(path, k)
		})
		if !ok {
			continue
		}
		fl := flow{hops: hops, active: (end - f.Start).Seconds(), packets: math.Inf(1)}
		if app, ok := f.App.Source(); ok {
			rate, packet := app.Offered()
			fl.bits = 8 * float64(packet)
			// A constant-rate source asks for no more than its rate: a
			// resource of its own.
			path = append(path, int32(len(capacity)))
			capacity = append(capacity, rate)
		} else {
			seg := f.Transport.TCP.Segments
			fl.bits = 8 * float64(seg.MSS+seg.HeaderBytes)
			if back, ok := walk(dst, src, nodes, func(*network.Node, *network.Link) {}); ok {
				fl.back = back
			}
			if d, ok := f.App.Params.(traffic.Driver); ok && d.Bytes() > 0 && seg.MSS > 0 {
				n := d.Bytes()
				fl.packets = math.Ceil(float64(n) / float64(seg.MSS))
			}
		}
		if fl.bits <= 0 {
			continue
		}
		flows = append(flows, fl)
		paths = append(paths, path)
	}
	var events float64
	for i, rate := range fairShares(capacity, paths) {
		f := flows[i]
		if math.IsInf(rate, 1) {
			continue // no link limits it: nothing to estimate with
		}
		events += min(rate/f.bits*f.active, f.packets) * float64(f.hops+f.back)
	}
	return events
}

// walk follows the routes from src to dst, calling hop for each hop (l
// nil for a radio hop), and returns the number of hops, or false if dst
// cannot be reached in fewer than nodes hops.
func walk(src, dst *network.Node, nodes int, hop func(from *network.Node, l *network.Link)) (int, bool) {
	n := 0
	for nd := src; nd != dst; n++ {
		if n >= nodes {
			return 0, false // a routing loop: no estimate
		}
		l := nd.NextHop(dst.ID)
		var next *network.Node
		if l != nil {
			next = l.To
		} else {
			next = nd.NextNode(dst.ID) // by radio
		}
		if next == nil {
			return 0, false
		}
		hop(nd, l)
		nd = next
	}
	return n, true
}

// fairShares returns the max-min fair rates of flows that cross the
// resources their paths list (indices into capacity): every flow gets as
// much as it can without taking from a flow that has less (Bertsekas and
// Gallager, Data Networks, §6.5.2). Rates rise together; a resource fills
// at the level left/users (what flows already fixed leave of it, shared by
// those still rising), its flows stop there, and the other resources they
// cross then fill at a higher level, never a lower one: so a heap of
// levels, with stale entries skipped, finds the resources in the order
// they fill. A flow that crosses nothing gets +Inf.
func fairShares(capacity []float64, paths [][]int32) []float64 {
	// crossing[first[r]:first[r+1]] are the flows that cross resource r.
	users := make([]int, len(capacity))
	for _, p := range paths {
		for _, r := range p {
			users[r]++
		}
	}
	first := make([]int, len(capacity)+1)
	for r, u := range users {
		first[r+1] = first[r] + u
	}
	crossing := make([]int32, first[len(capacity)])
	next := append([]int(nil), first[:len(capacity)]...)
	for i, p := range paths {
		for _, r := range p {
			crossing[next[r]] = int32(i)
			next[r]++
		}
	}
	left := append([]float64(nil), capacity...)
	version := make([]int, len(capacity))
	rate := make([]float64, len(paths))
	fixed := make([]bool, len(paths))
	h := make(levels, 0, len(capacity))
	for r, u := range users {
		if u > 0 {
			h = append(h, level{at: left[r] / float64(u), r: int32(r)})
		}
	}
	heap.Init(&h)
	for unfixed := len(paths); unfixed > 0 && h.Len() > 0; {
		lv := heap.Pop(&h).(level)
		if lv.version != version[lv.r] || users[lv.r] == 0 {
			continue // superseded, or its flows are all fixed
		}
		for _, f := range crossing[first[lv.r]:first[lv.r+1]] {
			if fixed[f] {
				continue
			}
			fixed[f], rate[f] = true, lv.at
			unfixed--
			for _, r := range paths[f] {
				left[r] -= lv.at
				users[r]--
				version[r]++
				if r != lv.r && users[r] > 0 {
					heap.Push(&h, level{at: max(left[r], 0) / float64(users[r]), r: r, version: version[r]})
				}
			}
		}
	}
	for i, p := range paths {
		if len(p) == 0 {
			rate[i] = math.Inf(1)
		}
	}
	return rate
}

// level is the rate at which resource r fills, as of its version-th change.
type level struct {
	at      float64
	r       int32
	version int
}

type levels []level

func (h levels) Len() int { return len(h) }
func (h levels) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].r < h[j].r
}
func (h levels) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *levels) Push(x any)   { *h = append(*h, x.(level)) }
func (h *levels) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
