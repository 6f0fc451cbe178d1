package scenario

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/sim"
)

// The decoder walks a yaml.Node tree onto Go values by their yaml tags.
// Doing it by hand, rather than with yaml.Node.Decode, keeps the line of
// every field for later checks, rejects unknown keys at any depth (Decode
// ignores KnownFields), and lets one bad value be reported without
// stopping at it.

// nodeDecoder is implemented by types whose YAML form is not a plain
// struct, e.g. a value that may be a scalar shorthand or a mapping.
type nodeDecoder interface {
	decodeNode(d *decoder, n *yaml.Node, path string)
}

// origin records where a scenario element and each of its keys were
// written; elements embed it so that checks after decoding can point at
// the offending line.
type origin struct {
	line int
	path string
	// keys are the element's keys with the lines of their values, in the
	// order written: a slice, not a map, as an element has a few keys and
	// a scenario may have hundreds of thousands of elements (making a map
	// each took 0.36 s of the 2.5 s loading 100 000 flows took).
	keys []keyLine
}

type keyLine struct {
	key  string
	line int
}

func (o *origin) setOrigin(n *yaml.Node, path string) {
	o.line, o.path = n.Line, path
	o.keys = make([]keyLine, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		o.keys = append(o.keys, keyLine{n.Content[i].Value, n.Content[i+1].Line})
	}
}

// keyLineOf is the line of key's value, if the key was written (the last
// time, if it was written more than once).
func (o *origin) keyLineOf(key string) (int, bool) {
	for i := len(o.keys) - 1; i >= 0; i-- {
		if o.keys[i].key == key {
			return o.keys[i].line, true
		}
	}
	return 0, false
}

// lineOf is the line of key's value, or of the element if the key is absent.
func (o *origin) lineOf(key string) int {
	if l, ok := o.keyLineOf(key); ok {
		return l
	}
	return o.line
}

func (o *origin) has(key string) bool { _, ok := o.keyLineOf(key); return ok }

func (o *origin) field(key string) string { return joinPath(o.path, key) }

type originSetter interface {
	setOrigin(n *yaml.Node, path string)
}

