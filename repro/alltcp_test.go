package repro

import (
	"context"
	"testing"
)

// TestALLTCPEntriesConfirmTheSplitGains runs the reduced Figs. 2, 3 and 9-10
// and checks the verdicts that follow from the mechanism: SBST below ETET
// in the model, the simulation on the model, and a split flow faster than
// the end-to-end one, two agents faster still (the window cap makes
// throughput 20 segments per RTT of the slowest segment).
func TestALLTCPEntriesConfirmTheSplitGains(t *testing.T) {
	for _, name := range []string{"alltcp-fig2", "alltcp-fig3", "alltcp-fig9"} {
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
		for _, c := range out.Claims {
			if c.Verdict != Confirmed {
				t.Errorf("%s: %s: %s (%s; %s)", name, c.Figure, c.Verdict, c.Text, c.Measured)
			}
		}
	}
}
