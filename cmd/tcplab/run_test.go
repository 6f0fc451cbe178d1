package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/tcplab/tcplab/scenario"
)

// cli runs the command line in-process and returns its exit status,
// standard output and standard error.
func cli(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	// Flag values live in package variables and cobra keeps them between
	// executions: start each from the defaults.
	for _, c := range rootCmd.Commands() {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if sv, ok := f.Value.(pflag.SliceValue); ok {
				sv.Replace(nil)
			} else {
				f.Value.Set(f.DefValue)
			}
			f.Changed = false
		})
	}
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	errFile, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = errFile
	defer func() { os.Stderr = saved }()
	code = execute(args)
	b, _ := os.ReadFile(errFile.Name())
	return code, out.String(), string(b)
}

func TestRunFormats(t *testing.T) {
	const file = "../../examples/cbr-bottleneck.yaml"
	code, out, errOut := cli(t, "run", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "flow  transport") || !strings.HasPrefix(lines[1], "cbr   udp") {
		t.Errorf("table:\n%s", out)
	}
	if len(lines[0]) != len(lines[1]) || !strings.Contains(lines[0], "goodput kbit/s") || !strings.Contains(lines[1], "969.7") {
		t.Errorf("table columns not aligned or goodput missing:\n%s", out)
	}
	if !strings.Contains(out, "drops: queue_overflow 575") {
		t.Errorf("no drop summary:\n%s", out)
	}

	code, out, _ = cli(t, "run", file, "--format", "json")
	var res scenario.Result
	if err := json.Unmarshal([]byte(out), &res); code != 0 || err != nil {
		t.Fatalf("exit %d, json %v:\n%s", code, err, out)
	}
	if len(res.Flows) != 1 || res.Flows[0].ID != "cbr" || res.Drops["queue_overflow"] != 575 || res.SimSeconds != 10 {
		t.Errorf("json result %+v", res)
	}
	if !strings.Contains(out, "\n  \"flows\": [") {
		t.Errorf("json not indented:\n%s", out)
	}

	code, out, _ = cli(t, "run", file, "--format", "csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(rows) != 2 {
		t.Fatalf("exit %d, csv %v, %d rows:\n%s", code, err, len(rows), out)
	}
	if rows[0][0] != "id" || rows[0][7] != "goodput_bps" || rows[1][0] != "cbr" || rows[1][2] != "cbr" {
		t.Errorf("csv:\n%s", out)
	}
}

// A run of a second is not announced however many links it has: 10 000
// flows share one bottleneck for 5 s (their 20 000 access links, counted
// busy, made the old estimate 7.5·10^9 events; it runs about 5·10^5).
func TestAShortRunOfManyFlowsIsNotAnnounced(t *testing.T) {
	n := "10000"
	code, _, errOut := cli(t, "run", "../../examples/c-big.yaml", "--set", "duration=5s",
		"--set", "nodes.S{i}.count="+n, "--set", "nodes.D{i}.count="+n, "--set", "links.in{i}.count="+n,
		"--set", "links.out{i}.count="+n, "--set", "flows.f{i}.count="+n, "--set", "flows.f{i}.start_step=0.00005s")
	if code != 0 || strings.Contains(errOut, "warning") {
		t.Errorf("exit %d, stderr %q: want 0 and no warning", code, errOut)
	}
}

