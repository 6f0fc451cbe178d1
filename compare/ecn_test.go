package compare

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// ECN end to end on a RED bottleneck (examples/red-ecn.yaml) beside ns-2.35
// with ecn_ agents on the same RED (testdata/red-ecn.tcl), seeds 1-10, with
// ECN and without. ns-2's results are recorded in testdata/ns2-red-ecn.txt;
// TCPLAB_NS2_REGEN=1 reruns ns-2. RED draws its own random numbers in each
// simulator, so the runs are compared as means.
func TestECNOnREDAsNS2(t *testing.T) {
	type agg struct{ kbps, rexmits, rtos float64 }
	ref := map[bool]*agg{false: {}, true: {}}
	if os.Getenv("TCPLAB_NS2_REGEN") != "" {
		var b strings.Builder
		b.WriteString("# compare/testdata/red-ecn.tcl 5 ECN SEED 60 with ns-2.35; one run a line\n")
		for _, e := range []string{"0", "1"} {
			for s := 1; s <= 10; s++ {
				out, err := exec.Command("ns", "testdata/red-ecn.tcl", "5", e, strconv.Itoa(s), "60").Output()
				if err != nil {
					t.Fatal(err)
				}
				b.Write(out)
			}
		}
		if err := os.WriteFile("testdata/ns2-red-ecn.txt", []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile("testdata/ns2-red-ecn.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "RESULT ") {
			continue
		}
		kv := map[string]float64{}
		for _, w := range strings.Fields(line) {
			if k, v, ok := strings.Cut(w, "="); ok {
				kv[k], _ = strconv.ParseFloat(v, 64)
			}
		}
		a := ref[kv["ecn"] == 1]
		a.kbps += kv["goodput_kbps"] / 10
		a.rexmits += kv["rexmits"] / 10
		a.rtos += kv["rtos"] / 10
	}
	oursBy := map[bool]agg{}
	for _, ecn := range []bool{false, true} {
		var ours agg
		var aqm, reductions int64
		for s := 1; s <= 10; s++ {
			res := mustRun(t, "../examples/red-ecn.yaml", fmt.Sprintf("seed=%d", s), fmt.Sprintf("flows.f{i}.transport.ecn=%v", ecn))
			for _, f := range res.Flows {
				ours.kbps += float64(f.DeliveredBytes) * 8 / 60 / 1e3 / 10
				ours.rexmits += float64(f.RetransmittedPackets) / 10
				ours.rtos += float64(f.Timeouts) / 10
				reductions += f.ECNReductions
			}
			aqm += res.Drops["aqm_drop"]
		}
		want := ref[ecn]
		t.Logf("ecn %v: goodput %.1f vs ns-2 %.1f kbit/s, retransmissions %.1f vs %.1f, timeouts %.1f vs %.1f, AQM drops %d, ECN reductions %d",
			ecn, ours.kbps, want.kbps, ours.rexmits, want.rexmits, ours.rtos, want.rtos, aqm, reductions)
		if d := ours.kbps/want.kbps - 1; d > 0.05 || d < -0.05 {
			t.Errorf("ecn %v: goodput %.1f kbit/s, %.1f%% from ns-2's %.1f", ecn, ours.kbps, 100*d, want.kbps)
		}
		switch {
		case ecn && (aqm != 0 || reductions == 0):
			t.Errorf("with ECN: %d AQM drops (want 0: RED marks), %d ECN reductions", aqm, reductions)
		case !ecn && reductions != 0:
			t.Errorf("without ECN: %d ECN reductions", reductions)
		}
		oursBy[ecn] = ours
	}
	// What ECN is for, in both simulators: marks instead of drops, so a
	// tenth of the retransmissions or fewer.
	for sim, m := range map[string]map[bool]agg{"ns-2": {false: *ref[false], true: *ref[true]}, "tcplab": oursBy} {
		if !(m[true].rexmits*10 < m[false].rexmits) {
			t.Errorf("%s: %.0f retransmissions with ECN, %.0f without", sim, m[true].rexmits, m[false].rexmits)
		}
	}
}
