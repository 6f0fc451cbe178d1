//go:build linux

package realtime

import (
	"math"
	"time"
)

// Lateness is how late events ran against the clock: an event due at
// simulated time t ran at wall time start+t+lateness. Counts are per event
// (every event of a group due at one instant counts with the group's
// lateness).
type Lateness struct {
	Events uint64  `json:"events"`
	P50us  float64 `json:"p50_us"`
	P99us  float64 `json:"p99_us"`
	MaxUs  float64 `json:"max_us"`
	// Bound is the p99 a run must stay under to be called real-time;
	// Exceeded says it did not.
	BoundUs  float64 `json:"bound_us"`
	Exceeded bool    `json:"exceeded"`
}

// histogram counts lateness in whole microseconds up to histMax (exact
// there: percentiles of a real-time run are read in microseconds), and
// above it in one bucket whose largest value max keeps.
type histogram struct {
	counts [histMax + 1]uint64
	n      uint64
	max    time.Duration
}

const histMax = 100_000 // 100 ms

func (h *histogram) add(d time.Duration, n uint64) {
	if n == 0 {
		return
	}
	if d < 0 {
		d = 0
	}
	us := int64(d / time.Microsecond)
	if us > histMax {
		us = histMax
	}
	h.counts[us] += n
	h.n += n
	if d > h.max {
		h.max = d
	}
}

// quantile is the smallest lateness, in µs, at or above which a share 1−q
// of the events lie (the last bucket reads as the maximum).
func (h *histogram) quantile(q float64) float64 {
	if h.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	if rank < 1 {
		rank = 1
	}
	var seen uint64
	for us, c := range h.counts {
		seen += c
		if seen >= rank {
			if us == histMax {
				return float64(h.max) / float64(time.Microsecond)
			}
			return float64(us)
		}
	}
	return float64(h.max) / float64(time.Microsecond)
}

func (h *histogram) summary(bound time.Duration) Lateness {
	l := Lateness{
		Events:  h.n,
		P50us:   h.quantile(0.50),
		P99us:   h.quantile(0.99),
		MaxUs:   float64(h.max) / float64(time.Microsecond),
		BoundUs: float64(bound) / float64(time.Microsecond),
	}
	l.Exceeded = l.P99us > l.BoundUs
	return l
}
