package compare

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/scenario"
)

// AODV (routing/aodv.go) beside ns-3.37's AodvHelper on the 802.11b
// chain of examples/wifi-chain.yaml: hops+1 nodes 200 m apart, one or
// three NewReno+SACK transfers from the first node to the last (started
// 0.1 s apart), with and without 3% loss above the last node's MAC, 60 s,
// 10 seeds. ns-3 runs with permanent ARP entries, so that its link-break
// detection works (static entries turn it off in ns-3.37), and with its
// default AODV attributes. Its results are in testdata/ns3-aodv.txt
// (scripts/ns3/wifi-chain.cc --routing=aodv|static --flows=1|3).
//
// Held: AODV goodput within 10% of ns-3's at every point but aodvOpen's;
// the control packets per delivered segment within 20% wherever ns-3
// sends more than 20 a run. The effect of routing, AODV's goodput over the same
// simulator's static routes, is printed beside.
func TestAODVAsNS3(t *testing.T) {
	if testing.Short() {
		t.Skip("AODV against ns-3: 280 runs")
	}
	ref := ns3AODV(t, "testdata/ns3-aodv.txt")
	points := chainPoints()
	seeds := len(ref["aodv/10/1/0"])
	var runs []chain
	for _, p := range points {
		for _, rt := range []string{"static", "aodv"} {
			runs = append(runs, chain{p.hops, p.flows, p.loss, rt, ns3Chain, 0, radio{}, 0})
		}
	}
	res := measureChains(t, runs, seeds)
	if t.Failed() {
		return
	}
	var table strings.Builder
	fmt.Fprintf(&table, "| hops | flows | loss | ns-3 static | ns-3 AODV | ratio | tcplab static | tcplab AODV | ratio | AODV vs ns-3 | control/segment ns-3 | tcplab |\n")
	fmt.Fprintf(&table, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range points {
		key := func(rt string) string { return fmt.Sprintf("%s/%d/%d/%g", rt, p.hops, p.flows, p.loss) }
		ns, na := ref[key("static")], ref[key("aodv")]
		if len(ns) != seeds || len(na) != seeds {
			t.Fatalf("%s: %d and %d recorded ns-3 runs, want %d", key("aodv"), len(ns), len(na), seeds)
		}
		var ts, ta, tc, nc, ncs []float64
		var ng, nsg []float64
		for s := 1; s <= seeds; s++ {
			ts = append(ts, res[seeded{chain{p.hops, p.flows, p.loss, "static", ns3Chain, 0, radio{}, 0}, s}].kbps)
			a := res[seeded{chain{p.hops, p.flows, p.loss, "aodv", ns3Chain, 0, radio{}, 0}, s}]
			ta = append(ta, a.kbps)
			tc = append(tc, a.ctl/a.segs)
			ng = append(ng, na[s-1].kbps)
			nsg = append(nsg, ns[s-1].kbps)
			nc = append(nc, na[s-1].ctl/na[s-1].segs)
			ncs = append(ncs, na[s-1].ctl)
		}
		d := mean(ta)/mean(ng) - 1
		fmt.Fprintf(&table, "| %d | %d | %g%% | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %+.1f%% | %.3f | %.3f |\n",
			p.hops, p.flows, 100*p.loss, mean(nsg), mean(ng), mean(ng)/mean(nsg), mean(ts), mean(ta), mean(ta)/mean(ts), 100*d, mean(nc), mean(tc))
		open := aodvOpen[[3]float64{float64(p.hops), float64(p.flows), p.loss}]
		if (d > 0.10 || d < -0.10) && !open {
			t.Errorf("%d hops, %d flows, loss %g: AODV goodput %.1f kbit/s, %+.1f%% from ns-3's %.1f", p.hops, p.flows, p.loss, mean(ta), 100*d, mean(ng))
		}
		if c := mean(tc)/mean(nc) - 1; mean(ncs) > 20 && (c > 0.20 || c < -0.20) && !open {
			t.Errorf("%d hops, %d flows, loss %g: %.3f control packets per segment, %+.1f%% from ns-3's %.3f", p.hops, p.flows, p.loss, mean(tc), 100*c, mean(nc))
		}
	}
	t.Logf("AODV against ns-3.37 on the 802.11b chain, %d seeds each (kbit/s):\n%s", seeds, table.String())
}

// aodvOpen are the points printed but not held. At 2 hops with three
// flows and no loss ns-3's runs are bimodal: 8 of 10 seeds deliver
// 880-970 kbit/s, 2 collapse to 650-680 kbit/s with twice the route
// requests and replies; tcplab's 10 seeds never collapse, so the means
// differ by 8-10% (the medians by 6%) and the control packets by 20-38%.
// At 3 hops with three flows and no loss tcplab is 10.1% above ns-3's
// mean (6.5% before AODV's own unicast messages took routes, as IP
// packets do: that change brought the 50-node field within 1-2%).
var aodvOpen = map[[3]float64]bool{{2, 3, 0}: true, {3, 3, 0}: true}

// chainRun is one run of the chain, tcplab's or a reference's.
type chainRun struct{ kbps, ctl, segs, breaks float64 }

// ns3AODV reads testdata/ns3-aodv.txt: one RESULT line of
// scripts/ns3/wifi-chain.cc a run, keyed routing/hops/flows/loss, in
// seed order.
func ns3AODV(t *testing.T, file string) map[string][]chainRun {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type seededRun struct {
		seed int
		r    chainRun
	}
	by := map[string][]seededRun{}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 || f[0] != "RESULT" {
			continue
		}
		kv := map[string]float64{}
		var rt string
		for _, w := range f[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				if k == "routing" {
					rt = v
				}
				kv[k], _ = strconv.ParseFloat(v, 64)
			}
		}
		ctl := kv["rreq"] + kv["rrep"] + kv["rerr"] + kv["rrep_ack"] + kv["hello"]
		key := fmt.Sprintf("%s/%g/%g/%g", rt, kv["hops"], kv["flows"], kv["loss"])
		by[key] = append(by[key], seededRun{int(kv["seed"]), chainRun{kbps: kv["goodput_kbps"], ctl: ctl, segs: kv["delivered_segs"]}})
	}
	out := map[string][]chainRun{}
	for k, rs := range by {
		runs := make([]chainRun, len(rs))
		for _, r := range rs {
			if r.seed >= 1 && r.seed <= len(rs) {
				runs[r.seed-1] = r.r
			}
		}
		out[k] = runs
	}
	return out
}

