package alltcp

import (
	"math"

	"gonum.org/v1/gonum/stat"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/predict"
	"github.com/tcplab/tcplab/sim"
)

// ForecastError scores one predictor's τ-step forecasts of the level.
type ForecastError struct {
	MSE  float64 `json:"mse"`
	NMSE float64 `json:"nmse"` // MSE over the variance of the levels forecast
	N    int64   `json:"n"`
}

// fitter fits a predictor to a window of levels.
type fitter func(x []float64, tau int) (predict.Predictor, error)

// last forecasts the current level: the naive baseline every predictor
// must beat.
type last struct{}

func (last) Predict(h []float64, _ int) float64 { return h[len(h)-1] }

// predictors are the forecasters of §3.1 and its baselines. FARIMA's d
// comes from GPH (predict.FitFARIMAAuto picks p ≤ 1, q ≤ 1 by AIC).
var predictors = map[string]fitter{
	"farima": func(x []float64, _ int) (predict.Predictor, error) {
		return predict.FitFARIMAAuto(x, 1, 1, predict.FARIMAOptions{})
	},
	"arima": func(x []float64, _ int) (predict.Predictor, error) { return predict.FitARIMA(x, 1, 1, 1) },
	"ewma": func(x []float64, tau int) (predict.Predictor, error) {
		e, err := predict.FitEWMA(x, tau)
		return e, err
	},
	"last": func([]float64, int) (predict.Predictor, error) { return last{}, nil },
}

// predictorOrder fixes the order they run in (and draw nothing: fits are
// deterministic).
var predictorOrder = []string{"farima", "arima", "ewma", "last"}

// forecaster is one predictor running on the level series.
type forecaster struct {
	name string
	fit  fitter
	p    predict.Predictor // nil before the first successful fit
	// pending[k] is the forecast made for interval k (mod τ+1).
	pending []float64
	have    []bool
	se      float64
	ys, yy  float64
	n       int64
}

// level measures the traffic level, the utilisation of the node's busiest
// outgoing link over each interval, and forecasts it τ intervals ahead.
type level struct {
	cfg    Config
	links  []*network.Link
	lastTx []int64
	hist   []float64
	fc     []*forecaster
	main   *forecaster
	n      int64
	sum    float64
}

func newLevel(cfg Config, node *network.Node) *level {
	l := &level{cfg: cfg, links: node.Out()}
	l.lastTx = make([]int64, len(l.links))
	for _, name := range predictorOrder {
		if name != cfg.Predictor && !cfg.Compare {
			continue
		}
		f := &forecaster{name: name, fit: predictors[name],
			pending: make([]float64, cfg.Tau+1), have: make([]bool, cfg.Tau+1)}
		l.fc = append(l.fc, f)
		if name == cfg.Predictor {
			l.main = f
		}
	}
	return l
}

// observe closes an interval: it scores the forecasts made for it,
// refits every Refit intervals, and returns the chosen predictor's
// forecast for τ intervals ahead.
func (l *level) observe(now sim.Time, st *Stats) float64 {
	secs := l.cfg.Interval.Seconds()
	var u float64
	for i, k := range l.links {
		tx := k.Stats.TxBytes
		u = max(u, float64(tx-l.lastTx[i])*8/(k.Bandwidth*secs))
		l.lastTx[i] = tx
	}
	l.n++
	l.sum += u
	st.Intervals, st.LevelMean = l.n, l.sum/float64(l.n)
	slot := int(l.n % int64(l.cfg.Tau+1))
	for _, f := range l.fc {
		if f.have[slot] {
			d := f.pending[slot] - u
			f.se += d * d
			f.ys += u
			f.yy += u * u
			f.n++
		}
	}
	l.hist = append(l.hist, u)
	if len(l.hist) > 4*l.cfg.History {
		l.hist = append(l.hist[:0], l.hist[len(l.hist)-l.cfg.History:]...)
	}
	if len(l.hist) >= 32 && l.n%int64(l.cfg.Refit) == 0 {
		l.refit(st)
	}
	ahead := int((l.n + int64(l.cfg.Tau)) % int64(l.cfg.Tau+1))
	var out float64
	for _, f := range l.fc {
		v := u
		if f.p != nil {
			v = f.p.Predict(l.hist, l.cfg.Tau)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			v = u
		}
		f.pending[ahead], f.have[ahead] = v, true
		if f == l.main {
			out = v
		}
	}
	l.report(st)
	return out
}

// refit fits every predictor to the last History levels; a fit that
// fails (a constant series has no spectrum) keeps the previous model.
func (l *level) refit(st *Stats) {
	x := l.hist[max(len(l.hist)-l.cfg.History, 0):]
	st.Refits++
	for _, f := range l.fc {
		p, err := f.fit(x, l.cfg.Tau)
		if err != nil {
			continue
		}
		f.p = p
		if fa, ok := p.(*predict.FARIMA); ok {
			st.MPI = mpi(fa, x, l.cfg)
		}
	}
}

// mpi is eq. 6 for the fitted model: the largest τ whose forecast is
// within ε of the level with probability 1 − P_ε (-1 if the model gives
// no answer, as for a zero mean).
//
// σ² is the window's sample variance rather than the model's Σ h_u²
// (which sums 2^16 weights per refit), and τ is searched up to 64.
func mpi(fa *predict.FARIMA, x []float64, cfg Config) int {
	mean, v := stat.MeanVariance(x, nil)
	m, err := predict.MPI(predict.MPIParams{H: fa.MAWeights(64), Var: v,
		Mean: mean, Eps: cfg.Eps, PEps: cfg.PEps})
	if err != nil {
		return -1
	}
	return m
}

func (l *level) report(st *Stats) {
	if st.Forecast == nil {
		st.Forecast = map[string]ForecastError{}
	}
	for _, f := range l.fc {
		if f.n == 0 {
			continue
		}
		n := float64(f.n)
		e := ForecastError{MSE: f.se / n, N: f.n}
		if v := f.yy/n - (f.ys/n)*(f.ys/n); v > 1e-12 {
			e.NMSE = e.MSE / v
		}
		st.Forecast[f.name] = e
	}
}
