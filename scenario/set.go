package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// --set PATH=VALUE replaces (or adds) one value of the YAML tree before it
// is decoded, so an override is checked exactly like the file. PATH is
// keys joined by dots; a list element is named by its name (or id) or its
// index, either as a dot segment or in brackets, the form error messages
// use: links.bottleneck.loss.rate and links[bottleneck].loss.rate are the
// same. VALUE is YAML: 2%, reno, 10s, [1, 5], {rate: 1%}, null.

type override struct {
	flag  string // the flag's text, for messages
	path  []string
	value *yaml.Node
}

// parseOverride reads one flag; idx is its position among the --set flags.
func parseOverride(r *reporter, idx int, flag string) *override {
	mark := -(idx + 1)
	p, v, ok := strings.Cut(flag, "=")
	if !ok {
		r.at(mark, "", "want PATH=VALUE")
		return nil
	}
	path, err := splitPath(strings.TrimSpace(p))
	if err != nil {
		r.at(mark, "", "%v", err)
		return nil
	}
	var doc yaml.Node
	if err := unmarshalYAML([]byte(v), &doc); err != nil {
		r.at(mark, strings.Join(path, "."), "bad value: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		return nil
	}
	val := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		val = doc.Content[0]
	}
	markLines(val, mark)
	return &override{flag: flag, path: path, value: val}
}

// splitPath splits a.b[c].d into a, b, c, d.
func splitPath(p string) ([]string, error) {
	var segs []string
	for i := 0; i < len(p); {
		switch {
		case p[i] == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("bad path %q: unclosed [", p)
			}
			segs = append(segs, p[i+1:i+j])
			i += j + 1
			if i < len(p) && p[i] == '.' {
				i++
			}
		default:
			j := strings.IndexAny(p[i:], ".[")
			if j < 0 {
				j = len(p) - i
			}
			segs = append(segs, p[i:i+j])
			i += j
			if i < len(p) && p[i] == '.' {
				i++
				if i == len(p) {
					segs = append(segs, "")
				}
			}
		}
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("empty path")
	}
	for _, s := range segs {
		if s == "" {
			return nil, fmt.Errorf("bad path %q: empty key", p)
		}
	}
	return segs, nil
}

func markLines(n *yaml.Node, mark int) {
	n.Line, n.Column = mark, 0
	for _, c := range n.Content {
		markLines(c, mark)
	}
}

// errNotFound is an element name that is not in the tree (yet): before
// count expansion, "flows.f7" may name a copy that does not exist until
// the template "f{i}" is expanded.
type errNotFound struct{ msg string }

func (e errNotFound) Error() string { return e.msg }

// apply sets o's value in the tree at root.
func (o *override) apply(root *yaml.Node) error {
	cur := root
	mark := o.value.Line
	for i, seg := range o.path {
		last := i == len(o.path)-1
		where := strings.Join(o.path[:i], ".")
		switch cur.Kind {
		case yaml.MappingNode:
			j := -1
			for k := 0; k+1 < len(cur.Content); k += 2 {
				if cur.Content[k].Value == seg {
					j = k + 1
				}
			}
			if j < 0 {
				key := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: seg, Line: mark}
				next := o.value
				if !last {
					next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: mark}
				}
				cur.Content = append(cur.Content, key, next)
				cur = next
				continue
			}
			if last {
				cur.Content[j] = o.value
				return nil
			}
			cur = cur.Content[j]
		case yaml.SequenceNode:
			j := findElement(cur, seg)
			if j < 0 {
				return errNotFound{fmt.Sprintf("%s has no element %q (have %s)", where, seg, elementLabels(cur))}
			}
			if last {
				cur.Content[j] = o.value
				return nil
			}
			cur = cur.Content[j]
		default:
			if where == "" {
				return fmt.Errorf("the scenario is not a mapping")
			}
			return fmt.Errorf("%s is a single value, not a mapping or list", where)
		}
	}
	return nil
}

// findElement returns the index of the element named seg (by its name or
// id), else of the element at index seg, else -1.
func findElement(seq *yaml.Node, seg string) int {
	for i, e := range seq.Content {
		if e.Kind == yaml.MappingNode {
			for _, key := range []string{"name", "id"} {
				if v := mappingValue(e, key); v != nil && v.Kind == yaml.ScalarNode && v.Value == seg {
					return i
				}
			}
		}
		if e.Kind == yaml.ScalarNode && e.Value == seg {
			return i
		}
	}
	if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(seq.Content) {
		return i
	}
	return -1
}

func elementLabels(seq *yaml.Node) string {
	var ls []string
	for i, e := range seq.Content {
		if i == 8 {
			ls = append(ls, fmt.Sprintf("... %d in all", len(seq.Content)))
			break
		}
		ls = append(ls, elementLabel(e, i))
	}
	if len(ls) == 0 {
		return "none"
	}
	return strings.Join(ls, ", ")
}
