package store

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"
)

func num(x float64) *float64 { return &x }

func run(key string, rep int, loss string, goodput float64) *Run {
	return &Run{Key: key, Sweep: "s", Point: 0, Replication: rep, Seed: uint64(rep) + 1,
		Params:  []Param{{Name: "loss", Value: loss, Num: num(0.01)}},
		Metrics: []Metric{{Flow: "f", Name: "goodput_bps", Value: goodput}},
		Result:  json.RawMessage(`{}`), Version: "test", FinishedAt: "2025-01-01T00:00:00Z"}
}

func TestPutIgnoresAStoredKey(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, want := range []bool{true, false} {
		added, err := st.Put(run("k1", 0, "1%", float64(100+i)))
		if err != nil || added != want {
			t.Fatalf("put %d: added=%v err=%v, want %v", i, added, err, want)
		}
	}
	var n, m int
	st.DB().QueryRow("SELECT count(*) FROM runs").Scan(&n)
	st.DB().QueryRow("SELECT count(*) FROM metrics").Scan(&m)
	if n != 1 || m != 1 {
		t.Fatalf("%d runs, %d metric rows; want 1 and 1", n, m)
	}
}

func TestMergeAddsEachRunOnce(t *testing.T) {
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")}
	for i, p := range paths {
		st, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st.SetMeta("spec", "same")
		st.Put(run("shared", 0, "1%", 1))
		st.Put(run([]string{"only-a", "only-b"}[i], 1, "1%", 2))
		st.Close()
	}
	out, err := Open(filepath.Join(dir, "out.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	added, skipped, err := out.Merge(paths...)
	if err != nil || added != 3 || skipped != 1 {
		t.Fatalf("added %d skipped %d err %v; want 3 and 1", added, skipped, err)
	}
	if added, _, _ := out.Merge(paths...); added != 0 {
		t.Fatalf("merging again added %d runs", added)
	}
	other := filepath.Join(dir, "other.db")
	st, _ := Open(other)
	st.SetMeta("spec", "different")
	st.Close()
	if _, _, err := out.Merge(other); err == nil {
		t.Fatal("merged a store of another sweep")
	}
}

func TestAggregateGivesMeanSDAndStudentCI(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "a.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, v := range []float64{10, 12, 14} {
		st.Put(run("k"+string(rune('0'+i)), i, "1%", v))
	}
	st.Put(run("lone", 0, "2%", 5))
	sums, err := st.Aggregate("goodput_bps", "")
	if err != nil || len(sums) != 2 {
		t.Fatalf("%d summaries, err %v", len(sums), err)
	}
	s := sums[0]
	// sd = 2; t(0.975, 2) = 4.302653; CI = 4.302653·2/√3.
	if s.N != 3 || s.Mean != 12 || math.Abs(s.SD-2) > 1e-12 || math.Abs(s.CI95-4.302653*2/math.Sqrt(3)) > 1e-5 {
		t.Fatalf("summary %+v", s)
	}
	if sums[1].N != 1 || !math.IsNaN(sums[1].CI95) {
		t.Fatalf("single run: %+v, want NaN CI", sums[1])
	}
}
