// Package repro is the registry of paper reproductions: each entry runs
// the sweep behind one figure or table, writes its CSV and PNG/SVG, and
// sets the paper's claim beside what tcplab measured.
package repro

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/store"
)

// Entry is one reproducible figure or table.
type Entry struct {
	Name   string // command-line name, e.g. validation-goodput-loss
	Title  string
	Source string // the paper(s) and figure
	Claim  string // what the paper says, to compare with the measurement
	// Sweep is the sweep file (YAML); its scenario path is relative to
	// the repository root.
	Sweep string
	// Report reads the finished store and writes the figure and CSV
	// into dir; it returns lines comparing claim and measurement.
	Report func(c *Context) (*Outcome, error)
}

// Context is what a report works with.
type Context struct {
	Entry *Entry
	Sweep *experiment.Sweep
	Store *store.Store
	Dir   string // output directory
	Root  string // repository root (for scenarios)
}

// Outcome lists the files written and the comparison.
type Outcome struct {
	Files    []string
	Measured []string // lines: the measured result, set beside the claim
}

var registry = map[string]*Entry{}

// Register adds an entry; entries call it from init.
func Register(e *Entry) {
	if _, dup := registry[e.Name]; dup {
		panic("repro: duplicate entry " + e.Name)
	}
	registry[e.Name] = e
}

// List returns the entries sorted by name.
func List() []*Entry {
	var es []*Entry
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		es = append(es, registry[name])
	}
	return es
}

// Get returns the named entry.
func Get(name string) (*Entry, error) {
	if e, ok := registry[name]; ok {
		return e, nil
	}
	var names []string
	for _, e := range List() {
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("no reproduction %q (have: %s)", name, strings.Join(names, ", "))
}

// Options set where and how a reproduction runs.
type Options struct {
	Root     string   // repository root; "" : found from the working directory
	Dir      string   // output directory; "" : repro-out/NAME
	Sets     []string // extra --set overrides (e.g. duration=20s for a quick look)
	Workers  int
	Progress experiment.Progress
}

// Run runs the entry's sweep (resuming a stored one) and its report.
func Run(ctx context.Context, e *Entry, o Options) (*Outcome, *experiment.Report, error) {
	root := o.Root
	if root == "" {
		var err error
		if root, err = FindRoot(); err != nil {
			return nil, nil, err
		}
	}
	dir := o.Dir
	if dir == "" {
		dir = filepath.Join("repro-out", e.Name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	// The sweep's scenario path is relative to the root: parse it as if
	// the sweep file sat there.
	sw, err := experiment.Parse(filepath.Join(root, "repro-"+e.Name+".yaml"), []byte(e.Sweep), o.Sets)
	if err != nil {
		return nil, nil, err
	}
	dbPath := filepath.Join(dir, e.Name+".db")
	st, err := store.Open(dbPath)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	// A store made with other overrides belongs to another sweep: start
	// it afresh rather than mixing runs.
	if spec, _ := st.Meta("spec"); spec != "" && spec != sw.Spec() {
		st.Close()
		for _, suf := range []string{"", "-wal", "-shm"} {
			os.Remove(dbPath + suf)
		}
		if st, err = store.Open(dbPath); err != nil {
			return nil, nil, err
		}
	}
	rep, err := experiment.Run(ctx, sw, st, experiment.Options{Workers: o.Workers, Resume: true, Progress: o.Progress})
	if err != nil {
		return nil, rep, err
	}
	if rep.Interrupted || len(rep.Failed) > 0 {
		return nil, rep, fmt.Errorf("sweep incomplete (%d failed, interrupted=%v); run the command again to finish it", len(rep.Failed), rep.Interrupted)
	}
	out, err := e.Report(&Context{Entry: e, Sweep: sw, Store: st, Dir: dir, Root: root})
	if err != nil {
		return nil, rep, err
	}
	out.Files = append([]string{dbPath}, out.Files...)
	return out, rep, nil
}

// FindRoot walks up from the working directory to the tcplab module root
// (the directory whose go.mod declares module github.com/tcplab/tcplab), where examples/
// lives.
func FindRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module github.com/tcplab/tcplab") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the tcplab repository (no go.mod of module github.com/tcplab/tcplab above the working directory): use --root")
		}
		dir = parent
	}
}
