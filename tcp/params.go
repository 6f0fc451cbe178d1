package tcp

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tcplab/tcplab/component"
)

// variantParams merges the Params a scenario gives a variant over the
// variant's documented defaults. Unknown names are an error naming the
// param, so that a typo in a scenario fails instead of silently running
// the default.
func variantParams(variant string, given, defaults map[string]float64) (map[string]float64, error) {
	p := maps.Clone(defaults)
	if p == nil {
		p = map[string]float64{}
	}
	for k, v := range given {
		if _, ok := defaults[k]; !ok {
			if len(defaults) == 0 {
				return nil, ParamError(k, "variant %s takes no params", variant)
			}
			return nil, ParamError(k, "variant %s has no param %q (have %v)", variant, k, slices.Sorted(maps.Keys(defaults)))
		}
		p[k] = v
	}
	return p, nil
}

// ParamError is the error a variant's factory returns for a bad param:
// a FieldError at params.NAME (or params, for a rule between several).
func ParamError(name, format string, a ...any) error {
	field := "params"
	if name != "" {
		field += "." + name
	}
	return &component.FieldError{Field: field, Msg: fmt.Sprintf(format, a...)}
}
