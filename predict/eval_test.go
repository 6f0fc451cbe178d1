package predict

import (
	"math"
	"math/rand/v2"
	"testing"
)

// On self-similar traffic (50 Pareto on/off sources, α = 1.4, so H = 0.8)
// every model is fitted on the first half and scored on the second. The
// numbers are logged; the test pins down that FARIMA is a usable forecaster
// (better than the mean) and within 5% of the best baseline at each horizon,
// whichever wins.
func TestFARIMAAgainstBaselinesOnOnOffTraffic(t *testing.T) {
	slots := []float64{1, 0.1}
	if testing.Short() {
		slots = slots[:1]
	}
	for _, slot := range slots {
		x, err := AggregateOnOff(50, 1.4, 1.4, 1, 1, 1, slot, 1<<14, rand.New(rand.NewPCG(7, 7)))
		if err != nil {
			t.Fatal(err)
		}
		start := len(x) / 2
		train := x[:start]
		fa, err := FitFARIMAAuto(train, 2, 1, FARIMAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ar, err := FitAR(train, 0)
		if err != nil {
			t.Fatal(err)
		}
		ari, err := FitARIMA(train, 1, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("slot %gs: %s, %s, %s", slot, fa.Name, ar.Name, ari.Name)
		for _, tau := range []int{1, 5, 10, 20} {
			ew, err := FitEWMA(train, tau)
			if err != nil {
				t.Fatal(err)
			}
			scores := map[string]Score{}
			for name, p := range map[string]Predictor{"FARIMA": fa, "AR": ar, "ARIMA(1,1,1)": ari, "EWMA": ew} {
				s, err := Evaluate(p, x, start, tau)
				if err != nil {
					t.Fatal(err)
				}
				scores[name] = s
			}
			best := math.Inf(1)
			for name, s := range scores {
				if name != "FARIMA" {
					best = math.Min(best, s.MSE)
				}
			}
			t.Logf("  τ=%2d NMSE: FARIMA %.4f  AR %.4f  ARIMA(1,1,1) %.4f  EWMA(α=%.2f) %.4f",
				tau, scores["FARIMA"].NMSE, scores["AR"].NMSE, scores["ARIMA(1,1,1)"].NMSE, ew.Alpha, scores["EWMA"].NMSE)
			if f := scores["FARIMA"]; f.NMSE >= 1 || f.MSE > 1.05*best {
				t.Errorf("slot %g τ=%d: FARIMA MSE %.4f (NMSE %.3f), best baseline %.4f", slot, tau, f.MSE, f.NMSE, best)
			}
		}
	}
}
