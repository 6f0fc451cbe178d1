package scenario

import (
	"math"
	"testing"
)

// Max-min fair shares, worked by hand. A parking lot of two links of 10
// (flow 0 crosses both, flow 1 the first, flows 2 and 3 the second): the
// second link fills first, at 10/3 each for its three flows, and flow 1
// takes what they leave of the first, 20/3. A flow asking for 1 (its own
// resource of 1) next to a greedy one on a link of 10: 1 and 9. A flow
// that crosses nothing is not limited.
func TestFairSharesAreMaxMinFair(t *testing.T) {
	for _, c := range []struct {
		name     string
		capacity []float64
		paths    [][]int32
		want     []float64
	}{
		{"parking lot", []float64{10, 10}, [][]int32{{0, 1}, {0}, {1}, {1}}, []float64{10.0 / 3, 20.0 / 3, 10.0 / 3, 10.0 / 3}},
		{"a flow asking for less", []float64{10, 1}, [][]int32{{0, 1}, {0}}, []float64{1, 9}},
		{"one link each", []float64{4, 6}, [][]int32{{0}, {1}, {1}}, []float64{4, 3, 3}},
		{"no resource", []float64{5}, [][]int32{{0}, {}}, []float64{5, math.Inf(1)}},
	} {
		got := fairShares(c.capacity, c.paths)
		for i := range c.want {
			if !(math.Abs(got[i]-c.want[i]) <= 1e-9*c.want[i]) && got[i] != c.want[i] {
				t.Errorf("%s: rates %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
}

// The estimate a long run is warned with follows the bottleneck, not the
// sum of the links: within a factor of three of the events run, on a
// dumbbell of 100 and of 2 000 flows (whose access links would count
// 4 000 × 100 Mbit/s), an 802.11b chain and a constant-rate source.
func TestEstimatedEventsFollowTheBottleneck(t *testing.T) {
	many := func(n string) []string {
		return []string{"duration=5s", "nodes.S{i}.count=" + n, "nodes.D{i}.count=" + n, "links.in{i}.count=" + n,
			"links.out{i}.count=" + n, "flows.f{i}.count=" + n, "flows.f{i}.start_step=0.0005s"}
	}
	for _, c := range []struct {
		file string
		sets []string
	}{
		{"../examples/c-big.yaml", []string{"duration=20s"}},
		{"../examples/c-big.yaml", many("2000")},
		{"../examples/wifi-chain.yaml", []string{"duration=20s"}},
		{"../examples/cbr-bottleneck.yaml", nil},
	} {
		s, err := Load(c.file, c.sets)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Build()
		if err != nil {
			t.Fatal(err)
		}
		e := r.EstimatedEvents()
		res, err := r.Run()
		if err != nil {
			t.Fatal(err)
		}
		if ratio := float64(res.Events) / e; ratio < 1.0/3 || ratio > 3 {
			t.Errorf("%s %v: estimated %.3g events, ran %d (ratio %.2f)", c.file, c.sets, e, res.Events, ratio)
		}
	}
}
