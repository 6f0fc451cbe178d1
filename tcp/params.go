package tcp

import (
	"fmt"
	"sort"
)

// variantParams merges the Params a scenario gives a variant over the
// variant's documented defaults. Unknown names are an error, so that a typo
// in a scenario fails instead of silently running the default.
func variantParams(variant string, given, defaults map[string]float64) (map[string]float64, error) {
	p := make(map[string]float64, len(defaults))
	for k, v := range defaults {
		p[k] = v
	}
	for k, v := range given {
		if _, ok := defaults[k]; !ok {
			var names []string
			for n := range defaults {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("variant %s has no param %q (have %v)", variant, k, names)
		}
		p[k] = v
	}
	return p, nil
}
