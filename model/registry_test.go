package model

import (
	"errors"
	"math"
	"testing"
)

func TestEveryRegisteredModelEvaluatesAtItsDefaults(t *testing.T) {
	names := map[string]bool{}
	for _, m := range All() {
		names[m.Name] = true
		if m.Name == "tcpnc-rounds" && testing.Short() {
			continue
		}
		out, err := m.Evaluate(nil)
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if len(out) == 0 {
			t.Errorf("%s: no outputs", m.Name)
		}
		for _, o := range out {
			if math.IsNaN(o.Value) {
				t.Errorf("%s: %s is NaN at the defaults", m.Name, o.Name)
			}
		}
	}
	for _, want := range []string{"mathis", "pftk", "abouzeid", "tcpnc", "tcpnc-rounds", "kim", "alltcp"} {
		if !names[want] {
			t.Errorf("model %s not registered", want)
		}
	}
}

func TestEvaluateChecksBoundsAndNames(t *testing.T) {
	m, err := Lookup("pftk")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		in    Inputs
		param string
	}{
		{"p above 1", Inputs{"p": 1.5}, "p"},
		{"NaN", Inputs{"rtt": math.NaN()}, "rtt"},
		{"fractional integer", Inputs{"mss": 1000.5}, "mss"},
		{"unknown parameter", Inputs{"loss": 0.1}, "loss"},
	}
	for _, c := range cases {
		_, err := m.Evaluate(c.in)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Param != c.param {
			t.Errorf("%s: error %v, want an InputError on %s", c.name, err, c.param)
		}
	}
	// A check spanning parameters, made inside Eval, is an InputError too.
	all, _ := Lookup("alltcp")
	var ie *InputError
	if _, err := all.Evaluate(Inputs{"n": 4, "n1": 4}); !errors.As(err, &ie) || ie.Param != "n1" {
		t.Errorf("alltcp n1 = n: %v", err)
	}
	if _, err := Lookup("nosuch"); err == nil {
		t.Error("Lookup of an unknown model succeeded")
	}
}

func TestGridIsTheProductLastParameterFastest(t *testing.T) {
	m, _ := Lookup("mathis")
	pts, err := m.Grid(map[string][]float64{"p": {0.01, 0.04}, "b": {1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]float64{{0.01, 1}, {0.01, 2}, {0.04, 1}, {0.04, 2}}
	if len(pts) != len(want) {
		t.Fatalf("%d points, want %d", len(pts), len(want))
	}
	for i, w := range want {
		if pts[i].Inputs["p"] != w[0] || pts[i].Inputs["b"] != w[1] || pts[i].Inputs["rtt"] != 0.1 {
			t.Errorf("point %d: %v, want p=%v b=%v rtt=0.1", i, pts[i].Inputs, w[0], w[1])
		}
	}
	// Quadrupling p halves the square-root law's rate.
	if r := pts[0].Outputs[0].Value / pts[2].Outputs[0].Value; math.Abs(r-2) > 1e-12 {
		t.Errorf("rate ratio %v, want 2", r)
	}
}

func TestParamParseReadsNumbersAndRanges(t *testing.T) {
	p := Loss(0.01)
	cases := []struct {
		in      string
		want    []float64
		isRange bool
		bad     bool
	}{
		{"0.05", []float64{0.05}, false, false},
		{"0.1:0.3:0.1", []float64{0.1, 0.2, 0.3}, true, false},
		{"0:1:0.5", []float64{0, 0.5, 1}, true, false},
		{"0.2:0.1:0.01", nil, false, true},
		{"1:2", nil, false, true},
		{"fast", nil, false, true},
		{"0:1:0", nil, false, true},
	}
	for _, c := range cases {
		got, isRange, err := p.Parse(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%q: error %v", c.in, err)
			continue
		}
		if c.bad {
			continue
		}
		if isRange != c.isRange || len(got) != len(c.want) {
			t.Errorf("%q: %v (range %v), want %v", c.in, got, isRange, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.in, got, c.want)
			}
		}
	}
}

func TestParamValuesMayCarryTheirUnit(t *testing.T) {
	cases := []struct {
		p    Param
		in   string
		want []float64
		bad  bool
	}{
		{RTT(0.1), "100ms", []float64{0.1}, false},
		{RTT(0.1), "0.25", []float64{0.25}, false},
		{RTT(0.1), "1s", []float64{1}, false},
		{RTT(0.1), "50ms:150ms:50ms", []float64{0.05, 0.1, 0.15}, false},
		{RTT(0.1), "100MB", nil, true},
		{Loss(0.01), "5%", []float64{0.05}, false},
		{Loss(0.01), "1%:3%:1%", []float64{0.01, 0.02, 0.03}, false},
		{MSS(1460), "1KiB", []float64{1024}, false},
		{MSS(1460), "1460B", []float64{1460}, false},
		{MSS(1460), "1460ms", nil, true},
		{Param{Name: "c", Unit: BitRate, Max: Inf}, "2Mbps", []float64{2e6}, false},
		{Param{Name: "n", Max: Inf}, "5%", nil, true},
	}
	for _, c := range cases {
		got, _, err := c.p.Parse(c.in)
		if (err != nil) != c.bad {
			t.Errorf("%s %q: error %v", c.p.Name, c.in, err)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-12 {
				t.Errorf("%s %q: %v, want %v", c.p.Name, c.in, got, c.want)
			}
		}
	}
}

func TestRegisterRejectsBadModels(t *testing.T) {
	eval := func(Inputs) ([]Output, error) { return nil, nil }
	cases := []struct {
		name string
		m    Model
	}{
		{"duplicate name", Model{Name: "mathis", Eval: eval}},
		{"default out of bounds", Model{Name: "x-bad-default", Eval: eval, Params: []Param{{Name: "a", Default: 2, Min: 0, Max: 1}}}},
		{"parameter twice", Model{Name: "x-twice", Eval: eval, Params: []Param{Loss(0.1), Loss(0.2)}}},
		{"reserved name", Model{Name: "x-format", Eval: eval, Params: []Param{{Name: "format", Max: 1}}}},
		{"no Eval", Model{Name: "x-noeval"}},
	}
	for _, c := range cases {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Register did not panic", c.name)
				}
			}()
			Register(c.m)
		}()
	}
}
