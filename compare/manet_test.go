package compare

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/routing"
	"github.com/tcplab/tcplab/scenario"
)

// The 50-node random-waypoint field of examples/manet-waypoint.yaml
// beside ns-3.37's AODV, with the same trajectories in both: ten setdest
// movement files (testdata/manet) read by tcplab's wireless.movements and
// by ns-3's Ns2MobilityHelper (scripts/ns3/manet-waypoint.cc; its runs in
// testdata/ns3-manet.txt), 10 CBR and 5 TCP flows, 300 s, 10 seeds. Held:
// the mean CBR delivery ratio and the mean TCP goodput within 10% of
// ns-3's (single seeds vary far more: the routes differ run by run).
// TCPLAB_MANET=1 runs it (10 runs of 300 s, half a minute on 2 cores).
func TestMANETFieldAsNS3(t *testing.T) {
	if os.Getenv("TCPLAB_MANET") == "" {
		t.Skip("the 50-node field against ns-3, 10 runs of 300 s: TCPLAB_MANET=1 runs it")
	}
	ref := fieldRuns(t, "testdata/ns3-manet.txt", "")
	num := func(kv map[string]string, k string) float64 { f, _ := strconv.ParseFloat(kv[k], 64); return f }
	var table strings.Builder
	fmt.Fprintf(&table, "| seed | CBR delivery ns-3 | tcplab | TCP kbit/s ns-3 | tcplab | RREQ ns-3 | tcplab | RERR ns-3 | tcplab |\n|---|---|---|---|---|---|---|---|---|\n")
	var pn, pt, gn, gt []float64
	for s := 1; s <= len(ref); s++ {
		pdr, tcp, res := runField(t, s)
		kv := ref[s]
		pn, pt = append(pn, num(kv, "cbr_pdr")), append(pt, pdr)
		gn, gt = append(gn, num(kv, "tcp_sum_kbps")), append(gt, tcp)
		fmt.Fprintf(&table, "| %d | %.3f | %.3f | %.0f | %.0f | %s | %d | %s | %d |\n", s, num(kv, "cbr_pdr"), pdr,
			num(kv, "tcp_sum_kbps"), tcp, kv["rreq"], res.Routing.Of(routing.RREQ).Packets, kv["rerr"], res.Routing.Of(routing.RERR).Packets)
	}
	fmt.Fprintf(&table, "| mean | %.3f | %.3f | %.0f | %.0f | | | | |\n", mean(pn), mean(pt), mean(gn), mean(gt))
	t.Logf("the 50-node field, AODV, tcplab beside ns-3.37 on the same trajectories:\n%s", table.String())
	for _, c := range []struct {
		what string
		ns3  float64
		ours float64
	}{{"CBR delivery ratio", mean(pn), mean(pt)}, {"TCP goodput", mean(gn), mean(gt)}} {
		if d := c.ours/c.ns3 - 1; d > 0.10 || d < -0.10 {
			t.Errorf("%s: %.3g against ns-3's %.3g (%+.0f%%)", c.what, c.ours, c.ns3, 100*d)
		}
	}
}

