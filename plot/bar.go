package plot

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Bars is a grouped bar chart: one group per category, one bar per
// series in each group, with error bars.
type Bars struct {
	Chart
	Categories []string
	// Series[i].Y[k] is series i's value in category k; X is ignored.
}

// Bar draws b into path (.png or .svg).
func Bar(b Bars) func(path string) error {
	return func(path string) error {
		c := b.Chart
		c.LogX = false
		c.XTicks = nil
		p := newPlot(c)
		m := &marks{}
		n := len(c.Series)
		width := 0.8 / float64(max(1, n))
		for i, s := range c.Series {
			col := seriesColor(i)
			var xs []float64
			for k := range b.Categories {
				if k >= len(s.Y) || math.IsNaN(s.Y[k]) {
					continue
				}
				x := float64(k) + (float64(i)-float64(n-1)/2)*width
				xs = append(xs, x)
				poly, err := plotter.NewPolygon(plotter.XYs{{X: x - width/2, Y: 0}, {X: x + width/2, Y: 0}, {X: x + width/2, Y: s.Y[k]}, {X: x - width/2, Y: s.Y[k]}})
				if err != nil {
					return fmt.Errorf("series %s: %w", s.Name, err)
				}
				// The bar's outline, for the legend to keep clear of.
				m.segment(x-width/2, 0, x-width/2, s.Y[k])
				m.segment(x-width/2, s.Y[k], x+width/2, s.Y[k])
				m.segment(x+width/2, s.Y[k], x+width/2, 0)
				poly.Color = col
				poly.LineStyle.Width = vg.Points(0.5)
				p.Add(poly)
				if k == 0 || len(xs) == 1 {
					p.Legend.Add(s.Name, poly)
				}
			}
			var ys, es []float64
			for k := range b.Categories {
				if k < len(s.Y) && !math.IsNaN(s.Y[k]) {
					ys = append(ys, s.Y[k])
					if k < len(s.Err) {
						es = append(es, s.Err[k])
					} else {
						es = append(es, math.NaN())
					}
				}
			}
			hi := math.Inf(1)
			if c.YMax != nil {
				hi = *c.YMax
			}
			for k := range xs {
				if !math.IsNaN(es[k]) && es[k] != 0 {
					m.point(xs[k], ys[k]+min(es[k], hi-ys[k]))
				}
			}
			if eb := errorBars(xs, ys, es, color.Black, 0, hi); eb != nil {
				p.Add(eb)
			}
		}
		var ticks []plot.Tick
		for k, cat := range b.Categories {
			ticks = append(ticks, plot.Tick{Value: float64(k), Label: cat})
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Min, p.X.Max = -0.6, float64(len(b.Categories))-0.4
		p.Y.Min = 0
		return save(p, c, m, path)
	}
}
