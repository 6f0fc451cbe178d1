// Package units reads quantities written with their units: bit rates
// ("2Mbps"), durations ("50ms"), sizes ("64KiB") and fractions ("2%").
// Scenarios require the unit (a bare "2" could mean bits, bytes or
// packets per anything, and a wrong guess silently changes results);
// model flags, whose unit is declared, accept a bare number too.
package units

import (
	"math"
	"strconv"
	"strings"
)

// Suffix is a unit and how many base units it holds.
type Suffix struct {
	Name  string
	Scale float64
}

// Tables of suffixes, longer ones first so that "ms" is not read as "s".
var (
	// BitRate is in bits per second.
	BitRate = []Suffix{{"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}, {"Kbps", 1e3}, {"bps", 1}}
	// Duration is in nanoseconds, the simulator's clock tick.
	Duration = []Suffix{{"min", 60e9}, {"ms", 1e6}, {"us", 1e3}, {"µs", 1e3}, {"ns", 1}, {"s", 1e9}}
	// Length is in metres.
	Length = []Suffix{{"km", 1000}, {"m", 1}}
	// Size is in bytes; KB is 10^3, KiB 2^10.
	Size = []Suffix{
		{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
		{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"kB", 1e3}, {"B", 1},
	}
)

// Names lists a table's suffixes: "Gbps, Mbps, ...".
func Names(table []Suffix) string {
	names := make([]string, len(table))
	for i, u := range table {
		names[i] = u.Name
	}
	return strings.Join(names, ", ")
}

// Split splits "1.5Mbps" into 1.5 and the scale of its unit; ok is false
// without a unit of the table or with anything but a plain decimal number
// before it (no hexadecimal, no underscores, no NaN or infinity).
func Split(s string, table []Suffix) (num, scale float64, ok bool) {
	s = strings.TrimSpace(s)
	for _, u := range table {
		if rest, found := strings.CutSuffix(s, u.Name); found {
			f, ok := Number(rest)
			return f, u.Scale, ok
		}
	}
	return 0, 0, false
}

// Number reads a plain decimal number.
func Number(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || s == "" || math.IsNaN(f) || math.IsInf(f, 0) || strings.ContainsAny(s, "xXpP_") {
		return 0, false
	}
	return f, true
}

// ParseFraction reads 0.02 or "2%" as 0.02 (the range is the caller's to check).
func ParseFraction(s string) (float64, bool) {
	num, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	f, ok := Number(num)
	if pct {
		f /= 100
	}
	return f, ok
}
