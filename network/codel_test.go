package network

import (
	"slices"
	"testing"

	"github.com/tcplab/tcplab/sim"
)

// CoDel worked by hand (RFC 8289 §5): backlog packets of 1000 bytes
// queued at time 0, one dequeued every millisecond from 1 ms, so the k-th
// dequeue sees a sojourn of k ms. Sojourn reaches the 5 ms target at 5 ms,
// so the first drop is due an interval later, at 105 ms (packet 105; 106
// goes out). The control law then spaces drops by 100/√count ms from the
// scheduled time: 205 (packet 206), 275.71 → the dequeue at 276 (278),
// 333.45 → 334 (337), 383.45 → 384 (388).
func TestCoDelDropsOnItsControlLaw(t *testing.T) {
	type drop struct {
		at sim.Time
		id uint64
	}
	for _, c := range []struct {
		name    string
		ns3     bool
		backlog int
		until   sim.Time
		want    []drop
	}{
		{"a standing queue", false, 400, 390 * sim.Millisecond, []drop{
			{105 * sim.Millisecond, 105}, {205 * sim.Millisecond, 206}, {276 * sim.Millisecond, 278},
			{334 * sim.Millisecond, 337}, {384 * sim.Millisecond, 388}}},
		// ns-3.37's arithmetic: the first drop once now is past
		// first_above_time (106 ms), then gaps of interval·r/2^16 with r
		// moved by one Newton step per count: 65535, 32769, 36864, 31968,
		// that is 99.998, 50.002, 56.250, 48.779 ms.
		{"a standing queue, as ns-3", true, 400, 390 * sim.Millisecond, []drop{
			{106 * sim.Millisecond, 106}, {206 * sim.Millisecond, 207}, {256 * sim.Millisecond, 258},
			{313 * sim.Millisecond, 316}, {362 * sim.Millisecond, 366}}},
		{"sojourn below target", false, 4, 390 * sim.Millisecond, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := NewCoDel(1000, 5*sim.Millisecond, 100*sim.Millisecond, 1500)
			q.ns3 = c.ns3
			var got []drop
			var now sim.Time
			q.SetDrop(func(p *Packet, cause DropCause) {
				if cause != AQMDrop {
					t.Fatalf("cause %v", cause)
				}
				got = append(got, drop{now, p.ID})
			})
			for i := range c.backlog {
				if q.Enqueue(&Packet{ID: uint64(i + 1), Size: 1000}, 0) != NotDropped {
					t.Fatal("refused below its limit")
				}
			}
			for now = sim.Millisecond; now <= c.until && q.Len() > 0; now += sim.Millisecond {
				q.Dequeue(now)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("drops %v, want %v", got, c.want)
			}
		})
	}
}

// A full CoDel queue drops at its tail as a drop-tail one does.
func TestCoDelTailDropsWhenFull(t *testing.T) {
	q := NewCoDel(2, 5*sim.Millisecond, 100*sim.Millisecond, 1500)
	for i, want := range []DropCause{NotDropped, NotDropped, QueueOverflow} {
		if got := q.Enqueue(&Packet{ID: uint64(i), Size: 1000}, 0); got != want {
			t.Fatalf("packet %d: %v, want %v", i, got, want)
		}
	}
	if q.Overflows != 1 || q.Len() != 2 || q.Bytes() != 2000 {
		t.Fatalf("overflows %d, %d packets, %d bytes", q.Overflows, q.Len(), q.Bytes())
	}
}

// A packet that waits long, but alone (at most MinBytes left behind it),
// is never dropped: the queue is not what delays it (RFC 8289 §5).
func TestCoDelSparesAPacketThatWaitsAlone(t *testing.T) {
	q := NewCoDel(1000, 5*sim.Millisecond, 100*sim.Millisecond, 1500)
	drops := 0
	q.SetDrop(func(*Packet, DropCause) { drops++ })
	for k := range 300 {
		at := sim.Time(k) * 60 * sim.Millisecond
		q.Enqueue(&Packet{ID: uint64(k), Size: 1500}, at)
		if p := q.Dequeue(at + 50*sim.Millisecond); p == nil || p.ID != uint64(k) {
			t.Fatalf("dequeue %d: %v", k, p)
		}
	}
	if drops != 0 {
		t.Fatalf("%d drops of packets that waited alone", drops)
	}
}
