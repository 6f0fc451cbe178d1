package network

import (
	"testing"
	"unsafe"
)

const cacheLine = 64

// hotField is a field, or a run of fields, that every packet reads.
type hotField struct {
	name      string
	off, size uintptr
}

// checkHotFields fails t unless every field lies within lines cache lines
// from byte from, which starts a line, and the type (size bytes) is a
// whole number of lines: only then do Go's size classes place every object
// on a line boundary, so that the lines fall where the offsets say.
func checkHotFields(t *testing.T, typ string, size, from, lines uintptr, fields []hotField) {
	t.Helper()
	if from%cacheLine != 0 {
		t.Errorf("%s's hot fields start at byte %d, not on a cache line", typ, from)
	}
	for _, f := range fields {
		if f.off < from || f.off+f.size > from+lines*cacheLine {
			t.Errorf("%s.%s at bytes [%d, %d) is outside the %d lines [%d, %d)",
				typ, f.name, f.off, f.off+f.size, lines, from, from+lines*cacheLine)
		}
	}
	if size%cacheLine != 0 {
		t.Errorf("a %s is %d bytes, not a whole number of cache lines", typ, size)
	}
}

// A hop reads the link's hot fields; with thousands of flows each cache
// line of them is a miss, so they are packed into two lines (Link's
// comment): the queue and the hooks are not among them.
func TestLinkHotFieldsFillTwoCacheLines(t *testing.T) {
	var l Link
	first := unsafe.Offsetof(l.Delay) // promoted: from the start of the Link
	checkHotFields(t, "Link", unsafe.Sizeof(l), first, 2, []hotField{
		{"Delay", first, unsafe.Sizeof(l.Delay)},
		{"arrive", unsafe.Offsetof(l.arrive), unsafe.Sizeof(l.arrive)},
		{"busyUntil", unsafe.Offsetof(l.busyUntil), unsafe.Sizeof(l.busyUntil)},
		{"txTime", unsafe.Offsetof(l.txTime), unsafe.Sizeof(l.txTime)},
		{"txSize", unsafe.Offsetof(l.txSize), unsafe.Sizeof(l.txSize)},
		{"admit", unsafe.Offsetof(l.admit), unsafe.Sizeof(l.admit)},
		{"queued", unsafe.Offsetof(l.queued), unsafe.Sizeof(l.queued)},
		{"hooks", unsafe.Offsetof(l.hooks), unsafe.Sizeof(l.hooks)},
		{"To", unsafe.Offsetof(l.To), unsafe.Sizeof(l.To)},
		{"pipe", unsafe.Offsetof(l.pipe), unsafe.Sizeof(l.pipe)},
		{"Stats counts", unsafe.Offsetof(l.Stats), unsafe.Offsetof(l.Stats.Drops)},
	})
}

// A packet at a host reads its id, its remembered next hop, its middlebox
// and its network; at a router, its table: one cache line.
func TestNodeHotFieldsFillOneCacheLine(t *testing.T) {
	var nd Node
	checkHotFields(t, "Node", unsafe.Sizeof(nd), 0, 1, []hotField{
		{"ID", unsafe.Offsetof(nd.ID), unsafe.Sizeof(nd.ID)},
		{"stubDst", unsafe.Offsetof(nd.stubDst), unsafe.Sizeof(nd.stubDst)},
		{"stubTo", unsafe.Offsetof(nd.stubTo), unsafe.Sizeof(nd.stubTo)},
		{"Hook", unsafe.Offsetof(nd.Hook), unsafe.Sizeof(nd.Hook)},
		{"net", unsafe.Offsetof(nd.net), unsafe.Sizeof(nd.net)},
		{"route", unsafe.Offsetof(nd.route), unsafe.Sizeof(nd.route)},
	})
}
