package model

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

// The model reproduces every number of the reference table (Bianchi's
// equations evaluated independently for four frame-accounting profiles,
// testdata/bianchi.csv): throughput to the 5 digits printed, τ and p to 6.
func TestBianchiReproducesTheReferenceTable(t *testing.T) {
	f, err := os.Open("testdata/bianchi.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	profiles := map[string]BianchiParams{
		"textbook":       {Overhead: 34, ACKRate: 1e6, CtlRate: 1e6, Delta: 1e-6},
		"textbook-ctl2M": {Overhead: 34, ACKRate: 2e6, CtlRate: 2e6, Delta: 1e-6},
		"ns3":            {Overhead: 64, ACKRate: 0, CtlRate: 1e6},
		"ns3-eifs":       {Overhead: 64, ACKRate: 0, CtlRate: 1e6, EIFS: true},
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	checked := 0
	for _, r := range rows[1:] {
		b, ok := profiles[r[0]]
		if !ok {
			t.Fatalf("unknown profile %s", r[0])
		}
		b.RTS = r[1] == "rts"
		b.Rate = num(r[2]) * 1e6
		b.Payload = int(num(r[3]))
		b.N = int(num(r[4]))
		got, err := Bianchi(b)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got.Tau-num(r[5])) > 1e-6 || math.Abs(got.P-num(r[6])) > 1e-6 || math.Abs(got.S/1e6-num(r[7])) > 1e-5 {
			t.Errorf("%v: tau %.6f p %.6f S %.5f, want %s %s %s", r[:5], got.Tau, got.P, got.S/1e6, r[5], r[6], r[7])
		}
		checked++
	}
	if checked != 160 {
		t.Fatalf("checked %d rows, want 160", checked)
	}
}

// A finite retry limit of 7 attempts changes S by at most 0.04% for
// n ≤ 10 and 0.3% at n = 20 (the reference's note), and with one station
// τ = 2/(W+1) whatever the limit.
func TestBianchiRetryLimit(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10, 20} {
		b := BianchiParams{N: n, Rate: 11e6, Payload: 1024, Overhead: 64, CtlRate: 1e6}
		inf, _ := Bianchi(b)
		b.Retry = 7
		lim, _ := Bianchi(b)
		tol := 0.0004
		if n == 20 {
			tol = 0.003
		}
		if d := math.Abs(lim.S/inf.S - 1); d > tol {
			t.Errorf("n=%d: retry 7 changes S by %.3f%%", n, 100*d)
		}
		if n == 1 && math.Abs(lim.Tau-2.0/33) > 1e-12 {
			t.Errorf("n=1: tau %v, want 2/33", lim.Tau)
		}
	}
}

func TestDSSSFrameTimes(t *testing.T) {
	for _, tc := range []struct {
		bytes int
		rate  float64
		want  float64
	}{{14, 1e6, 304e-6}, {14, 11e6, 203e-6}, {14, 2e6, 248e-6}, {20, 1e6, 352e-6}, {1088, 11e6, (192 + 792) * 1e-6}, {1088, 2e6, (192 + 4352) * 1e-6}} {
		if got := DSSSFrameTime(tc.bytes, tc.rate); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%d B at %g: %g, want %g", tc.bytes, tc.rate, got, tc.want)
		}
	}
}