type decoder struct {
	*reporter
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var (
	timeType      = reflect.TypeFor[sim.Time]()
	bandwidthType = reflect.TypeFor[Bandwidth]()
	bytesType     = reflect.TypeFor[Bytes]()
	fractionType  = reflect.TypeFor[Fraction]()
)

// lastKey is the final element of a path, used to name a value in messages.
func lastKey(path string) string {
	if i := strings.LastIndexAny(path, ".]"); i >= 0 && i+1 < len(path) {
		return path[i+1:]
	}
	return path
}

// decode stores n into v (settable), reporting problems under path.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind == yaml.AliasNode {
		// Following aliases could expand a small file exponentially.
		d.at(n.Line, path, "aliases (*name) are not supported")
		return
	}
	if v.CanAddr() {
		switch x := v.Addr().Interface().(type) {
		case nodeDecoder:
			x.decodeNode(d, n, path)
			return
		case encoding.TextUnmarshaler:
			// Named choices of the packages below (tcp's enums) say
			// themselves what they accept.
			if s, ok := d.scalar(n, path); ok {
				if err := x.UnmarshalText([]byte(s)); err != nil {
					d.at(n.Line, path, "%v", err)
				}
			}
			return
		}
	}
	if v.Kind() == reflect.Pointer {
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" && n.Style == 0 {
			v.SetZero() // "key: null" (or --set key=null) removes an optional part
			return
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), path)
		return
	}
	t := v.Type()
	switch t {
	case timeType:
		if s, ok := d.scalar(n, path); ok {
			if x, err := parseDuration(s); err != nil {
				d.at(n.Line, path, "%v", err)
			} else {
				v.SetInt(int64(x))
			}
		}
		return
	case bandwidthType:
		if s, ok := d.scalar(n, path); ok {
			if x, err := parseBandwidth(s); err != nil {
				d.at(n.Line, path, "%v", err)
			} else {
				v.SetFloat(float64(x))
			}
		}
		return
	case bytesType:
		if s, ok := d.scalar(n, path); ok {
			if x, err := parseBytes(s); err != nil {
				d.at(n.Line, path, "%v", err)
			} else {
				v.SetInt(int64(x))
			}
		}
		return
	case fractionType:
		if s, ok := d.scalar(n, path); ok {
			if x, err := parseFraction(lastKey(path), s); err != nil {
				d.at(n.Line, path, "%v", err)
			} else {
				// A bare 1 is a certainty of loss; "1" next to rates
				// written as 1% is far more often meant as 1%.
				if (s == "1" || s == "1.0") && lastKey(path) == "rate" {
					d.warn(n.Line, path, "%s %s means 100%% (every packet); write 1%% for one in a hundred, or 100%% to keep it and silence this", lastKey(path), s)
				}
				v.SetFloat(float64(x))
			}
		}
		return
	}
	switch t.Kind() {
	case reflect.String:
		if s, ok := d.scalar(n, path); ok {
			v.SetString(s)
		}
	case reflect.Bool:
		if s, ok := d.scalar(n, path); ok {
			switch s {
			case "true":
				v.SetBool(true)
			case "false":
				v.SetBool(false)
			default:
				d.at(n.Line, path, "want true or false, got %q", s)
			}
		}
	case reflect.Int, reflect.Int32, reflect.Int64:
		if s, ok := d.scalar(n, path); ok {
			x, err := strconv.ParseInt(s, 10, t.Bits())
			if err != nil {
				d.at(n.Line, path, "want an integer, got %q", s)
			} else {
				v.SetInt(x)
			}
		}
	case reflect.Uint64:
		if s, ok := d.scalar(n, path); ok {
			x, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				d.at(n.Line, path, "want a non-negative integer, got %q", s)
			} else {
				v.SetUint(x)
			}
		}
	case reflect.Float64:
		if s, ok := d.scalar(n, path); ok {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				d.at(n.Line, path, "want a number, got %q", s)
			} else {
				v.SetFloat(x)
			}
		}
	case reflect.Struct:
		d.decodeStruct(n, v, path)
	case reflect.Slice:
		d.decodeSlice(n, v, path)
	case reflect.Map:
		d.decodeMap(n, v, path)
	default:
		// A scenario type the decoder does not know is a programming error.
		panic(fmt.Sprintf("scenario: cannot decode into %v", t))
	}
}

// scalar returns n's text, reporting an error if n is not a scalar.
func (d *decoder) scalar(n *yaml.Node, path string) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		d.at(n.Line, path, "want a single value, got a %s", kindName(n))
		return "", false
	}
	if n.ShortTag() == "!!null" && n.Style == 0 {
		d.at(n.Line, path, "missing value")
		return "", false
	}
	return n.Value, true
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "value"
}

// fieldsOf maps a struct type's yaml names to field index paths; the
// fields of a struct tagged ",inline" are keys of the enclosing mapping.
func fieldsOf(t reflect.Type) (map[string][]int, []string) {
	if c, ok := fieldCache.Load(t); ok {
		f := c.(*structFields)
		return f.idx, f.names
	}
	idx, names := scanFields(t)
	fieldCache.Store(t, &structFields{idx, names})
	return idx, names
}

// fieldCache keeps fieldsOf's answer per type: a scenario with 100 000
// flows decodes the same few structs 100 000 times, and reflecting over
// them each time was a quarter of its loading. Callers only read it.
var fieldCache sync.Map // reflect.Type → *structFields

type structFields struct {
	idx   map[string][]int
	names []string
}

func scanFields(t reflect.Type) (map[string][]int, []string) {
	idx := map[string][]int{}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" && opts == "inline" && f.Type.Kind() == reflect.Struct {
			sub, subNames := fieldsOf(f.Type)
			for k, path := range sub {
				idx[k] = append([]int{i}, path...)
			}
			names = append(names, subNames...)
			continue
		}
		if name == "" || name == "-" {
			continue
		}
		idx[name] = []int{i}
		names = append(names, name)
	}
	return idx, names
}