// chain is a run of the 802.11b chain: hops, bulk flows from the first
// node to the last (0.1 s apart from 1 s), loss above the last node's
// MAC, the routing protocol, each flow's transport, and the interface
// queue's limit (0: the default).
type chain struct {
	hops, flows int
	loss        float64
	routing     string
	transport   string
	queue       int
	// radio is wireless settings beside the chain's own, "key: value"
	// lines (none: ns-3's defaults).
	radio radio
	// t0 is when the transfer starts, in seconds (0: 1 s); ns-2's chain
	// runs start theirs at 100 s, which matters to its AODV (a local
	// repair's timer is set to an absolute time taken as a delay).
	t0 float64
}

// radio is a chain's wireless settings, a "key: value" line each.
type radio [3]string

// The anchors' TCPs on the chain: ns-3's NewReno+SACK settings, and ns-2's
// (profile ns2, whose defaults are ns-2.35's) with SACK.
const (
	ns3Chain = "{profile: ns3, variant: newreno, sack: true, timestamps: false, mss: 1024, window: 32, initial_window: 2, initial_ssthresh: 32, delack_count: 1, rto: {min: 200ms, granularity: 10ms}}"
	ns2Chain = "{profile: ns2, variant: newreno, sack: true, mss: 1024, window: 32}"
	// ns2ACKRate is the rate ns-2.35's Mac/802_11 sends its ACKs at:
	// basicRate_ (sendACK), 1 Mbit/s in scripts/ns2/wifi-80211b.tcl; ns-3's
	// (tcplab's default) go at the data rate. With it tcplab's static chain
	// is within 2% of ns-2's goodput at every length (5-11% above without).
	ns2ACKRate = "1Mbps"
	// ns2T0 is when ns-2's chain runs start their transfer
	// (scripts/ns2/wifi-chain-routing.tcl's T0).
	ns2T0 = 100
)

var (
	ns2Radio = radio{"ack_rate: " + ns2ACKRate}
	// ns2PriQueue is ns2Radio behind ns-2.35's Queue/DropTail/PriQueue
	// (routing packets first), which its AODV runs need (CMUPriQueue, DSR's,
	// stalls it).
	ns2PriQueue = radio{"ack_rate: " + ns2ACKRate, "priority: [routing]"}
	// ns2AirPriQueue is ns2PriQueue with ns-2.35's reception.
	ns2AirPriQueue = radio{"ack_rate: " + ns2ACKRate, "priority: [routing]", "reception: threshold"}
	// ns2Air is ns-2.35's radio as a whole: its ACK rate, its reception
	// (WirelessPhy and Mac802_11: first bit, no error model) and the
	// CMUPriQueue its chain script gives every run (routing packets, then
	// TCP ACKs, then the rest).
	ns2Air = radio{"ack_rate: " + ns2ACKRate, "reception: threshold", "priority: [routing, tcp_acks]"}
)

