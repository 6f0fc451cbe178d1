package repro

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/store"
)

// The ns-2.35 numbers stored for T-DLRP Fig. 11b's comparators agree with
// tcplab's own runs of the same setup: the means differ by no more than
// the two 95% intervals together, plus 5% of ns-2's mean for what the
// simulators model differently (the anchors' comparisons of the ns2
// profile with ns-2.35 are within 5% at 16 of 19 points).
func TestStoredNs2CrossCheckAgreesWithTcplab(t *testing.T) {
	runs, err := crossRuns("tdlrp-fig11b.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 120 {
		t.Fatalf("%d stored runs, want 120 (2 variants × 6 counts × 10 seeds)", len(runs))
	}
	root, err := FindRoot()
	if err != nil {
		t.Skip(err)
	}
	path := filepath.Join(root, "examples", "tdlrp-mixed.yaml")
	data, err := scenario.ReadFile("examples/tdlrp-mixed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	counts := []string{"1", "2", "4", "6", "8", "10"}
	if testing.Short() {
		counts = []string{"1", "10"}
	}
	for _, v := range []crossVariant{{"newreno", "Newreno"}, {"vegas", "Vegas"}} {
		for _, n := range counts {
			t.Run(v.tcplab+"/"+n, func(t *testing.T) {
				var xs []float64
				for seed := uint64(1); seed <= 10; seed++ {
					s, err := scenario.Parse(path, data, []string{"flows.f{i}.transport.variant=" + v.tcplab, "flows.f{i}.count=" + n,
						"flows.cbr{i}.count=1", "links.wireless.loss.1.rate=0"})
					if err != nil {
						t.Fatal(err)
					}
					s.Seed = seed
					res, err := s.Run()
					if err != nil {
						t.Fatal(err)
					}
					var sum float64
					var k int
					for _, f := range res.Flows {
						if f.Transport == "tcp" {
							sum += f.GoodputBps
							k++
						}
					}
					xs = append(xs, sum/float64(k)/1e3)
				}
				tc := store.Summarize(store.Summary{}, xs)
				ns := crossSummary(runs, "goodput_per_conn_kbps", "var", v.ns2, "flows", n)
				tol := ns.CI95 + tc.CI95 + 0.05*ns.Mean
				msg := fmt.Sprintf("tcplab %.1f ± %.1f, ns-2 %.1f ± %.1f kbit/s per connection (tolerance %.1f)", tc.Mean, tc.CI95, ns.Mean, ns.CI95, tol)
				if math.Abs(tc.Mean-ns.Mean) > tol {
					t.Fatal(msg)
				}
				t.Log(msg)
			})
		}
	}
}

// Figs. 3-4 are deterministic: ns-2.35 and tcplab must agree on every
// instant, for both windows.
func TestAbouzeidFig34MatchesNs2AtEveryInstant(t *testing.T) {
	e, err := Get("abouzeid-fig3-4")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Run(context.Background(), e, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	cc := out.Claims[0].CrossCheck
	for _, want := range []string{"w_m = 26: a false fast retransmit at [] in ns-2, [] in tcplab: the same at 12 of 12", "w_m = 13:", "the same at 12 of 12 instants; w_m = 13"} {
		if !strings.Contains(cc, want) {
			t.Fatalf("cross-check %q lacks %q", cc, want)
		}
	}
	if !strings.HasSuffix(cc, "the same at 12 of 12 instants") {
		t.Fatalf("w_m = 13 differs: %s", cc)
	}
}
