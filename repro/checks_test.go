package repro

import (
	"strings"
	"testing"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/store"
)

// runsOf builds stored runs of a grid "x" × "variant" from values per
// (x, variant, replication).
func runsOf(xs []string, value func(x string, v string, rep int) float64) []*store.Run {
	var out []*store.Run
	point := 0
	for _, x := range xs {
		for _, v := range []string{"a", "b"} {
			for rep := range 5 {
				out = append(out, &store.Run{Point: point, Replication: rep,
					Params:  store.Params{{Name: "x", Value: x}, {Name: "variant", Value: v}},
					Metrics: []store.Metric{{Flow: "f", Name: "goodput_bps", Value: value(x, v, rep)}}})
			}
			point++
		}
	}
	return out
}

func TestInertSweepsAreCaught(t *testing.T) {
	sw := &experiment.Sweep{Axes: []experiment.Axis{
		{Name: "x", Values: []experiment.Value{{Label: "1"}, {Label: "2"}, {Label: "3"}}},
		{Name: "variant", Values: []experiment.Value{{Label: "a"}, {Label: "b"}}},
	}}
	xs := []string{"1", "2", "3"}
	tests := []struct {
		name  string
		value func(x, v string, rep int) float64
		want  string // in the message; "" : no message
	}{
		{"the same seed gives the same run at every value", func(x, v string, rep int) float64 { return float64(100 + rep) }, "bit-identical"},
		{"noise that does not move with x", func(x, v string, rep int) float64 {
			return 100 + float64((rep*7+len(x)*3)%5) + map[string]float64{"1": 0.1, "2": -0.1, "3": 0}[x]
		}, "no detectable effect"},
		{"a real effect", func(x, v string, rep int) float64 { return 100*float64(len(x)+int(x[0]-'0')) + float64(rep) }, ""},
		{"only the swept variable is tested, not the variant", func(x, v string, rep int) float64 {
			return float64(100 + rep + 50*len(v)*map[string]int{"a": 0, "b": 1}[v])
		}, "the swept variable x had no effect"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(inertAxes(sw, runsOf(xs, tc.value)), "; ")
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) || strings.Contains(got, "variant") {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestSettleMakesPaperClaimsInconclusiveAndLeavesOwnChecks(t *testing.T) {
	out := &Outcome{Claims: []Claim{{Verdict: Refuted, Test: "t"}, {Kind: SanityCheck, Verdict: Confirmed, Test: "s"}}}
	settle(out, []string{"the swept variable x had no effect"})
	if out.Claims[0].Verdict != Inconclusive || !strings.HasPrefix(out.Claims[0].Test, "the swept variable x had no effect") {
		t.Fatalf("paper claim %+v", out.Claims[0])
	}
	if out.Claims[1].Verdict != Confirmed {
		t.Fatalf("sanity check changed: %+v", out.Claims[1])
	}
	if len(out.Notes) != 1 {
		t.Fatalf("notes %q", out.Notes)
	}
}

func TestRefutedClaimsWithoutACrossCheckSayTcplabOnly(t *testing.T) {
	out := &Outcome{Claims: []Claim{{Verdict: Refuted}, {Verdict: Refuted, CrossCheck: "ns-2.35: x"}, {Verdict: Confirmed}, {Kind: ModelCheck, Verdict: Refuted}}}
	tcplabOnly(&Entry{Alone: "why"}, out)
	want := []string{"tcplab only: why", "ns-2.35: x", "", ""}
	for i, w := range want {
		if out.Claims[i].CrossCheck != w {
			t.Errorf("claim %d: %q, want %q", i, out.Claims[i].CrossCheck, w)
		}
	}
}
