package predict

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/model"
)

// The forecast models recover the memory of FARIMA(0, d, 0) noise (GPH
// within three standard errors, aggregated variance within 0.1 of
// H = d + 1/2) and FARIMA forecasts better than the series' variance.
func TestForecastFARIMARecoversDAndForecasts(t *testing.T) {
	m, err := model.Lookup("forecast-farima")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []float64{0.1, 0.3, 0.45} {
		out, err := m.Evaluate(model.Inputs{"d": d, "seed": 3})
		if err != nil {
			t.Fatal(err)
		}
		v := map[string]float64{}
		for _, o := range out {
			v[o.Name] = o.Value
		}
		if math.Abs(v["d_gph"]-d) > 3*v["d_gph_se"] {
			t.Errorf("d=%v: GPH %v ± %v", d, v["d_gph"], v["d_gph_se"])
		}
		if math.Abs(v["h_aggvar"]-(d+0.5)) > 0.1 {
			t.Errorf("d=%v: aggregated-variance H %v, want about %v", d, v["h_aggvar"], d+0.5)
		}
		if !(v["nmse_farima"] < 1) {
			t.Errorf("d=%v: FARIMA NMSE %v not below 1", d, v["nmse_farima"])
		}
	}
}

// On aggregated on/off traffic with α = 1.4 (H = 0.8) the estimators see
// long memory, and every predictor beats the mean one step ahead.
func TestForecastOnOffSeesLongMemory(t *testing.T) {
	m, err := model.Lookup("forecast-onoff")
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Evaluate(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		switch {
		case o.Name == "h_aggvar" && !(o.Value > 0.65 && o.Value < 0.95):
			t.Errorf("H = %v, want about 0.8", o.Value)
		case len(o.Name) > 5 && o.Name[:5] == "nmse_" && !(o.Value < 1):
			t.Errorf("%s = %v, not below 1", o.Name, o.Value)
		}
	}
}
