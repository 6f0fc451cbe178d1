// Package plot draws the figures of sweeps and traces with gonum/plot:
// line charts of a metric against a parameter (a series per variant, 95%
// confidence-interval error bars, analytic curves overlaid), grouped bar
// charts for categorical parameters, and time series (cwnd, sequence
// numbers) from trace files. Output is PNG or SVG, by file extension.
package plot

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Series is measured data: points with optional error bars (half-widths;
// NaN or 0 draws none).
type Series struct {
	Name string
	X, Y []float64
	Err  []float64
}

// Curve is a model's line, drawn dashed without markers.
type Curve struct {
	Name string
	X, Y []float64
}

// Chart is one figure.
type Chart struct {
	Title string
	// Fixed names the values held fixed to draw this chart ("loss rate
	// on lossy = 2%"); it follows the title in parentheses.
	Fixed          string
	XLabel, YLabel string // with units, e.g. "loss rate (%)"
	Series         []Series
	Curves         []Curve
	LogX, LogY     bool
	// XTicks puts ticks at these values (the grid's values) instead of
	// automatic ones.
	XTicks []float64
	// Caption is drawn under the chart (what the models assume, how
	// error bars are computed).
	Caption string
	// LegendBottomLeft moves the legend from the top right, where falling
	// curves start, to the bottom left.
	LegendBottomLeft bool
	// Width and Height default to 16 cm × 11 cm.
	Width, Height vg.Length
	// DPI is the resolution of PNG output (default 96); vector formats
	// (SVG, PDF) ignore it.
	DPI int
	// LegendOutside draws the legend to the right of the plot instead of
	// over it; it is the default with more than LegendInsideMax entries,
	// which would cover the curves, and when no corner of the plot is free
	// of data.
	LegendOutside bool
	// ZoomY lets the y axis of a non-negative quantity start above 0 (a
	// fairness index near 1); the caption then says so. Otherwise it starts
	// at 0, so that small gaps are not magnified without a word.
	ZoomY bool
	// YMax bounds the quantity from above (1 for a fairness index, 100 for
	// a percentage): error bars stop there. Non-negative quantities stop
	// at 0 without being told.
	YMax *float64
}

// LegendInsideMax is the most legend entries drawn over the plot.
const LegendInsideMax = 5

// Formats are the file extensions a chart is written in.
var Formats = []string{".png", ".svg", ".pdf"}

// Line draws c as a line chart into path (.png or .svg).
func Line(c Chart, path string) error {
	p := newPlot(c)
	n := len(c.Series)
	lo, hi := math.Inf(-1), math.Inf(1)
	if nonNegative(c) {
		lo = 0
	}
	if c.YMax != nil {
		hi = *c.YMax
	}
	for i, s := range c.Series {
		xs := dodge(s.X, i, n, c.LogX, c.Series)
		pts := make(plotter.XYs, len(xs))
		for k := range xs {
			pts[k] = plotter.XY{X: xs[k], Y: s.Y[k]}
		}
		line, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("series %s: %w", s.Name, err)
		}
		col := seriesColor(i)
		line.Color = col
		line.Width = vg.Points(1.5)
		sc.Color = col
		sc.Shape = plotutil.Shape(i)
		sc.Radius = vg.Points(3.5)
		p.Add(line, sc)
		if eb := errorBars(xs, s.Y, s.Err, col, lo, hi); eb != nil {
			p.Add(eb)
		}
		p.Legend.Add(s.Name, line, sc)
	}
	for i, cv := range c.Curves {
		l, err := plotter.NewLine(curvePoints(cv))
		if err != nil {
			return fmt.Errorf("curve %s: %w", cv.Name, err)
		}
		l.Color = curveColor(i)
		l.Width = vg.Points(1.5)
		l.Dashes = curveDashes(i)
		p.Add(l)
		p.Legend.Add(cv.Name, l)
	}
	if nonNegative(c) && !c.LogY {
		if c.ZoomY {
			c.Caption = strings.TrimSpace(c.Caption + " The y axis does not start at 0.")
		} else {
			p.Y.Min = 0
		}
	}
	return save(p, c, seriesMarks(c, lo, hi), path)
}