func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yaml"
	os.WriteFile(bad, []byte("duration: 10s\nnodes: [A, B]\nlinks:\n  - {name: l, from: A, to: B, bandwidth: -2Mbps, delay: 1ms}\n  - {name: m, from: A, to: C, bandwidth: 1Mbps, delay: 1ms}\n"), 0o644)
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string // substring
		stderr string // substring
	}{
		{"validate ok", []string{"validate", "../../examples/c-big.yaml"}, 0,
			"../../examples/c-big.yaml: ok: 202 nodes, 201 links, 100 flows (100 tcp, 0 udp), 100 s, seed 1", ""},
		{"validate with an override", []string{"validate", "../../examples/dumbbell-lossy.yaml", "--set", "flows.ftp.transport.variant=reno"}, 0, ": ok:", ""},
		{"every problem, one per line", []string{"validate", bad}, 2, "",
			"tcplab: 2 problems:\n" + bad + `:4: links[l].bandwidth: negative bandwidth "-2Mbps"` + "\n" + bad + `:5: links[m].to: undefined node "C"`},
		{"bad override", []string{"run", "../../examples/cbr-bottleneck.yaml", "--set", "links.bottleneck.delay=5"}, 2, "",
			`--set links.bottleneck.delay=5: links[bottleneck].delay: bad duration "5"`},
		{"missing file", []string{"run", dir + "/none.yaml"}, 2, "", "no such file"},
		{"kernel hosts, simulated only", []string{"run", "../../examples/emulate-dumbbell.yaml"}, 2, "",
			"nodes[K1].kernel: kernel hosts run only under tcplab emulate"},
		{"unknown format", []string{"run", "../../examples/cbr-bottleneck.yaml", "--format", "xml"}, 2, "", `unknown --format "xml"`},
		{"unknown flag", []string{"run", "../../examples/cbr-bottleneck.yaml", "--sed", "3"}, 2, "", "unknown flag"},
		{"no file", []string{"run"}, 2, "", "accepts 1 arg"},
		{"help", []string{"run", "--help"}, 0, "--set stringArray", ""},
		{"validate help", []string{"validate", "--help"}, 0, "tcplab validate FILE [flags]", ""},
		{"unwritable trace", []string{"run", "../../examples/cbr-bottleneck.yaml", "--set", "trace.drops=" + dir + "/no/such/dir.csv"}, 2, "", "trace.drops: open"},
		// Robustness: the inputs that once hung, overflowed or read forever.
		{"an endless file", []string{"run", "/dev/zero"}, 2, "", "larger than 16 MiB"},
		{"a trace over the scenario", []string{"run", "../../examples/cbr-bottleneck.yaml", "--set", "trace.tcp=../../examples/cbr-bottleneck.yaml"}, 2, "", "is also the scenario file"},
		{"a bandwidth below 1 bit/s", []string{"run", "../../examples/cbr-bottleneck.yaml", "--set", "links.bottleneck.bandwidth=1e-300bps"}, 2, "", "below 1 bit/s"},
		{"a cost that would overflow a path", []string{"run", "../../examples/cbr-bottleneck.yaml", "--set", "links.bottleneck.cost=9223372036854775000"}, 2, "", "outside [0, 4294967296]"},
		{"an events budget", []string{"run", "../../examples/dumbbell-lossy.yaml", "--max-events", "1000"}, 3, "ftp", "events budget (1000) was reached"},
		{"a wall budget", []string{"run", "../../examples/c-big.yaml", "--max-wall", "1ns"}, 3, "f1", "wall time budget (1ns) was reached"},
		{"a long run is announced", []string{"run", "../../examples/c-big.yaml", "--set", "duration=1000000s", "--max-events", "1000"}, 3, "", "warning: about 7.2e+10 events"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := cli(t, c.args...)
			if code != c.code || !strings.Contains(out, c.stdout) || !strings.Contains(errOut, c.stderr) {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s\nwant stdout containing %q and stderr containing %q", code, c.code, out, errOut, c.stdout, c.stderr)
			}
		})
	}
}

var wallSeconds = regexp.MustCompile(`"wall_seconds": [^,]*,`)

func TestRunIsDeterministicAcrossGOMAXPROCS(t *testing.T) {
	args := []string{"run", "../../examples/dumbbell-10flows.yaml", "--format", "json", "--set", "duration=20s", "--seed", "3"}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var outs []string
	for _, procs := range []int{1, 2, 1} {
		runtime.GOMAXPROCS(procs)
		code, out, errOut := cli(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !wallSeconds.MatchString(out) || !strings.Contains(out, `"seed": 3,`) {
			t.Fatalf("unexpected output:\n%s", out)
		}
		outs = append(outs, wallSeconds.ReplaceAllString(out, ""))
	}
	if outs[0] != outs[1] || outs[1] != outs[2] {
		t.Errorf("outputs differ between runs:\n%s\n---\n%s", outs[0], outs[1])
	}
}