// mappingPairs checks that n is a mapping with plain, unique keys and
// calls fn for each pair; fn reports unknown keys itself.
func (d *decoder) mappingPairs(n *yaml.Node, path string, fn func(key string, k, v *yaml.Node)) bool {
	if n.Kind != yaml.MappingNode {
		d.at(n.Line, path, "want a mapping (key: value), got a %s", kindName(n))
		return false
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.at(k.Line, path, "keys must be plain names")
			continue
		}
		if k.Value == "<<" {
			d.at(k.Line, path, "merge keys (<<) are not supported")
			continue
		}
		if seen[k.Value] {
			d.at(k.Line, joinPath(path, k.Value), "duplicate key")
			continue
		}
		seen[k.Value] = true
		fn(k.Value, k, v)
	}
	return true
}

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value, path string) {
	idx, names := fieldsOf(v.Type())
	ok := d.mappingPairs(n, path, func(key string, k, val *yaml.Node) {
		i, known := idx[key]
		if !known {
			d.unknownKey(k, path, key, names)
			return
		}
		d.decode(val, v.FieldByIndex(i), joinPath(path, key))
	})
	if ok && v.CanAddr() {
		if o, isSetter := v.Addr().Interface().(originSetter); isSetter {
			o.setOrigin(n, path)
		}
	}
}

func (d *decoder) unknownKey(k *yaml.Node, path, key string, known []string) {
	if name, value, found := strings.Cut(key, ":"); found && slices.Contains(known, name) {
		// YAML needs a space after the colon of a mapping: {profile:linux}
		// is one key, "profile:linux", with no value.
		d.at(k.Line, joinPath(path, key), "unknown field: write %q, with a space after the colon", name+": "+value)
		return
	}
	if s := closest(key, known); s != "" {
		d.at(k.Line, joinPath(path, key), "unknown field (did you mean %q?)", s)
		return
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	d.at(k.Line, joinPath(path, key), "unknown field (known: %s)", strings.Join(sorted, ", "))
}

func (d *decoder) decodeSlice(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.SequenceNode {
		d.at(n.Line, path, "want a list, got a %s", kindName(n))
		return
	}
	s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
	for i, e := range n.Content {
		d.decode(e, s.Index(i), path+"["+elementLabel(e, i)+"]")
	}
	v.Set(s)
}

// elementLabel names a list element in paths: its name (or id) when it
// has one, as --set addresses it, else its index.
func elementLabel(e *yaml.Node, i int) string {
	if e.Kind == yaml.MappingNode {
		for _, key := range []string{"name", "id"} {
			if v := mappingValue(e, key); v != nil && v.Kind == yaml.ScalarNode && v.Value != "" {
				return v.Value
			}
		}
	}
	if e.Kind == yaml.ScalarNode && e.Value != "" && !strings.ContainsAny(e.Value, ".[]") {
		return e.Value
	}
	return strconv.Itoa(i)
}

// mappingValue returns the value of key in mapping m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if i := mappingIndex(m, key); i >= 0 {
		return m.Content[i]
	}
	return nil
}

// mappingIndex is the index in m.Content of key's value, or -1: where to
// replace a value without writing through a node copies may share.
func mappingIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return i + 1
		}
	}
	return -1
}

func (d *decoder) decodeMap(n *yaml.Node, v reflect.Value, path string) {
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		panic(fmt.Sprintf("scenario: cannot decode into %v", t))
	}
	m := reflect.MakeMap(t)
	d.mappingPairs(n, path, func(key string, _, val *yaml.Node) {
		e := reflect.New(t.Elem()).Elem()
		d.decode(val, e, joinPath(path, key))
		m.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), e)
	})
	v.Set(m)
}

// closest returns the known name within edit distance 2 of s, if one.
func closest(s string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if dd := editDistance(s, k); dd < bestD {
			best, bestD = k, dd
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99 // not a typo of a field name
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
