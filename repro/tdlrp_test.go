package repro

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/store"
)

// Every entry of the papers runs in its reduced form and states its
// claims, each with a verdict, a measurement and a reason; and every
// figure it draws has its legend where it covers no drawn point (or
// outside the plot).
func TestPaperEntriesStateEveryClaimShort(t *testing.T) {
	var es []*Entry
	for _, c := range []struct {
		paper string
		least int
	}{{"tdlrp", 9}, {"abouzeid", 6}, {"adminrto", 3}, {"alltcp", 3}, {"tcpnc", 3}, {"validation", 1}} {
		got, err := Select(c.paper)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) < c.least {
			t.Fatalf("%d %s entries, want at least %d", len(got), c.paper, c.least)
		}
		es = append(es, got...)
	}
	var mu sync.Mutex
	placed := map[string]plot.Placement{}
	defer plot.ObservePlacements(func(p plot.Placement) {
		mu.Lock()
		placed[p.Path] = p
		mu.Unlock()
	})()
	figures := map[string][]string{}
	t.Run("entries", func(t *testing.T) {
		for _, e := range es {
			t.Run(e.Name, func(t *testing.T) {
				t.Parallel() // the model-only entries are single-threaded
				out, _, err := Run(context.Background(), e, Options{Dir: t.TempDir(), Short: true})
				if err != nil {
					t.Fatal(err)
				}
				if len(out.Claims) == 0 {
					t.Fatal("no claims")
				}
				for _, c := range out.Claims {
					if c.Verdict == "" || c.Measured == "" || c.Test == "" {
						t.Errorf("incomplete claim %+v", c)
					}
				}
				for _, f := range out.Files {
					if st, err := os.Stat(f); err != nil || st.Size() == 0 {
						t.Errorf("%s: %v", f, err)
					}
				}
				mu.Lock()
				figures[e.Name] = out.Figures
				mu.Unlock()
			})
		}
	})
	drawn := 0
	for name, fs := range figures {
		for _, f := range fs {
			p, ok := placed[f]
			switch {
			case !ok:
				t.Errorf("%s: figure %s was not drawn through the legend's placement", name, filepath.Base(f))
			case p.Inside && p.Covered > 0:
				t.Errorf("%s: the legend of %s covers %d of its %d drawn points", name, filepath.Base(f), p.Covered, p.Points)
			}
			drawn++
		}
	}
	if drawn == 0 {
		t.Fatal("no figure drawn")
	}
}

