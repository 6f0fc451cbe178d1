package routing

import (
	"slices"

	"github.com/tcplab/tcplab/network"
)

// A DSR packet's source route is a path interned in a table the run's
// nodes share, so that a packet carries it in four bytes (Packet.SR):
// the path's handle in the low bits, how often the packet was salvaged in
// the high ones. The table is an encoding, not knowledge: each node still
// learns routes only from the packets it handles.

const (
	srHandleBits = 27
	srHandleMask = 1<<srHandleBits - 1
)

// pathTable interns paths.
type pathTable struct {
	paths [][]network.NodeID // by handle; 0 is no path
	index map[string]int32
	key   []byte // scratch for a path's key
}

// pathsKey finds a run's path table among what its network shares.
type pathsKey struct{}

func sharedPaths(net *network.Net) *pathTable {
	return net.Shared(pathsKey{}, func() any {
		return &pathTable{paths: [][]network.NodeID{nil}, index: map[string]int32{}}
	}).(*pathTable)
}

// intern is the handle of path (kept, not copied: callers pass paths they
// no longer change). A path already interned costs no allocation: every
// packet a source sends is interned.
func (t *pathTable) intern(path []network.NodeID) int32 {
	t.key = t.key[:0]
	for _, n := range path {
		t.key = append(t.key, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
	}
	if h, ok := t.index[string(t.key)]; ok {
		return h
	}
	if len(t.paths) > srHandleMask {
		panic("routing: more DSR paths than a packet can name")
	}
	h := int32(len(t.paths))
	t.paths = append(t.paths, path)
	t.index[string(t.key)] = h
	return h
}

// route is the source route p carries (nil: none).
func (t *pathTable) route(p *network.Packet) []network.NodeID {
	return t.paths[p.SR&srHandleMask]
}

func salvaged(p *network.Packet) int { return int(p.SR >> srHandleBits) }

// srHeader is the bytes a source route of n addresses adds to a packet:
// ns-2.35's DSR header, 4 fixed bytes and 4 per address after the first.
func srHeader(n int) int32 { return int32(4 * n) }

// reversed is a new slice holding path backwards.
func reversed(path []network.NodeID) []network.NodeID {
	r := slices.Clone(path)
	slices.Reverse(r)
	return r
}

// pathCache is one of a node's DSR route caches (ns-2.35's MobiCache
// halves): at most size paths, each starting at the node; a new path that
// extends one held replaces it, one already contained in a held path adds
// nothing, else it takes a free slot or the next victim in turn.
type pathCache struct {
	paths  [][]network.NodeID
	size   int
	victim int
}

func (c *pathCache) add(path []network.NodeID) {
	for i, q := range c.paths {
		switch {
		case len(q) <= len(path) && slices.Equal(q, path[:len(q)]):
			c.paths[i] = path // path extends q
			return
		case len(path) <= len(q) && slices.Equal(path, q[:len(path)]):
			return // q already holds path
		}
	}
	if len(c.paths) < c.size {
		c.paths = append(c.paths, path)
		return
	}
	c.paths[c.victim] = path
	c.victim = (c.victim + 1) % c.size
}

// find is the shortest held path to dst, cut at it, and its index (-1:
// none). Ties go to the path held first.
func (c *pathCache) find(dst network.NodeID) ([]network.NodeID, int) {
	best, at := []network.NodeID(nil), -1
	for i, q := range c.paths {
		if j := slices.Index(q, dst); j > 0 && (at < 0 || j+1 < len(best)) {
			best, at = q[:j+1], i
		}
	}
	return best, at
}

// cut removes the link a→b from every held path: a path is cut after a,
// or dropped if a is its first node.
func (c *pathCache) cut(a, b network.NodeID) {
	kept := c.paths[:0]
	for _, q := range c.paths {
		i := slices.Index(q, a)
		if i >= 0 && i+1 < len(q) && q[i+1] == b {
			if i == 0 {
				continue
			}
			q = q[:i+1]
		}
		kept = append(kept, q)
	}
	clear(c.paths[len(kept):])
	c.paths = kept
	if c.victim >= max(len(c.paths), 1) {
		c.victim = 0
	}
}

// withoutLoops removes the cycles of path (ns-2.35's compressPath): from
// each node's first visit straight to its last.
func withoutLoops(path []network.NodeID) []network.NodeID {
	out := make([]network.NodeID, 0, len(path))
	for i := 0; i < len(path); i++ {
		last := i
		for j := len(path) - 1; j > i; j-- {
			if path[j] == path[i] {
				last = j
				break
			}
		}
		out = append(out, path[i])
		i = last
	}
	return out
}
