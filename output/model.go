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
		// One point: a name-value list for people, inputs above the
		// outputs, each value with its unit.
		units := make([]model.Unit, 0, len(header))
		for _, p := range m.Params {
			units = append(units, p.Unit)
		}
		for _, o := range points[0].Outputs {
			units = append(units, o.Unit)
		}
		var values []float64
		for _, p := range m.Params {
			values = append(values, points[0].Inputs[p.Name])
		}
		for _, o := range points[0].Outputs {
			values = append(values, o.Value)
		}
		var kv [][]string
		for j, name := range header {
			if j == nIn {
				kv = append(kv, []string{"--", ""})
			}
			kv = append(kv, []string{name, Human(values[j], units[j])})
		}
		return WriteTable(w, kv[0], kv[1:], nil)
	}
	return fmt.Errorf("unknown format %q", f)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

// Human writes v, in u's base unit, for people: 1148393.7 bit/s as
// "1.148 Mbit/s", 0.114 s as "114 ms", 0.05 as "0.05 (5%)".
func Human(v float64, u model.Unit) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return num(v)
	}
	switch u {
	case model.BitRate:
		return prefixed(v, "bit/s", 1000)
	case model.Time:
		switch a := math.Abs(v); {
		case a == 0 || a >= 1:
			return strconv.FormatFloat(v, 'g', 6, 64) + " s"
		case a >= 1e-3:
			return strconv.FormatFloat(v*1e3, 'g', 6, 64) + " ms"
		default:
			return strconv.FormatFloat(v*1e6, 'g', 6, 64) + " µs"
		}
	case model.Size:
		return strconv.FormatFloat(v, 'g', 8, 64) + " B"
	case model.Probability:
		return num(v) + " (" + strconv.FormatFloat(v*100, 'g', 6, 64) + "%)"
	case model.Packets, model.PacketRate:
		return num(v) + " " + string(u)
	}
	return num(v)
}

// prefixed writes v with a decimal SI prefix: 1.148 Mbit/s.
func prefixed(v float64, unit string, base float64) string {
	prefixes := []string{"", "k", "M", "G", "T"}
	i := 0
	for math.Abs(v) >= base && i < len(prefixes)-1 {
		v /= base
		i++
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + prefixes[i] + unit
}

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
