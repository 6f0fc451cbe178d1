package network

import (
	"math"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// Five 1000-byte packets reach an idle 8 Mbit/s link at once: the first
// goes straight onto the wire, the others wait 1, 2, 3 and 4 ms for it.
// Worked by hand: mean 2 ms, median 2 ms, max 4 ms, four of five queued;
// a packet arriving later on the idle link waits nothing.
func TestQueueDelayIsTheWaitForTheTransmitter(t *testing.T) {
	for _, c := range []struct {
		name  string
		queue func() Queue
	}{
		{"droptail", func() Queue { return NewDropTail(100, 0) }},
		// A discipline that sees every arrival: the first packet goes
		// through the queue, and waits nothing there.
		{"red", func() Queue { return NewRED(REDConfig{MinTh: 50, MaxTh: 90, MaxP: 0.1, Wq: 0.002, Limit: 100}, nil) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := New(1)
			a, b := n.AddNode("a"), n.AddNode("b")
			ab, _ := n.Connect("l", a, b, LinkConfig{Bandwidth: 8e6, Delay: 10 * sim.Millisecond}, c.queue)
			n.ComputeRoutes()
			r := newRecorder(n)
			for range 5 {
				a.Send(dataPacket(n, a, b, r, 1000))
			}
			sim.NewTimer(n.Sched, func() { a.Send(dataPacket(n, a, b, r, 1000)) }).Arm(100 * sim.Millisecond)
			n.Run(sim.Second)
			s := ab.QueueDelay()
			if s.Packets != 6 || s.MaxMs != 4 {
				t.Fatalf("packets %d, max %v ms; want 6 and 4", s.Packets, s.MaxMs)
			}
			if c.name == "droptail" && s.Queued != 4 || c.name == "red" && s.Queued != 6 {
				t.Errorf("%d went through the queue", s.Queued)
			}
			if want := 10.0 / 6; math.Abs(s.MeanMs-want) > 1e-9 {
				t.Errorf("mean %v ms, want %v", s.MeanMs, want)
			}
			// Percentiles are their bucket's middle: within 5%.
			for _, q := range []struct {
				name      string
				got, want float64
			}{{"p50", s.P50Ms, 2}, {"p90", s.P90Ms, 4}, {"p99", s.P99Ms, 4}} {
				if math.Abs(q.got-q.want) > 0.05*q.want {
					t.Errorf("%s %v ms, want %v within 5%%", q.name, q.got, q.want)
				}
			}
		})
	}
}

// Every delay falls in the bucket whose bounds hold it, the buckets tile
// the range without gaps, and each is at most an eighth of an octave.
func TestQueueDelayBucketsTileTheRange(t *testing.T) {
	for i := 0; i < delayBuckets-1; i++ {
		lo, hi := delayBucketBounds(i)
		nlo, _ := delayBucketBounds(i + 1)
		if hi != nlo {
			t.Fatalf("bucket %d ends at %d, the next starts at %d", i, hi, nlo)
		}
		if i > 0 && float64(hi-lo) > float64(lo)/8+1e-9 {
			t.Fatalf("bucket %d [%d, %d) wider than an eighth of its octave", i, lo, hi)
		}
		for _, d := range []sim.Time{lo, hi - 1, lo + (hi-lo)/2} {
			if got := delayBucket(d); got != i {
				t.Fatalf("delay %d in bucket %d, want %d", d, got, i)
			}
		}
	}
	if delayBucket(math.MaxInt64) != delayBuckets-1 {
		t.Fatal("the largest delay is not in the last bucket")
	}
}
