package alltcp

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/model"
)

// TestSimulatedReliabilityMatchesModel checks the packet-level simulation
// of §4.1's process against the exact ETET and SBST values of
// model.AllTCP: loss probability and routers traversed, within 4 standard
// errors of 20 000 packets.
func TestSimulatedReliabilityMatchesModel(t *testing.T) {
	const n, p, split, packets = 8, 0.05, 4, 20000
	for _, r := range []int{1, 2, 3, 6} {
		m, err := model.AllTCP(model.UniformLoss(n, p), split, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name  string
			split int
			want  model.PathStats
		}{{"etet", 0, m.ETET}, {"sbst", split, m.SBST}} {
			got, err := SimulateReliability(n, p, tc.split, r, packets, uint64(r))
			if err != nil {
				t.Fatal(err)
			}
			se := math.Sqrt(tc.want.Loss*(1-tc.want.Loss)/packets) + 1e-4
			if math.Abs(got.Loss-tc.want.Loss) > 4*se {
				t.Errorf("R=%d %s: loss %.4f, model %.4f (±%.4f)", r, tc.name, got.Loss, tc.want.Loss, 4*se)
			}
			if math.Abs(got.Hops-tc.want.Hops) > 0.03*tc.want.Hops {
				t.Errorf("R=%d %s: routers %.3f, model %.3f", r, tc.name, got.Hops, tc.want.Hops)
			}
		}
	}
}
