package compare

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/scenario"
)

// BBR (tcp/bbr.go, `profile: ns3` runs bbr-ns3) beside ns-3.37's TcpBbr
// with pacing on the shared scenarios A (dumbbell-lossy), B (chain-4hop)
// and C (dumbbell-10flows), with the anchors' "+sack" settings except the
// minimum RTO, which is ns-3's own 1 s: at the anchors' 200 ms ns-3.37's
// TcpBbr falls into its false-timeout loops (A at 1% loss: 285 kbit/s and
// 509 timeouts a run against 1 532 kbit/s and 3.4 at 1 s; README "BBR").
// ns-3's results are recorded in testdata/ns3-bbr.txt: the anchors'
// dumbbell-lossy and chain-4hop programs for A and B, scripts/ns3/
// dumbbell-variant.cc for C (--n=10 --bw=6) and C-big (--n=100 --bw=100),
// each with --variant=Bbr --sack=1 --ns3::TcpSocketBase::MinRto=1s.
func TestBBRAsNS3(t *testing.T) {
	if testing.Short() {
		t.Skip("BBR against ns-3: 260 runs")
	}
	// Held to 5% where ns-3.37's TcpBbr works as BBR; measured and
	// printed, not held, where its defects decide (README "BBR"): on B
	// with loss it collapses (24 kbit/s at 1%: its rate sampler's ns-3
	// issues #1026 and #735, fixed in 3.41 and 3.42; with both patched
	// in, 218.9 kbit/s against tcplab's 208.7); at 15% loss on A #1026
	// alone (ns-3 with that line fixed: 239.2 kbit/s, tcplab within 5% of
	// it); C at 10% both (ns-3 4117.2 kbit/s, 4311.9 with the two fixes,
	// tcplab 4388.0: +6.6% and +1.8%). C at 1% and 2% is held since bbr-ns3 reads ns-3's
	// loss signal (loss_by_marks: the change in the bytes marked lost, a
	// hole counted when marked and again when repaired): counting each
	// loss once, tcplab timed out a third more often than ns-3 there (453
	// against 339 timeouts a run at 1%) and landed 4-5% below it.
	points := []struct {
		scenLoss
		held bool
	}{
		{scenLoss{"A", 0}, true}, {scenLoss{"A", 0.01}, true}, {scenLoss{"A", 0.02}, true}, {scenLoss{"A", 0.05}, true},
		{scenLoss{"A", 0.1}, true}, {scenLoss{"A", 0.15}, false},
		{scenLoss{"B", 0}, true}, {scenLoss{"B", 0.01}, false}, {scenLoss{"B", 0.02}, false}, {scenLoss{"B", 0.05}, false}, {scenLoss{"B", 0.1}, false},
		{scenLoss{"C", 0}, true}, {scenLoss{"C", 0.01}, true}, {scenLoss{"C", 0.02}, true}, {scenLoss{"C", 0.05}, true},
		{scenLoss{"C", 0.1}, false},
		{scenLoss{"Cbig", 0}, true}, {scenLoss{"Cbig", 0.01}, true}, {scenLoss{"Cbig", 0.02}, true}, {scenLoss{"Cbig", 0.05}, true},
	}
	ref := ns3Goodputs(t, "testdata/ns3-bbr.txt")
	var table strings.Builder
	fmt.Fprintf(&table, "| scenario | loss | ns-3.37 TcpBbr kbit/s | tcplab bbr kbit/s | difference | held to 5%% |\n|---|---|---|---|---|---|\n")
	// Every run at once, on all cores (C-big's are a second each).
	type job struct {
		scenLoss
		seed int
	}
	var jobs []job
	for _, pt := range points {
		if len(ref[pt.scenLoss]) == 0 {
			t.Fatalf("%s p=%g: no recorded ns-3 runs", pt.scen, pt.p)
		}
		for s := 1; s <= len(ref[pt.scenLoss]); s++ {
			jobs = append(jobs, job{pt.scenLoss, s})
		}
	}
	kbps := make([]float64, len(jobs))
	errs := make([]error, len(jobs))
	onAllCores(len(jobs), func(i int) {
		kbps[i], errs[i] = bbrGoodput(jobs[i].scen, jobs[i].p, jobs[i].seed)
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for _, pt := range points {
		want := ref[pt.scenLoss]
		var got []float64
		for i, j := range jobs {
			if j.scenLoss == pt.scenLoss {
				got = append(got, kbps[i])
			}
		}
		g, w := mean(got), mean(want)
		d := g/w - 1
		fmt.Fprintf(&table, "| %s | %g%% | %.1f | %.1f | %+.1f%% | %v |\n", pt.scen, 100*pt.p, w, g, 100*d, pt.held)
		if pt.held && (d > 0.05 || d < -0.05) {
			t.Errorf("%s p=%g: mean goodput %.2f kbit/s, %.1f%% from ns-3's %.2f (%d seeds)", pt.scen, pt.p, g, 100*d, w, len(got))
		}
	}
	t.Logf("BBR against ns-3.37 TcpBbr, 10 seeds each:\n%s", table.String())
}

// bbrGoodput runs one seed of scenario A, B, C or C-big ("Cbig") with BBR
// and returns the goodput in kbit/s (C, C-big: the sum over the flows).
func bbrGoodput(scen string, p float64, seed int) (float64, error) {
	sets := []string{fmt.Sprintf("seed=%d", seed)}
	var file string
	var seconds float64
	switch scen {
	case "A":
		file, seconds = "../examples/dumbbell-lossy-ns3.yaml", 200
		sets = append(sets, fmt.Sprintf("links.lossy.loss.rate=%g", p))
	case "B":
		file, seconds = "../examples/chain-4hop-ns3.yaml", 200
		for _, l := range []string{"h1", "h2", "h3", "h4"} {
			sets = append(sets, fmt.Sprintf("links.%s.loss.rate=%g", l, p))
		}
	case "C":
		file, seconds = "../examples/dumbbell-10flows-ns3.yaml", 100
		sets = append(sets, fmt.Sprintf("links.bottleneck.loss.rate=%g", p))
	case "Cbig":
		// C's ns-3 settings on C-big's 100 flows (c-big.yaml runs ns-2's).
		file, seconds = "../examples/c-big.yaml", 100
		sets = append(sets, fmt.Sprintf("links.bottleneck.loss.rate=%g", p),
			"flows.f{i}.transport={profile: ns3, variant: bbr, sack: true, timestamps: false, mss: 1000, window: 64, initial_window: 2, initial_ssthresh: 64, delack_count: 1, rto: {min: 1s, granularity: 10ms}}")
	}
	flows := "ftp"
	if scen == "C" || scen == "Cbig" {
		flows = "f{i}"
	}
	sets = append(sets, "flows."+flows+".transport.variant=bbr", "flows."+flows+".transport.rto.min=1s")
	sc, err := scenario.Load(file, sets)
	if err != nil {
		return 0, err
	}
	res, err := sc.Run()
	if err != nil {
		return 0, err
	}
	var bytes int64
	for _, f := range res.Flows {
		bytes += f.DeliveredBytes
	}
	return float64(bytes) * 8 / seconds / 1e3, nil
}
