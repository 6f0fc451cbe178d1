package model

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tcplab/tcplab/units"
)

// A Model is an analytic model as `tcplab model NAME` evaluates it: named
// numeric inputs with defaults, units and bounds, and a function from one
// point of inputs to named outputs. A model registers itself next to its
// code, with one call from an init function:
//
//	func init() {
//		model.Register(model.Model{
//			Name:   "mathis",
//			Doc:    "Mathis et al. square-root law",
//			Params: []model.Param{model.Loss(0.01), model.RTT(0.1), model.MSS(1460)},
//			Eval: func(in model.Inputs) ([]model.Output, error) {
//				r := model.Mathis(model.MathisParams{P: in["p"], RTT: in["rtt"], B: 1})
//				return []model.Output{{Name: "pkts_per_s", Value: r, Unit: model.PacketRate}}, nil
//			},
//		})
//	}
//
// Packages other than this one (traffic prediction, the wireless channel)
// register their models the same way; the command line lists every
// registered model.
type Model struct {
	Name   string // command-line name, lower case
	Doc    string // one line: what it computes, and its source
	Params []Param
	// Eval computes the outputs at one point. It sees every parameter
	// (defaults filled in), each already checked against its bounds; an
	// error means the point is outside the model's domain.
	Eval func(in Inputs) ([]Output, error)
}

// Param is one numeric input of a model.
type Param struct {
	Name     string
	Default  float64
	Unit     Unit   // what the number measures; values may be written with it ("100ms")
	Help     string // short, lower case
	Min, Max float64
	Integer  bool // must be a whole number
}

// Inputs are a point's parameter values by name, in the parameters' units
// (seconds, bytes, bits per second, probabilities as fractions).
type Inputs map[string]float64

// Int is an integer parameter's value.
func (in Inputs) Int(name string) int { return int(in[name]) }

// Output is one named result of a model.
type Output struct {
	Name  string
	Value float64
	Unit  Unit
}

// Unit names what a parameter or output measures. Values are always in
// the base unit (seconds, bytes, bit/s); the command line and reports
// print them with an SI prefix.
type Unit string

// The units of model parameters and outputs.
const (
	Number      Unit = ""            // a dimensionless number
	Probability Unit = "probability" // in [0, 1]; written 0.05 or 5%
	Time        Unit = "s"
	Size        Unit = "B"
	BitRate     Unit = "bit/s"
	Packets     Unit = "packets"
	PacketRate  Unit = "packets/s"
)

// Inf is the upper bound of an unbounded parameter.
var Inf = math.Inf(1)

// Loss is the usual per-packet loss probability parameter, p.
func Loss(def float64) Param {
	return Param{Name: "p", Default: def, Unit: Probability, Help: "loss probability per packet", Min: 0, Max: 1}
}

// RTT is the usual round-trip time parameter, rtt, in seconds.
func RTT(def float64) Param {
	return Param{Name: "rtt", Default: def, Unit: Time, Help: "round-trip time", Min: 1e-9, Max: Inf}
}

// MSS is the segment size parameter, mss, in bytes, that turns packets/s
// into bit/s.
func MSS(def float64) Param {
	return Param{Name: "mss", Default: def, Unit: Size, Help: "segment size (for bit/s)", Min: 1, Max: Inf, Integer: true}
}

// InputError is a parameter value a model cannot take.
type InputError struct {
	Param string
	Value string // as given
	Msg   string
}

func (e *InputError) Error() string { return fmt.Sprintf("%s %s: %s", e.Param, e.Value, e.Msg) }

// BadInput reports that parameter name cannot take value v, for checks
// that span several parameters (n1 must be below n) inside Eval.
func BadInput(name string, v float64, why string) error {
	return &InputError{Param: name, Value: fmtValue(v), Msg: why}
}

