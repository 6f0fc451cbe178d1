package compare

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Vegas under the ns2 profile is ns-2.35's Agent/TCP/Vegas
// (tcp/vegas_ns2.go), checked against ns-2 on three scenarios with random
// loss (the anchors' A and B, and C's ten flows) and on identical drop
// lists on A. ns-2 runs testdata/vegas.tcl; its results are recorded in
// testdata/ns2-vegas.txt (TCPLAB_NS2_REGEN=1 reruns ns-2). Goodput is the
// payload delivered in order; ns-2's Vegas puts packetSize_ bytes on the
// wire, so it is counted from the sink's bytes over that size (the
// anchors' formula, over packetSize_ + 40, understates Vegas by 3.8%).
//
// One defect of ns-2's program is not reproduced: on the first new ACK
// after more than three duplicate ACKs that follow a timeout it deflates
// cwnd_ to v_newcwnd_, which the timeout set to 0, and then sends nothing
// until the next timeout. tcplab keeps its cwnd floor of one segment. The
// script counts these stalls: drop-list runs with one are reported, not
// held to ns-2's goodput; random-loss means are over all seeds, and at 5%
// loss on A, where ns-2 stalls in most runs, the difference is reported.

type vegasCase struct {
	scen string  // A, B or C
	p    float64 // loss rate
	seed uint64
	list bool // A with a drop list drawn from seed instead of random loss
}

func vegasCases() []vegasCase {
	var cs []vegasCase
	for s := uint64(1); s <= 10; s++ {
		for _, p := range []float64{0.01, 0.02, 0.05} {
			cs = append(cs, vegasCase{"A", p, s, false}, vegasCase{"A", p, s, true})
		}
		for _, p := range []float64{0.01, 0.02} {
			cs = append(cs, vegasCase{"B", p, s, false})
		}
		cs = append(cs, vegasCase{"C", 0.02, s, false})
	}
	return cs
}

func (c vegasCase) key() string {
	return fmt.Sprintf("%s p=%g seed=%d list=%v", c.scen, c.p, c.seed, c.list)
}

// drops is the drop list of a list case: 0-based numbers of the packets
// (SYN = 0) the last link drops.
func (c vegasCase) drops() []int {
	r := sim.Stream(c.seed, fmt.Sprintf("droplist/vegas/p=%g", c.p))
	var l []int
	for k := 0; k < 30000; k++ {
		if r.Float64() < c.p {
			l = append(l, k)
		}
	}
	return l
}

func (c vegasCase) runNS2(t *testing.T) string {
	args := []string{"testdata/vegas.tcl", c.scen, "Vegas", strconv.FormatFloat(c.p, 'g', -1, 64), strconv.FormatUint(c.seed, 10)}
	if c.list {
		var b strings.Builder
		for i, k := range c.drops() {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(k))
		}
		f := filepath.Join(t.TempDir(), "drops.txt")
		if err := os.WriteFile(f, []byte(b.String()+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, f)
	}
	out, err := exec.Command("ns", args...).Output()
	if err != nil {
		t.Fatalf("%s: ns: %v", c.key(), err)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "RESULT ") {
			return strings.TrimPrefix(l, "RESULT ")
		}
	}
	t.Fatalf("%s: no RESULT from ns", c.key())
	return ""
}

// goodput runs the case in tcplab: total kbit/s over the run and timeouts.
func (c vegasCase) goodput(t *testing.T) (float64, int64) {
	file, T := "../examples/dumbbell-lossy.yaml", 200.0
	sets := []string{fmt.Sprintf("seed=%d", c.seed), "flows.ftp.transport.variant=vegas"}
	switch c.scen {
	case "A":
		if c.list {
			pos := make([]string, 0)
			for _, k := range c.drops() {
				pos = append(pos, strconv.Itoa(k+1))
			}
			sets = append(sets, "links.lossy.loss={model: droplist, direction: forward, positions: ["+strings.Join(pos, ", ")+"]}")
		} else {
			sets = append(sets, fmt.Sprintf("links.lossy.loss.rate=%g", c.p))
		}
	case "B":
		file = "../examples/chain-4hop.yaml"
		for i := 1; i <= 4; i++ {
			sets = append(sets, fmt.Sprintf("links.h%d.loss.rate=%g", i, c.p))
		}
	case "C":
		file, T = "../examples/dumbbell-10flows.yaml", 100
		sets = []string{fmt.Sprintf("seed=%d", c.seed), "flows.f{i}.transport.variant=vegas", fmt.Sprintf("links.bottleneck.loss.rate=%g", c.p)}
	}
	res := mustRun(t, file, sets...)
	var kbps float64
	var rtos int64
	for _, f := range res.Flows {
		if f.Variant != "vegas-ns2" {
			t.Fatalf("profile ns2 ran %s", f.Variant)
		}
		kbps += float64(f.DeliveredBytes) * 8 / T / 1e3
		rtos += f.Timeouts
	}
	return kbps, rtos
}

