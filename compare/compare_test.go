package compare

import (
	"os"
	"testing"
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
