package predict

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/model"
)

// The forecast models put the package's pieces together as ALL-TCP's edge
// router uses them: generate a long-range-dependent traffic series, estimate
// its memory (GPH and aggregated variance), fit FARIMA and the baselines
// (AR, ARIMA(1,1,1), EWMA) on the first half and score their τ-step
// forecasts on the second half. Two sources: the superposition of Pareto
// on/off sources (self-similar with H = (3 − α)/2, Willinger et al. 1997)
// and exact FARIMA(0, d, 0) noise (circulant embedding).
func init() {
	common := []model.Param{
		{Name: "n", Default: 4096, Help: "samples (half to fit, half to score)", Min: 256, Max: 1 << 17, Integer: true},
		{Name: "tau", Default: 1, Help: "forecast horizon, samples", Min: 1, Max: 100, Integer: true},
		{Name: "seed", Default: 1, Help: "random seed of the series", Min: 0, Max: 1 << 53, Integer: true},
	}
	model.Register(model.Model{
		Name: "forecast-onoff",
		Doc:  "FARIMA vs AR, ARIMA, EWMA forecasts of aggregated Pareto on/off traffic (ALL-TCP §3, H = (3−α)/2)",
		Params: append([]model.Param{
			{Name: "sources", Default: 50, Help: "on/off sources aggregated", Min: 1, Max: 10000, Integer: true},
			{Name: "alpha", Default: 1.4, Help: "Pareto tail index of the on and off periods", Min: 1.01, Max: 2.5},
			{Name: "slot", Default: 1, Unit: model.Time, Help: "sampling interval (mean period 1 s)", Min: 1e-3, Max: 1000},
		}, common...),
		Eval: func(in model.Inputs) ([]model.Output, error) {
			rng := rand.New(rand.NewPCG(uint64(in["seed"]), 0x0ff))
			x, err := AggregateOnOff(in.Int("sources"), in["alpha"], in["alpha"], 1, 1, 1, in["slot"], in.Int("n"), rng)
			if err != nil {
				return nil, err
			}
			return forecastOutputs(x, in.Int("tau"))
		},
	})
	model.Register(model.Model{
		Name: "forecast-farima",
		Doc:  "FARIMA vs AR, ARIMA, EWMA forecasts of FARIMA(0,d,0) noise, and the estimators of d",
		Params: append([]model.Param{
			{Name: "d", Default: 0.3, Help: "memory parameter of the series", Min: -0.49, Max: 0.49},
		}, common...),
		Eval: func(in model.Inputs) ([]model.Output, error) {
			rng := rand.New(rand.NewPCG(uint64(in["seed"]), 0xfa))
			x, err := Spectral(in.Int("n"), in["d"], rng)
			if err != nil {
				return nil, err
			}
			return forecastOutputs(x, in.Int("tau"))
		},
	})
}

// forecastOutputs estimates x's memory, fits every predictor on its first
// half and scores them on the second.
func forecastOutputs(x []float64, tau int) ([]model.Output, error) {
	dGPH, seGPH, err := GPH(x, 0)
	if err != nil {
		return nil, fmt.Errorf("GPH: %w", err)
	}
	h, err := AggVar(x)
	if err != nil {
		return nil, fmt.Errorf("aggregated variance: %w", err)
	}
	start := len(x) / 2
	train := x[:start]
	fa, err := FitFARIMAAuto(train, 2, 1, FARIMAOptions{})
	if err != nil {
		return nil, err
	}
	ar, err := FitAR(train, 0)
	if err != nil {
		return nil, err
	}
	ari, err := FitARIMA(train, 1, 1, 1)
	if err != nil {
		return nil, err
	}
	ew, err := FitEWMA(train, tau)
	if err != nil {
		return nil, err
	}
	out := []model.Output{
		{Name: "d_gph", Value: dGPH, Unit: model.Number},
		{Name: "d_gph_se", Value: seGPH, Unit: model.Number},
		{Name: "h_aggvar", Value: h, Unit: model.Number},
		{Name: "d_farima", Value: fa.D, Unit: model.Number},
		{Name: "ar_order", Value: float64(len(ar.Coef)), Unit: model.Number},
		{Name: "ewma_alpha", Value: ew.Alpha, Unit: model.Number},
	}
	for _, p := range []struct {
		name string
		p    Predictor
	}{{"farima", fa}, {"ar", ar}, {"arima", ari}, {"ewma", ew}} {
		s, err := Evaluate(p.p, x, start, tau)
		if err != nil {
			return nil, err
		}
		nmse := s.NMSE
		if s.N == 0 {
			nmse = math.NaN()
		}
		out = append(out, model.Output{Name: "nmse_" + p.name, Value: nmse, Unit: model.Number})
	}
	return out, nil
}
