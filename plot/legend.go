package plot

import (
	"math"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// marks are what a chart draws in data coordinates, for the legend to
// keep clear of: points (markers, error-bar ends) and segments (the lines
// between markers, the models' curves, the edges of bars).
type marks struct {
	pts  []plotter.XY
	segs [][2]plotter.XY
}

func (m *marks) point(x, y float64) { m.pts = append(m.pts, plotter.XY{X: x, Y: y}) }

func (m *marks) segment(x0, y0, x1, y1 float64) {
	m.segs = append(m.segs, [2]plotter.XY{{X: x0, Y: y0}, {X: x1, Y: y1}})
}

// line adds a polyline's vertices and the segments between them.
func (m *marks) line(pts plotter.XYs) {
	for k, q := range pts {
		m.point(q.X, q.Y)
		if k > 0 {
			m.segment(pts[k-1].X, pts[k-1].Y, q.X, q.Y)
		}
	}
}

// drawable reports whether a data point lands on the plot's axes.
func drawable(p *plot.Plot, q plotter.XY) bool {
	if math.IsNaN(q.X) || math.IsNaN(q.Y) || math.IsInf(q.X, 0) || math.IsInf(q.Y, 0) {
		return false
	}
	_, logX := p.X.Scale.(plot.LogScale)
	_, logY := p.Y.Scale.(plot.LogScale)
	return !(logX && q.X <= 0 || logY && q.Y <= 0)
}

// onCanvas is every point of m on the data canvas dc: the points, and each
// segment sampled every 2 pt, so that a legend over the middle of a long
// line is seen.
func (m *marks) onCanvas(p *plot.Plot, dc draw.Canvas) []vg.Point {
	at := func(q plotter.XY) vg.Point { return vg.Point{X: dc.X(p.X.Norm(q.X)), Y: dc.Y(p.Y.Norm(q.Y))} }
	var out []vg.Point
	for _, q := range m.pts {
		if drawable(p, q) {
			out = append(out, at(q))
		}
	}
	for _, sg := range m.segs {
		if !drawable(p, sg[0]) || !drawable(p, sg[1]) {
			continue
		}
		a, b := at(sg[0]), at(sg[1])
		n := int(math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y))/2) + 1
		for k := 0; k <= n; k++ {
			f := vg.Length(float64(k) / float64(n))
			out = append(out, vg.Point{X: a.X + f*(b.X-a.X), Y: a.Y + f*(b.Y-a.Y)})
		}
	}
	return out
}

// legendBox is where Legend.Draw puts the legend, taken on the data canvas
// dc. gonum/plot's Legend.Rectangle (v0.17) puts a Left legend at the
// right edge and a right one at the left, mirrored from where Draw puts
// it, so the box is taken from it by size only. Draw uses the plot's area
// before the data's padding (a marker's radius), so the legend really sits
// that much further into its corner: the box here reaches further into
// the data, never less far.
func legendBox(l *plot.Legend, dc draw.Canvas) vg.Rectangle {
	r := l.Rectangle(dc)
	w := r.Max.X - r.Min.X
	if l.Left {
		r.Min.X, r.Max.X = dc.Min.X, dc.Min.X+w
	} else {
		r.Min.X, r.Max.X = dc.Max.X-w, dc.Max.X
	}
	r.Min.X, r.Max.X = r.Min.X+l.XOffs, r.Max.X+l.XOffs
	r.Min.Y, r.Max.Y = r.Min.Y+l.YOffs, r.Max.Y+l.YOffs
	return r
}

// covered counts the points within r grown by margin.
func covered(pts []vg.Point, r vg.Rectangle, margin vg.Length) int {
	n := 0
	for _, q := range pts {
		if q.X >= r.Min.X-margin && q.X <= r.Max.X+margin && q.Y >= r.Min.Y-margin && q.Y <= r.Max.Y+margin {
			n++
		}
	}
	return n
}

