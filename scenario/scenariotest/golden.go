// Package scenariotest pins the outputs of whole runs so that a refactoring or an
// optimisation can prove it changed nothing: each case's summary JSON and a
// fingerprint of every TCP sender event are compared, byte for byte, with a
// file kept under testdata. TCPLAB_GOLDEN_UPDATE=1 rewrites the file; a
// deliberate change of behaviour then shows as a diff of it, to be named in
// the commit that makes it.
package scenariotest

import (
	"encoding/json"
	"hash/fnv"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/tcp"
)

// Case is one pinned run.
type Case struct {
	Result      json.RawMessage `json:"result"`
	Fingerprint uint64          `json:"fingerprint"`
}

// Run builds and runs s with every TCP sender fingerprinted, and returns
// the case (wall time zeroed: the only field that may differ).
func Run(t testing.TB, s *scenario.Scenario) Case {
	t.Helper()
	run, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var buf [13]uint64
	for _, f := range run.TCPFlows() {
		f.SetProbe(func(x *tcp.Sample) {
			buf = [13]uint64{uint64(x.Time), uint64(x.Event), uint64(x.Seq), uint64(x.Ack), uint64(x.TSecr),
				uint64(x.Una), uint64(x.High), math.Float64bits(x.Cwnd), math.Float64bits(x.Ssthresh),
				uint64(x.Flight), uint64(x.RTO), uint64(x.SRTT), b2u(x.Retx)}
			for _, v := range buf {
				var b [8]byte
				for i := range b {
					b[i] = byte(v >> (8 * i))
				}
				h.Write(b[:])
			}
		})
	}
	res, err := run.Run()
	if err != nil {
		t.Fatal(err)
	}
	res.WallSeconds = 0
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return Case{Result: b, Fingerprint: h.Sum64()}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Check compares got with the cases recorded in file, or rewrites the file
// when TCPLAB_GOLDEN_UPDATE is set. Every case of the file must be produced
// and every case produced must be in the file.
func Check(t *testing.T, file string, got map[string]Case) {
	t.Helper()
	if os.Getenv("TCPLAB_GOLDEN_UPDATE") != "" {
		keys := slices.Sorted(maps.Keys(got))
		var b strings.Builder
		b.WriteString("{\n")
		for i, k := range keys {
			line, _ := json.Marshal(got[k])
			kq, _ := json.Marshal(k)
			b.Write(kq)
			b.WriteString(": ")
			b.Write(line)
			if i < len(keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("}\n")
		if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s (%d cases)", file, len(got))
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (TCPLAB_GOLDEN_UPDATE=1 writes it)", err)
	}
	var want map[string]Case
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: case not run", k)
		case string(g.Result) != string(w.Result):
			t.Errorf("%s: result changed\n got %s\nwant %s", k, g.Result, w.Result)
		case g.Fingerprint != w.Fingerprint:
			t.Errorf("%s: same summary, but the sender's events differ (fingerprint %x, want %x)", k, g.Fingerprint, w.Fingerprint)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: not in %s (TCPLAB_GOLDEN_UPDATE=1 adds it)", k, file)
		}
	}
}
