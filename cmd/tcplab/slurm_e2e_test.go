package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The Slurm end-to-end test starts a single-node cluster, runs a sweep as
// a job array and checks the merged store (scripts/slurm-e2e.sh). It
// needs slurm-wlm, munge and root, and takes ~15 s: opt in with
// TCPLAB_SLURM_E2E=1.
func TestSlurmArraySweepEndToEnd(t *testing.T) {
	if os.Getenv("TCPLAB_SLURM_E2E") != "1" {
		t.Skip("set TCPLAB_SLURM_E2E=1 to run (needs slurm-wlm, munge, root)")
	}
	out, err := exec.Command("sh", "../../scripts/slurm-e2e.sh").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "slurm-e2e: ok") {
		t.Fatalf("slurm-e2e.sh: %v\n%s", err, out)
	}
	t.Log(strings.TrimSpace(string(out[strings.LastIndex(string(out), "slurm-e2e: ok"):])))
}
