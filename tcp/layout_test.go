package tcp

import (
	"testing"
	"unsafe"
)

// An ACK and the segments it sends read the sender's hot fields; with
// thousands of flows each cache line of them is a miss, so they are packed
// into the first ten lines (Sender's comment). The lines fall where the
// offsets say only if a Sender is a whole number of lines long.
func TestSenderHotFieldsFillTenCacheLines(t *testing.T) {
	const line, lines = 64, 10
	var s Sender
	hot := []struct {
		name      string
		off, size uintptr
	}{
		{"State", unsafe.Offsetof(s.State), unsafe.Sizeof(s.State)},
		{"f", unsafe.Offsetof(s.f), 8},
		{"net", unsafe.Offsetof(s.net), 8},
		{"cfg", unsafe.Offsetof(s.cfg), 8},
		{"cc", unsafe.Offsetof(s.cc), unsafe.Sizeof(s.cc)},
		{"rec", unsafe.Offsetof(s.rec), unsafe.Sizeof(s.rec)},
		{"est", unsafe.Offsetof(s.est), unsafe.Sizeof(s.est)},
		{"mss, mssDiv, dataStart, limit", unsafe.Offsetof(s.mss), unsafe.Offsetof(s.dupacks) - unsafe.Offsetof(s.mss)},
		{"dupacks, recover, backoff, infl", unsafe.Offsetof(s.dupacks), unsafe.Offsetof(s.armedFor) - unsafe.Offsetof(s.dupacks)},
		{"armedFor … probeAcksOnly", unsafe.Offsetof(s.armedFor), unsafe.Offsetof(s.ev) - unsafe.Offsetof(s.armedFor)},
		{"ev", unsafe.Offsetof(s.ev), unsafe.Sizeof(s.ev)},
		{"timer", unsafe.Offsetof(s.timer), unsafe.Sizeof(s.timer)},
		{"sendCC", unsafe.Offsetof(s.sendCC), unsafe.Sizeof(s.sendCC)},
		{"sb", unsafe.Offsetof(s.sb), unsafe.Sizeof(s.sb)},
		{"spur", unsafe.Offsetof(s.spur), unsafe.Sizeof(s.spur)},
		{"segRTO", unsafe.Offsetof(s.segRTO), unsafe.Sizeof(s.segRTO)},
		{"stats.sentPackets, sentBytes", unsafe.Offsetof(s.stats), 16},
	}
	for _, f := range hot {
		if f.off+f.size > lines*line {
			t.Errorf("%s at bytes [%d, %d) is past the first %d cache lines", f.name, f.off, f.off+f.size, lines)
		}
	}
	if size := unsafe.Sizeof(s); size%line != 0 {
		t.Errorf("a Sender is %d bytes, not a whole number of cache lines", size)
	}
}
