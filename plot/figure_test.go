package plot

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

func TestParamLabelNamesPathsForPeople(t *testing.T) {
	tests := []struct {
		path   string
		labels map[string]string
		want   string
	}{
		{"links.lossy.loss.rate", nil, "loss rate on lossy"},
		{"links.bn.queue.limit", nil, "queue limit on bn"},
		{"flows.ftp.transport.variant", nil, "TCP variant of ftp"},
		{"flows.ftp.transport.rto.min", nil, "minimum RTO of ftp"},
		{"flows.web.app.think_time", nil, "think time of web"},
		{"duration", nil, "duration"},
		{"variant", nil, "variant"},
		{"links.lossy.loss.rate", map[string]string{"links.lossy.loss.rate": "packet loss"}, "packet loss"},
	}
	for _, tc := range tests {
		if got := ParamLabel(tc.path, tc.labels); got != tc.want {
			t.Errorf("ParamLabel(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// svgWidth reads the width an SVG file declares, in points.
func svgWidth(t *testing.T, path string) float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt"`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s: no width", path)
	}
	w, _ := strconv.ParseFloat(string(m[1]), 64)
	return w
}

func chartWith(series int) Chart {
	c := Chart{Title: "t", XLabel: "x", YLabel: "y", Width: 10 * vg.Centimeter, Height: 7 * vg.Centimeter}
	for i := range series {
		c.Series = append(c.Series, Series{Name: fmt.Sprintf("series %d", i), X: []float64{1, 2}, Y: []float64{float64(i), float64(i + 1)}})
	}
	return c
}

// Up to five entries the legend sits over the plot, in a corner free of
// data; beyond, or with no free corner, it takes a strip to the right, so
// the figure widens and the plot keeps its width.
func TestCrowdedLegendMovesRightOfThePlot(t *testing.T) {
	dir := t.TempDir()
	base := 10 * vg.Centimeter
	for _, tc := range []struct {
		series  int
		outside bool
		wider   bool
	}{{5, false, false}, {6, false, true}, {2, true, true}} {
		c := chartWith(tc.series)
		c.LegendOutside = tc.outside
		if tc.series == 5 { // data in two corners only: top right is free
			for i := range c.Series {
				c.Series[i].Y = []float64{0, 0.01 * float64(i)}
			}
			c.Series[0].Y[0] = 10
		}
		path := filepath.Join(dir, fmt.Sprintf("c%d%v.svg", tc.series, tc.outside))
		if err := Line(c, path); err != nil {
			t.Fatal(err)
		}
		if w := svgWidth(t, path); (w > float64(base.Points())+1) != tc.wider {
			t.Errorf("%d series, outside=%v: width %.1f pt (plot %.1f pt), want wider=%v", tc.series, tc.outside, w, base.Points(), tc.wider)
		}
	}
}

func TestFormatsAndResolution(t *testing.T) {
	dir := t.TempDir()
	c := chartWith(2)
	for _, dpi := range []int{96, 300} {
		c.DPI = dpi
		path := filepath.Join(dir, fmt.Sprintf("c%d.png", dpi))
		if err := Line(c, path); err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(path)
		img, err := png.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		// 10 cm at dpi dots per inch.
		if want := int(10 / 2.54 * float64(dpi)); img.Width < want-2 || img.Width > want+2 {
			t.Errorf("%d dpi: %d px wide, want %d", dpi, img.Width, want)
		}
	}
	pdf := filepath.Join(dir, "c.pdf")
	if err := Line(c, pdf); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(pdf); !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Error("the .pdf is not a PDF")
	}
	if err := Line(c, filepath.Join(dir, "c.gif")); err == nil {
		t.Error("a .gif was accepted")
	}
}

func TestWhereValuesFollowTheTitle(t *testing.T) {
	q := Query{Where: map[string]string{"links.lossy.loss.rate": "2%", "flows.ftp.transport.variant": "reno"}}
	want := "TCP variant of ftp = reno, loss rate on lossy = 2%"
	if got := fixedText(q); got != want {
		t.Fatalf("fixedText = %q, want %q", got, want)
	}
	for _, tc := range []struct{ title, want string }{{"", want}, {"Timeouts", "Timeouts (" + want + ")"}} {
		if got := newPlot(Chart{Title: tc.title, Fixed: fixedText(q)}).Title.Text; got != tc.want {
			t.Errorf("title %q: got %q, want %q", tc.title, got, tc.want)
		}
	}
}

// The legend covers no data point: for curves that fall, rise, dip in the
// middle or fill the plot, the corner chosen holds no marker, error-bar
// end or curve point, and with none free the legend leaves the plot.
func TestLegendCoversNoDataPoint(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	line := func(f func(x float64) float64) Series {
		s := Series{Name: "a series with a longish name"}
		for _, x := range xs {
			s.X, s.Y = append(s.X, x), append(s.Y, f(x))
		}
		return s
	}
	for _, tc := range []struct {
		name   string
		series []Series
		inside bool
	}{
		{"falling", []Series{line(func(x float64) float64 { return 100 - 9*x }), line(func(x float64) float64 { return 90 - 9*x })}, true},
		{"rising", []Series{line(func(x float64) float64 { return 9 * x }), line(func(x float64) float64 { return 8 * x })}, true},
		{"a dip", []Series{line(func(x float64) float64 { return (x - 5.5) * (x - 5.5) })}, true},
		{"everywhere", []Series{line(func(x float64) float64 { return 100 * float64(int(x)%2) }), line(func(x float64) float64 { return 100 * float64(1-int(x)%2) })}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Chart{Title: tc.name, XLabel: "x", YLabel: "y", Series: tc.series}
			p := newPlot(c)
			for _, s := range c.Series {
				pts := make(plotter.XYs, len(s.X))
				for k := range s.X {
					pts[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
				}
				sc, _ := plotter.NewScatter(pts)
				p.Add(sc)
				p.Legend.Add(s.Name, sc)
			}
			w, h := 16*vg.Centimeter, 11*vg.Centimeter
			if got := placeLegend(p, c, w, h); got != tc.inside {
				t.Fatalf("placed inside: %v, want %v", got, tc.inside)
			}
			if !tc.inside {
				return
			}
			dc := p.DataCanvas(draw.New(vgsvg.New(w, h)))
			r := p.Legend.Rectangle(dc)
			for _, s := range c.Series {
				for k := range s.X {
					x, y := dc.X(p.X.Norm(s.X[k])), dc.Y(p.Y.Norm(s.Y[k]))
					if x >= r.Min.X && x <= r.Max.X && y >= r.Min.Y && y <= r.Max.Y {
						t.Fatalf("legend %v covers (%g, %g)", r, s.X[k], s.Y[k])
					}
				}
			}
		})
	}
}
