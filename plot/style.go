package plot

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// Colour and marker of series i: the Okabe-Ito qualitative palette, which
// readers with any common colour-vision deficiency tell apart (Okabe & Ito,
// "Color Universal Design", 2008), yellow last for its low contrast on
// white; every series also has its own marker shape, so that a grey print
// still separates them.
var okabeIto = []color.Color{
	color.RGBA{0x00, 0x72, 0xb2, 0xff}, // blue
	color.RGBA{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	color.RGBA{0x00, 0x9e, 0x73, 0xff}, // bluish green
	color.RGBA{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	color.RGBA{0xe6, 0x9f, 0x00, 0xff}, // orange
	color.RGBA{0x56, 0xb4, 0xe9, 0xff}, // sky blue
	color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
	color.RGBA{0xf0, 0xe4, 0x42, 0xff}, // yellow
}

func seriesColor(i int) color.Color { return okabeIto[i%len(okabeIto)] }

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("25", not "25.00"); on an axis of whole numbers (counts) only the
// whole-number ticks are kept.
type plainTicks struct{ integers bool }

func (t plainTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, tk := range (plot.DefaultTicks{}).Ticks(lo, hi) {
		if tk.Label != "" {
			if t.integers && tk.Value != math.Trunc(tk.Value) {
				continue
			}
			tk.Label = strconv.FormatFloat(tk.Value, 'f', -1, 64)
		}
		out = append(out, tk)
	}
	return out
}

// wholeNumbers reports whether every y value of the series is a whole
// number (a count).
func wholeNumbers(ss []Series) bool {
	n := 0
	for _, s := range ss {
		for _, y := range s.Y {
			if y != math.Trunc(y) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// nonNegative reports whether every y value of the series and curves is
// at least 0: a quantity whose axis starts at 0 (so that small gaps are not
// magnified without a word) and whose error bars stop there.
func nonNegative(c Chart) bool {
	for _, s := range c.Series {
		for _, y := range s.Y {
			if y < 0 {
				return false
			}
		}
	}
	for _, cv := range c.Curves {
		for _, y := range cv.Y {
			if y < 0 {
				return false
			}
		}
	}
	return true
}