func TestVegasAsNS2(t *testing.T) {
	cases := vegasCases()
	ref := recordedVegas(t, cases)
	type agg struct{ ref, ours, n, stalled float64 }
	means := map[string]*agg{}
	var listN, listClose, listStalled int
	var listRef, listOurs float64
	for _, c := range cases {
		want, ok := ref[c.key()]
		if !ok {
			t.Fatalf("%s: no recorded ns-2 result", c.key())
		}
		got, rtos := c.goodput(t)
		if c.list {
			if want.stalls > 0 {
				listStalled++
				t.Logf("%s: %.2f vs ns-2 %.2f kbit/s, timeouts %d vs %.0f (ns-2 stalled %.0f times)", c.key(), got, want.kbps, rtos, want.rtos, want.stalls)
				continue
			}
			listN++
			listRef += want.kbps
			listOurs += got
			if d := got/want.kbps - 1; d < 0.01 && d > -0.01 {
				listClose++
			} else {
				t.Logf("%s: %.2f vs ns-2 %.2f kbit/s, timeouts %d vs %.0f", c.key(), got, want.kbps, rtos, want.rtos)
			}
			continue
		}
		k := fmt.Sprintf("%s p=%g", c.scen, c.p)
		if means[k] == nil {
			means[k] = &agg{}
		}
		if want.stalls > 0 {
			means[k].stalled++
		}
		means[k].ref += want.kbps
		means[k].ours += got
		means[k].n++
	}
	for _, k := range []string{"A p=0.01", "A p=0.02", "A p=0.05", "B p=0.01", "B p=0.02", "C p=0.02"} {
		m := means[k]
		d := m.ours/m.ref - 1
		t.Logf("%s: mean %.2f vs ns-2 %.2f kbit/s (%+.1f%%), %.0f seeds, ns-2 stalled in %.0f", k, m.ours/m.n, m.ref/m.n, 100*d, m.n, m.stalled)
		if k == "A p=0.05" {
			continue // ns-2 stalls in most runs (see above)
		}
		if d > 0.05 || d < -0.05 {
			t.Errorf("%s: mean goodput %.1f%% from ns-2's", k, 100*d)
		}
	}
	t.Logf("drop lists on A: %d of %d within 1%% of ns-2, mean %.2f vs %.2f kbit/s; %d more where ns-2 stalled", listClose, listN, listOurs/float64(listN), listRef/float64(listN), listStalled)
	if listClose*10 < listN*9 {
		t.Errorf("only %d of %d drop-list runs within 1%% of ns-2", listClose, listN)
	}
	if r := listOurs / listRef; r < 0.99 || r > 1.01 {
		t.Errorf("drop lists: mean goodput %.2f vs ns-2's %.2f", listOurs/float64(listN), listRef/float64(listN))
	}
}

func recordedVegas(t *testing.T, cases []vegasCase) map[string]ns2Result {
	file := "testdata/ns2-vegas.txt"
	if os.Getenv("TCPLAB_NS2_REGEN") != "" {
		var b strings.Builder
		b.WriteString("# ns-2.35 Agent/TCP/Vegas on testdata/vegas.tcl (compare/vegas_test.go); one case a line\n")
		for _, c := range cases {
			fmt.Fprintf(&b, "%s | %s\n", c.key(), c.runNS2(t))
		}
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return recorded(t, file, nil, false, nil)
}
