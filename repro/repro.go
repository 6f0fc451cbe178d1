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
	Name string // command-line name, e.g. tdlrp-fig11a
	// Paper groups the entries of one paper (tdlrp, abouzeid, adminrto,
	// tcpnc, alltcp, validation): `tcplab repro PAPER` runs them all.
	Paper  string
	Title  string
	Source string // the paper(s) and figure
	Claim  string // what the paper says, to compare with the measurement
	// Sweep is the sweep file (YAML); its scenario path is relative to
	// the repository root. Empty for an entry that runs (or computes)
	// everything in Report itself: a time series of one run, a model.
	Sweep string
	// Short are --set overrides for the reduced form (`--short`, and the
	// tests under -short): shorter runs, same shape. The reduced form also
	// runs at most ShortReplications seeds per point.
	Short []string
	// Report reads the finished store and writes the figure and CSV
	// into dir; it returns the claims set beside the measurement.
	Report func(c *Context) (*Outcome, error)
	// Deterministic: the runs have no random input (a delay schedule, no
	// loss), so the sweep runs one replication and the page says so
	// instead of showing ten copies of one run as "± 0".
	Deterministic bool
	// Setup lists every setting where tcplab's runs differ from or add
	// to the paper's text, each with its reason: the page's setup diff.
	Setup []Deviation
	// Quoted are the numbers Title and Claim quote from the paper that the
	// sweep does not set literally, as written: its results ("50%",
	// "4.963"), or a setting the runs make another way (an RTT of delay and
	// transmission, a hop count of nodes). Every other number they state
	// must be a value the sweep runs (a test checks).
	Quoted []string
	// Alone says why no independent simulator reruns the entry's
	// refutations ("tcplab only: ..."); entries with a cross-check set it
	// on their claims instead.
	Alone string
}

// Deviation is one line of an entry's setup diff.
type Deviation struct {
	Setting string // "window", "wireless loss direction"
	Paper   string // what the paper says ("32 packets", "not stated")
	Tcplab  string // what the runs use
	Why     string // the paper silent, a simulator difference, a choice tested in a sensitivity entry
}

// Context is what a report works with.
type Context struct {
	Entry *Entry
	Sweep *experiment.Sweep // nil for an entry without a sweep
	Store *store.Store      // nil for an entry without a sweep
	Dir   string            // output directory
	Root  string            // repository root (for scenarios)
	Short bool              // the reduced form was asked for
	Sets  []string          // the --set overrides given (Short's included)
}

// Outcome lists the files written and the comparison.
type Outcome struct {
	Files    []string
	Figures  []string // of Files, the figures (SVG first if both), for reports
	Measured []string // free-form lines: the measured result, set beside the claim
	Claims   []Claim  // each claim of the paper this entry checks
	// Scenario is the sweep's base scenario file, set by Run ("" for an
	// entry without a sweep), so that reports can show what was run.
	Scenario string
	// Preview is set by Run for the reduced form: "reduced: 3 seeds ×
	// 20 s — a preview, not a verdict". Its verdicts are not counted.
	Preview string
	// Notes are what Run found about the sweep itself: a swept variable
	// with no effect, deterministic runs.
	Notes []string
}

// Verdict is what the measurement says of a claim.
type Verdict string

// Verdicts.
const (
	Confirmed Verdict = "confirmed"
	Refuted   Verdict = "refuted"
	// Depends: the claim holds under some setting the paper leaves out
	// and not under another; Claim.Reason names each value and its
	// verdict. A setting the paper states is never a reason for Depends:
	// the claim is decided there, and other values are sensitivity lines.
	Depends Verdict = "depends"
	// Inconclusive: too few events or runs to decide, an equivalence
	// test that can neither accept nor reject, or a swept variable that
	// had no effect.
	Inconclusive Verdict = "inconclusive"
)

