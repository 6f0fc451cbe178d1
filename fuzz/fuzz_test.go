package fuzz

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/tcplab/tcplab/scenario"
)

// A seeded campaign: 150 random scenarios (TCPLAB_FUZZ_N more, for a long
// run) under the invariant checker, none failing, few refused by the
// validator (the generator is meant to write valid scenarios).
func TestRandomScenariosKeepTheInvariants(t *testing.T) {
	n := 150
	if v, err := strconv.Atoi(os.Getenv("TCPLAB_FUZZ_N")); err == nil {
		n = v
	}
	rep := Run(Config{Seed: 1, N: n, MaxWall: 5 * time.Second, Dir: t.TempDir()}, nil)
	for _, f := range rep.Findings {
		src, _ := Generate(1, f.Index)
		t.Errorf("scenario %d: %s\n%s", f.Index, f.Problem, src)
	}
	if rep.Rejected > n/10 {
		t.Errorf("%d of %d generated scenarios rejected by the validator", rep.Rejected, n)
	}
	t.Log(rep)
}

// Generation is a function of (seed, index): a finding can be regenerated.
func TestGenerateIsDeterministic(t *testing.T) {
	a, _ := Generate(7, 42)
	b, _ := Generate(7, 42)
	c, _ := Generate(7, 43)
	if string(a) != string(b) || string(a) == string(c) {
		t.Fatal("Generate is not a function of (seed, index)")
	}
}

// A CBR source far above its path, stopped while its queue is full: the
// queue drains after the stop, and counting those bytes over the active
// time reported 70 kbit/s on a 56 kbit/s link. The invariant now holds
// for every flow, and this one passes it.
func TestAStoppedCBRReportsNoMoreThanItsPath(t *testing.T) {
	src := []byte(`duration: 40s
nodes: [A, B]
links:
  - {name: slow, from: A, to: B, bandwidth: 56kbps, delay: 1ms}
flows:
  - {name: cbr, src: A, dst: B, transport: udp, app: {type: cbr, rate: 1Mbps, packet_size: 1000B}, stop: 25s}
`)
	if _, err := Check("udp-stop.yaml", src, scenario.Budget{}); err != nil {
		t.Fatal(err)
	}
}