// placeLegend puts the legend in a corner of the plot where it covers
// nothing of m, trying the chart's preferred corner first; it reports
// false when every corner covers some, and the legend then goes to the
// right of the plot.
func placeLegend(p *plot.Plot, c Chart, m *marks, w, h vg.Length) bool {
	dc := p.DataCanvas(draw.New(vgsvg.New(w, h)))
	pts := m.onCanvas(p, dc)
	corners := []struct{ top, left bool }{{true, false}, {true, true}, {false, true}, {false, false}}
	if c.LegendBottomLeft {
		corners[0], corners[2] = corners[2], corners[0]
	}
	for _, k := range corners {
		p.Legend.Top, p.Legend.Left = k.top, k.left
		p.Legend.XOffs, p.Legend.YOffs = 0, 0
		if covered(pts, legendBox(&p.Legend, dc), vg.Points(4)) == 0 {
			return true
		}
	}
	return false
}

// Placement is where a written figure's legend went: Inside the plot
// (then Covered is the number of drawn points, markers and samples of its
// lines and bars, under the legend's box: 0 unless the placement is
// wrong), or to its right.
type Placement struct {
	Path      string
	Inside    bool
	Top, Left bool // the corner, when Inside
	Covered   int
	Points    int // drawn points considered
}

var observer struct {
	sync.Mutex
	fn func(Placement)
}

// ObservePlacements calls fn with the legend placement of every figure
// written from now until the returned function is called (for tests that
// render every figure of the reproductions). fn may be called from
// several goroutines at once.
func ObservePlacements(fn func(Placement)) (stop func()) {
	observer.Lock()
	observer.fn = fn
	observer.Unlock()
	return func() {
		observer.Lock()
		observer.fn = nil
		observer.Unlock()
	}
}

// observe reports the placement of the figure written to path.
func observe(p *plot.Plot, m *marks, inside bool, w, h vg.Length, path string) {
	observer.Lock()
	fn := observer.fn
	observer.Unlock()
	if fn == nil {
		return
	}
	pl := Placement{Path: path, Inside: inside, Top: p.Legend.Top, Left: p.Legend.Left}
	if inside {
		dc := p.DataCanvas(draw.New(vgsvg.New(w, h)))
		pts := m.onCanvas(p, dc)
		pl.Points, pl.Covered = len(pts), covered(pts, legendBox(&p.Legend, dc), 0)
	}
	fn(pl)
}

// seriesMarks are a line chart's marks: each series' markers at their
// dodged places, the lines between them and its error bars' ends (clipped
// as drawn, to [lo, hi]), and the models' curves.
func seriesMarks(c Chart, lo, hi float64) *marks {
	m := &marks{}
	for i, s := range c.Series {
		xs := dodge(s.X, i, len(c.Series), c.LogX, c.Series)
		pts := make(plotter.XYs, len(xs))
		for k := range xs {
			pts[k] = plotter.XY{X: xs[k], Y: s.Y[k]}
			if k < len(s.Err) && !math.IsNaN(s.Err[k]) && s.Err[k] != 0 {
				m.point(xs[k], s.Y[k]-min(s.Err[k], s.Y[k]-lo))
				m.point(xs[k], s.Y[k]+min(s.Err[k], hi-s.Y[k]))
			}
		}
		m.line(pts)
	}
	for _, cv := range c.Curves {
		m.line(curvePoints(cv))
	}
	return m
}

// curvePoints are a curve's drawable points (a model undefined at some x
// leaves a gap).
func curvePoints(cv Curve) plotter.XYs {
	pts := make(plotter.XYs, 0, len(cv.X))
	for k := range cv.X {
		if !math.IsNaN(cv.Y[k]) && !math.IsInf(cv.Y[k], 0) {
			pts = append(pts, plotter.XY{X: cv.X[k], Y: cv.Y[k]})
		}
	}
	return pts
}
