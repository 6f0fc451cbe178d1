package traffic

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/sim"
)

// onOff alternates a CBR source between bursts at its rate and silences,
// both of Pareto-distributed length (ns-2's Application/Traffic/Pareto).
// Many such sources with shape 1 < a < 2 add up to self-similar traffic of
// Hurst parameter H = (3 − a)/2 (Willinger et al. 1997): the background of
// ALL-TCP's prediction.
type onOff struct {
	onMean, offMean sim.Time
	shape           float64
	rng             *rand.Rand
	end             sim.Time // when the current burst ends
}

// pareto draws a Pareto length of the given mean: scale m(a−1)/a, tail
// index a.
func (o *onOff) pareto(mean sim.Time) sim.Time {
	scale := float64(mean) * (o.shape - 1) / o.shape
	return sim.Time(scale / math.Pow(1-o.rng.Float64(), 1/o.shape))
}

func (o *onOff) on() sim.Time  { return max(o.pareto(o.onMean), 1) }
func (o *onOff) off() sim.Time { return o.pareto(o.offMean) }

// SetOnOff makes the source send in bursts of mean length on separated by
// silences of mean length off, both Pareto with tail index shape (1, 2]
// for self-similar aggregates; it draws from rng. Call before Start.
func (c *CBR) SetOnOff(on, off sim.Time, shape float64, rng *rand.Rand) error {
	if on <= 0 || off <= 0 || !(shape > 1) {
		return fmt.Errorf("traffic: on/off needs positive mean periods and a shape above 1 (a finite mean)")
	}
	c.onoff = &onOff{onMean: on, offMean: off, shape: shape, rng: rng}
	return nil
}
