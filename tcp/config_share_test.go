package tcp

import (
	"reflect"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/network"
)

// Flows made one after another with equal configurations share one (a
// scenario's counted flows), and a flow with any field different gets its
// own.
func TestFlowsWithEqualConfigurationsShareOne(t *testing.T) {
	n := network.New(1)
	a, b := n.AddNode("a"), n.AddNode("b")
	n.Connect("l", a, b, network.LinkConfig{Bandwidth: 1e6}, func() network.Queue { return network.NewDropTail(10, 0) })
	n.ComputeRoutes()
	base := ns2Config(t, "newreno", 1000, 64)
	vegas := ns2Config(t, "vegas", 1000, 64)
	vegas.Params = map[string]float64{"alpha": 2}
	vegas3 := vegas
	vegas3.Params = map[string]float64{"alpha": 3}
	flows := map[string]Config{"base": base, "vegas": vegas, "vegas3": vegas3}
	order := []string{"base", "base", "vegas", "vegas3", "vegas", "base"}
	var got []*Config
	for i, name := range order {
		f, err := NewFlow(n, int32(i), name, flows[name], a, b)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Config().equal(ptr(flows[name])) {
			t.Errorf("flow %d (%s) has a configuration other than its own", i, name)
		}
		got = append(got, f.Config())
	}
	same := func(i, j int) bool { return got[i] == got[j] }
	if !same(0, 1) || !same(0, 5) || !same(2, 4) {
		t.Error("flows with equal configurations do not share one")
	}
	if same(0, 2) || same(2, 3) {
		t.Error("flows with different configurations (variant, a parameter) share one")
	}
}

func ptr(c Config) *Config { return &c }

// equal compares Config field by field: changing any leaf field of a
// configuration, including one added to Config later, must make the two
// unequal, or flows that differ in it would share a configuration.
func TestConfigEqualSeesEveryField(t *testing.T) {
	base := ns2Config(t, "newreno", 1000, 64)
	base.Params = map[string]float64{"alpha": 1}
	var leaves []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		if v.Kind() == reflect.Struct {
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
			return
		}
		leaves = append(leaves, path)
	}
	walk(reflect.ValueOf(base), "Config")
	for _, leaf := range leaves {
		c := base
		c.Params = map[string]float64{"alpha": 1}
		v := reflect.ValueOf(&c).Elem()
		for _, name := range strings.Split(leaf, ".")[1:] {
			v = v.FieldByName(name)
		}
		switch v.Kind() {
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(v.Uint() + 1)
		case reflect.Float32, reflect.Float64:
			v.SetFloat(v.Float() + 0.5)
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Map:
			c.Params["alpha"] = 2
		default:
			t.Fatalf("%s: a %v field: teach this test to change it", leaf, v.Kind())
		}
		if base.equal(&c) {
			t.Errorf("configurations differing in %s are equal", leaf)
		}
	}
	if c := base; !base.equal(&c) {
		t.Error("a configuration is not equal to its copy")
	}
	if len(leaves) < 20 {
		t.Fatalf("only %d fields walked", len(leaves))
	}
}

// A flow builds its variant once, in NewFlow's validation, and the variant
// "sack" is resolved once into SACK on at both ends (UsesSACK), which the
// result's label and the recovery then read.
func TestAFlowBuildsItsVariantOnceAndResolvesSACKOnce(t *testing.T) {
	built := 0
	Register("counted-once", "newreno", func(map[string]float64) (Variant, error) {
		built++
		return &Reno{}, nil
	})
	defer delete(variants, "counted-once")
	n := network.New(1)
	a, b := n.AddNode("a"), n.AddNode("b")
	n.Connect("l", a, b, network.LinkConfig{Bandwidth: 1e6}, func() network.Queue { return network.NewDropTail(10, 0) })
	n.ComputeRoutes()
	if _, err := NewFlow(n, 0, "f", ns2Config(t, "counted-once", 1000, 64), a, b); err != nil {
		t.Fatal(err)
	}
	if built != 1 {
		t.Fatalf("the variant was built %d times for one flow", built)
	}
	for _, c := range []struct {
		variant string
		sack    bool
		label   string
	}{{"newreno", false, "newreno"}, {"newreno", true, "newreno+sack"}, {"sack", false, "sack"}} {
		cfg := ns2Config(t, c.variant, 1000, 64)
		cfg.Recovery.SACK = c.sack
		f, err := NewFlow(n, 1, "g", cfg, a, b)
		if err != nil {
			t.Fatal(err)
		}
		want := c.sack || c.variant == "sack"
		if f.Config().Recovery.SACK != want || f.Config().UsesSACK() != want || f.Result(0).Variant != c.label {
			t.Errorf("%s with sack %v: SACK %v, label %q; want SACK %v, label %q", c.variant, c.sack,
				f.Config().Recovery.SACK, f.Result(0).Variant, want, c.label)
		}
	}
}
