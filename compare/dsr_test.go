package compare

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// DSR (routing/dsr*.go) beside ns-2.35's DSR (the CMU Monarch
// implementation, the DSR of most TCP-over-MANET studies) on the 802.11b
// chain: hops+1 nodes 200 m apart, one or three bulk TCP transfers from
// the first node to the last, with and without 3% loss above the last
// node's MAC, 60 s, 10 seeds. tcplab's MAC sends its ACKs at 1 Mbit/s as
// ns-2's does (ns2ACKRate), which brings the static chains within 2% of
// ns-2's; the MACs still differ (docs/routing.md lists how), so what is
// compared is the effect of routing: DSR's
// goodput over static routes' in the same simulator, and DSR's control
// packets per delivered segment. ns-2.35 compiles no static routing for
// wireless nodes: DSDV frozen after convergence stands in for it. Both
// sides run ns-2's TCP (tcplab: profile ns2 with SACK; ns-2: Sack1) and a
// 50-packet interface queue. ns-2's runs are in testdata/ns2-dsr.txt
// (scripts/ns2/wifi-chain-routing.tcl and .awk).
//
// Held: the ratio within 10% of ns-2's at every point but those listed
// in dsrOpen, where the gap is measured and printed (README "Routing and
// mobility"); the control overhead is printed, with the link breaks
// behind it: more in tcplab under DSR, each costing a discovery, though
// with static routes both MACs give up on as many frames. The reception
// model is the reason: TestDSRAsNS2OnNS2sAir, with ns-2's, holds both.
func TestDSRAsNS2(t *testing.T) {
	if testing.Short() {
		t.Skip("DSR against ns-2: 280 runs")
	}
	compareRoutingWithNS2(t, ns2Comparison{file: "testdata/ns2-dsr.txt", rt: "DSR", routing: "dsr", radio: ns2Radio, open: dsrOpen})
}

// The same on ns-2.35's air: its reception (ns2Air: an overlap loses
// both frames; no error model) and its CMUPriQueue, and its DSR's 30 ms
// spacing of the packets a reply releases (release_spacing; a
// work-around ns-2 names for its ARP). Like for like, tcplab's MAC then
// gives up on as many frames as ns-2's under DSR and DSR sends as many
// control packets per delivered segment (under the DSSS reception above
// tcplab loses fewer broadcasts and ACKs, breaks links up to 1.6 times
// as often and sends up to 1.9 times the control packets). Held: the
// ratio within 10% but at dsrNS2AirOpen; where links break 20 times a
// run or more in ns-2, link breaks within 25% and control packets per
// segment within 20% but at dsrNS2AirControlOpen (docs/routing.md).
func TestDSRAsNS2OnNS2sAir(t *testing.T) {
	if testing.Short() {
		t.Skip("DSR against ns-2: 280 runs")
	}
	compareRoutingWithNS2(t, ns2Comparison{file: "testdata/ns2-dsr.txt", rt: "DSR", routing: "{protocol: dsr, release_spacing: 30ms}",
		radio: ns2Air, open: dsrNS2AirOpen, holdControl: true, controlOpen: dsrNS2AirControlOpen})
}

// dsrNS2AirOpen: on ns-2's air tcplab's DSR costs TCP more than ns-2's
// with three flows over 8 hops and one flow over 10 hops, both at 3%
// loss (-12%, -17%); dsrNS2AirControlOpen: one flow over 8 hops at 3%
// sends 22% more control packets a segment (24 link breaks a run against
// 21).
var (
	dsrNS2AirOpen        = map[[3]float64]bool{{8, 3, 0.03}: true, {10, 1, 0.03}: true}
	dsrNS2AirControlOpen = map[[3]float64]bool{{8, 1, 0.03}: true}
)

// ns2Comparison is a comparison of tcplab's routing with ns-2.35's on the
// chain: ns-2's runs in file (static routes as DSDV frozen after
// convergence), its routing rt, and tcplab's routing and radio settings.
// The effect of routing on goodput (its goodput over static routes', in
// each simulator) is held within 10% but at open's points; with
// holdControl, link breaks within 25% and control packets per delivered
// segment within 20% wherever ns-2 breaks 20 links a run or more (below,
// a few breaks swing the ratio), but at controlOpen's points.
type ns2Comparison struct {
	file, rt, routing string
	radio             radio
	open, controlOpen map[[3]float64]bool
	holdControl       bool
}

