package repro

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestValidationEntryWritesItsFigure(t *testing.T) {
	e, err := Get("validation-goodput-loss")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// 5 s runs keep the test fast; the figure's shape is not checked here.
	out, rep, err := Run(context.Background(), e, Options{Dir: dir, Sets: []string{"duration=5s"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ran != 210 {
		t.Fatalf("ran %d runs, want 210", rep.Ran)
	}
	for _, f := range out.Files {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	// A header, 7 loss rates × 3 variants, and the models' inputs.
	if len(out.Measured) != 23 || !strings.Contains(out.Measured[22], "mean SRTT measured") {
		t.Fatalf("measured lines:\n%s", strings.Join(out.Measured, "\n"))
	}
	// Running it again resumes: nothing is redone.
	_, again, err := Run(context.Background(), e, Options{Dir: dir, Sets: []string{"duration=5s"}})
	if err != nil || again.Ran != 0 {
		t.Fatalf("second run ran %d, err %v", again.Ran, err)
	}
}

func TestUnknownEntryListsTheKnownOnes(t *testing.T) {
	_, err := Get("nope")
	if err == nil || !strings.Contains(err.Error(), "validation-goodput-loss") {
		t.Fatalf("error %v", err)
	}
}
