package network

import (
	"math/bits"

	"github.com/tcplab/tcplab/sim"
)

// queueDelay records how long a link's packets waited for its
// transmitter: from arriving at the link to starting their transmission
// (the queueing delay of RFC 7928 §2.2, which AQMs aim at). Packets that
// found the transmitter idle waited nothing; the record holds only those
// that went through the queue, and the link's transmission count the
// rest. Delays fall in log-spaced buckets, eight to an octave (about 9%
// wide) from 1 µs to 2 200 s, so that a link that queues keeps a fixed
// 2 KB and a packet adds one count.
type queueDelay struct {
	queued  int64    // packets that went through the queue
	sum     sim.Time // their delays
	max     sim.Time
	buckets [delayBuckets]int64
}

const (
	// delaySub is the buckets to an octave; delayMinBits the octave below
	// which every delay shares bucket 0 (2^10 ns, about 1 µs), and
	// delayMaxBits the one from which every delay shares the last.
	delaySub     = 8
	delayMinBits = 10
	delayMaxBits = 41
	delayBuckets = (delayMaxBits-delayMinBits)*delaySub + 1
)

// delayBucket is the bucket of a delay of d nanoseconds.
func delayBucket(d sim.Time) int {
	if d < 1<<delayMinBits {
		return 0
	}
	d = min(d, 1<<delayMaxBits-1)
	e := bits.Len64(uint64(d)) // d in [2^(e-1), 2^e)
	sub := int(uint64(d)>>(e-4)) & (delaySub - 1)
	return (e-1-delayMinBits)*delaySub + sub + 1
}

// delayBucketBounds is the range [lo, hi) of bucket i.
func delayBucketBounds(i int) (lo, hi sim.Time) {
	if i == 0 {
		return 0, 1 << delayMinBits
	}
	e := (i-1)/delaySub + delayMinBits // the octave [2^e, 2^(e+1))
	sub := (i - 1) % delaySub
	step := sim.Time(1) << (e - 3)
	lo = sim.Time(1)<<e + sim.Time(sub)*step
	return lo, lo + step
}

func (q *queueDelay) add(d sim.Time) {
	q.queued++
	q.sum += d
	q.max = max(q.max, d)
	q.buckets[delayBucket(d)]++
}

// QueueStats summarizes a link's queueing delay over every packet it
// transmitted, those that waited nothing included.
type QueueStats struct {
	Packets int64   `json:"packets"` // transmissions started
	Queued  int64   `json:"queued"`  // of which went through the queue
	MeanMs  float64 `json:"mean_ms"`
	P50Ms   float64 `json:"p50_ms"` // percentiles: the middle of their bucket (within 5%)
	P90Ms   float64 `json:"p90_ms"`
	P99Ms   float64 `json:"p99_ms"`
	MaxMs   float64 `json:"max_ms"` // exact
}

// stats summarizes q for a link that transmitted packets in all.
func (q *queueDelay) stats(packets int64) QueueStats {
	ms := func(t sim.Time) float64 { return float64(t) / float64(sim.Millisecond) }
	s := QueueStats{Packets: packets, Queued: q.queued, MaxMs: ms(q.max)}
	if packets == 0 {
		return s
	}
	s.MeanMs = ms(q.sum) / float64(packets)
	quantile := func(p float64) float64 {
		rank := int64(p * float64(packets)) // packets below the quantile
		seen := packets - q.queued          // those that waited nothing
		if rank < seen {
			return 0
		}
		for i, n := range q.buckets {
			if seen += n; rank < seen {
				lo, hi := delayBucketBounds(i)
				return min(ms(lo+(hi-lo)/2), ms(q.max))
			}
		}
		return ms(q.max)
	}
	s.P50Ms, s.P90Ms, s.P99Ms = quantile(0.5), quantile(0.9), quantile(0.99)
	return s
}
