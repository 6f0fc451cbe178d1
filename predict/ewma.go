package predict

import (
	"fmt"
	"math"
)

// EWMA forecasts every horizon with the exponentially weighted mean
// s_t = α·x_t + (1−α)·s_{t−1}: the flat forecast of simple exponential
// smoothing.
type EWMA struct {
	Alpha float64
}

// Predict ignores tau: the smoothed level is the forecast at every horizon.
// Only the last samples whose weight exceeds 1e-9 are read.
func (e EWMA) Predict(history []float64, tau int) float64 {
	if len(history) == 0 {
		return 0
	}
	keep := len(history)
	if e.Alpha > 0 && e.Alpha < 1 {
		keep = min(keep, int(math.Ceil(math.Log(1e-9)/math.Log(1-e.Alpha)))+1)
	}
	h := history[len(history)-keep:]
	s := h[0]
	for _, v := range h[1:] {
		s = e.Alpha*v + (1-e.Alpha)*s
	}
	return s
}

// FitEWMA picks α on a grid (0.01..0.99) by the in-sample tau-step squared
// error.
func FitEWMA(x []float64, tau int) (EWMA, error) {
	if len(x) < tau+10 {
		return EWMA{}, fmt.Errorf("EWMA fit needs more than %d samples", tau+10)
	}
	best, bestA := math.Inf(1), 0.5
	for a := 0.01; a < 1; a += 0.01 {
		s := x[0]
		var se float64
		for t := 1; t+tau < len(x); t++ {
			s = a*x[t] + (1-a)*s
			d := x[t+tau] - s
			se += d * d
		}
		if se < best {
			best, bestA = se, a
		}
	}
	return EWMA{Alpha: bestA}, nil
}
