package predict

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMPIEquation6AgreesWithErrorProbability(t *testing.T) {
	h := (&FARIMA{D: 0.3, ARMA: ARMA{Phi: []float64{0.6}, NoiseVar: 1}}).MAWeights(400)
	for _, c := range []struct{ mean, eps, peps float64 }{
		{20, 0.2, 0.1}, {10, 0.2, 0.2}, {40, 0.1, 0.05}, {5, 0.2, 0.1},
	} {
		m := MPIParams{H: h, Mean: c.mean, Eps: c.eps, PEps: c.peps}
		got, err := MPI(m)
		if err != nil {
			t.Fatal(err)
		}
		// Eq. 6 must pick the last τ whose eq. 1 probability is within P_ε.
		want := 0
		for tau := 1; tau <= len(h); tau++ {
			p, _ := PredictionErrorProb(m, tau)
			if p > c.peps {
				break
			}
			want = tau
		}
		if got != want {
			t.Errorf("%+v: MPI %d, direct search %d", c, got, want)
		}
	}
}

// For a finite moving average the optimal forecast and its error can be
// simulated exactly; the frequency of (Ŷ−Y)/Ŷ > ε must match eq. 1.
func TestPredictionErrorProbMatchesSimulation(t *testing.T) {
	h := []float64{1, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1}
	m := MPIParams{H: h, Mean: 6, Eps: 0.2}
	m.PEps = 0.1
	rng := rand.New(rand.NewPCG(6, 6))
	const trials = 100000
	noise := make([]float64, len(h)+8)
	for _, tau := range []int{1, 3, 6} {
		var hits int
		for range trials {
			for i := range noise {
				noise[i] = rng.NormFloat64()
			}
			// noise[0] is n(t+τ), noise[u] is n(t+τ−u).
			var y, yhat float64
			for u, w := range h {
				y += w * noise[u]
				if u >= tau {
					yhat += w * noise[u]
				}
			}
			y += m.Mean
			yhat += m.Mean
			if (yhat-y)/yhat > m.Eps {
				hits++
			}
		}
		want, _ := PredictionErrorProb(m, tau)
		got := float64(hits) / trials
		se := math.Sqrt(want * (1 - want) / trials)
		if math.Abs(got-want) > 4*se {
			t.Errorf("τ=%d: simulated %.4f, eq. 1 %.4f", tau, got, want)
		}
	}
	if _, err := MPI(MPIParams{H: h, Mean: 1, Eps: 1.5, PEps: 0.1}); err == nil {
		t.Error("ε = 1.5 accepted")
	}
}
