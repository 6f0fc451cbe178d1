package predict

import (
	"fmt"

	"gonum.org/v1/gonum/stat"
)

// Score is a predictor's tau-step error over a test span.
type Score struct {
	MSE  float64 // mean squared error
	NMSE float64 // MSE divided by the variance of the targets
	N    int     // forecasts made
}

// Evaluate forecasts x[t+tau] from x[0..t] for every t from start to
// len(x)−tau−1 and scores the forecasts. Models are fitted beforehand on
// x[:start], so nothing of the test span leaks into the parameters.
func Evaluate(p Predictor, x []float64, start, tau int) (Score, error) {
	if start < 1 || tau < 1 || start+tau >= len(x) {
		return Score{}, fmt.Errorf("no forecasts: start %d, tau %d, %d samples", start, tau, len(x))
	}
	var se float64
	targets := make([]float64, 0, len(x)-start-tau)
	for t := start; t+tau < len(x); t++ {
		d := p.Predict(x[:t+1], tau) - x[t+tau]
		se += d * d
		targets = append(targets, x[t+tau])
	}
	n := len(targets)
	s := Score{MSE: se / float64(n), N: n}
	if v := stat.Variance(targets, nil); v > 0 {
		s.NMSE = s.MSE / v
	}
	return s, nil
}
