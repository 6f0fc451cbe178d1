// Package experiment runs sweeps: a base scenario, a grid of parameter
// values, replications with derived seeds, a worker pool using every core,
// results stored run by run so that an interrupted sweep resumes, and
// shards for clusters.
package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/scenario"
)

// Sweep is a decoded and checked sweep file.
type Sweep struct {
	Name         string
	File         string // the sweep file ("" when built in code)
	Scenario     string // the base scenario's path
	ScenarioData []byte // its contents, read once so every run sees the same file
	Sets         []string
	Axes         []Axis
	Replications int
	Seed         uint64
	Metrics      []string // per-flow metric names; empty: every numeric one
	Flows        []string // flows whose metrics are kept; empty: all
	// Emulate, if set, runs a scenario with kernel hosts (package kernel,
	// set by the command line on Linux): it takes the built run over and
	// its closer removes what it made. Without it such a run fails.
	Emulate func(*scenario.Run) (io.Closer, error)
}

// Axis is one dimension of the grid.
type Axis struct {
	Name   string  // a scenario path, or the name of a cases axis
	Values []Value // in file order
}

// Value is one value of an axis: its label, as stored and plotted, and
// the --set overrides it stands for.
type Value struct {
	Label string
	Sets  []string
}

// MaxRuns bounds a sweep's grid times replications (10^7 runs: days of
// computing, and a store of gigabytes).
const MaxRuns = 1e7

// A sweep file's problems are scenario.Errors: one error type, with
// file, line and field, for every YAML file tcplab reads.
type parser struct {
	file string
	errs scenario.Errors
}

