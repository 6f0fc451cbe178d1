package repro

import (
	"context"
	"testing"
)

// TestALLTCPEntriesConfirmTheSplitGains runs the reduced Figs. 2, 3, 9-10
// and 11 and checks the verdicts that follow from the mechanism: SBST below
// ETET in the model, the simulation on the model, a split flow faster than
// the end-to-end one, two agents faster still (the window cap makes
// throughput 20 segments per RTT of the slowest segment), and a source
// whose window regrows over two links instead of five.
func TestALLTCPEntriesConfirmTheSplitGains(t *testing.T) {
	for _, name := range []string{"alltcp-fig2", "alltcp-fig3", "alltcp-fig9", "alltcp-fig11"} {
		e, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		out, _, err := Run(context.Background(), e, Options{Dir: t.TempDir(), Short: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(out.Claims) == 0 || len(out.Figures) == 0 {
			t.Fatalf("%s: %d claims, %d figures", name, len(out.Claims), len(out.Figures))
		}
		// The reduced form may lack the runs to decide a comparison, but
		// no claim that follows from the mechanism may be refuted, and
		// the deterministic ones are decided.
		for _, c := range out.Claims {
			if c.Verdict != Confirmed && (c.Verdict != Inconclusive || name == "alltcp-fig9") {
				t.Errorf("%s: %s: %s (%s; %s)", name, c.Figure, c.Verdict, c.Text, c.Measured)
			}
		}
	}
}

// TestALLTCPBackgroundEntryReportsEachClass runs the reduced background
// entry: it must measure every flow class and score every predictor.
func TestALLTCPBackgroundEntryReportsEachClass(t *testing.T) {
	e, err := Get("alltcp-background")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Run(context.Background(), e, Options{Dir: t.TempDir(), Short: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Claims) != 2 || len(out.Measured) != 5 {
		t.Fatalf("claims %d, measured %q", len(out.Claims), out.Measured)
	}
	for _, c := range out.Claims {
		if c.Verdict == "" || c.Reason == "" {
			t.Errorf("claim without a verdict or reason: %+v", c)
		}
	}
}
