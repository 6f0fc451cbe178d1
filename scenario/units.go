package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/sim"
)

// Quantities in a scenario carry explicit units: a bare "2" could mean
// bits, bytes or packets per anything, and a wrong guess silently changes
// results. The only unit-less values accepted are 0 for durations and
// plain fractions for probabilities.

// Bandwidth is a rate in bits per second: "2Mbps", "100kbps", "1Gbps".
type Bandwidth float64

// Bytes is a size in bytes: "1024B", "64KB" (10^3), "64KiB" (2^10).
type Bytes int64

// Fraction is a probability in [0, 1]: "2%" or 0.02.
type Fraction float64

type unit struct {
	suffix string
	scale  float64
}

// Longer suffixes come first so that "ms" is not read as "s".
var (
	bandwidthUnits = []unit{{"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}, {"Kbps", 1e3}, {"bps", 1}}
	durationUnits  = []unit{{"min", 60e9}, {"ms", 1e6}, {"us", 1e3}, {"µs", 1e3}, {"ns", 1}, {"s", 1e9}}
	byteUnits      = []unit{
		{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
		{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"kB", 1e3}, {"B", 1},
	}
)

func unitNames(us []unit) string {
	names := make([]string, len(us))
	for i, u := range us {
		names[i] = u.suffix
	}
	return strings.Join(names, ", ")
}

// splitUnit splits "1.5Mbps" into 1.5 and its scale.
func splitUnit(s string, us []unit) (num float64, scale float64, ok bool) {
	for _, u := range us {
		if rest, found := strings.CutSuffix(s, u.suffix); found {
			rest = strings.TrimSpace(rest)
			f, err := strconv.ParseFloat(rest, 64)
			if err != nil || rest == "" || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(rest, "xXpP_") {
				return 0, 0, false
			}
			return f, u.scale, true
		}
	}
	return 0, 0, false
}

// Parsers name the kind of quantity in their messages ("negative
// bandwidth"); the field's path comes before it. A fraction's message
// names the field (what), as "rate" reads better than "fraction".

func parseBandwidth(s string) (Bandwidth, error) {
	const what = "bandwidth"
	f, scale, ok := splitUnit(strings.TrimSpace(s), bandwidthUnits)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a number and a unit (%s), e.g. \"2Mbps\"", what, s, unitNames(bandwidthUnits))
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
	f, scale, ok := splitUnit(s, durationUnits)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a number and a unit (%s), e.g. \"50ms\"", what, s, unitNames(durationUnits))
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
	f, scale, ok := splitUnit(strings.TrimSpace(s), byteUnits)
	if !ok {
		return 0, fmt.Errorf("bad %s %q: want a number and a unit (%s), e.g. \"64KiB\"", what, s, unitNames(byteUnits))
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
	s = strings.TrimSpace(s)
	num, pct := strings.CutSuffix(s, "%")
	num = strings.TrimSpace(num)
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(num, "xXpP_") {
		return 0, fmt.Errorf("bad %s %q: want a fraction (0.02) or a percentage (\"2%%\")", what, s)
	}
	if pct {
		f /= 100
	}
	if f < 0 || f > 1 {
		return 0, fmt.Errorf("%s %q outside [0, 1]", what, s)
	}
	return Fraction(f), nil
}
