// Package predict forecasts traffic series and generates long-range-
// dependent traffic: FARIMA(p, d, q) with d estimated by log-periodogram
// (GPH) regression or the aggregated-variance method, ALL-TCP's maximum
// prediction interval (Al Shinwan et al., MTAP 2020, eqs. 1-6), the EWMA
// and AR/ARIMA baselines, and FARIMA(0, d, 0) and Pareto on/off generators.
//
// Every generator takes a *math/rand/v2 Rand so that a seed fixes the
// series.
//
// The package registers three models with package model, so that `tcplab
// model` reaches it: mpi (the maximum prediction interval of a FARIMA
// model), and forecast-onoff and forecast-farima, which generate a series,
// estimate its memory and score FARIMA against the baselines.
package predict

// Predictor forecasts x[t+tau] from the history x[0..t].
type Predictor interface {
	Predict(history []float64, tau int) float64
}