// runChain runs the chain as the reference programs do and returns the
// goodput summed over the flows (payload delivered over 60 s of transfer,
// as they divide), the routing control packets sent and the segments
// delivered.
func runChain(t *testing.T, c chain, seed int) (o chainRun) {
	var b strings.Builder
	start := 1.0
	if c.t0 > 0 {
		start = c.t0
	}
	fmt.Fprintf(&b, "name: chain\nduration: %gs\nseed: %d\nnodes: [{name: \"n{i}\", count: %d}]\n", start+60, seed, c.hops+1)
	fmt.Fprintf(&b, "wireless:\n  line: {nodes: \"n{i}\", count: %d, spacing: 200m}\n", c.hops+1)
	if c.queue > 0 {
		fmt.Fprintf(&b, "  queue: {type: droptail, limit: %d}\n", c.queue)
	}
	for _, kv := range c.radio {
		if kv != "" {
			fmt.Fprintf(&b, "  %s\n", kv)
		}
	}
	if c.loss > 0 {
		fmt.Fprintf(&b, "  loss: [{node: n%d, at: mac, rate: %g}]\n", c.hops+1, c.loss)
	}
	fmt.Fprintf(&b, "routing: %s\nflows:\n", c.routing)
	for k := range c.flows {
		fmt.Fprintf(&b, "  - {name: ftp%d, src: n1, dst: n%d, start: %.1fs, transport: %s}\n", k+1, c.hops+1, start+0.1*float64(k), c.transport)
	}
	sc, err := scenario.Parse("chain.yaml", []byte(b.String()), nil)
	if err != nil {
		t.Error(err)
		return o
	}
	res, err := sc.Run()
	if err != nil {
		t.Error(err)
		return o
	}
	var bytes int64
	for _, f := range res.Flows {
		bytes += f.DeliveredBytes
	}
	o.kbps = float64(bytes) * 8 / 60 / 1e3
	o.segs = float64(bytes) / 1024
	if res.Routing != nil {
		o.ctl = float64(res.Routing.Total())
		o.breaks = float64(res.Routing.LinkBreaks)
	}
	return o
}

// chainPoint is a point of the chain comparisons.
type chainPoint struct {
	hops, flows int
	loss        float64
}

// chainPoints are the routing comparisons' points: 1-10 hops, one and
// three flows, no loss and 3% above the last node's MAC.
func chainPoints() []chainPoint {
	var points []chainPoint
	for _, h := range []int{1, 2, 3, 4, 6, 8, 10} {
		for _, f := range []int{1, 3} {
			for _, l := range []float64{0, 0.03} {
				points = append(points, chainPoint{h, f, l})
			}
		}
	}
	return points
}

// seeded is one run of a chain.
type seeded struct {
	chain
	seed int
}

// measureChains runs every chain over seeds 1..seeds on all cores.
func measureChains(t *testing.T, cs []chain, seeds int) map[seeded]chainRun {
	res := map[seeded]chainRun{}
	var jobs []seeded
	for _, c := range cs {
		for s := 1; s <= seeds; s++ {
			jobs = append(jobs, seeded{c, s})
		}
	}
	runs := make([]chainRun, len(jobs))
	onAllCores(len(jobs), func(i int) { runs[i] = runChain(t, jobs[i].chain, jobs[i].seed) })
	for i, j := range jobs {
		res[j] = runs[i]
	}
	return res
}

// ns2AODVRouting is tcplab's AODV set as ns-2.35's Agent/AODV for the
// second opinion: link-layer detection on every MAC failure without hello
// messages, local repair as ns-2's (repair_timer: ns2) and its destination
// raising its number for every reply, invalidated routes raising their
// destination's number (handle_link_failure, rt_purge, recvError), a newer
// request making a route back valid or ending its repair (rt_update),
// forwarding refreshing only the route to the destination (forward),
// replies giving 10 s (MY_ROUTE_TIMEOUT) and no gratuitous replies
// (RREQ_GRAT_RREP undefined), routes active 10 s, expanding ring from TTL
// 5 by 2 to 7, then the diameter 30, 30 ms a node, three network-wide
// retries (aodv.h, aodv.cc).
const ns2AODVRouting = "{protocol: aodv, hello: false, feedback_neighbours_only: false, local_repair: true, repair_timer: ns2, destination_seq: ns2, invalidated_seq: ns2, revalidate_reverse: true, refresh_reverse: false, gratuitous_reply: false, my_route_timeout: 10s, active_route_timeout: 10s, ttl_start: 5, ttl_increment: 2, ttl_threshold: 7, node_traversal_time: 30ms, net_diameter: 30, rreq_retries: 3, traffic_neighbours: false, purge_queue: true}"