func fmtValue(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

var (
	mu       sync.RWMutex
	registry = map[string]*Model{}
)

// Register adds a model. It panics on a duplicate name or a parameter
// whose default lies outside its bounds: both are programming errors
// that every test run would hit.
func Register(m Model) {
	if m.Name == "" || m.Eval == nil {
		panic("model: Register needs a name and an Eval function")
	}
	seen := map[string]bool{"format": true} // taken by the command line
	for _, p := range m.Params {
		if seen[p.Name] {
			panic(fmt.Sprintf("model %s: parameter %q twice (or reserved)", m.Name, p.Name))
		}
		seen[p.Name] = true
		if err := p.check(p.Default); err != nil {
			panic(fmt.Sprintf("model %s: default: %v", m.Name, err))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[m.Name]; dup {
		panic("model: duplicate model " + m.Name)
	}
	registry[m.Name] = &m
}

// All returns every registered model, by name.
func All() []*Model {
	mu.RLock()
	defer mu.RUnlock()
	ms := make([]*Model, 0, len(registry))
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		ms = append(ms, registry[name])
	}
	return ms
}

// Lookup returns the named model; the error lists the known ones.
func Lookup(name string) (*Model, error) {
	mu.RLock()
	m, ok := registry[name]
	mu.RUnlock()
	if ok {
		return m, nil
	}
	var names []string
	for _, m := range All() {
		names = append(names, m.Name)
	}
	return nil, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(names, ", "))
}

// Param returns the named parameter.
func (m *Model) Param(name string) (Param, bool) {
	for _, p := range m.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Evaluate computes the model at one point; parameters missing from in
// take their defaults. Every value is checked against its parameter's
// bounds first.
func (m *Model) Evaluate(in Inputs) ([]Output, error) {
	full := make(Inputs, len(m.Params))
	for _, p := range m.Params {
		v, ok := in[p.Name]
		if !ok {
			v = p.Default
		}
		if err := p.check(v); err != nil {
			return nil, err
		}
		full[p.Name] = v
	}
	for name := range in {
		if _, ok := m.Param(name); !ok {
			return nil, &InputError{Param: name, Value: fmtValue(in[name]), Msg: fmt.Sprintf("model %s has no such parameter", m.Name)}
		}
	}
	return m.Eval(full)
}

// Point is one evaluated point of a grid.
type Point struct {
	Inputs  Inputs
	Outputs []Output
}

// MaxPoints bounds a grid, which is the product of its ranges.
const MaxPoints = 1_000_000

// Grid evaluates the model at every combination of the values given per
// parameter (a parameter not in values keeps its default), the last
// parameter varying fastest.
func (m *Model) Grid(values map[string][]float64) ([]Point, error) {
	axes := make([][]float64, len(m.Params))
	total := 1
	for i, p := range m.Params {
		axes[i] = []float64{p.Default}
		if vs, ok := values[p.Name]; ok {
			if len(vs) == 0 {
				return nil, &InputError{Param: p.Name, Msg: "no values"}
			}
			axes[i] = vs
		}
		total *= len(axes[i])
		if total > MaxPoints {
			return nil, fmt.Errorf("the ranges give more than %d points", MaxPoints)
		}
	}
	for name := range values {
		if _, ok := m.Param(name); !ok {
			return nil, &InputError{Param: name, Msg: fmt.Sprintf("model %s has no such parameter", m.Name)}
		}
	}
	points := make([]Point, 0, total)
	idx := make([]int, len(axes))
	for {
		in := make(Inputs, len(axes))
		for i, p := range m.Params {
			in[p.Name] = axes[i][idx[i]]
		}
		out, err := m.Evaluate(in)
		if err != nil {
			return nil, err
		}
		points = append(points, Point{Inputs: in, Outputs: out})
		// Odometer over the axes, last parameter fastest.
		k := len(idx) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < len(axes[k]) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return points, nil
		}
	}
}

// check reports whether v is a value p can take.
func (p Param) check(v float64) error {
	if math.IsNaN(v) || v < p.Min || v > p.Max {
		return &InputError{Param: p.Name, Value: fmtValue(v), Msg: fmt.Sprintf("outside [%s, %s]", fmtValue(p.Min), fmtValue(p.Max))}
	}
	if p.Integer && v != math.Trunc(v) {
		return &InputError{Param: p.Name, Value: fmtValue(v), Msg: "must be an integer"}
	}
	return nil
}

// value reads one value in the parameter's unit: a bare number, or a
// number with a unit of its kind ("100ms" for a time, "64KiB", "2Mbps",
// "5%").
func (p Param) value(s string) (float64, bool) {
	table, base := []units.Suffix(nil), 1.0
	switch p.Unit {
	case Probability:
		return units.ParseFraction(s)
	case Time:
		table, base = units.Duration, 1e9 // the table is in nanoseconds
	case Size:
		table = units.Size
	case BitRate:
		table = units.BitRate
	}
	if f, scale, ok := units.Split(s, table); ok {
		return f * scale / base, true
	}
	return units.Number(s)
}

// Form says how a value is written on the command line: "seconds or
// 100ms".
func (p Param) Form() string {
	switch p.Unit {
	case Probability:
		return "0.05 or 5%"
	case Time:
		return "seconds or 100ms"
	case Size:
		return "bytes or 64KiB"
	case BitRate:
		return "bit/s or 2Mbps"
	}
	return "number"
}

// want says what a value of the parameter looks like.
func (p Param) want() string {
	switch p.Unit {
	case Probability:
		return "want a probability: 0.05 or 5%"
	case Time:
		return "want a time: seconds, or with a unit (" + units.Names(units.Duration) + ")"
	case Size:
		return "want a size: bytes, or with a unit (" + units.Names(units.Size) + ")"
	case BitRate:
		return "want a rate: bit/s, or with a unit (" + units.Names(units.BitRate) + ")"
	}
	return "not a number"
}

// Parse reads the values a parameter is given: one value, or a range
// lo:hi:step (hi included when the steps land on it, within rounding);
// each may carry a unit of the parameter's kind ("100ms", "5%").
func (p Param) Parse(s string) (values []float64, isRange bool, err error) {
	bad := func(msg string) ([]float64, bool, error) {
		return nil, false, &InputError{Param: p.Name, Value: s, Msg: msg}
	}
	parts := strings.Split(s, ":")
	switch len(parts) {
	case 1:
		v, ok := p.value(s)
		if !ok {
			return bad(p.want())
		}
		return []float64{v}, false, nil
	case 3:
		var f [3]float64
		for i, part := range parts {
			v, ok := p.value(part)
			if !ok {
				return bad(fmt.Sprintf("%q: %s", part, p.want()))
			}
			f[i] = v
		}
		lo, hi, step := f[0], f[1], f[2]
		if !(step > 0) || hi < lo {
			return bad("want lo:hi:step with lo ≤ hi and step > 0")
		}
		n := int(math.Floor((hi-lo)/step+1e-9)) + 1
		if n > MaxPoints {
			return bad(fmt.Sprintf("%d points (limit %d)", n, MaxPoints))
		}
		vals := make([]float64, n)
		for i := range vals {
			// Round away the binary noise of lo + i·step.
			vals[i], _ = strconv.ParseFloat(strconv.FormatFloat(lo+float64(i)*step, 'g', 12, 64), 64)
		}
		return vals, true, nil
	}
	return bad("want a number or lo:hi:step")
}
