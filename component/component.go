// Package component is what every kind of pluggable part shares: a
// registry of named kinds (queue disciplines, loss models, delay
// processes, ...), each made from a parameter struct whose yaml tags name
// its keys and whose constructor fills its defaults, and the one error
// type their validation returns. A scenario decodes a part's keys into
// the struct its kind makes, calls Validate, and turns each FieldError into
// a message at the line the field was written on; it knows no kind by
// name. TCP variants register the same way (tcp.Register).
package component

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// FieldError is one bad parameter: Field is its key (a path below the
// part, such as "params.beta"), Msg what is wrong.
type FieldError struct{ Field, Msg string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// Errorf makes a FieldError for field.
func Errorf(field, format string, args ...any) *FieldError {
	return &FieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Errors is every bad parameter of a part, in the order found.
type Errors []*FieldError

func (es Errors) Error() string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.Error()
	}
	return strings.Join(s, "; ")
}

// Err is es as an error, nil if empty.
func (es Errors) Err() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

// Params is a kind's parameters.
type Params interface {
	// Validate reports every bad parameter; it may complete values
	// derived from others.
	Validate() error
}

// Registry holds the kinds of one component: what names them in messages
// ("queue", "loss model") and, per name, a constructor of its parameters
// with their defaults.
type Registry[P Params] struct {
	what  string
	kinds map[string]func() P
}

// NewRegistry makes an empty registry of what.
func NewRegistry[P Params](what string) *Registry[P] {
	return &Registry[P]{what: what, kinds: map[string]func() P{}}
}

// Register adds a kind. Registering a name twice is a programming error.
func (r *Registry[P]) Register(name string, params func() P) {
	if _, dup := r.kinds[name]; dup {
		panic(fmt.Sprintf("component: %s %q registered twice", r.what, name))
	}
	r.kinds[name] = params
}

// New makes the named kind's parameters, with their defaults.
func (r *Registry[P]) New(name string) (P, bool) {
	mk, ok := r.kinds[name]
	if !ok {
		var zero P
		return zero, false
	}
	return mk(), true
}

// What names the component in messages.
func (r *Registry[P]) What() string { return r.what }

// Names lists the kinds, sorted.
func (r *Registry[P]) Names() []string { return slices.Sorted(maps.Keys(r.kinds)) }

// Keys lists the yaml keys of a parameter struct (or a pointer to one) in
// field order, descending into inlined structs; fields tagged "-" or
// without a tag are not keys.
func Keys(params any) []string {
	var keys []string
	for f := range fields(params) {
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" {
			keys = append(keys, Keys(reflect.New(f.Type).Interface())...)
		} else {
			keys = append(keys, name)
		}
	}
	return keys
}

// fields yields the exported fields of a parameter struct (or a pointer
// to one) that have a yaml tag other than "-".
func fields(params any) func(yield func(reflect.StructField) bool) {
	t := reflect.TypeOf(params)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return func(yield func(reflect.StructField) bool) {
		for f := range t.Fields() {
			if tag, ok := f.Tag.Lookup("yaml"); !ok || tag == "-" || !f.IsExported() {
				continue
			}
			if !yield(f) {
				return
			}
		}
	}
}

// AllKeys lists the keys of every kind of r, each once, sorted.
func (r *Registry[P]) AllKeys() []string {
	seen := map[string]bool{}
	for _, mk := range r.kinds {
		for _, k := range Keys(mk()) {
			seen[k] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// OneOf reports a value of key that is not one of allowed.
func OneOf(key, v string, allowed ...string) *FieldError {
	if slices.Contains(allowed, v) {
		return nil
	}
	return Errorf(key, "unknown %s %q (want %s)", key, v, strings.Join(allowed, " or "))
}

// Required lists the keys of a parameter struct tagged required:"true".
func Required(params any) []string {
	var keys []string
	for f := range fields(params) {
		if f.Tag.Get("required") == "true" {
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			keys = append(keys, name)
		}
	}
	return keys
}

// ParseEnum sets dst to the index of text among names, the YAML names of
// a small typed enum's values in order; an unknown name is an error that
// lists them. Enums are resolved when a scenario is loaded, so that the
// per-packet path compares integers, never strings.
func ParseEnum[T ~uint8](names []string, dst *T, text []byte) error {
	for i, n := range names {
		if n == string(text) {
			*dst = T(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not one of %s", text, strings.Join(names, ", "))
}

// EnumName is the name of enum value v among names.
func EnumName[T ~uint8](names []string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%d", v)
}