// The "highest at every point" verdict of Fig. 11a agrees with the CSV the
// entry writes, recomputed here from the per-point means.
func TestFig11aVerdictFollowsItsCSV(t *testing.T) {
	e, err := Get("tdlrp-fig11a")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, _, err := Run(context.Background(), e, Options{Dir: dir, Short: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "tdlrp-fig11a.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	best := map[string]float64{} // loss -> best non-T-DLRP mean
	tdlrp := map[string]float64{}
	for _, r := range rows[1:] {
		loss, variant := r[0], r[1]
		mean, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			t.Fatalf("row %v: %v", r, err)
		}
		if variant == "tdlrp" {
			tdlrp[loss] = mean
		} else {
			best[loss] = max(best[loss], mean)
		}
	}
	highest := len(tdlrp) == 5
	for loss, m := range tdlrp {
		highest = highest && m > best[loss]
	}
	// A test decides the verdict, so a mean above every other is not
	// enough to confirm it; but it can never be confirmed where a mean
	// is not the highest, nor refuted where every mean is.
	if v := out.Claims[0].Verdict; v == Confirmed && !highest || v == Refuted && highest {
		t.Fatalf("verdict %s, but the CSV says highest everywhere = %v (%v vs %v)", v, highest, tdlrp, best)
	}
}

func TestPerRunStatistics(t *testing.T) {
	// A run's result lists its flows with their transport: the cbr flows
	// are UDP cross traffic, the others TCP connections.
	run := func(ms ...store.Metric) *store.Run {
		var flows []string
		seen := map[string]bool{}
		for _, m := range ms {
			if !seen[m.Flow] {
				seen[m.Flow] = true
				tr := "tcp"
				if strings.HasPrefix(m.Flow, "cbr") {
					tr = "udp"
				}
				flows = append(flows, fmt.Sprintf(`{"id": %q, "transport": %q}`, m.Flow, tr))
			}
		}
		return &store.Run{Metrics: ms, Result: json.RawMessage(`{"flows": [` + strings.Join(flows, ", ") + `]}`)}
	}
	g := func(flow string, v float64) store.Metric {
		return store.Metric{Flow: flow, Name: "goodput_bps", Value: v}
	}
	acc := func(flow, name string, v float64) store.Metric {
		return store.Metric{Flow: flow, Name: "accuracy." + name, Value: v}
	}
	cases := []struct {
		name string
		fn   func(*store.Run) (float64, bool)
		run  *store.Run
		want float64
		ok   bool
	}{
		{"jain of equal shares is 1", jain, run(g("f1", 5), g("f2", 5), g("f3", 5)), 1, true},
		{"jain of one of n is 1/n", jain, run(g("f1", 9), g("f2", 0), g("f3", 0)), 1.0 / 3, true},
		{"jain ignores the CBR flow", jain, run(g("f1", 4), g("f2", 4), g("cbr1", 100)), 1, true},
		{"mean goodput per connection", meanGoodput, run(g("f1", 3), g("f2", 5), g("cbr1", 100)), 4, true},
		{"no connection, no value", meanGoodput, run(g("cbr1", 1)), 0, false},
		// f1 got 1 of 2 right, f2 3 of 4: 4 of 6 pooled, not the mean 62.5%.
		{"accuracy pooled over connections", func(r *store.Run) (float64, bool) { return pooledAccuracy(r, "wireless") },
			run(acc("f1", "a_rlwl", 50), acc("f1", "n_lost_fr_wireless", 2), acc("f2", "a_rlwl", 75), acc("f2", "n_lost_fr_wireless", 4)), 400.0 / 6, true},
		{"accuracy undefined without a lost retransmission", func(r *store.Run) (float64, bool) { return pooledAccuracy(r, "congestion") },
			run(acc("f1", "n_lost_fr_congestion", 0)), 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := c.fn(c.run)
			if ok != c.ok || ok && math.Abs(got-c.want) > 1e-9 {
				t.Fatalf("got %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestAcrossDecidesAtThePapersSettingAndSaysDependsOnlyForWhatItLeavesOut(t *testing.T) {
	claim := func(v Verdict, m string) []Claim {
		return []Claim{{Text: "x", Verdict: v, Measured: m, Test: "t-" + string(v)}}
	}
	order := []string{"w32-wq0.002", "w32-wq1", "w128-wq1"}
	cases := []struct {
		name        string
		per         map[string][]Claim
		want        Verdict
		sensitivity string // a line that must be there
	}{
		{"the stated settings agree", map[string][]Claim{"w32-wq0.002": claim(Refuted, "a"), "w32-wq1": claim(Refuted, "b"), "w128-wq1": claim(Confirmed, "c")}, Refuted, "holds if window = w128-wq1 (c)"},
		{"the unstated averaging disagrees", map[string][]Claim{"w32-wq0.002": claim(Refuted, "a"), "w32-wq1": claim(Confirmed, "b"), "w128-wq1": claim(Confirmed, "c")}, Depends, ""},
		{"an inconclusive one does not make it depend", map[string][]Claim{"w32-wq0.002": claim(Inconclusive, "a"), "w32-wq1": claim(Confirmed, "b")}, Confirmed, "window w128-wq1: no data"},
		{"a value beyond the paper never decides", map[string][]Claim{"w128-wq1": claim(Confirmed, "c")}, Inconclusive, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := across(c.per, order, "window", tdlrpStated)
			if len(got) != 1 || got[0].Verdict != c.want {
				t.Fatalf("got %+v, want one claim %s", got, c.want)
			}
			if c.sensitivity != "" && !strings.Contains(strings.Join(got[0].Sensitivity, "|"), c.sensitivity) {
				t.Errorf("sensitivity %q lacks %q", got[0].Sensitivity, c.sensitivity)
			}
			if strings.Contains(got[0].Test, "the same under") && len(c.per) < len(order) && strings.Contains(got[0].Test, "w128") {
				t.Errorf("a setting without data said to agree: %s", got[0].Test)
			}
		})
	}
}