// compareRoutingWithNS2 runs c, both with ns-2's TCP and 50-packet
// queues, and prints the table point by point.
func compareRoutingWithNS2(t *testing.T, c ns2Comparison) {
	ref := ns2Chains(t, c.file)
	points := chainPoints()
	seeds := len(ref[c.rt+"/10/1/0"])
	static := func(p chainPoint) chain {
		return chain{p.hops, p.flows, p.loss, "static", ns2Chain, 50, c.radio, ns2T0}
	}
	routed := func(p chainPoint) chain {
		return chain{p.hops, p.flows, p.loss, c.routing, ns2Chain, 50, c.radio, ns2T0}
	}
	var runs []chain
	for _, p := range points {
		runs = append(runs, static(p), routed(p))
	}
	res := measureChains(t, runs, seeds)
	if t.Failed() {
		return
	}
	var table strings.Builder
	fmt.Fprintf(&table, "| hops | flows | loss | ns-2 static | ns-2 %[1]s | ratio | tcplab static | tcplab %[1]s | ratio | ratio vs ns-2 | control/segment ns-2 | tcplab | link breaks ns-2 | tcplab |\n", c.rt)
	fmt.Fprintf(&table, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range points {
		key := func(rt string) string { return fmt.Sprintf("%s/%d/%d/%g", rt, p.hops, p.flows, p.loss) }
		ns, nr := ref[key("DSDV")], ref[key(c.rt)]
		if len(ns) != seeds || len(nr) != seeds {
			t.Fatalf("%s: %d and %d recorded ns-2 runs, want %d", key(c.rt), len(ns), len(nr), seeds)
		}
		var ts, tr, tc, tb, nsg, ng, nc, nb []float64
		for s := 1; s <= seeds; s++ {
			ts = append(ts, res[seeded{static(p), s}].kbps)
			r := res[seeded{routed(p), s}]
			tr, tc, tb = append(tr, r.kbps), append(tc, r.ctl/r.segs), append(tb, r.breaks)
			nsg, ng = append(nsg, ns[s-1].kbps), append(ng, nr[s-1].kbps)
			nc, nb = append(nc, nr[s-1].ctl/nr[s-1].segs), append(nb, nr[s-1].breaks)
		}
		rn, rtl := mean(ng)/mean(nsg), mean(tr)/mean(ts)
		d := rtl/rn - 1
		fmt.Fprintf(&table, "| %d | %d | %g%% | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %+.1f%% | %.3f | %.3f | %.0f | %.0f |\n",
			p.hops, p.flows, 100*p.loss, mean(nsg), mean(ng), rn, mean(ts), mean(tr), rtl, 100*d, mean(nc), mean(tc), mean(nb), mean(tb))
		at, pt := fmt.Sprintf("%d hops, %d flows, loss %g", p.hops, p.flows, p.loss), [3]float64{float64(p.hops), float64(p.flows), p.loss}
		if (d > 0.10 || d < -0.10) && !c.open[pt] {
			t.Errorf("%s: %s/static %.3f, %+.1f%% from ns-2's %.3f", at, c.rt, rtl, 100*d, rn)
		}
		if c.holdControl && mean(nb) >= 20 {
			if d := mean(tc)/mean(nc) - 1; (d > 0.20 || d < -0.20) && !c.controlOpen[pt] {
				t.Errorf("%s: %.3f control packets a delivered segment, %+.0f%% from ns-2's %.3f", at, mean(tc), 100*d, mean(nc))
			}
			if d := mean(tb)/mean(nb) - 1; (d > 0.25 || d < -0.25) && !c.controlOpen[pt] {
				t.Errorf("%s: %.0f link breaks, %+.0f%% from ns-2's %.0f", at, mean(tb), 100*d, mean(nb))
			}
		}
	}
	t.Logf("%s against ns-2.35's on the 802.11b chain, %d seeds each (kbit/s):\n%s", c.rt, seeds, table.String())
}

// dsrOpen are the points where, under tcplab's default (DSSS) reception,
// tcplab's DSR and ns-2.35's differ by more than 10% in their effect on
// TCP (10 seeds): one flow without loss over 3 and 6 hops and with 3%
// over 10 (-11 to -16%), three flows without loss over 2 hops (-16%) and
// 6 hops (+11%). Under that reception a 1 Mbit/s request or ACK survives
// an overlapping data frame where ns-2's is lost with it, so links break
// and are found again at another pace: on ns-2's air
// (TestDSRAsNS2OnNS2sAir) the two agree at 26 of 28 points.
var dsrOpen = map[[3]float64]bool{
	{2, 3, 0}: true, {3, 1, 0}: true, {6, 1, 0}: true, {6, 3, 0}: true, {10, 1, 0.03}: true,
}

// ns2Chains reads ns-2's chain runs (testdata/ns2-dsr.txt, ns2-aodv.txt):
// each run a RESULT line and its TRACE line, keyed routing/hops/flows/loss,
// in seed order. Control packets are the DSR or AODV packets routers sent
// (originated and forwarded); link breaks the MAC's retry-limit drops.
func ns2Chains(t *testing.T, file string) map[string][]chainRun {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	out := map[string][]chainRun{}
	kvOf := func(l string) map[string]string {
		kv := map[string]string{}
		for _, w := range strings.Fields(l)[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				kv[k] = v
			}
		}
		return kv
	}
	num := func(kv map[string]string, k string) float64 { f, _ := strconv.ParseFloat(kv[k], 64); return f }
	for i, l := range lines {
		if !strings.HasPrefix(l, "RESULT ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "TRACE") {
			continue
		}
		kv, tr := kvOf(l), kvOf(lines[i+1])
		key := fmt.Sprintf("%s/%s/%s/%g", kv["rt"], kv["hops"], kv["flows"], num(kv, "loss"))
		seed := int(num(kv, "seed"))
		for len(out[key]) < seed {
			out[key] = append(out[key], chainRun{})
		}
		out[key][seed-1] = chainRun{kbps: num(kv, "goodput_sum_kbps"), segs: num(kv, "segs"),
			ctl:    num(tr, "dsr_orig") + num(tr, "dsr_fwd") + num(tr, "aodv_sent"),
			breaks: num(tr, "drop_MAC_RET_tcp") + num(tr, "drop_MAC_RET_ack") + num(tr, "drop_MAC_RET_DSR") + num(tr, "drop_MAC_RET_AODV")}
	}
	return out
}
