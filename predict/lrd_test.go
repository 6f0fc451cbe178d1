package predict

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestGeneratorsHaveFARIMAAutocovariance(t *testing.T) {
	const n, reps = 512, 300
	for _, d := range []float64{0.2, 0.4} {
		want := FARIMAAutocov(d, 10)
		for name, gen := range map[string]func(int, float64, *rand.Rand) ([]float64, error){
			"Hosking": Hosking, "Spectral": Spectral,
		} {
			rng := rand.New(rand.NewPCG(11, uint64(d*10)))
			// E[x_0 x_k] estimated across independent series, so that
			// long memory does not bias it as a time average would.
			var sum, sq [3]float64
			lags := [3]int{0, 1, 10}
			for range reps {
				x, err := gen(n, d, rng)
				if err != nil {
					t.Fatal(err)
				}
				for i, k := range lags {
					v := x[100] * x[100+k]
					sum[i] += v
					sq[i] += v * v
				}
			}
			for i, k := range lags {
				m := sum[i] / reps
				se := math.Sqrt((sq[i]/reps - m*m) / reps)
				if math.Abs(m-want[k]) > 3.5*se {
					t.Errorf("%s d=%v: E[x_t x_t+%d] = %.3f ± %.3f, want %.3f", name, d, k, m, se, want[k])
				}
			}
		}
	}
}

func TestGeneratorsAreDeterministicGivenSeed(t *testing.T) {
	a, _ := Spectral(256, 0.3, rand.New(rand.NewPCG(1, 2)))
	b, _ := Spectral(256, 0.3, rand.New(rand.NewPCG(1, 2)))
	c, _ := Spectral(256, 0.3, rand.New(rand.NewPCG(1, 3)))
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Error("Spectral is not a function of the seed")
	}
	x, _ := AggregateOnOff(5, 1.5, 1.5, 1, 2, 1, 0.5, 200, rand.New(rand.NewPCG(9, 9)))
	y, _ := AggregateOnOff(5, 1.5, 1.5, 1, 2, 1, 0.5, 200, rand.New(rand.NewPCG(9, 9)))
	if !slices.Equal(x, y) {
		t.Error("AggregateOnOff is not a function of the seed")
	}
	if _, err := Hosking(10, 0.5, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("d = 0.5 accepted")
	}
}

func TestParetoOnOffPeriodsAndLoad(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src, err := NewParetoOnOff(1.9, 1.9, 2, 3, rng)
	if err != nil {
		t.Fatal(err)
	}
	var on, off, nOn, nOff float64
	prev := false
	for i := range 400000 {
		o, l := src.Next()
		if i > 0 && o == prev {
			t.Fatal("periods do not alternate")
		}
		prev = o
		if o {
			on, nOn = on+l, nOn+1
		} else {
			off, nOff = off+l, nOff+1
		}
	}
	// Infinite variance makes the sample mean converge slowly; 5% is
	// ample at α = 1.9 and 2·10⁵ periods.
	if math.Abs(on/nOn-2) > 0.1 || math.Abs(off/nOff-3) > 0.15 {
		t.Errorf("mean ON %.3f (want 2), OFF %.3f (want 3)", on/nOn, off/nOff)
	}
	// 50 sources ON 40% of the time at peak 1, in 1-second slots.
	x, err := AggregateOnOff(50, 1.4, 1.4, 2, 3, 1, 1, 1<<14, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	var s float64
	for _, v := range x {
		s += v
	}
	if m := s / float64(len(x)); math.Abs(m-20) > 2 {
		t.Errorf("mean load %.2f, want 20", m)
	}
	// Self-similar: H = (3 − 1.4)/2 = 0.8, i.e. d = 0.3, up to the loose
	// accuracy of one series.
	d, _, err := GPH(x, 0.5)
	if err != nil || math.Abs(d-0.3) > 0.12 {
		t.Errorf("aggregate d = %.3f, want about 0.3 (%v)", d, err)
	}
	if _, err := NewParetoOnOff(1, 1.5, 1, 1, rng); err == nil {
		t.Error("α = 1 accepted")
	}
}
