package repro

import (
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/scenario"
)

// A number a claim's text (or title) states is either a setting its sweep
// runs (a grid value, a set, a value of the base scenario) or a number of
// the paper the entry declares in Quoted; references (Fig. 11a, §5.2,
// eq. 11, Table 2) are not numbers. A claim that says 0.5% while its sweep
// drops with probability 0.5 fails here.

var (
	reference = regexp.MustCompile(`(?:Figs?\.|Table|§|eqs?\.|RFC|IEEE|GLOBECOM|Computer Communications|Int\. J\.)\s*[0-9][0-9a-z.\-–]*(?:,\s*[0-9][0-9a-z.\-–]*)*(?:\s+and\s+[0-9][0-9a-z.\-–]*)?|802\.11[a-z]*`)
	panel     = regexp.MustCompile(`\b\d+[a-rt-z]\b`) // a figure's panel, "7b"
	rangeNum  = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])(\d+(?:\.\d+)?)\s*(?:to|-|–|→)\s*(\d+(?:\.\d+)?)\s*(%|ms\b|s\b|Mb/s|Mbps|kbit/s)`)
	number    = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.])(\d+(?:\.\d+)?)\s*(%|ms\b|s\b|Mb/s|Mbps|kbit/s)?`)
)

func unitFactor(u string) float64 {
	switch u {
	case "%":
		return 0.01
	case "ms":
		return 1e-3
	case "Mb/s", "Mbps":
		return 1e6
	case "kbit/s", "kbps":
		return 1e3
	}
	return 1
}

// numbersIn returns the numbers text states, each in base units, with
// the text it was read from.
func numbersIn(text string) map[string]float64 {
	text = reference.ReplaceAllString(text, " ")
	text = panel.ReplaceAllString(text, " ")
	out := map[string]float64{}
	for _, m := range rangeNum.FindAllStringSubmatch(text, -1) {
		f := unitFactor(m[3])
		for _, x := range m[1:3] {
			v, _ := strconv.ParseFloat(x, 64)
			out[x+m[3]] = v * f
		}
		text = strings.Replace(text, m[0], " ", 1)
	}
	for _, m := range number.FindAllStringSubmatch(text, -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		out[m[1]+m[2]] = v * unitFactor(m[2])
	}
	return out
}

var valueNum = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*(%|ms|s|Mbps|kbps|Mb/s|kbit/s)?$`)

// runValues are the numbers a sweep runs: its sets, every axis value and
// case setting, and every scalar of its base scenario.
func runValues(t *testing.T, e *Entry) []float64 {
	root, err := FindRoot()
	if err != nil {
		t.Skip(err)
	}
	sw, err := experiment.Parse(filepath.Join(root, "repro-"+e.Name+".yaml"), []byte(e.Sweep), nil)
	if err != nil {
		t.Fatal(err)
	}
	var vals []float64
	add := func(s string) {
		s = strings.TrimSpace(strings.Trim(s, `"`))
		if m := valueNum.FindStringSubmatch(s); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			vals = append(vals, v*unitFactor(m[2]))
		}
	}
	addSet := func(set string) {
		if i := strings.Index(set, "="); i >= 0 {
			add(set[i+1:])
		}
	}
	for _, s := range sw.Sets {
		addSet(s)
	}
	for _, ax := range sw.Axes {
		for _, v := range ax.Values {
			add(v.Label)
			for _, s := range v.Sets {
				addSet(s)
			}
		}
	}
	b, err := scenario.ReadFile(sw.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(",{}[]:", r) }) {
			add(f)
		}
	}
	return vals
}

func TestClaimTextStatesOnlyNumbersItsSweepRuns(t *testing.T) {
	for _, e := range List() {
		if e.Sweep == "" {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			vals := runValues(t, e)
			for text, v := range numbersIn(e.Title + " " + e.Claim) {
				if slices.Contains(e.Quoted, text) {
					continue
				}
				ok := slices.ContainsFunc(vals, func(x float64) bool { return math.Abs(x-v) <= 1e-9*math.Max(1, math.Abs(v)) })
				if !ok {
					t.Errorf("the claim states %s, which its sweep does not run (and Quoted does not list it as the paper's result)", text)
				}
			}
		})
	}
}

func TestNumbersInReadsUnitsRangesAndSkipsReferences(t *testing.T) {
	got := numbersIn("Fig. 18: above DAC from 0.1 to 0.6% (§5.4, eq. 11; Figs. 5, 7c), window 32 at R2, 2 Mb/s, 200 ms, 802.11b")
	want := map[string]float64{"0.1%": 0.001, "0.6%": 0.006, "32": 32, "2Mb/s": 2e6, "200ms": 0.2}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-12 {
			t.Errorf("%s: got %v, want %v (all: %v)", k, got[k], v, got)
		}
	}
}