// ns2AODVAirRouting is ns2AODVRouting with the rest of ns-2.35's source
// behaviour, for the chain on ns-2's air: its discovery's pacing
// (request_timer: ns2) and a reply's packets 10 ms apart.
var ns2AODVAirRouting = ns2AODVRouting[:len(ns2AODVRouting)-1] + ", request_timer: ns2, release_spacing: 10ms}"

// The second opinion on AODV: ns-2.35's own (Agent/AODV with its
// PriQueue: CMUPriQueue stalls it) on the same chain as TestDSRAsNS2, its
// static baseline DSDV frozen after convergence behind the same queue.
// The MACs differ, so the effect of routing is compared: AODV's goodput
// over static routes' in the same simulator, tcplab running AODV with
// ns-2's constants (ns2AODVRouting) and ns-2's TCP. ns-2's runs are in
// testdata/ns2-aodv.txt (scripts/ns2/wifi-chain-routing.tcl AODV|DSDV ...
// Queue/DropTail/PriQueue). Held: the ratio within 10% of ns-2's but at
// aodvNS2Open's points; where links break 20 times a run or more, link
// breaks within 25% and control packets per delivered segment within 20%
// but at aodvNS2ControlOpen's.
func TestAODVAsNS2(t *testing.T) {
	if testing.Short() {
		t.Skip("AODV against ns-2: 560 runs")
	}
	compareRoutingWithNS2(t, ns2Comparison{file: "testdata/ns2-aodv.txt", rt: "AODV", routing: ns2AODVRouting, radio: ns2PriQueue, open: aodvNS2Open, holdControl: true, controlOpen: aodvNS2ControlOpen})
}

// aodvNS2Open are the points where, on tcplab's default (DSSS) reception,
// tcplab's AODV set as ns-2.35's (ns2AODVRouting, local repair and all:
// its repair keeps the destination's sequence number and discards the
// live next hop's equal-numbered replies (docs/routing.md); invalidated
// routes raise their destination's number and its own stays even; a
// newer request brings a route back, or ends a repair or a discovery of
// it; forwarding refreshes only the route to the destination; replies
// give 10 s; no gratuitous replies; neighbours only from hellos (none); a
// broken link takes the packets queued for it; routing packets first in
// the queue, as ns-2's PriQueue) differs by more than 10% in its effect
// on TCP: over 6-10 hops, mostly with three flows, tcplab's AODV costs TCP
// 12-28% less, and three flows over 2 hops at 3% 10.0% more (21 of 28
// held). aodvNS2ControlOpen: three flows over 2 hops without loss send 31%
// fewer control packets a segment; one flow over 8 hops without loss and
// three over 6 at 3% break 25-27% more links.
var (
	aodvNS2Open = map[[3]float64]bool{{2, 3, 0.03}: true, {6, 3, 0}: true, {6, 3, 0.03}: true, {8, 1, 0}: true,
		{8, 3, 0}: true, {8, 3, 0.03}: true, {10, 3, 0}: true}
	aodvNS2ControlOpen = map[[3]float64]bool{{2, 3, 0}: true, {6, 3, 0.03}: true, {8, 1, 0}: true}
)

// TestAODVAsNS2OnNS2sAir is TestAODVAsNS2 on ns-2.35's air: its reception
// (an overlap loses both frames, no error model) behind its PriQueue, and
// the source as ns-2's (ns2AODVAirRouting: its discovery's pacing and a
// reply's packets 10 ms apart).
// Control packets per delivered segment agree within 10% at nearly every
// point, link breaks within 25% but one; the ratio within 10% but at
// aodvNS2AirOpen: tcplab's AODV costs TCP 10-28% less over 6-10 hops.
func TestAODVAsNS2OnNS2sAir(t *testing.T) {
	if testing.Short() {
		t.Skip("AODV against ns-2: 560 runs")
	}
	compareRoutingWithNS2(t, ns2Comparison{file: "testdata/ns2-aodv.txt", rt: "AODV", routing: ns2AODVAirRouting, radio: ns2AirPriQueue,
		open: aodvNS2AirOpen, holdControl: true, controlOpen: aodvNS2AirControlOpen})
}

var (
	aodvNS2AirOpen = map[[3]float64]bool{{6, 1, 0}: true, {6, 3, 0}: true, {6, 3, 0.03}: true, {8, 1, 0}: true,
		{8, 3, 0.03}: true, {10, 3, 0}: true}
	aodvNS2AirControlOpen = map[[3]float64]bool{{8, 3, 0.03}: true}
)
