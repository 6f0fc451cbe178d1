package scenario

import (
	"fmt"
	"math"
	"strings"

	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/units"
)

// Quantities in a scenario carry explicit units: a bare "2" could mean
// bits, bytes or packets per anything, and a wrong guess silently changes
// results. The only unit-less values accepted are 0 for durations and
// plain fractions for probabilities.

// The quantities' types are the units package's, which the components'
// parameters use too.
type (
	Bandwidth = units.Bandwidth
	Bytes     = units.Bytes
	Fraction  = units.Fraction
)

// Parsers name the kind of quantity in their messages ("negative
// bandwidth"); the field's path comes before it. A fraction's message
// names the field (what), as "rate" reads better than "fraction".

func parseBandwidth(s string) (Bandwidth, error) {
	const what = "bandwidth"
	f, scale, ok := units.Split(s, units.BitRate)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a number and a unit (%s), e.g. \"2Mbps\"", what, s, units.Names(units.BitRate))
	}
	v := f * scale
	switch {
	case v < 0:
		return 0, fmt.Errorf("negative %s %q", what, s)
	case v == 0:
		return 0, fmt.Errorf("zero %s %q", what, s)
	case v < 1:
		// Below 1 bit/s a packet's transmission time overflows the clock.
		return 0, fmt.Errorf("%s %q is below 1 bit/s", what, s)
	case v > 1e15:
		return 0, fmt.Errorf("%s %q is beyond 1 Pbit/s", what, s)
	}
	return Bandwidth(v), nil
}

// maxDuration bounds durations far below sim.Never (292 years) so that
// sums such as start + count·start_step cannot overflow.
const maxDuration = 1e6 * float64(sim.Second)

func parseDuration(s string) (sim.Time, error) {
	const what = "duration"
	s = strings.TrimSpace(s)
	if s == "0" {
		return 0, nil
	}
	f, scale, ok := units.Split(s, units.Duration)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a number and a unit (%s), e.g. \"50ms\"", what, s, units.Names(units.Duration))
	}
	v := math.Round(f * scale)
	switch {
	case v < 0:
		return 0, fmt.Errorf("negative %s %q", what, s)
	case v > maxDuration:
		return 0, fmt.Errorf("%s %q is longer than 10^6 s", what, s)
	}
	return sim.Time(v), nil
}

func parseBytes(s string) (Bytes, error) {
	const what = "size"
	f, scale, ok := units.Split(s, units.Size)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a number and a unit (%s), e.g. \"64KiB\"", what, s, units.Names(units.Size))
	}
	v := f * scale
	switch {
	case v < 0:
		return 0, fmt.Errorf("negative %s %q", what, s)
	case v != math.Trunc(v):
		return 0, fmt.Errorf("%s %q is not a whole number of bytes", what, s)
	case v > 1e18:
		return 0, fmt.Errorf("%s %q is too large", what, s)
	}
	return Bytes(v), nil
}

func parseFraction(what, s string) (Fraction, error) {
	f, ok := units.ParseFraction(s)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a fraction (0.02) or a percentage (\"2%%\")", what, strings.TrimSpace(s))
	}
	if f < 0 || f > 1 {
		return 0, fmt.Errorf("%s %q outside [0, 1]", what, s)
	}
	return Fraction(f), nil
}
