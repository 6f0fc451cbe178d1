package network

import (
	"testing"
	"unsafe"
)

// A hop reads the link's hot fields; with thousands of flows each cache
// line of them is a miss, so they are packed into three lines (Link's
// comment). The lines fall where the offsets say only if a Link is a whole
// number of lines long (Go's size classes then place every object on a
// line boundary).
func TestLinkHotFieldsFillThreeCacheLines(t *testing.T) {
	const line = 64
	var l Link
	first := unsafe.Offsetof(l.Delay) // promoted: from the start of the Link
	hot := []struct {
		name      string
		off, size uintptr
	}{
		{"Delay", first, unsafe.Sizeof(l.Delay)},
		{"arrive", unsafe.Offsetof(l.arrive), unsafe.Sizeof(l.arrive)},
		{"busyUntil", unsafe.Offsetof(l.busyUntil), unsafe.Sizeof(l.busyUntil)},
		{"txTime", unsafe.Offsetof(l.txTime), unsafe.Sizeof(l.txTime)},
		{"txSize", unsafe.Offsetof(l.txSize), unsafe.Sizeof(l.txSize)},
		{"queued", unsafe.Offsetof(l.queued), unsafe.Sizeof(l.queued)},
		{"pipe", unsafe.Offsetof(l.pipe), unsafe.Sizeof(l.pipe)},
		{"Tracer", unsafe.Offsetof(l.Tracer), unsafe.Sizeof(l.Tracer)},
		{"To", unsafe.Offsetof(l.To), unsafe.Sizeof(l.To)},
		{"Queue", unsafe.Offsetof(l.Queue), unsafe.Sizeof(l.Queue)},
		{"DelayProc", unsafe.Offsetof(l.DelayProc), unsafe.Sizeof(l.DelayProc)},
		{"Errors", unsafe.Offsetof(l.Errors), unsafe.Sizeof(l.Errors)},
		{"Stats counts", unsafe.Offsetof(l.Stats), unsafe.Offsetof(l.Stats.Drops)},
	}
	if first%line != 0 {
		t.Errorf("the hot fields start at byte %d, not on a cache line", first)
	}
	for _, f := range hot {
		if f.off < first || f.off+f.size > first+3*line {
			t.Errorf("%s at bytes [%d, %d) is outside the three lines [%d, %d)", f.name, f.off, f.off+f.size, first, first+3*line)
		}
	}
	if size := unsafe.Sizeof(l); size%line != 0 {
		t.Errorf("a Link is %d bytes, not a whole number of cache lines", size)
	}
}

// A packet at a host reads its id, its remembered next hop, its middlebox
// and its network; at a router, its table: one cache line.
func TestNodeHotFieldsFillOneCacheLine(t *testing.T) {
	const line = 64
	var nd Node
	for _, f := range []struct {
		name      string
		off, size uintptr
	}{
		{"ID", unsafe.Offsetof(nd.ID), unsafe.Sizeof(nd.ID)},
		{"stubDst", unsafe.Offsetof(nd.stubDst), unsafe.Sizeof(nd.stubDst)},
		{"stubTo", unsafe.Offsetof(nd.stubTo), unsafe.Sizeof(nd.stubTo)},
		{"Hook", unsafe.Offsetof(nd.Hook), unsafe.Sizeof(nd.Hook)},
		{"net", unsafe.Offsetof(nd.net), unsafe.Sizeof(nd.net)},
		{"route", unsafe.Offsetof(nd.route), unsafe.Sizeof(nd.route)},
	} {
		if f.off+f.size > line {
			t.Errorf("%s at bytes [%d, %d) is past the first cache line", f.name, f.off, f.off+f.size)
		}
	}
	if size := unsafe.Sizeof(nd); size%line != 0 {
		t.Errorf("a Node is %d bytes, not a whole number of cache lines", size)
	}
}
