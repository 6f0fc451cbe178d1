package store

import (
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Summary is one metric of one flow over the replications of a grid
// point.
type Summary struct {
	Params Params // the grid point
	Flow   string
	Metric string
	N      int
	Mean   float64
	SD     float64 // sample standard deviation (n-1); 0 for one run
	// CI95 is the half-width of the 95% confidence interval of the mean,
	// t(0.975, n-1)·SD/√n: Student's t, as replications are few. NaN for
	// one run.
	CI95 float64
}

// Aggregate summarises metric (for one flow, or every flow if flow is "")
// per grid point, in grid order.
func (s *Store) Aggregate(metric, flow string) ([]Summary, error) {
	runs, err := s.Runs()
	if err != nil {
		return nil, err
	}
	type group struct {
		sum  Summary
		vals []float64
	}
	var order []string
	groups := map[string]*group{}
	for _, r := range runs {
		var id strings.Builder
		for _, p := range r.Params {
			id.WriteString(p.Name + "=" + p.Value + "\x00")
		}
		for _, m := range r.Metrics {
			if m.Name != metric || flow != "" && m.Flow != flow {
				continue
			}
			k := id.String() + m.Flow
			g := groups[k]
			if g == nil {
				g = &group{sum: Summary{Params: r.Params, Flow: m.Flow, Metric: metric}}
				groups[k] = g
				order = append(order, k)
			}
			g.vals = append(g.vals, m.Value)
		}
	}
	out := make([]Summary, 0, len(order))
	for _, k := range order {
		g := groups[k]
		out = append(out, Summarize(g.sum, g.vals))
	}
	return out, nil
}

// Summarize fills s's N, Mean, SD and CI95 from the values v (one per
// replication).
func Summarize(s Summary, v []float64) Summary {
	s.N = len(v)
	s.Mean = stat.Mean(v, nil)
	if s.N < 2 {
		s.CI95 = math.NaN()
		return s
	}
	s.SD = stat.StdDev(v, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}.Quantile(0.975)
	s.CI95 = t * s.SD / math.Sqrt(float64(s.N))
	return s
}

// MetricNames lists the metrics stored, sorted.
func (s *Store) MetricNames() ([]string, error) {
	rows, err := s.db.Query("SELECT DISTINCT name FROM metrics ORDER BY name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ns []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		ns = append(ns, n)
	}
	return ns, rows.Err()
}
