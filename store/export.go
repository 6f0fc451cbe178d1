package store

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/output"
)

// WriteCSV writes one row per (run, flow): the run's identity, its grid
// parameters as columns, then one column per metric, sorted by name.
func (s *Store) WriteCSV(w io.Writer) error {
	runs, err := s.Runs()
	if err != nil {
		return err
	}
	params, err := s.ParamNames()
	if err != nil {
		return err
	}
	mset := map[string]bool{}
	for _, r := range runs {
		for _, m := range r.Metrics {
			mset[m.Name] = true
		}
	}
	metrics := slices.Sorted(maps.Keys(mset))
	header := append([]string{"run_key", "sweep", "point", "replication", "seed"}, params...)
	header = append(header, "flow")
	header = append(header, metrics...)
	header = append(header, "version")
	var rows [][]string
	for _, r := range runs {
		pv := map[string]string{}
		for _, p := range r.Params {
			pv[p.Name] = p.Value
		}
		byFlow := map[string]map[string]float64{}
		var flows []string
		for _, m := range r.Metrics {
			if byFlow[m.Flow] == nil {
				byFlow[m.Flow] = map[string]float64{}
				flows = append(flows, m.Flow)
			}
			byFlow[m.Flow][m.Name] = m.Value
		}
		for _, f := range flows {
			row := []string{r.Key, r.Sweep, strconv.Itoa(r.Point), strconv.Itoa(r.Replication), strconv.FormatUint(r.Seed, 10)}
			for _, p := range params {
				row = append(row, pv[p])
			}
			row = append(row, f)
			for _, m := range metrics {
				v, ok := byFlow[f][m]
				if ok {
					row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
				} else {
					row = append(row, "")
				}
			}
			rows = append(rows, append(row, r.Version))
		}
	}
	return output.WriteCSV(w, header, rows)
}

type runJSON struct {
	Key         string                        `json:"run_key"`
	Sweep       string                        `json:"sweep"`
	Point       int                           `json:"point"`
	Replication int                           `json:"replication"`
	Seed        uint64                        `json:"seed"`
	Params      map[string]string             `json:"params"`
	Metrics     map[string]map[string]float64 `json:"metrics"`
	Version     string                        `json:"version"`
	Result      json.RawMessage               `json:"result"`
}

// WriteJSON writes every run as a JSON array, with its full result.
func (s *Store) WriteJSON(w io.Writer) error {
	runs, err := s.Runs()
	if err != nil {
		return err
	}
	out := make([]runJSON, len(runs))
	for i, r := range runs {
		pv := map[string]string{}
		for _, p := range r.Params {
			pv[p.Name] = p.Value
		}
		out[i] = runJSON{Key: r.Key, Sweep: r.Sweep, Point: r.Point, Replication: r.Replication, Seed: r.Seed,
			Params: pv, Metrics: metricsJSON(r.Metrics), Version: r.Version, Result: r.Result}
	}
	return output.WriteJSON(w, out)
}

// WriteSummary writes Aggregate's rows: parameters, flow, then n, mean,
// sd and the 95% CI half-width. CSV names the metric in a column and
// leaves an undefined CI empty; the table names it above and prints "-".
func WriteSummary(w io.Writer, f output.Format, params []string, sums []Summary) error {
	var header []string
	rows := make([][]string, len(sums))
	switch f {
	case output.CSV:
		header = append(append([]string{}, params...), "flow", "metric", "n", "mean", "sd", "ci95")
		g := func(x float64) string {
			if math.IsNaN(x) {
				return ""
			}
			return strconv.FormatFloat(x, 'g', 6, 64)
		}
		for i, s := range sums {
			rows[i] = append(paramRow(params, s.Params), s.Flow, s.Metric, strconv.Itoa(s.N), g(s.Mean), g(s.SD), g(s.CI95))
		}
		return output.WriteCSV(w, header, rows)
	case output.Table:
		// Rates in kbit/s as `tcplab run` prints them, every number in
		// plain notation.
		scale, unit := 1.0, ""
		if len(sums) > 0 && strings.HasSuffix(sums[0].Metric, "_bps") {
			scale, unit = 1e-3, " kbit/s"
		}
		header = append(append([]string{}, params...), "flow", "n", "mean"+unit, "sd", "95% CI")
		for i, s := range sums {
			ci := "-"
			if !math.IsNaN(s.CI95) {
				ci = "±" + plain(s.CI95*scale)
			}
			rows[i] = append(paramRow(params, s.Params), s.Flow, strconv.Itoa(s.N), plain(s.Mean*scale), plain(s.SD*scale), ci)
		}
		if len(sums) > 0 {
			if _, err := fmt.Fprintf(w, "metric: %s%s\n", sums[0].Metric, strings.Replace(unit, " ", ", in ", 1)); err != nil {
				return err
			}
		}
		return output.WriteTable(w, header, rows, nil)
	}
	return fmt.Errorf("summary: unknown format %q", f)
}

// paramRow is a point's values in the order of params.
func paramRow(params []string, ps []Param) []string {
	pv := map[string]string{}
	for _, p := range ps {
		pv[p.Name] = p.Value
	}
	row := make([]string, 0, len(params)+6)
	for _, p := range params {
		row = append(row, pv[p])
	}
	return row
}

// plain prints x with about four significant digits and never an
// exponent: 250612 -> "250612", 1.2345 -> "1.234", 0.000123 -> "0.0001230".
func plain(x float64) string {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	digits := max(0, 3-int(math.Floor(math.Log10(math.Abs(x)))))
	return strconv.FormatFloat(x, 'f', digits, 64)
}
