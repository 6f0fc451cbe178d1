package scenario

import (
	"errors"
	"reflect"
	"slices"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/component"
)

// A part is a pluggable component written in a scenario (a queue, a loss
// model, a delay process): one key names its kind in a registry, a few
// keys every kind takes belong to the spec that holds it (a loss model's
// direction), and the rest are the kind's own parameters, decoded into
// the struct the kind's constructor makes with its defaults. Nothing here
// knows a kind by name.

// part is what a spec keeps of its part beyond the common keys: the
// mapping it was written as, to find the line of any of its fields, and
// whether its kind is registered.
type part struct {
	node  *yaml.Node
	known bool
}

// decodePart decodes mapping n: keys of common (a struct, with origin)
// into it, keys of the kind named by kindKey (dflt if absent) into the
// parameters reg makes, stored in params. A key of another kind is left
// for checkPart to report with what this kind takes; a key of no kind is
// an unknown field.
func decodePart[P component.Params](d *decoder, n *yaml.Node, path string, common reflect.Value, kindKey, dflt string,
	reg *component.Registry[P], params *P, pt *part) {
	kind := dflt
	if v := mappingValue(n, kindKey); v != nil && v.Kind == yaml.ScalarNode {
		kind = v.Value
	}
	p, known := reg.New(kind)
	*params, pt.node, pt.known = p, n, known
	idx, names := fieldsOf(common.Type())
	var pv reflect.Value
	var pidx map[string][]int
	if known {
		pv = reflect.ValueOf(p).Elem()
		pidx, _ = fieldsOf(pv.Type())
	}
	others := reg.AllKeys()
	ok := d.mappingPairs(n, path, func(key string, k, val *yaml.Node) {
		if i, in := idx[key]; in {
			d.decode(val, common.FieldByIndex(i), joinPath(path, key))
		} else if i, in := pidx[key]; in {
			d.decode(val, pv.FieldByIndex(i), joinPath(path, key))
		} else if !slices.Contains(others, key) {
			d.unknownKey(k, path, key, append(slices.Clone(names), others...))
		}
	})
	if ok {
		common.Addr().Interface().(originSetter).setOrigin(n, path)
	}
}

// decodeByName decodes a part written as its kind's bare name ("app:
// cbr", "routing: aodv"): the kind with its default parameters. It
// reports false, doing nothing, if n is not a scalar.
func decodeByName[P component.Params](d *decoder, n *yaml.Node, path string, o *origin,
	reg *component.Registry[P], params *P, pt *part) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		return "", false
	}
	s, ok := d.scalar(n, path)
	if ok {
		o.line, o.path = n.Line, path
		*params, pt.known = reg.New(s)
		pt.node = n
	}
	return s, true
}

// checkPart reports an unknown kind (unknown, e.g. "unknown queue type"),
// keys the kind does not take (allowed: prefix and its parameters),
// required keys not written, and, if none is missing, what the kind's
// Validate finds, each at the line of its field.
func checkPart(r *reporter, o *origin, pt *part, params component.Params, what, unknown, kindKey, kind string,
	names []string, prefix, common []string) bool {
	if !pt.known {
		r.at(o.lineOf(kindKey), o.field(kindKey), "%s %q (have %s)", unknown, kind, joinNames(names))
		return false
	}
	required := component.Required(params)
	checkParams(r, o, what, kind, append(slices.Clone(prefix), component.Keys(params)...), required, common)
	if slices.ContainsFunc(required, func(k string) bool { return !o.has(k) }) {
		return false // its checks would only repeat what is missing
	}
	err := params.Validate()
	var fes component.Errors
	var fe *component.FieldError
	switch {
	case errors.As(err, &fes):
	case errors.As(err, &fe):
		fes = component.Errors{fe}
	case err != nil:
		r.at(o.line, o.path, "%v", err)
		return false
	}
	for _, fe := range fes {
		field := o.path
		if fe.Field != "" {
			field = joinPath(o.path, fe.Field)
		}
		r.at(fieldLine(pt.node, fe.Field), field, "%s", fe.Msg)
	}
	return len(fes) == 0
}

// fieldLine is the line of the value at field (a path such as
// "steps[1].at") below mapping n, or of the deepest part of it written.
func fieldLine(n *yaml.Node, field string) int {
	line := n.Line
	if field == "" {
		return line
	}
	segs, err := splitPath(field)
	if err != nil {
		return line
	}
	cur := n
	for _, s := range segs {
		switch cur.Kind {
		case yaml.MappingNode:
			cur = mappingValue(cur, s)
		case yaml.SequenceNode:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(cur.Content) {
				return line
			}
			cur = cur.Content[i]
		default:
			return line
		}
		if cur == nil {
			return line
		}
		line = cur.Line
	}
	return line
}

// setKey sets params' field of yaml key to v, if it has one (an owner's
// default, such as a link's queue limit).
func setKey(params any, key string, v any) {
	pv := reflect.ValueOf(params).Elem()
	idx, _ := fieldsOf(pv.Type())
	if i, ok := idx[key]; ok {
		pv.FieldByIndex(i).Set(reflect.ValueOf(v))
	}
}

// keyInt is params' integer field of yaml key, or 0.
func keyInt(params any, key string) int {
	pv := reflect.ValueOf(params).Elem()
	idx, _ := fieldsOf(pv.Type())
	if i, ok := idx[key]; ok {
		return int(pv.FieldByIndex(i).Int())
	}
	return 0
}
