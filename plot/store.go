package plot

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/tcplab/tcplab/store"
)

// Query picks what to draw from a store.
type Query struct {
	Metric string            // y
	Flow   string            // "" : the only flow (an error if several)
	X      string            // the parameter on the x axis
	Series string            // the parameter giving one series per value ("" : one series)
	Where  map[string]string // fixed values of the other parameters
	// Labels override the names of parameters on axes and in the title
	// (path → text); the others come from ParamLabel.
	Labels map[string]string
}

// Figure is a chart built from a store: a line chart when x is numeric,
// a bar chart otherwise.
type Figure struct {
	Chart Chart
	Bars  *Bars // set for a categorical x
}

// Save writes the figure to path (.png or .svg).
func (f *Figure) Save(path string) error {
	if f.Bars != nil {
		b := *f.Bars
		b.Chart = f.Chart
		return Bar(b)(path)
	}
	return Line(f.Chart, path)
}

// FromStore aggregates q.Metric per grid point (mean, 95% CI over the
// replications) and lays it out as x against y, a series per value of
// q.Series.
func FromStore(st *store.Store, q Query) (*Figure, error) {
	sums, err := st.Aggregate(q.Metric, q.Flow)
	if err != nil {
		return nil, err
	}
	if len(sums) == 0 {
		names, _ := st.MetricNames()
		return nil, fmt.Errorf("no values of metric %q (stored: %s)", q.Metric, strings.Join(names, ", "))
	}
	names, err := st.ParamNames()
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, n := range names {
		known[n] = true
	}
	for _, n := range []string{q.X, q.Series} {
		if n != "" && !known[n] {
			return nil, fmt.Errorf("no parameter %q (have: %s)", n, strings.Join(names, ", "))
		}
	}
	flows := map[string]bool{}
	for _, s := range sums {
		flows[s.Flow] = true
	}
	if q.Flow == "" && len(flows) > 1 {
		return nil, fmt.Errorf("several flows (%d): choose one with --flow", len(flows))
	}
	// Keep the points matching Where; every other parameter must then
	// have one value, or the chart would mix them.
	var kept []store.Summary
	other := map[string]map[string]bool{}
	for _, s := range sums {
		ok := true
		for _, p := range s.Params {
			if v, fixed := q.Where[p.Name]; fixed && v != p.Value {
				ok = false
			}
		}
		if !ok {
			continue
		}
		kept = append(kept, s)
		for _, p := range s.Params {
			if p.Name != q.X && p.Name != q.Series {
				if other[p.Name] == nil {
					other[p.Name] = map[string]bool{}
				}
				other[p.Name][p.Value] = true
			}
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("no grid point matches %v", q.Where)
	}
	for n, vs := range other {
		if len(vs) > 1 {
			return nil, fmt.Errorf("parameter %q has %d values here: fix one with --where %s=VALUE, or use it as --series", n, len(vs), n)
		}
	}

	param := func(s store.Summary, name string) *store.Param {
		for i := range s.Params {
			if s.Params[i].Name == name {
				return &s.Params[i]
			}
		}
		return nil
	}
	numeric := q.X != ""
	for _, s := range kept {
		if p := param(s, q.X); p == nil || p.Num == nil {
			numeric = false
		}
	}
	xPercent := numeric
	for _, s := range kept {
		if p := param(s, q.X); p != nil && !strings.HasSuffix(p.Value, "%") {
			xPercent = false
		}
	}
	yScale, yUnit := metricUnit(q.Metric, kept)
	fig := &Figure{Chart: Chart{
		XLabel:  axisLabel(ParamLabel(q.X, q.Labels), q.X, kept, xPercent),
		Fixed:   fixedText(q),
		YLabel:  metricLabel(q.Metric) + yUnit,
		Caption: fmt.Sprintf("Mean of %d replications per point; error bars: 95%% confidence interval of the mean (Student's t).", kept[0].N),
	}}
	type entry struct {
		label    string
		x, y, ci float64
	}
	var order, cats []string
	bySeries := map[string][]entry{}
	catSeen := map[string]bool{}
	for _, s := range kept {
		name := q.Metric
		if q.Series != "" {
			name = param(s, q.Series).Value
		}
		if _, ok := bySeries[name]; !ok {
			order = append(order, name)
		}
		e := entry{y: s.Mean * yScale, ci: s.CI95 * yScale}
		if p := param(s, q.X); p != nil {
			e.label = p.Value
			if numeric {
				e.x = *p.Num
				if xPercent {
					e.x *= 100
				}
			}
		}
		if !catSeen[e.label] {
			catSeen[e.label] = true
			cats = append(cats, e.label)
		}
		bySeries[name] = append(bySeries[name], e)
	}
	for _, n := range order {
		sr := Series{Name: n}
		if numeric {
			for _, e := range bySeries[n] {
				sr.X, sr.Y, sr.Err = append(sr.X, e.x), append(sr.Y, e.y), append(sr.Err, e.ci)
			}
		} else {
			// Bars index by category; a series without a category gets NaN.
			sr.Y, sr.Err = make([]float64, len(cats)), make([]float64, len(cats))
			for k := range cats {
				sr.Y[k], sr.Err[k] = math.NaN(), math.NaN()
			}
			for _, e := range bySeries[n] {
				k := indexOf(cats, e.label)
				sr.Y[k], sr.Err[k] = e.y, e.ci
			}
		}
		fig.Chart.Series = append(fig.Chart.Series, sr)
	}
	if !numeric {
		fig.Bars = &Bars{Categories: cats}
		return fig, nil
	}
	seen := map[float64]bool{}
	for _, s := range fig.Chart.Series {
		for _, x := range s.X {
			if !seen[x] {
				seen[x] = true
				fig.Chart.XTicks = append(fig.Chart.XTicks, x)
			}
		}
	}
	return fig, nil
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// metricUnit scales bit rates to kbit/s or Mbit/s and names the unit.
func metricUnit(m string, sums []store.Summary) (float64, string) {
	switch {
	case strings.HasSuffix(m, "_bps"):
		peak := 0.0
		for _, s := range sums {
			peak = math.Max(peak, s.Mean)
		}
		if peak >= 5e6 {
			return 1e-6, " (Mbit/s)"
		}
		return 1e-3, " (kbit/s)"
	case strings.HasSuffix(m, "_bytes"):
		return 1, " (bytes)"
	case strings.HasSuffix(m, "_seconds"):
		return 1, " (s)"
	case strings.HasSuffix(m, "_packets"), strings.HasPrefix(m, "dropped."), strings.HasPrefix(m, "run.drops."):
		return 1, " (packets)"
	case strings.HasPrefix(m, "accuracy."):
		return 1, " (fraction)"
	}
	return 1, " (count)"
}

// metricLabel turns goodput_bps into "goodput".
func metricLabel(m string) string {
	for _, suf := range []string{"_bps", "_bytes", "_seconds", "_packets"} {
		m = strings.TrimSuffix(m, suf)
	}
	return strings.ReplaceAll(m, "_", " ")
}

// fixedText says which values --where fixed, in parameter order:
// "loss rate on lossy = 2%".
func fixedText(q Query) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(q.Where)) {
		parts = append(parts, ParamLabel(k, q.Labels)+" = "+q.Where[k])
	}
	return strings.Join(parts, ", ")
}

// axisLabel is label with the x parameter's unit as written in its values
// (10ms → "(ms)"; 2% → "(%)").
func axisLabel(label, name string, sums []store.Summary, percent bool) string {
	if percent {
		return label + " (%)"
	}
	for _, s := range sums {
		for _, p := range s.Params {
			if p.Name == name && p.Num != nil {
				i := strings.IndexFunc(p.Value, func(r rune) bool {
					return !(r >= '0' && r <= '9' || r == '.' || r == '-' || r == '+')
				})
				if i > 0 {
					return label + " (" + strings.TrimSpace(p.Value[i:]) + ")"
				}
				return label
			}
		}
	}
	return label
}
