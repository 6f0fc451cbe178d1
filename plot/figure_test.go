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

	"gonum.org/v1/plot/vg"
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
// middle or fill the plot, for a line of two points crossing the plot and
// for bars, the corner chosen holds no marker, error-bar end, line or bar
// edge, and with none free the legend leaves the plot. The check is made
// on the written figure's placement (ObservePlacements), as a
// reproduction's test makes it for every figure.
func TestLegendCoversNoDataPoint(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	line := func(f func(x float64) float64) Series {
		s := Series{Name: "a series with a longish name"}
		for _, x := range xs {
			s.X, s.Y = append(s.X, x), append(s.Y, f(x))
		}
		return s
	}
	bars := func(ys ...float64) func(string) error {
		return Bar(Bars{Chart: Chart{Title: "bars", YLabel: "y", Series: []Series{{Name: "a series with a longish name", Y: ys}}},
			Categories: []string{"a", "b", "c", "d"}})
	}
	chart := func(ss ...Series) func(string) error {
		return func(path string) error {
			return Line(Chart{Title: "lines", XLabel: "x", YLabel: "y", Series: ss}, path)
		}
	}
	const outside, topRight, topLeft, bottomLeft = "outside", "top right", "top left", "bottom left"
	for _, tc := range []struct {
		name string
		draw func(string) error
		want string
	}{
		{"falling", chart(line(func(x float64) float64 { return 100 - 9*x }), line(func(x float64) float64 { return 90 - 9*x })), topRight},
		{"rising", chart(line(func(x float64) float64 { return 9 * x }), line(func(x float64) float64 { return 8 * x })), topLeft},
		{"a dip", chart(line(func(x float64) float64 { return (x - 5.5) * (x - 5.5) })), bottomLeft},
		{"two points, corner to corner", chart(Series{Name: "a series with a longish name", X: []float64{1, 10}, Y: []float64{0, 100}},
			Series{Name: "a second series", X: []float64{1, 10}, Y: []float64{100, 0}}), outside},
		{"everywhere", chart(line(func(x float64) float64 { return 100 * float64(int(x)%2) }), line(func(x float64) float64 { return 100 * float64(1-int(x)%2) })), outside},
		{"bars tall on the right", bars(10, 20, 90, 100), topLeft},
		{"bars tall everywhere", bars(100, 100, 100, 100), outside},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Placement
			stop := ObservePlacements(func(p Placement) { got = append(got, p) })
			defer stop()
			if err := tc.draw(filepath.Join(t.TempDir(), "f.svg")); err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("%d placements observed, want 1", len(got))
			}
			p := got[0]
			where := outside
			if p.Inside {
				where = map[[2]bool]string{{true, false}: topRight, {true, true}: topLeft, {false, true}: bottomLeft, {false, false}: "bottom right"}[[2]bool{p.Top, p.Left}]
			}
			if where != tc.want {
				t.Fatalf("legend placed %s, want %s", where, tc.want)
			}
			if p.Inside && (p.Covered != 0 || p.Points == 0) {
				t.Fatalf("legend covers %d of %d drawn points", p.Covered, p.Points)
			}
		})
	}
}
