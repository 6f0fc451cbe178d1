package scenario

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// examples lists the scenario files of examples/ (sweep files, named
// sweep-*.yaml, describe grids over a scenario and are checked by the
// experiment package).
func examples(t testing.TB) []string {
	all, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(all) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	var files []string
	for _, f := range all {
		if !strings.HasPrefix(filepath.Base(f), "sweep-") {
			files = append(files, f)
		}
	}
	return files
}

func TestEveryExampleValidates(t *testing.T) {
	for _, f := range examples(t) {
		if _, err := Load(f, nil); err != nil {
			t.Errorf("%s:\n%v", f, err)
		}
	}
}

// runOrFail runs s and fails the test on an error.
func runOrFail(t *testing.T, s *Scenario) *Result {
	t.Helper()
	res, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCBRExampleDeliversTheBottleneckRate(t *testing.T) {
	s, err := Load("../examples/cbr-bottleneck.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	res := runOrFail(t, s)
	if len(res.Flows) != 1 {
		t.Fatalf("%d flows", len(res.Flows))
	}
	f := res.Flows[0]
	// The 1 Mbps bottleneck is busy from the first arrival (about 1.8 ms)
	// to the end, and packets of its last 20 ms are still propagating:
	// (10 s − 21.8 ms)/8 ms = 1247 packets of 972 payload bytes.
	want := 1247.0 * 972 * 8 / 10
	if math.Abs(f.GoodputBps-want) > 0.002*want {
		t.Errorf("goodput %.0f bit/s, want %.0f ± 0.2%%", f.GoodputBps, want)
	}
	if f.ID != "cbr" || f.Transport != "udp" || f.SentPackets != 1875 {
		t.Errorf("flow %+v", f)
	}
	// 1.5 Mbps offered to 1 Mbps: a third of the packets overflow the queue
	// (less the 50 it holds and the ones in flight at the end).
	if d := res.Drops["queue_overflow"]; d < 570 || d > 630 || res.Drops["channel_error"] != 0 {
		t.Errorf("drops %v", res.Drops)
	}
	if res.SimSeconds != 10 || res.Events == 0 {
		t.Errorf("sim_seconds %v events %d", res.SimSeconds, res.Events)
	}
}

func TestAnchorExamplesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs simulations")
	}
	for _, name := range []string{"dumbbell-lossy", "dumbbell-lossy-ns3", "chain-4hop", "chain-4hop-ns3", "dumbbell-10flows"} {
		t.Run(name, func(t *testing.T) {
			s, err := Load("../examples/"+name+".yaml", nil)
			if err != nil {
				t.Fatal(err)
			}
			res := runOrFail(t, s)
			for _, f := range res.Flows {
				if f.GoodputBps <= 0 || f.DeliveredBytes <= 0 {
					t.Errorf("flow %s delivered nothing: %+v", f.ID, f)
				}
			}
		})
	}
}

// resultJSON runs a scenario file and returns its JSON result with the
// wall-clock time zeroed.
func resultJSON(t *testing.T, file string, sets []string) []byte {
	t.Helper()
	s, err := Load(file, sets)
	if err != nil {
		t.Fatal(err)
	}
	res := runOrFail(t, s)
	res.WallSeconds = 0
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSameSeedSameBytes(t *testing.T) {
	for _, file := range []string{"../examples/cbr-bottleneck.yaml", "../examples/dumbbell-10flows.yaml"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sets := []string{"duration=20s"}
			prev := runtime.GOMAXPROCS(1)
			defer runtime.GOMAXPROCS(prev)
			a := resultJSON(t, file, sets)
			runtime.GOMAXPROCS(2)
			b := resultJSON(t, file, sets)
			if !bytes.Equal(a, b) {
				t.Fatalf("GOMAXPROCS 1 and 2 gave different results:\n%s\n%s", a, b)
			}
			c := resultJSON(t, file, append(sets, "seed=2"))
			if bytes.Equal(a, c) && file != "../examples/cbr-bottleneck.yaml" {
				t.Errorf("seeds 1 and 2 gave the same result")
			}
		})
	}
}

func TestDropTraceRecordsEveryDrop(t *testing.T) {
	out := filepath.Join(t.TempDir(), "drops.csv")
	s, err := Load("../examples/cbr-bottleneck.yaml", []string{"trace.drops=" + out})
	if err != nil {
		t.Fatal(err)
	}
	res := runOrFail(t, s)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(b, []byte("\n"))
	if int64(lines-1) != res.Drops["queue_overflow"] {
		t.Errorf("%d trace rows for %d drops", lines-1, res.Drops["queue_overflow"])
	}
	if !bytes.HasPrefix(b, []byte("time_s,link,flow,cause,size,retx,fast_retx\n")) {
		t.Errorf("header: %q", b[:min(len(b), 60)])
	}
}
