package output

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tcplab/tcplab/model"
)

// WriteModel writes a model's evaluated points. One point as a table is a
// list of name and value (inputs, then outputs); several are a header and
// a row per point. JSON is {params, outputs} for one point and a list of
// them for several.
func WriteModel(w io.Writer, f Format, m *model.Model, points []model.Point) error {
	if len(points) == 0 {
		return fmt.Errorf("model %s: no points", m.Name)
	}
	var header []string
	for _, p := range m.Params {
		header = append(header, p.Name)
	}
	nIn := len(header)
	for _, o := range points[0].Outputs {
		header = append(header, o.Name)
	}
	rows := make([][]string, len(points))
	for i, pt := range points {
		for _, p := range m.Params {
			rows[i] = append(rows[i], num(pt.Inputs[p.Name]))
		}
		for _, x := range pt.Outputs {
			rows[i] = append(rows[i], num(x.Value))
		}
	}
	switch f {
	case JSON:
		type kv = map[string]float64
		list := make([]map[string]kv, len(points))
		for i, pt := range points {
			o := kv{}
			for _, x := range pt.Outputs {
				o[x.Name] = jsonSafe(x.Value)
			}
			list[i] = map[string]kv{"params": kv(pt.Inputs), "outputs": o}
		}
		if len(list) == 1 {
			return WriteJSON(w, list[0])
		}
		return WriteJSON(w, list)
	case CSV:
		return WriteCSV(w, header, rows)
	case Table:
		if len(points) > 1 {
			return WriteTable(w, header, rows, func(int) bool { return true })
		}
		// One point: a name-value list, inputs above the outputs.
		var kv [][]string
		for j, name := range header {
			if j == nIn {
				kv = append(kv, []string{"--", ""})
			}
			kv = append(kv, []string{name, rows[0][j]})
		}
		return WriteTable(w, kv[0], kv[1:], nil)
	}
	return fmt.Errorf("unknown format %q", f)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// jsonSafe maps ±Inf (Mathis at p = 0) to the largest float, which JSON
// can carry.
func jsonSafe(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}
