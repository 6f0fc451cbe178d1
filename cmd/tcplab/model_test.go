package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/model"
)

// modelCLI runs tcplab with args in-process and returns the exit status
// and standard output.
func modelCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	defer rootCmd.SetOut(nil)
	code := execute(args)
	return code, out.String()
}

func TestModelCommandPrintsPFTK(t *testing.T) {
	code, out := modelCLI(t, "model", "pftk", "--p", "0.01", "--rtt", "0.1", "--rto", "1", "--wm", "0", "--b", "1", "--mss", "1000", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var got struct {
		Outputs map[string]float64 `json:"outputs"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	// Hand-computed in model/pftk_test.go: 98.8291 packets/s.
	if v := got.Outputs["full_pkts_per_s"]; v < 98.82 || v > 98.84 {
		t.Errorf("full_pkts_per_s = %v", v)
	}
	if v := got.Outputs["full_bits_per_s"]; v < 790_500 || v > 790_800 {
		t.Errorf("full_bits_per_s = %v", v)
	}
}

func TestModelCommandRangeGivesCSV(t *testing.T) {
	code, out := modelCLI(t, "model", "alltcp", "--R", "1:10:1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 11 || !strings.HasPrefix(lines[0], "n,pi,n1,R,etet_loss,sbst_loss") {
		t.Fatalf("want a header and 10 rows, got:\n%s", out)
	}
	// R = 1: one attempt, both transports lose 1 − 0.95⁸.
	f := strings.Split(lines[1], ",")
	if v, _ := strconv.ParseFloat(f[4], 64); v < 0.33657 || v > 0.33659 {
		t.Errorf("R=1 etet_loss = %v", f[4])
	}
	// Two ranges: the Cartesian product.
	code, out = modelCLI(t, "model", "mathis", "--p", "0.01:0.02:0.01", "--b", "1:2:1")
	if n := strings.Count(out, "\n"); code != 0 || n != 5 {
		t.Errorf("exit %d, %d lines:\n%s", code, n, out)
	}
}

func TestModelCommandRejectsBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"p above 1", []string{"model", "pftk", "--p", "1.5"}},
		{"unknown model", []string{"model", "nosuch"}},
		{"bad range", []string{"model", "tcpnc", "--p", "0.2:0.1:0.01"}},
		{"not a number", []string{"model", "mathis", "--rtt", "fast"}},
		{"fractional integer", []string{"model", "tcpnc", "--cwmax", "10.5"}},
		{"n1 not below n", []string{"model", "alltcp", "--n1", "8"}},
		{"unknown flag", []string{"model", "pftk", "--loss", "0.1"}},
		{"bad format", []string{"model", "pftk", "--format", "xml"}},
	}
	for _, c := range cases {
		if code, out := modelCLI(t, c.args...); code != 2 {
			t.Errorf("%s: exit %d, want 2 (%s)", c.name, code, out)
		}
	}
	// Flags from a failed run must not leak into the next one.
	if code, out := modelCLI(t, "model", "pftk"); code != 0 || !strings.Contains(out, "full_pkts_per_s") {
		t.Errorf("defaults after errors: exit %d\n%s", code, out)
	}
}

func TestModelListShowsEveryModel(t *testing.T) {
	code, out := modelCLI(t, "model", "list")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, m := range model.All() {
		if !strings.Contains(out, m.Name+"\n") {
			t.Errorf("list lacks %s", m.Name)
		}
	}
	// Models registered outside package model are listed too.
	if !strings.Contains(out, "mpi\n") {
		t.Errorf("list lacks the prediction models:\n%s", out)
	}
}
