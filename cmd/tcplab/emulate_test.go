//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tcplab/tcplab/kernel"
)

// The example runs kernel CUBIC beside a simulated CUBIC and prints both.
func TestEmulateRunsTheExample(t *testing.T) {
	if err := kernel.Available(); err != nil {
		t.Skipf("kernel hosts unavailable here: %v", err)
	}
	code, out, errs := cli(t, "emulate", "../../examples/emulate-dumbbell.yaml", "--set", "duration=2s", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Flows []struct {
			ID         string  `json:"id"`
			Stack      string  `json:"stack"`
			GoodputBps float64 `json:"goodput_bps"`
		} `json:"flows"`
		Emulation struct {
			Lateness struct {
				Events uint64 `json:"events"`
			} `json:"lateness"`
		} `json:"emulation"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Flows) != 2 || res.Flows[0].Stack != "kernel" || res.Flows[1].Stack != "" ||
		res.Flows[0].GoodputBps < 1e6 || res.Flows[1].GoodputBps < 1e6 || res.Emulation.Lateness.Events == 0 {
		t.Errorf("result %+v", res)
	}
}

// Without root, emulate says why it cannot run and exits 2. As root the
// test runs the command line again as nobody, from a copy of the test
// binary that nobody may run.
func TestEmulateWithoutRootExits2(t *testing.T) {
	if os.Getenv("TCPLAB_EMULATE_AS") == "nobody" {
		os.Exit(execute([]string{"emulate", os.Getenv("TCPLAB_EMULATE_FILE")}))
	}
	// Not t.TempDir: its parent is closed to other users.
	dir, err := os.MkdirTemp("", "tcplab-emulate")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	file := filepath.Join(dir, "k.yaml")
	src := "duration: 1s\nnodes:\n  - {name: K1, kernel: true}\n  - {name: K2, kernel: true}\nlinks:\n  - {from: K1, to: K2, bandwidth: 1Mbps, delay: 1ms}\nflows:\n  - {src: K1, dst: K2}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		code, _, errs := cli(t, "emulate", file)
		if code != 2 || !strings.Contains(errs, "need root") {
			t.Errorf("exit %d, %q", code, errs)
		}
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "tcplab.test")
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestEmulateWithoutRootExits2$")
	cmd.Env = append(os.Environ(), "TCPLAB_EMULATE_AS=nobody", "TCPLAB_EMULATE_FILE="+file, "HOME="+dir)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "kernel hosts need root") {
		t.Errorf("as nobody, the message was %q", out)
	}
}

// Ctrl-C stops an emulation: the result so far is printed, the exit status
// is 3, and nothing the run made is left.
func TestEmulateInterruptedCleansUpAndExits3(t *testing.T) {
	if os.Getenv("TCPLAB_EMULATE_CHILD") != "" {
		os.Exit(execute([]string{"emulate", "../../examples/emulate-dumbbell.yaml", "--format", "json"}))
	}
	if err := kernel.Available(); err != nil {
		t.Skipf("kernel hosts unavailable here: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run=^TestEmulateInterruptedCleansUpAndExits3$")
	cmd.Env = append(os.Environ(), "TCPLAB_EMULATE_CHILD=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	deadline := time.Now().Add(10 * time.Second)
	for len(namespacesOf(pid)) < 2 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(os.Interrupt)
	err = cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("exit: %v\nstderr: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted at") || !strings.Contains(stdout.String(), `"stack": "kernel"`) {
		t.Errorf("stdout %.200q\nstderr %q", stdout.String(), stderr.String())
	}
	if left := namespacesOf(pid); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// namespacesOf lists the namespaces a tcplab process made.
func namespacesOf(pid int) []string {
	m, _ := filepath.Glob(fmt.Sprintf("/run/netns/tcplab-%d-*", pid))
	return m
}