// Claim is one statement of a paper (or one of tcplab's own checks) set
// beside what tcplab measured.
type Claim struct {
	Kind     Kind    // paper claim, model check or sanity check
	Figure   string  // where the paper makes it: "Fig. 11a", "Table 2", "§5.3"
	Text     string  // the claim, in a sentence
	Paper    string  // the paper's figure for it, as printed ("+40% over NewJersey")
	Measured string  // tcplab's, with its spread: "+13% (95% CI 9-17%), 10 seeds"
	Verdict  Verdict //
	// Test names the test that decided the verdict and its numbers
	// ("Welch t = -2.24, df 12.0, p = 0.045; ..."): the Why a referee
	// reads.
	Test string
	// Reason is the mechanism tcplab's runs point to, an explanation and
	// not the evidence; for Depends, each value of the setting and its
	// verdict.
	Reason string
	// Sensitivity lines: the claim under values the paper does not state
	// ("holds if w_m = 13").
	Sensitivity []string
	// CrossCheck is the same comparison in an independent simulator
	// ("ns-3.37: NewReno 516 ± 9 kbit/s (tcplab 517 ± 7)"), set for
	// refuted paper claims; "tcplab only" where none could be run.
	CrossCheck string
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

// ShortReplications caps the seeds per point of the reduced form.
const ShortReplications = 3

// Select returns the named entry, or every entry of the named paper in
// name order; an unknown name is an error listing what there is.
func Select(name string) ([]*Entry, error) {
	if e, ok := registry[name]; ok {
		return []*Entry{e}, nil
	}
	var group []*Entry
	for _, e := range List() {
		if e.Paper == name {
			group = append(group, e)
		}
	}
	if len(group) > 0 {
		return group, nil
	}
	_, err := Get(name)
	return nil, err
}

// Papers lists the paper names that group entries.
func Papers() []string {
	seen := map[string]bool{}
	var ps []string
	for _, e := range List() {
		if e.Paper != "" && !seen[e.Paper] {
			seen[e.Paper] = true
			ps = append(ps, e.Paper)
		}
	}
	slices.Sort(ps)
	return ps
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
	return nil, fmt.Errorf("no reproduction %q (papers: %s; entries: %s)", name, strings.Join(Papers(), ", "), strings.Join(names, ", "))
}

// Options set where and how a reproduction runs.
type Options struct {
	Root     string   // repository root; "" : found from the working directory, else the built-in examples
	Dir      string   // output directory; "" : repro-out/NAME
	Sets     []string // extra --set overrides (e.g. duration=20s for a quick look)
	Short    bool     // the reduced form: the entry's Short overrides first
	Workers  int
	Progress experiment.Progress
}

// Run runs the entry's sweep (resuming a stored one) and its report.
func Run(ctx context.Context, e *Entry, o Options) (*Outcome, *experiment.Report, error) {
	root := o.Root
	if root == "" {
		// Outside a checkout the scenarios come from the copies built into
		// the binary (scenario.ReadFile): a root of "." makes the sweep's
		// scenario path the relative examples/NAME.yaml they answer to.
		var err error
		if root, err = FindRoot(); err != nil {
			root = "."
		}
	}
	dir := o.Dir
	if dir == "" {
		dir = filepath.Join("repro-out", e.Name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	sets := o.Sets
	if o.Short {
		sets = append(append([]string(nil), e.Short...), o.Sets...)
	}
	c := &Context{Entry: e, Dir: dir, Root: root, Short: o.Short, Sets: sets}
	if e.Sweep == "" {
		out, err := e.Report(c)
		if err != nil {
			return nil, &experiment.Report{}, err
		}
		tcplabOnly(e, out)
		if o.Short {
			out.Preview = "reduced: shorter runs — a preview, not a verdict"
		}
		return out, &experiment.Report{}, nil
	}
	// The sweep's scenario path is relative to the root: parse it as if
	// the sweep file sat there.
	sw, err := experiment.Parse(filepath.Join(root, "repro-"+e.Name+".yaml"), []byte(e.Sweep), sets)
	if err != nil {
		return nil, nil, err
	}
	if o.Short {
		sw.Replications = min(sw.Replications, ShortReplications)
	}
	if e.Deterministic {
		sw.Replications = 1
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
	c.Sweep, c.Store = sw, st
	out, err := e.Report(c)
	if err != nil {
		return nil, rep, err
	}
	out.Files = append([]string{dbPath}, out.Files...)
	out.Scenario = sw.Scenario
	runs, err := st.Runs()
	if err != nil {
		return nil, rep, err
	}
	settle(out, inertAxes(sw, runs))
	tcplabOnly(e, out)
	switch {
	case e.Deterministic:
		out.Notes = append(out.Notes, deterministic)
	case sw.Replications > 1 && sameAcrossReplications(runs):
		out.Notes = append(out.Notes, fmt.Sprintf("every one of the %d replications gave the same run: the sweep has no random input, and its intervals of 0 are not a spread", sw.Replications))
	}
	if o.Short {
		out.Preview = fmt.Sprintf("reduced: %d seeds × %g s — a preview, not a verdict", sw.Replications, runSeconds(c))
	}
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
