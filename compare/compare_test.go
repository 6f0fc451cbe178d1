package compare

import (
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcplab/tcplab/scenario"
)

func TestRecordedAnchorsParse(t *testing.T) {
	runs := Recorded()
	s := Lookup(runs, "ns2", "A", "Newreno", 0.01)
	// anchors README: 788.5 ± 29.0 over 10 seeds.
	if s.N != 10 || s.Mean < 788.4 || s.Mean > 788.6 {
		t.Fatalf("A ns2 Newreno p=0.01: %+v, want 10 runs, mean 788.5", s)
	}
}

// TestPrintTable prints the whole comparison (go test -run PrintTable -v
// ./compare with TCPLAB_COMPARE=1).
func TestPrintTable(t *testing.T) {
	if os.Getenv("TCPLAB_COMPARE") == "" {
		t.Skip("set TCPLAB_COMPARE=1")
	}
	rows, err := Measure("..", Points(), 10, Recorded())
	if err != nil {
		t.Fatal(err)
	}
	WriteMarkdown(os.Stdout, rows)
}

// knownOutside lists the points where tcplab's 10-seed mean is not within
// 10% of the reference, with the reason found (README, "Validation").
var knownOutside = map[string]string{
	// A run of B at p = 10% delivers 20-300 packets and its goodput is
	// heavy-tailed (a lost SYN or a 60 s back-off dominates it), so 10
	// seeds are too few: ns-2's own mean over seeds 1-10 is 1.7 kbit/s and
	// over 1-60 2.41; ns-3's 5.4 and 5.0. On identical drop lists tcplab
	// and the reference agree (TestSameLossesSameOutcomeAsNS2/NS3, and 60
	// fresh patterns at p = 10%: tcplab 4.85, ns-3 4.85 kbit/s).
	"B ns2 Newreno p=0.1":                 "sampling",
	"B ns2 Reno p=0.1":                    "sampling",
	"B ns3 NewReno+sack p=0.1":            "sampling",
	"B ns3 NewReno+sack+rtxrestart p=0.1": "sampling",
}

// TestGoodputWithinTenPercentOfReferences is the acceptance check:
// with the ns2 profile within 10% of ns-2 at every point of A, B and C
// (NewReno and Reno), with the ns3 profile and SACK within 10% of ns-3's
// NewReno+sack rows, with and without the timer restart.
func TestGoodputWithinTenPercentOfReferences(t *testing.T) {
	seeds := 10
	if testing.Short() {
		seeds = 3
	}
	rows, err := Measure("..", Points(), seeds, Recorded())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		d := r.Diff()
		_, known := knownOutside[r.Point.Label()]
		// The 10% bound is for means of 10 seeds; with fewer (-short)
		// both means are noisier, and the bound grows by their 95%
		// intervals, relative to the reference's mean.
		bound := 0.10
		if seeds < 10 && r.Anchor.Mean > 0 {
			bound += (halfCI(r.Ours) + halfCI(r.Anchor)) / r.Anchor.Mean
		}
		switch {
		case r.Anchor.N == 0:
			t.Errorf("%s: no reference runs", r.Point.Label())
		case known:
			t.Logf("%s: %+.1f%% (known, %s)", r.Point.Label(), 100*d, knownOutside[r.Point.Label()])
		case d > bound || d < -bound:
			t.Errorf("%s: tcplab %.1f vs reference %.1f kbit/s (%+.1f%%, bound ±%.1f%%)", r.Point.Label(), r.Ours.Mean, r.Anchor.Mean, 100*d, 100*bound)
		}
	}
}

// mustRun loads a scenario with --set overrides and runs it, failing the
// test on any error.
func mustRun(t *testing.T, file string, sets ...string) *scenario.Result {
	t.Helper()
	sc, err := scenario.Load(file, sets)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sc.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// halfCI is the half-width of a mean's 95% interval, Student's t.
func halfCI(s Stat) float64 {
	if s.N < 2 {
		return 0
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Quantile(0.975) * s.SD / math.Sqrt(float64(s.N))
}
