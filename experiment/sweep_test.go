package experiment

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeSweep writes a sweep file next to a copy of a small scenario.
func writeSweep(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	scen := `
duration: 2s
nodes: [A, B]
links:
  - {name: ab, from: A, to: B, bandwidth: 1Mbps, delay: 10ms, loss: {rate: 1%}}
flows:
  - {name: f, src: A, dst: B, app: bulk}
`
	if err := os.WriteFile(filepath.Join(dir, "s.yaml"), []byte(scen), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "sweep.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSweepErrorsNameTheirLines(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"unknown field", "scenario: s.yaml\nreplicatons: 3\n", "sweep.yaml:2: replicatons: unknown field"},
		{"bad replications", "scenario: s.yaml\nreplications: 0\n", "sweep.yaml:2: replications: want an integer from 1"},
		{"missing scenario", "grid: {duration: [1s]}\n", "sweep.yaml:1: scenario: missing"},
		{"empty values", "scenario: s.yaml\ngrid:\n  duration: []\n", "sweep.yaml:3: grid.duration: want a non-empty list"},
		{"duplicate value", "scenario: s.yaml\ngrid:\n  duration: [1s, 1s]\n", "sweep.yaml:3: grid.duration: value 1s appears twice"},
		{"cases without name", "scenario: s.yaml\ngrid:\n  - cases: {a: {duration: 1s}}\n", "sweep.yaml:3: grid[0].name: missing"},
		{"unknown metric", "scenario: s.yaml\nmetrics: [goodput]\n", `sweep.yaml:2: metrics: unknown metric "goodput"`},
		{"bad path in the scenario", "scenario: s.yaml\ngrid:\n  links.ab.bandwdth: [1Mbps]\n", "bandwdth"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(writeSweep(t, c.body), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

const gridSweep = `
scenario: s.yaml
grid:
  - path: links.ab.loss.rate
    values: [1%, 2%]
  - name: variant
    cases:
      reno: {flows.f.transport.variant: reno}
      sack: {flows.f.transport.variant: newreno, flows.f.transport.sack: true}
replications: 3
`

func TestGridExpandsInOrderWithCases(t *testing.T) {
	sw, err := Load(writeSweep(t, gridSweep), nil)
	if err != nil {
		t.Fatal(err)
	}
	pts := sw.Points()
	var got []string
	for _, p := range pts {
		got = append(got, p.Params[0].Value+"/"+p.Params[1].Value+":"+strings.Join(p.Sets, ","))
	}
	want := []string{
		"1%/reno:links.ab.loss.rate=1%,flows.f.transport.variant=reno",
		"1%/sack:links.ab.loss.rate=1%,flows.f.transport.variant=newreno,flows.f.transport.sack=true",
		"2%/reno:links.ab.loss.rate=2%,flows.f.transport.variant=reno",
		"2%/sack:links.ab.loss.rate=2%,flows.f.transport.variant=newreno,flows.f.transport.sack=true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("points:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(sw.Jobs()); n != 12 {
		t.Fatalf("%d jobs, want 4 points × 3 replications", n)
	}
}

func TestAddingGridValuesKeepsOtherPointsSeedsAndKeys(t *testing.T) {
	small, err := Load(writeSweep(t, gridSweep), nil)
	if err != nil {
		t.Fatal(err)
	}
	big, err := Load(writeSweep(t, strings.Replace(gridSweep, "[1%, 2%]", "[0.5%, 1%, 2%, 5%]", 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	type id struct {
		seed uint64
		key  string
	}
	inBig := map[string]id{}
	for _, j := range big.Jobs() {
		inBig[paramText(j.Point)+"#"+string(rune('0'+j.Replication))] = id{j.Seed, j.Key}
	}
	seeds := map[uint64]bool{}
	for _, j := range small.Jobs() {
		k := paramText(j.Point) + "#" + string(rune('0'+j.Replication))
		if inBig[k] != (id{j.Seed, j.Key}) {
			t.Fatalf("%s: seed/key %v in the small grid, %v in the big one", k, id{j.Seed, j.Key}, inBig[k])
		}
		if seeds[j.Seed] {
			t.Fatalf("seed %d used twice", j.Seed)
		}
		seeds[j.Seed] = true
	}
}

func TestShardsPartitionTheJobs(t *testing.T) {
	sw, err := Load(writeSweep(t, gridSweep), nil)
	if err != nil {
		t.Fatal(err)
	}
	jobs := sw.Jobs()
	for _, n := range []int{1, 2, 5, 12, 13} {
		seen := map[string]int{}
		for i := 0; i < n; i++ {
			for _, j := range Shard(jobs, i, n) {
				seen[j.Key]++
			}
		}
		if len(seen) != len(jobs) {
			t.Fatalf("%d shards cover %d of %d jobs", n, len(seen), len(jobs))
		}
		for k, c := range seen {
			if c != 1 {
				t.Fatalf("%d shards: job %s in %d shards", n, k, c)
			}
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		name    string
		env     map[string]string
		count   int
		i, n    int
		ok      bool
		wantErr string
	}{
		{"none", nil, 0, 0, 0, false, ""},
		{"slurm from 0", map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, 0, 3, 4, true, ""},
		{"slurm from 1", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, 0, 0, 4, true, ""},
		{"slurm sparse", map[string]string{"SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, 0, 0, 0, false, "contiguous"},
		{"k8s with flag", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 5, 2, 5, true, ""},
		{"k8s with env", map[string]string{"JOB_COMPLETION_INDEX": "2", "TCPLAB_SHARDS": "3"}, 0, 2, 3, true, ""},
		{"k8s without count", map[string]string{"JOB_COMPLETION_INDEX": "2"}, 0, 0, 0, false, "--shards"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, n, ok, err := ShardFromEnv(func(k string) string { return c.env[k] }, c.count)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || i != c.i || n != c.n || ok != c.ok {
				t.Fatalf("got %d/%d ok=%v err=%v, want %d/%d ok=%v", i, n, ok, err, c.i, c.n, c.ok)
			}
		})
	}
}

func TestParseNumber(t *testing.T) {
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"2%", 0.02, true}, {"0.5", 0.5, true}, {"10ms", 10, true}, {"2Mbps", 2, true},
		{"1e3", 1000, true}, {"reno", 0, false}, {"", 0, false},
	}
	for _, c := range cases {
		got := ParseNumber(c.in)
		if (got != nil) != c.ok || got != nil && *got != c.want {
			t.Errorf("ParseNumber(%q) = %v, want %v (ok %v)", c.in, got, c.want, c.ok)
		}
	}
}

// A grid is counted before it is expanded: 10^9 runs are refused at once,
// without allocating them.
func TestHugeGridIsRefusedBeforeExpansion(t *testing.T) {
	var vals []string
	for i := 1; i <= 1000; i++ {
		vals = append(vals, strconv.Itoa(i))
	}
	list := "[" + strings.Join(vals, ", ") + "]"
	src := "scenario: ../examples/dumbbell-lossy.yaml\ngrid:\n" +
		"  - {path: links.access.cost, values: " + list + "}\n" +
		"  - {path: links.bottleneck.cost, values: " + list + "}\n" +
		"  - {path: links.lossy.cost, values: " + list + "}\n"
	_, err := Parse("big.yaml", []byte(src), nil)
	if err == nil || !strings.Contains(err.Error(), "1e+09 runs") || !strings.Contains(err.Error(), "big.yaml:3: grid:") {
		t.Fatalf("error %v, want the run count at the grid's line", err)
	}
}