func (p *parser) at(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	p.errs = append(p.errs, &scenario.Error{File: p.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// Load reads and checks a sweep file; the base scenario is resolved
// relative to it. extraSets are --set overrides applied to every run,
// after the file's own.
func Load(path string, extraSets []string) (*Sweep, error) {
	data, err := scenario.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data, extraSets)
}

// Parse is Load on the file's contents.
func Parse(path string, data []byte, extraSets []string) (*Sweep, error) {
	p := &parser{file: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p.errs = append(p.errs, &scenario.Error{File: path, Msg: err.Error()})
		return nil, p.errs
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		p.at(&doc, "", "a sweep is a mapping (scenario:, grid:, replications:, ...)")
		return nil, p.errs
	}
	root := doc.Content[0]
	sw := &Sweep{File: path, Replications: 1, Seed: 1}
	fields := map[string]func(k, v *yaml.Node){
		"name":         func(_, v *yaml.Node) { sw.Name = p.scalar(v, "name") },
		"description":  func(_, v *yaml.Node) { p.scalar(v, "description") },
		"scenario":     func(_, v *yaml.Node) { sw.Scenario = p.scalar(v, "scenario") },
		"set":          func(_, v *yaml.Node) { sw.Sets = p.sets(v, "set") },
		"grid":         func(_, v *yaml.Node) { sw.Axes = p.grid(v) },
		"replications": func(_, v *yaml.Node) { sw.Replications = p.count(v, "replications", 1, 1_000_000) },
		"seed": func(_, v *yaml.Node) {
			s := p.scalar(v, "seed")
			if x, err := strconv.ParseUint(s, 10, 64); err != nil {
				p.at(v, "seed", "want a non-negative integer, got %q", s)
			} else {
				sw.Seed = x
			}
		},
		"metrics": func(_, v *yaml.Node) { sw.Metrics = p.list(v, "metrics") },
		"flows":   func(_, v *yaml.Node) { sw.Flows = p.list(v, "flows") },
	}
	p.mapping(root, "", func(key string, k, v *yaml.Node) {
		f, ok := fields[key]
		if !ok {
			p.at(k, key, "unknown field (known: %s)", strings.Join(slices.Sorted(maps.Keys(fields)), ", "))
			return
		}
		f(k, v)
	})
	if sw.Scenario == "" {
		p.at(root, "scenario", "missing: the base scenario file (e.g. \"scenario: ../examples/dumbbell-lossy.yaml\")")
	}
	if sw.Name == "" {
		sw.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	for _, m := range sw.Metrics {
		if !KnownMetric(m) {
			p.at(findValue(root, "metrics"), "metrics", "unknown metric %q (known: %s, dropped.CAUSE, run.events, run.drops.CAUSE)", m, strings.Join(FlowMetricNames(), ", "))
		}
	}
	// Count the runs before anything is expanded: the product of the axes'
	// sizes and the replications, checked in floating point so that it
	// cannot wrap.
	runs := float64(sw.Replications)
	for _, ax := range sw.Axes {
		runs *= float64(len(ax.Values))
	}
	if runs > MaxRuns {
		p.at(findValue(root, "grid"), "grid", "%.3g runs (the axes' sizes times %d replications): more than the %d a sweep may hold; split it", runs, sw.Replications, int64(MaxRuns))
	}
	if len(p.errs) > 0 {
		return nil, p.errs.Sorted()
	}
	if !filepath.IsAbs(sw.Scenario) {
		sw.Scenario = filepath.Join(filepath.Dir(path), sw.Scenario)
	}
	sw.Sets = append(sw.Sets, extraSets...)
	if err := sw.readScenario(); err != nil {
		return nil, err
	}
	return sw, nil
}

// readScenario loads the base scenario and checks that the fixed
// overrides and every grid value apply to it, so a typo in a path fails
// now rather than in run 731.
func (sw *Sweep) readScenario() error {
	data, err := scenario.ReadFile(sw.Scenario)
	if err != nil {
		return fmt.Errorf("%s: scenario: %w", sw.File, err)
	}
	sw.ScenarioData = data
	for _, ax := range sw.Axes {
		for _, v := range ax.Values {
			if _, err := scenario.Parse(sw.Scenario, data, append(append([]string{}, sw.Sets...), v.Sets...)); err != nil {
				return fmt.Errorf("%s: grid %s = %s: %w", sw.File, ax.Name, v.Label, err)
			}
		}
	}
	if len(sw.Axes) == 0 {
		if _, err := scenario.Parse(sw.Scenario, data, sw.Sets); err != nil {
			return fmt.Errorf("%s: %w", sw.File, err)
		}
	}
	return nil
}

// Spec is a hash of what a run's result depends on besides its grid
// point and seed: the base scenario's text, the fixed overrides and the
// base seed, and the metrics collected. A store remembers it; resuming or merging with a different
// spec is refused. Adding grid values or replications keeps it.
func (sw *Sweep) Spec() string {
	h := sha256.New()
	fmt.Fprintf(h, "scenario %d\n", len(sw.ScenarioData))
	h.Write(sw.ScenarioData)
	for _, s := range sw.Sets {
		fmt.Fprintf(h, "set %q\n", s)
	}
	fmt.Fprintf(h, "seed %d\n", sw.Seed)
	// The metrics collected are part of what a run stores: a store made
	// with fewer cannot answer for more.
	for _, m := range sw.Metrics {
		fmt.Fprintf(h, "metric %q\n", m)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func findValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return m
}

func (p *parser) mapping(n *yaml.Node, field string, fn func(key string, k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		p.at(n, field, "want a mapping (key: value)")
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := k.Value
		if field != "" {
			name = field + "." + k.Value
		}
		if seen[k.Value] {
			p.at(k, name, "duplicate key")
			continue
		}
		seen[k.Value] = true
		fn(k.Value, k, v)
	}
}

func (p *parser) scalar(n *yaml.Node, field string) string {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		p.at(n, field, "want a single value")
		return ""
	}
	return n.Value
}

func (p *parser) count(n *yaml.Node, field string, lo, hi int) int {
	s := p.scalar(n, field)
	x, err := strconv.Atoi(s)
	if err != nil || x < lo || x > hi {
		p.at(n, field, "want an integer from %d to %d, got %q", lo, hi, s)
		return lo
	}
	return x
}

func (p *parser) list(n *yaml.Node, field string) []string {
	if n.Kind != yaml.SequenceNode {
		p.at(n, field, "want a list")
		return nil
	}
	var out []string
	for _, e := range n.Content {
		out = append(out, p.scalar(e, field))
	}
	return out
}

// sets reads a mapping of scenario paths to values as --set overrides.
func (p *parser) sets(n *yaml.Node, field string) []string {
	var out []string
	p.mapping(n, field, func(key string, _, v *yaml.Node) {
		out = append(out, key+"="+p.yamlText(v, field+"."+key))
	})
	return out
}

// yamlText renders a value as --set accepts it: a scalar's text, or a
// list or mapping in YAML flow style.
func (p *parser) yamlText(v *yaml.Node, field string) string {
	if v.Kind == yaml.ScalarNode {
		if v.ShortTag() == "!!null" && v.Style == 0 {
			return "null"
		}
		if v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			b, _ := yaml.Marshal(v.Value) // keep quoting: "1" stays a string
			return strings.TrimSpace(string(b))
		}
		return v.Value
	}
	c := *v
	setFlow(&c)
	b, err := yaml.Marshal(&c)
	if err != nil {
		p.at(v, field, "%v", err)
		return ""
	}
	return strings.TrimSpace(string(b))
}

func setFlow(n *yaml.Node) {
	n.Style |= yaml.FlowStyle
	for i, c := range n.Content {
		cc := *c
		setFlow(&cc)
		n.Content[i] = &cc
	}
}

// grid reads either a mapping (path: [values]) or a list of axes, each
// {path: P, values: [...]} or {name: N, cases: {label: {path: value}}}.
func (p *parser) grid(n *yaml.Node) []Axis {
	var axes []Axis
	switch n.Kind {
	case yaml.MappingNode:
		p.mapping(n, "grid", func(key string, _, v *yaml.Node) {
			axes = append(axes, p.pathAxis(key, v, "grid."+key))
		})
	case yaml.SequenceNode:
		for i, e := range n.Content {
			field := fmt.Sprintf("grid[%d]", i)
			var ax Axis
			var path, name string
			var values, cases *yaml.Node
			p.mapping(e, field, func(key string, k, v *yaml.Node) {
				switch key {
				case "path":
					path = p.scalar(v, field+".path")
				case "name":
					name = p.scalar(v, field+".name")
				case "values":
					values = v
				case "cases":
					cases = v
				default:
					p.at(k, field+"."+key, "unknown field (known: cases, name, path, values)")
				}
			})
			switch {
			case path != "" && values != nil && cases == nil:
				ax = p.pathAxis(path, values, field+".values")
				if name != "" {
					ax.Name = name
				}
			case cases != nil && values == nil && path == "":
				if name == "" {
					p.at(e, field+".name", "missing: a cases axis needs a name")
				}
				ax = Axis{Name: name}
				p.mapping(cases, field+".cases", func(label string, _, v *yaml.Node) {
					ax.Values = append(ax.Values, Value{Label: label, Sets: p.sets(v, field+".cases."+label)})
				})
			default:
				p.at(e, field, "want {path: P, values: [...]} or {name: N, cases: {label: {path: value, ...}}}")
				continue
			}
			if len(ax.Values) == 0 {
				p.at(e, field, "no values")
			}
			axes = append(axes, ax)
		}
	default:
		p.at(n, "grid", "want a mapping (path: [values]) or a list of axes")
	}
	seen := map[string]bool{}
	for _, ax := range axes {
		if seen[ax.Name] {
			p.at(n, "grid", "axis %q appears twice", ax.Name)
		}
		seen[ax.Name] = true
	}
	return axes
}

func (p *parser) pathAxis(path string, v *yaml.Node, field string) Axis {
	ax := Axis{Name: path}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		p.at(v, field, "want a non-empty list of values")
		return ax
	}
	labels := map[string]bool{}
	for _, e := range v.Content {
		t := p.yamlText(e, field)
		if labels[t] {
			p.at(e, field, "value %s appears twice", t)
		}
		labels[t] = true
		ax.Values = append(ax.Values, Value{Label: t, Sets: []string{path + "=" + t}})
	}
	return ax
}
