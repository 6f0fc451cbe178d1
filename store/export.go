package store

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
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
	cw := csv.NewWriter(w)
	header := append([]string{"run_key", "sweep", "point", "replication", "seed"}, params...)
	header = append(header, "flow")
	header = append(header, metrics...)
	header = append(header, "version")
	if err := cw.Write(header); err != nil {
		return err
	}
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
			row = append(row, r.Version)
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteSummaryCSV writes Aggregate's rows: parameters, flow, metric, n,
// mean, sd, ci95 (half-width; empty for a single run).
func WriteSummaryCSV(w io.Writer, params []string, sums []Summary) error {
	cw := csv.NewWriter(w)
	header := append(append([]string{}, params...), "flow", "metric", "n", "mean", "sd", "ci95")
	if err := cw.Write(header); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', 6, 64)
	}
	for _, s := range sums {
		pv := map[string]string{}
		for _, p := range s.Params {
			pv[p.Name] = p.Value
		}
		row := make([]string, 0, len(header))
		for _, p := range params {
			row = append(row, pv[p])
		}
		row = append(row, s.Flow, s.Metric, strconv.Itoa(s.N), f(s.Mean), f(s.SD), f(s.CI95))
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
