package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tcplab/tcplab/store"
)

const smallSweep = "testdata/sweep-small.yaml"
const smallRuns = 120

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// tcplabBinary builds the command once per test binary, for tests that
// need real processes (killed, or run side by side as shards).
func tcplabBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tcplab-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "tcplab")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = err
			binPath = string(out)
		}
	})
	if binErr != nil {
		t.Fatalf("go build: %v\n%s", binErr, binPath)
	}
	return binPath
}

func runTcplab(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tcplabBinary(t), args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tcplab %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// storeDump is a store's content without what legitimately differs
// between two sweeps of the same runs (wall time, finishing time): the
// export's JSON (runs with parameters, seeds, metrics, full results) and
// the sweep-level facts.
func storeDump(t *testing.T, path string) string {
	t.Helper()
	st, err := store.OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b bytes.Buffer
	if err := st.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := st.DB().Query("SELECT key, value FROM meta ORDER BY key")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		rows.Scan(&k, &v)
		b.WriteString(k + "=" + v + "\n")
	}
	return b.String()
}

func countRows(t *testing.T, path, query string) int {
	t.Helper()
	st, err := store.OpenExisting(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	if err := st.DB().QueryRow(query).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A sweep killed with SIGKILL mid-way resumes with --resume: it ends with
// every run stored exactly once, and the same store as a sweep that was
// never interrupted.
func TestSweepResumesAfterKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs 240 simulations")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "killed.db")
	// Runs long enough (400 s simulated each) that the kill lands mid-sweep
	// however fast the machine.
	slow := "duration=400s"
	cmd := exec.Command(tcplabBinary(t), "sweep", smallSweep, "--set", slow, "--out", db, "--progress", "none")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill once some runs, but far from all, are stored.
	deadline := time.Now().Add(60 * time.Second)
	stored := 0
	for stored < 10 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no runs stored in 60 s")
		}
		time.Sleep(10 * time.Millisecond)
		if _, err := os.Stat(db); err == nil {
			stored = countRowsQuiet(db)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("sweep was not killed by SIGKILL (finished first?): %v", err)
	}
	before := countRows(t, db, "SELECT count(*) FROM runs")
	if before == 0 || before >= smallRuns {
		t.Fatalf("%d runs stored at the kill: the test needs a partial sweep", before)
	}
	out := runTcplab(t, nil, "sweep", smallSweep, "--set", slow, "--out", db, "--resume", "--progress", "none")
	if !strings.Contains(out, "already there") {
		t.Fatalf("resume output: %s", out)
	}
	if n := countRows(t, db, "SELECT count(*) FROM runs"); n != smallRuns {
		t.Fatalf("%d runs after resume, want %d", n, smallRuns)
	}
	// 3 flow metrics + 1 run metric per run, none twice.
	if n := countRows(t, db, "SELECT count(*) FROM (SELECT DISTINCT run_key, flow, name FROM metrics)"); n != 4*smallRuns {
		t.Fatalf("%d distinct metric rows, want %d", n, 4*smallRuns)
	}
	if n := countRows(t, db, "SELECT count(*) FROM metrics"); n != 4*smallRuns {
		t.Fatalf("%d metric rows, want %d (duplicates?)", n, 4*smallRuns)
	}
	clean := filepath.Join(dir, "clean.db")
	runTcplab(t, nil, "sweep", smallSweep, "--set", slow, "--out", clean, "--progress", "none")
	if storeDump(t, db) != storeDump(t, clean) {
		t.Fatal("killed-and-resumed store differs from an uninterrupted one")
	}
	t.Logf("killed with %d of %d runs stored; resumed to %d", before, smallRuns, smallRuns)
}

// countRowsQuiet counts runs in a store being written, 0 if it cannot
// be read yet.
func countRowsQuiet(path string) int {
	st, err := store.OpenExisting(path)
	if err != nil {
		return 0
	}
	defer st.Close()
	n, err := st.Count()
	if err != nil {
		return 0
	}
	return n
}

// Shards run as separate processes (by --shard and by the Slurm and
// Kubernetes environment) and merged give the store of one unsharded
// sweep.
func TestShardsMergeToTheUnshardedStore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs 240 simulations")
	}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	runTcplab(t, nil, "sweep", smallSweep, "--out", whole, "--progress", "none")

	type shard struct {
		env  []string
		args []string
	}
	shards := []shard{
		{nil, []string{"--shard", "0/3"}},
		{[]string{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1"}, nil}, // shard 1
		{[]string{"JOB_COMPLETION_INDEX=2"}, []string{"--shards", "3"}},
	}
	var parts []string
	var wg sync.WaitGroup
	errs := make([]error, len(shards))
	outs := make([][]byte, len(shards))
	for i, s := range shards {
		out := filepath.Join(dir, "part-"+string(rune('0'+i))+".db")
		parts = append(parts, out)
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(tcplabBinary(t), append([]string{"sweep", smallSweep, "--out", out, "--progress", "none", "--workers", "1"}, s.args...)...)
			cmd.Env = append(os.Environ(), s.env...)
			outs[i], errs[i] = cmd.CombinedOutput()
		}()
	}
	wg.Wait()
	total := 0
	for i := range shards {
		if errs[i] != nil {
			t.Fatalf("shard %d: %v\n%s", i, errs[i], outs[i])
		}
		n := countRows(t, parts[i], "SELECT count(*) FROM runs")
		if n != smallRuns/3 {
			t.Fatalf("shard %d stored %d runs, want %d", i, n, smallRuns/3)
		}
		total += n
	}
	merged := filepath.Join(dir, "merged.db")
	out := runTcplab(t, nil, append([]string{"results", "merge", merged}, parts...)...)
	if !strings.Contains(out, "120 runs added, 0 already there") {
		t.Fatalf("merge: %s", out)
	}
	if storeDump(t, merged) != storeDump(t, whole) {
		t.Fatal("merged shards differ from the unsharded store")
	}
}

// A sweep stopped with Ctrl-C prints the command that continues it, and
// that command, pasted into a shell as printed, finishes the sweep: it
// carries every --set (quoted) as well as the store.
func TestInterruptedSweepPrintsACommandThatResumesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs simulations")
	}
	db := filepath.Join(t.TempDir(), "stopped.db")
	cmd := exec.Command(tcplabBinary(t), "sweep", smallSweep, "--set", "duration=400s",
		"--set", "name=it's a test", "--out", db, "--progress", "none")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for countRowsQuiet(db) < 4 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no runs stored in 60 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err == nil {
		t.Fatal("an interrupted sweep exited 0")
	}
	_, hint, ok := strings.Cut(stderr.String(), "continue with: ")
	if !ok {
		t.Fatalf("no resume hint in:\n%s", stderr.String())
	}
	hint = strings.TrimSpace(hint)
	if !strings.HasPrefix(hint, "tcplab ") {
		t.Fatalf("hint %q", hint)
	}
	out, err := exec.Command("sh", "-c", tcplabBinary(t)+" "+strings.TrimPrefix(hint, "tcplab ")+" --progress none").CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", hint, err, out)
	}
	if n := countRows(t, db, "SELECT count(*) FROM runs"); n != smallRuns {
		t.Fatalf("%d runs after following the hint, want %d", n, smallRuns)
	}
}

// A bad flag is reported before the store is created.
func TestBadProgressLeavesNoStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "never.db")
	cmd := exec.Command(tcplabBinary(t), "sweep", smallSweep, "--out", db, "--progress", "sparkles")
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("accepted --progress sparkles: %s", out)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Fatalf("store left behind: %v", err)
	}
}
