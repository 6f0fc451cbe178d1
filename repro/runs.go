package repro

import (
	"slices"
	"strings"

	"github.com/tcplab/tcplab/store"
)

// Per-run values and their summaries per grid point: what every entry's
// report computes from its store.

// runPoint is one grid point's per-run values.
type runPoint struct {
	params store.Params
	vals   []float64
}

// perRun computes v for every run and groups the values by grid point,
// in grid order; runs for which v has no value are left out.
func perRun(st *store.Store, v func(r *store.Run) (float64, bool)) ([]*runPoint, error) {
	runs, err := st.Runs()
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(runs, func(a, b *store.Run) int { return a.Point - b.Point })
	var pts []*runPoint
	byPoint := map[int]*runPoint{}
	for _, r := range runs {
		p := byPoint[r.Point]
		if p == nil {
			p = &runPoint{params: r.Params}
			byPoint[r.Point] = p
			pts = append(pts, p)
		}
		if x, ok := v(r); ok {
			p.vals = append(p.vals, x)
		}
	}
	return pts, nil
}

func (p *runPoint) summary() store.Summary {
	return store.Summarize(store.Summary{Params: p.params}, p.vals)
}

func summaries(pts []*runPoint) []store.Summary {
	out := make([]store.Summary, 0, len(pts))
	for _, p := range pts {
		if len(p.vals) > 0 {
			out = append(out, p.summary())
		}
	}
	return out
}

// summarize computes v for every run of the entry's store and summarizes
// the values per grid point, in grid order.
func summarize(c *Context, v func(*store.Run) (float64, bool)) ([]store.Summary, error) {
	pts, err := perRun(c.Store, v)
	if err != nil {
		return nil, err
	}
	return summaries(pts), nil
}

// perConnection is a metric's mean over a run's TCP connections.
func perConnection(metric string) func(r *store.Run) (float64, bool) {
	return func(r *store.Run) (float64, bool) {
		s, n := tcpSum(r, metric)
		return s / float64(n), n > 0
	}
}

// tcpSum sums a metric over the run's TCP connections (not its UDP cross
// traffic) and counts them.
func tcpSum(r *store.Run, metric string) (sum float64, n int) {
	tcp := r.FlowsOf("tcp")
	for _, m := range r.Metrics {
		if m.Name == metric && tcp[m.Flow] {
			sum += m.Value
			n++
		}
	}
	return sum, n
}

// flowsSum adds metric over the flows of a run whose names start with
// prefix; n is how many had it.
func flowsSum(r *store.Run, prefix, metric string) (sum float64, n int) {
	for _, m := range r.Metrics {
		if m.Name == metric && strings.HasPrefix(m.Flow, prefix) {
			sum += m.Value
			n++
		}
	}
	return sum, n
}

// runMetric is a whole-run metric of a stored run.
func runMetric(name string) func(r *store.Run) (float64, bool) {
	return func(r *store.Run) (float64, bool) {
		for _, m := range r.Metrics {
			if m.Flow == "" && m.Name == name {
				return m.Value, true
			}
		}
		return 0, false
	}
}