// dodge shifts series apart by a little so that error bars at the same x
// do not hide each other.
func dodge(x []float64, i, n int, logX bool, all []Series) []float64 {
	out := append([]float64(nil), x...)
	if n < 2 {
		return out
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range all {
		for _, v := range s.X {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	off := float64(i) - float64(n-1)/2
	for k := range out {
		if logX {
			out[k] *= math.Pow(hi/lo, 0.008*off)
		} else {
			out[k] += 0.008 * off * (hi - lo)
		}
	}
	return out
}

type errPoints struct {
	plotter.XYs
	plotter.YErrors
}

// errorBars draws ±e around y, clipped to the quantity's bounds [lo, hi]
// (a goodput's interval does not reach below 0).
func errorBars(x, y, e []float64, col color.Color, lo, hi float64) *plotter.YErrorBars {
	if len(e) == 0 {
		return nil
	}
	var ep errPoints
	for k := range x {
		if k >= len(e) || math.IsNaN(e[k]) || e[k] == 0 {
			continue
		}
		ep.XYs = append(ep.XYs, plotter.XY{X: x[k], Y: y[k]})
		ep.YErrors = append(ep.YErrors, struct{ Low, High float64 }{min(e[k], y[k]-lo), min(e[k], hi-y[k])})
	}
	if len(ep.XYs) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(ep)
	if err != nil {
		return nil
	}
	eb.Color = col
	eb.Width = vg.Points(1)
	eb.CapWidth = vg.Points(6)
	return eb
}

func curveColor(i int) color.Color {
	cs := []color.Color{color.Gray{0x40}, color.RGBA{0x99, 0x33, 0x99, 0xff}, color.RGBA{0xcc, 0x66, 0x00, 0xff}}
	return cs[i%len(cs)]
}

func curveDashes(i int) []vg.Length {
	ds := [][]vg.Length{{vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}
	return ds[i%len(ds)]
}

func newPlot(c Chart) *plot.Plot {
	p := plot.New()
	p.Title.Text = c.Title
	switch {
	case c.Fixed != "" && c.Title != "":
		p.Title.Text = c.Title + " (" + c.Fixed + ")"
	case c.Fixed != "":
		p.Title.Text = c.Fixed
	}
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.X.Label.Text = c.XLabel
	p.Y.Label.Text = c.YLabel
	p.X.Label.TextStyle.Font.Size = vg.Points(12)
	p.Y.Label.TextStyle.Font.Size = vg.Points(12)
	p.X.Tick.Label.Font.Size = vg.Points(10)
	p.Y.Tick.Label.Font.Size = vg.Points(10)
	p.Legend.Top = !c.LegendBottomLeft
	p.Legend.Left = c.LegendBottomLeft
	if c.LegendBottomLeft {
		p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), vg.Points(6)
	}
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.ThumbnailWidth = vg.Points(28)
	p.Add(plotter.NewGrid())
	if c.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if c.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	} else {
		p.Y.Tick.Marker = plainTicks{integers: wholeNumbers(c.Series) && len(c.Curves) == 0}
	}
	if !c.LogX && len(c.XTicks) == 0 {
		p.X.Tick.Marker = plainTicks{}
	}
	if len(c.XTicks) > 0 {
		var ts []plot.Tick
		for _, x := range c.XTicks {
			ts = append(ts, plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', 4, 64)})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ts)
	}
	return p
}

// save draws the plot, with the caption under it (and the legend to its
// right when crowded or when it would cover any of m), in the format of
// the file's extension.
func save(p *plot.Plot, c Chart, m *marks, path string) error {
	w, h := c.Width, c.Height
	if w == 0 {
		w = 16 * vg.Centimeter
	}
	if h == 0 {
		h = 11 * vg.Centimeter
	}
	capStyle := text.Style{Color: color.Gray{0x30}, Font: font.From(plot.DefaultFont, 9),
		XAlign: draw.XLeft, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	lines := wrap(c.Caption, capStyle, w-vg.Points(20))
	capH := vg.Length(0)
	if len(lines) > 0 {
		capH = vg.Length(len(lines))*capStyle.FontExtents().Height + vg.Points(8)
	}
	// A crowded legend moves out of the plot into a strip on the right,
	// as wide as its longest entry.
	var legend *plot.Legend
	legendW := vg.Length(0)
	inside := !c.LegendOutside && len(c.Series)+len(c.Curves) <= LegendInsideMax && placeLegend(p, c, m, w, h)
	observe(p, m, inside, w, h, path)
	if !inside {
		l := p.Legend
		legend = &l
		p.Legend = plot.NewLegend()
		legend.Top, legend.Left = true, true
		legend.XOffs, legend.YOffs = vg.Points(6), -vg.Points(24)
		probe := draw.New(vgsvg.New(w, h))
		legendW = legend.Rectangle(probe).Size().X + vg.Points(16)
	}
	cw, err := canvasFor(path, w+legendW, h+capH, c.DPI)
	if err != nil {
		return err
	}
	dc := draw.New(cw)
	p.Draw(draw.Crop(dc, 0, -legendW, capH, 0))
	if legend != nil {
		legend.Draw(draw.Crop(dc, w, 0, capH, 0))
	}
	y := dc.Min.Y + capH - vg.Points(2)
	for _, l := range lines {
		dc.FillText(capStyle, vg.Point{X: dc.Min.X + vg.Points(10), Y: y}, l)
		y -= capStyle.FontExtents().Height
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := cw.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// canvasFor makes a canvas of the format named by path's extension.
func canvasFor(path string, w, h vg.Length, dpi int) (vg.CanvasWriterTo, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		if dpi <= 0 {
			dpi = 96
		}
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}, nil
	case ".svg":
		return vgsvg.New(w, h), nil
	case ".pdf":
		return vgpdf.New(w, h), nil
	}
	return nil, fmt.Errorf("%s: want a file ending in %s", path, strings.Join(Formats, ", "))
}

// wrap breaks text into lines no wider than width (explicit newlines
// kept).
func wrap(s string, sty text.Style, width vg.Length) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			try := word
			if line != "" {
				try = line + " " + word
			}
			if line != "" && sty.Width(try) > width {
				out = append(out, line)
				line = word
				continue
			}
			line = try
		}
		out = append(out, line)
	}
	return out
}

// logTicks labels 1, 2, 3 and 5 times each power of ten: gonum's LogTicks
// labels powers of ten only, which leaves a one-decade axis with a single
// number.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	if lo <= 0 || hi <= lo {
		return ts
	}
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		d := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := float64(m) * d
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 3 || m == 5 {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			}
			ts = append(ts, t)
		}
	}
	return ts
}
