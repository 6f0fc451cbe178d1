package component

import (
	"errors"
	"slices"
	"testing"
)

type Inner struct {
	Dir string `yaml:"direction"`
}

type params struct {
	Rate   float64 `yaml:"rate" required:"true"`
	Inner  `yaml:",inline"`
	Skip   int `yaml:"-"`
	NoTag  int
	Steps  []int `yaml:"steps,flow" required:"true"`
	hidden int   //nolint:unused // not a key: unexported
}

func (p *params) Validate() error {
	if p.Rate < 0 {
		return Errors{Errorf("rate", "negative rate %g", p.Rate)}
	}
	return nil
}

func TestKeysFollowFieldOrderAndInlineStructs(t *testing.T) {
	if got, want := Keys(&params{}), []string{"rate", "direction", "steps"}; !slices.Equal(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	if got, want := Required(params{}), []string{"rate", "steps"}; !slices.Equal(got, want) {
		t.Fatalf("required %v, want %v", got, want)
	}
}

func TestARegistryMakesFreshParamsByName(t *testing.T) {
	r := NewRegistry[*params]("thing")
	r.Register("b", func() *params { return &params{Rate: 2} })
	r.Register("a", func() *params { return &params{} })
	p, ok := r.New("b")
	q, _ := r.New("b")
	if !ok || p.Rate != 2 || p == q {
		t.Fatalf("New(b) = %+v, %v (a second call must make another value)", p, ok)
	}
	if _, ok := r.New("c"); ok {
		t.Fatal("an unregistered kind was found")
	}
	if got := r.Names(); !slices.Equal(got, []string{"a", "b"}) || r.What() != "thing" {
		t.Fatalf("names %v, what %q", got, r.What())
	}
	if got := r.AllKeys(); !slices.Equal(got, []string{"direction", "rate", "steps"}) {
		t.Fatalf("all keys %v", got)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("registering a name twice did not panic")
		}
	}()
	r.Register("a", func() *params { return &params{} })
}

func TestFieldErrorsAreOneType(t *testing.T) {
	err := (&params{Rate: -1}).Validate()
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 || es[0].Field != "rate" || err.Error() != "rate: negative rate -1" {
		t.Fatalf("got %v", err)
	}
	if (Errors{}).Err() != nil {
		t.Fatal("no errors is not nil")
	}
	if e := OneOf("cause", "fire", "wireless", "congestion"); e == nil || e.Error() != `cause: unknown cause "fire" (want wireless or congestion)` {
		t.Fatalf("OneOf: %v", e)
	}
	if OneOf("cause", "wireless", "wireless", "congestion") != nil {
		t.Fatal("an allowed value was refused")
	}
}
