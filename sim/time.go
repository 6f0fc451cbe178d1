// Package sim is the event kernel: simulated time, a deterministic scheduler
// with cheap re-armable timers, and named random streams.
package sim

import (
	"fmt"
	"math"
	"time"
)

// Time is simulated time in integer nanoseconds. Integer time keeps runs
// bit-identical across machines; int64 nanoseconds cover 292 years.
type Time int64

// Units of simulated time.
const (
	Nanosecond  Time = 1
	Microsecond      = 1000 * Nanosecond
	Millisecond      = 1000 * Microsecond
	Second           = 1000 * Millisecond
	// Never is a time after every event of a run.
	Never Time = math.MaxInt64
)

// Seconds returns t as floating-point seconds.
func (t Time) Seconds() float64 { return float64(t) / float64(Second) }

// FromSeconds converts floating-point seconds to Time, rounding to the
// nearest nanosecond.
func FromSeconds(s float64) Time { return Time(math.Round(s * float64(Second))) }

func (t Time) String() string {
	if t == Never {
		return "never"
	}
	return time.Duration(t).String()
}

// TxTime is the serialization time of size bytes at bps bits per second,
// rounded up so that a link never runs faster than its rate.
func TxTime(size int, bps float64) Time {
	if bps <= 0 {
		panic(fmt.Sprintf("sim: non-positive bandwidth %v", bps))
	}
	return Time(math.Ceil(float64(size) * 8 * float64(Second) / bps))
}
