package tcp

import (
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// The flags name one state, the most severe winning (Linux: Loss over
// Recovery over CWR over Disorder).
func TestCongStateNamesTheFlags(t *testing.T) {
	cases := []struct {
		name                       string
		inLoss, inRecovery, ecnCut bool
		dupacks                    int
		want                       CongState
	}{
		{"nothing", false, false, false, 0, CAOpen},
		{"a duplicate ACK", false, false, false, 1, CADisorder},
		{"an ECN reduction", false, false, true, 0, CACWR},
		{"fast recovery", false, true, false, 3, CARecovery},
		{"recovery over CWR", false, true, true, 0, CARecovery},
		{"a timeout over everything", true, true, true, 2, CALoss},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &Sender{inLoss: c.inLoss, ecnCut: c.ecnCut, dupacks: c.dupacks}
			s.InRecovery = c.inRecovery
			if got := s.congState(); got != c.want {
				t.Errorf("%v, want %v", got, c.want)
			}
		})
	}
}

// A flow on a lossy path passes through fast recovery and back to open,
// and its snapshot says so.
func TestSnapshotShowsRecoveryAndItsEnd(t *testing.T) {
	cfg := ns2Config(t, "newreno", 1024, 32)
	d := &dropSeqs{want: map[[2]int64]bool{{1 + 100*1024, 1}: true}, seen: map[int64]int64{}}
	n, f := dumbbell(t, 1, cfg, d)
	seen := map[CongState]bool{}
	f.SetAckProbe(func(*Sample) { seen[f.Snapshot().State] = true })
	n.Run(20 * sim.Second)
	for _, st := range []CongState{CAOpen, CADisorder, CARecovery} {
		if !seen[st] {
			t.Errorf("never %v (saw %v)", st, seen)
		}
	}
	if got := f.Snapshot().State; got != CAOpen {
		t.Errorf("ends %v, want open", got)
	}
}