// runField runs the field on seed's trajectories (testdata/manet), with
// sets applied after them, and returns the CBR delivery ratio, the TCP
// goodput summed over the flows (kbit/s) and the result.
func runField(t *testing.T, seed int, sets ...string) (pdr, tcp float64, res *scenario.Result) {
	t.Helper()
	example, err := os.ReadFile("../examples/manet-waypoint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	mv, _ := filepath.Abs(fmt.Sprintf("testdata/manet/seed%d.ns_movements", seed))
	sets = append([]string{fmt.Sprintf("seed=%d", seed), "wireless.mobility=[]",
		fmt.Sprintf("wireless.movements={file: %q, nodes: \"m{i}\"}", mv)}, sets...)
	sc, err := scenario.Parse("manet-waypoint.yaml", example, sets)
	if err != nil {
		t.Fatal(err)
	}
	if res, err = sc.Run(); err != nil {
		t.Fatal(err)
	}
	var rx, tx float64
	for _, f := range res.Flows {
		if f.Transport == "udp" {
			rx += float64(f.DeliveredBytes) / 512
			tx += float64(f.SentPackets)
		} else {
			tcp += f.GoodputBps / 1e3
		}
	}
	return rx / tx, tcp, res
}

// The same field beside ns-2.35, on the same trajectories
// (scripts/ns2/manet-field.tcl, which sources the setdest files; its runs
// in testdata/ns2-manet.txt), both sides running ns-2's TCP (profile ns2
// with SACK, 1024-byte segments, window 32; ns-2: Sack1) and MAC ACKs at
// ns-2's 1 Mbit/s (ns2ACKRate):
//   - DSR (Agent/DSRAgent, CMUPriQueue): tcplab's DSR takes ns-2.35's
//     choices by default (the tap with gratuitous replies, a forwarder's
//     request for a packet it cannot salvage from its cache). Held: the
//     mean CBR delivery ratio and the mean TCP goodput within 10% (0.967
//     against 0.935, 2837 against 3087 kbit/s); and the same on ns-2's air
//     (its reception and CMUPriQueue, and its DSR's 30 ms release
//     spacing, as TestDSRAsNS2OnNS2sAir).
//   - AODV (Agent/AODV behind PriQueue), a second opinion beside ns-3.37's
//     (TestMANETFieldAsNS3): tcplab's AODV set as ns-2.35's
//     (ns2AODVRouting: link-layer detection on every MAC failure, local
//     repair as ns-2's, and the rest of ns2AODVRouting), behind ns-2's
//     PriQueue. Held as DSR: 0.732 against 0.796, 3205 against 2970
//     kbit/s (-11% while
//     invalidated routes kept their destination's sequence number, as
//     ns-3.37's do: intermediate nodes then answered requests with routes
//     already broken, and TCP sat out backed-off timeouts on them).
//
// TCPLAB_MANET=1 runs it.
func TestMANETFieldAsNS2(t *testing.T) {
	if os.Getenv("TCPLAB_MANET") == "" {
		t.Skip("the 50-node field against ns-2, 20 runs of 300 s: TCPLAB_MANET=1 runs it")
	}
	for _, c := range []struct {
		rt, routing string
		air         []string
	}{
		{"DSR", "dsr", nil},
		{"DSR", "{protocol: dsr, release_spacing: 30ms}", []string{"wireless.reception=threshold", "wireless.priority=[routing, tcp_acks]"}},
		{"AODV", ns2AODVRouting, []string{"wireless.priority=[routing]"}},
	} {
		ref := fieldRuns(t, "testdata/ns2-manet.txt", c.rt)
		sets := append([]string{"routing=" + c.routing, "wireless.ack_rate=" + ns2ACKRate}, c.air...)
		for i := 1; i <= 5; i++ {
			sets = append(sets, fmt.Sprintf("flows.tcp%d.transport={profile: ns2, variant: newreno, sack: true, mss: 1024, window: 32}", i))
		}
		num := func(kv map[string]string, k string) float64 { f, _ := strconv.ParseFloat(kv[k], 64); return f }
		var table strings.Builder
		fmt.Fprintf(&table, "| seed | CBR delivery ns-2 | tcplab | TCP kbit/s ns-2 | tcplab |\n|---|---|---|---|---|\n")
		var pn, pt, gn, gt []float64
		for s := 1; s <= len(ref); s++ {
			pdr, tcp, _ := runField(t, s, sets...)
			kv := ref[s]
			pn, pt = append(pn, num(kv, "cbr_pdr")), append(pt, pdr)
			gn, gt = append(gn, num(kv, "tcp_goodput_kbps")), append(gt, tcp)
			fmt.Fprintf(&table, "| %d | %.3f | %.3f | %.0f | %.0f |\n", s, num(kv, "cbr_pdr"), pdr, num(kv, "tcp_goodput_kbps"), tcp)
		}
		fmt.Fprintf(&table, "| mean | %.3f | %.3f | %.0f | %.0f |\n", mean(pn), mean(pt), mean(gn), mean(gt))
		t.Logf("the 50-node field, %s%s, tcplab beside ns-2.35 on the same trajectories:\n%s", c.rt, map[bool]string{true: " on ns-2's air"}[slices.Contains(c.air, "wireless.reception=threshold")], table.String())
		if d := mean(gt)/mean(gn) - 1; d > 0.10 || d < -0.10 {
			t.Errorf("%s: TCP goodput %.3g against ns-2's %.3g (%+.0f%%)", c.rt, mean(gt), mean(gn), 100*d)
		}
		if d := mean(pt)/mean(pn) - 1; d > 0.10 || d < -0.10 {
			t.Errorf("%s: CBR delivery %.3f against ns-2's %.3f (%+.0f%%)", c.rt, mean(pt), mean(pn), 100*d)
		}
	}
}

// fieldRuns reads a reference's field runs (RESULT lines of key=value
// words) by seed; rt, if not empty, keeps only that routing protocol's.
func fieldRuns(t *testing.T, file, rt string) map[int]map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ref := map[int]map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "RESULT ") {
			continue
		}
		kv := map[string]string{}
		for _, w := range strings.Fields(l)[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				kv[k] = v
			}
		}
		if rt != "" && kv["rt"] != rt {
			continue
		}
		s, _ := strconv.Atoi(kv["seed"])
		ref[s] = kv
	}
	return ref
}
