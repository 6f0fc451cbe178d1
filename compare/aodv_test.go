package compare

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tcplab/tcplab/scenario"
)

// AODV (routing/aodv.go) beside ns-3.37's AodvHelper on the 802.11b
// chain of examples/wifi-chain.yaml: hops+1 nodes 200 m apart, one or
// three NewReno+SACK transfers from the first node to the last (started
// 0.1 s apart), with and without 3% loss above the last node's MAC, 60 s,
// 5 seeds. ns-3 runs with permanent ARP entries, so that its link-break
// detection works (static entries turn it off in ns-3.37), and with its
// default AODV attributes. Its results are in testdata/ns3-aodv.txt
// (scripts/ns3/wifi-chain.cc --routing=aodv|static --flows=1|3).
//
// Held: AODV goodput within 10% of ns-3's at every point; the control
// packets per delivered segment within 20% wherever ns-3 sends more than
// a handful per run. The effect of routing, AODV's goodput over the same
// simulator's static routes, is printed beside.
func TestAODVAsNS3(t *testing.T) {
	if testing.Short() {
		t.Skip("AODV against ns-3: 280 runs")
	}
	ref := ns3AODV(t, "testdata/ns3-aodv.txt")
	type point struct {
		hops, flows int
		loss        float64
	}
	var points []point
	for _, h := range []int{1, 2, 3, 4, 6, 8, 10} {
		for _, f := range []int{1, 3} {
			for _, l := range []float64{0, 0.03} {
				points = append(points, point{h, f, l})
			}
		}
	}
	const seeds = 5
	type job struct {
		pt      int
		routing string
		seed    int
	}
	res := map[job]aodvRun{}
	var mu sync.Mutex
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				p := points[j.pt]
				r := runChain(t, p.hops, p.flows, p.loss, j.routing, j.seed)
				mu.Lock()
				res[j] = r
				mu.Unlock()
			}
		}()
	}
	for i := range points {
		for _, rt := range []string{"static", "aodv"} {
			for s := 1; s <= seeds; s++ {
				jobs <- job{i, rt, s}
			}
		}
	}
	close(jobs)
	wg.Wait()
	if t.Failed() {
		return
	}
	var table strings.Builder
	fmt.Fprintf(&table, "| hops | flows | loss | ns-3 static | ns-3 AODV | ratio | tcplab static | tcplab AODV | ratio | AODV vs ns-3 | control/segment ns-3 | tcplab |\n")
	fmt.Fprintf(&table, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for i, p := range points {
		key := func(rt string) string { return fmt.Sprintf("%s/%d/%d/%g", rt, p.hops, p.flows, p.loss) }
		ns, na := ref[key("static")], ref[key("aodv")]
		if len(ns) != seeds || len(na) != seeds {
			t.Fatalf("%s: %d and %d recorded ns-3 runs, want %d", key("aodv"), len(ns), len(na), seeds)
		}
		var ts, ta, tc, nc, ncs []float64
		var ng, nsg []float64
		for s := 1; s <= seeds; s++ {
			ts = append(ts, res[job{i, "static", s}].kbps)
			a := res[job{i, "aodv", s}]
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
		if d > 0.10 || d < -0.10 {
			t.Errorf("%d hops, %d flows, loss %g: AODV goodput %.1f kbit/s, %+.1f%% from ns-3's %.1f", p.hops, p.flows, p.loss, mean(ta), 100*d, mean(ng))
		}
		if c := mean(tc)/mean(nc) - 1; mean(ncs) > 20 && (c > 0.20 || c < -0.20) {
			t.Errorf("%d hops, %d flows, loss %g: %.3f control packets per segment, %+.1f%% from ns-3's %.3f", p.hops, p.flows, p.loss, mean(tc), 100*c, mean(nc))
		}
	}
	t.Logf("AODV against ns-3.37 on the 802.11b chain, %d seeds each (kbit/s):\n%s", seeds, table.String())
}

// aodvRun is one recorded ns-3 run.
type aodvRun struct{ kbps, ctl, segs float64 }

// ns3AODV reads testdata/ns3-aodv.txt: one RESULT line of
// scripts/ns3/wifi-chain.cc a run, keyed routing/hops/flows/loss, in
// seed order.
func ns3AODV(t *testing.T, file string) map[string][]aodvRun {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	type seeded struct {
		seed int
		r    aodvRun
	}
	by := map[string][]seeded{}
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
		by[key] = append(by[key], seeded{int(kv["seed"]), aodvRun{kv["goodput_kbps"], ctl, kv["delivered_segs"]}})
	}
	out := map[string][]aodvRun{}
	for k, rs := range by {
		runs := make([]aodvRun, len(rs))
		for _, r := range rs {
			if r.seed >= 1 && r.seed <= len(rs) {
				runs[r.seed-1] = r.r
			}
		}
		out[k] = runs
	}
	return out
}

// runChain runs the chain as scripts/ns3/wifi-chain.cc does and returns
// the goodput summed over the flows (payload delivered over the 60 s of
// transfer, as ns-3's program divides), the routing control packets sent
// and the segments delivered.
func runChain(t *testing.T, hops, flows int, loss float64, rt string, seed int) (o aodvRun) {
	var b strings.Builder
	fmt.Fprintf(&b, "name: chain\nduration: 61s\nseed: %d\nnodes: [{name: \"n{i}\", count: %d}]\n", seed, hops+1)
	fmt.Fprintf(&b, "wireless:\n  line: {nodes: \"n{i}\", count: %d, spacing: 200m}\n", hops+1)
	if loss > 0 {
		fmt.Fprintf(&b, "  loss: [{node: n%d, at: mac, rate: %g}]\n", hops+1, loss)
	}
	fmt.Fprintf(&b, "routing: %s\nflows:\n", rt)
	for k := range flows {
		fmt.Fprintf(&b, "  - {name: ftp%d, src: n1, dst: n%d, start: %.1fs, transport: {profile: ns3, variant: newreno, sack: true, timestamps: false, mss: 1024, window: 32, initial_window: 2, initial_ssthresh: 32, delack_count: 1, rto: {min: 200ms, granularity: 10ms}}}\n",
			k+1, hops+1, 1+0.1*float64(k))
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
	}
	return o
}
