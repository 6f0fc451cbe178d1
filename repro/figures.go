package repro

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/store"
)

// What the entries' reports share to draw their figures and state their
// numbers: series from summaries, a figure with its data, a summary found
// by its parameters, a mean with its interval.

// seriesChart draws per-point summaries as one series per value of
// series, x from the numeric parameter xParam times xScale.
func seriesChart(sums []store.Summary, xParam, series string, xScale, yScale float64) []plot.Series {
	var out []plot.Series
	idx := map[string]int{}
	for _, s := range sums {
		name := s.Params.Value(series)
		if set := s.Params.Value("setting"); set != "" {
			name += " (" + set + ")"
		}
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, plot.Series{Name: name})
		}
		ci := s.CI95
		if math.IsNaN(ci) {
			ci = 0
		}
		out[i].X = append(out[i].X, *findNum(s.Params, xParam)*xScale)
		out[i].Y = append(out[i].Y, s.Mean*yScale)
		out[i].Err = append(out[i].Err, ci*yScale)
	}
	return out
}

// saveFigure draws a figure to base.png and base.svg and returns the
// outcome that lists them.
func saveFigure(base string, draw func(path string) error) (*Outcome, error) {
	out := &Outcome{}
	for _, ext := range []string{".png", ".svg"} {
		if err := draw(base + ext); err != nil {
			return nil, err
		}
		out.Files = append(out.Files, base+ext)
	}
	out.Figures = []string{base + ".svg"}
	return out, nil
}

// createCSV opens base.csv, an entry's data beside its figure.
func createCSV(base string) (*os.File, *csv.Writer, error) {
	f, err := os.Create(base + ".csv")
	if err != nil {
		return nil, nil, err
	}
	return f, csv.NewWriter(f), nil
}

// finishCSV flushes w, closes f and lists base.csv in out, reporting the
// first error.
func finishCSV(out *Outcome, base string, f *os.File, w *csv.Writer) error {
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	out.Files = append(out.Files, base+".csv")
	return nil
}

// writeFigure saves ch as PNG and SVG and the summaries as CSV, into the
// outcome.
func writeFigure(c *Context, ch plot.Chart, sums []store.Summary, metric string) (*Outcome, error) {
	base := filepath.Join(c.Dir, c.Entry.Name)
	// A title that would not fit the chart keeps its part before the
	// colon; the caption and the entry's title say the rest.
	if i := strings.Index(ch.Title, ":"); len(ch.Title) > 70 && i > 0 {
		ch.Title = ch.Title[:i]
	}
	ch.Caption = c.captioned(ch.Caption)
	out, err := saveFigure(base, func(path string) error { return plot.Line(ch, path) })
	if err != nil {
		return nil, err
	}
	f, w, err := createCSV(base)
	if err != nil {
		return nil, err
	}
	var head []string
	for _, p := range sums[0].Params {
		head = append(head, p.Name)
	}
	w.Write(append(head, "n", metric+"_mean", metric+"_sd", metric+"_ci95"))
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, s := range sums {
		var row []string
		for _, p := range s.Params {
			row = append(row, p.Value)
		}
		w.Write(append(row, strconv.Itoa(s.N), g(s.Mean), g(s.SD), g(s.CI95)))
	}
	if err := finishCSV(out, base, f, w); err != nil {
		return nil, err
	}
	return out, nil
}

// addFigure writes one more figure of the entry, its name the entry's
// with suffix (NAME-suffix.png, .svg, .csv), and lists its files in out.
func addFigure(c *Context, out *Outcome, suffix string, ch plot.Chart, sums []store.Summary, metric string) error {
	tc := *c
	tc.Entry = &Entry{Name: c.Entry.Name + suffix, Title: ch.Title}
	f, err := writeFigure(&tc, ch, sums, metric)
	if err != nil {
		return err
	}
	out.Files = append(out.Files, f.Files...)
	out.Figures = append(out.Figures, f.Figures...)
	return nil
}

// figureOf writes the entry's figure (suffix "") or a further one named
// with suffix, into a new outcome.
func figureOf(c *Context, suffix string, ch plot.Chart, sums []store.Summary, metric string) (*Outcome, error) {
	if suffix == "" {
		return writeFigure(c, ch, sums, metric)
	}
	out := &Outcome{}
	ch.Title += " (" + strings.TrimPrefix(suffix, "-") + ")"
	return out, addFigure(c, out, suffix, ch, sums, metric)
}

// find returns the summary whose parameters have the given name, value
// pairs ("" names are skipped).
func find(sums []store.Summary, kv ...string) (store.Summary, bool) {
next:
	for _, s := range sums {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] != "" && s.Params.Value(kv[i]) != kv[i+1] {
				continue next
			}
		}
		return s, true
	}
	return store.Summary{}, false
}

// at finds the summary of variant at x.
func at(sums []store.Summary, xParam, x, variant string) (store.Summary, bool) {
	return find(sums, xParam, x, "variant", variant)
}

func verdictOf(ok bool) Verdict {
	if ok {
		return Confirmed
	}
	return Refuted
}

func ciText(s store.Summary, scale float64, unit string) string {
	if math.IsNaN(s.CI95) {
		return fmt.Sprintf("%.1f%s (n=%d)", s.Mean*scale, unit, s.N)
	}
	return fmt.Sprintf("%.1f ± %.1f%s (n=%d)", s.Mean*scale, s.CI95*scale, unit, s.N)
}
