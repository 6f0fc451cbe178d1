package experiment

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tcplab/tcplab/store"
)

// Results depend on the scenario and seed only: one worker and four give
// the same store, and a second pass with --resume runs nothing.
func TestWorkersDoNotChangeResultsAndResumeSkipsDoneRuns(t *testing.T) {
	sw, err := Load(writeSweep(t, gridSweep), nil)
	if err != nil {
		t.Fatal(err)
	}
	dump := func(workers int) map[string]string {
		st, err := store.Open(filepath.Join(t.TempDir(), "s.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		rep, err := Run(context.Background(), sw, st, Options{Workers: workers})
		if err != nil || rep.Ran != 12 {
			t.Fatalf("ran %d, err %v", rep.Ran, err)
		}
		again, err := Run(context.Background(), sw, st, Options{Workers: workers, Resume: true})
		if err != nil || again.Ran != 0 || again.Skipped != 12 {
			t.Fatalf("resume ran %d skipped %d, err %v", again.Ran, again.Skipped, err)
		}
		if _, err := Run(context.Background(), sw, st, Options{Workers: workers}); err == nil {
			t.Fatal("a second sweep into a used store without --resume was accepted")
		}
		runs, err := st.Runs()
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, r := range runs {
			out[r.Key] = string(r.Result)
		}
		return out
	}
	one, four := dump(1), dump(4)
	if len(one) != 12 {
		t.Fatalf("%d runs stored", len(one))
	}
	for k, v := range one {
		if four[k] != v {
			t.Fatalf("run %s differs between 1 and 4 workers", k)
		}
	}
}
