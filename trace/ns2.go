package trace

import (
	"bufio"
	"io"
	"strconv"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// NS2 writes ns-2's trace format, one line per link event:
//
//	r 1.234567 2 3 tcp 1064 ------- 0 0.0 3.0 17 123
//
// event, time (s), link from and to node, packet type (tcp, ack or cbr),
// size in bytes, flags, flow id, source and destination as node.port,
// sequence number, packet id. Nodes are numbered in scenario order, as
// ns-2 numbers them in creation order; tools written for ns-2 traces
// (awk scripts, trace2graph, NAM-free analysers) read it unchanged.
type NS2 struct {
	w     *bufio.Writer
	flows []Flow
	line  []byte
	err   error
}

// NewNS2 writes to w; flows gives each flow's MSS for segment numbers.
func NewNS2(w io.Writer, flows []Flow) *NS2 {
	return &NS2{w: bufio.NewWriterSize(w, 1<<16), flows: flows, line: make([]byte, 0, 128)}
}

// Trace implements network.LinkTracer.
func (t *NS2) Trace(ev byte, l *network.Link, p *network.Packet, now sim.Time) {
	if t.err != nil {
		return
	}
	b := t.line[:0]
	b = append(b, ev, ' ')
	b = strconv.AppendFloat(b, now.Seconds(), 'f', 6, 64)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(l.From.ID), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(l.To.ID), 10)
	kind, seq := t.kindSeq(p)
	b = append(b, ' ')
	b = append(b, kind...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Size), 10)
	b = append(b, ' ')
	b = append(b, ns2Flags(p)...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Flow), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(p.Src), 10)
	b = append(b, ".0 "...)
	b = strconv.AppendInt(b, int64(p.Dst), 10)
	b = append(b, ".0 "...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, ' ')
	b = strconv.AppendUint(b, p.ID, 10)
	b = append(b, '\n')
	t.line = b
	if _, err := t.w.Write(b); err != nil {
		t.err = err
	}
}

// kindSeq names the packet type and the sequence number ns-2 prints: the
// segment number of data (ns-2 counts packets), the highest in-order
// segment an ACK covers.
func (t *NS2) kindSeq(p *network.Packet) (string, int64) {
	if p.Proto == network.UDP {
		return "cbr", int64(p.ID)
	}
	mss := int64(0)
	if i := int(p.Flow); i >= 0 && i < len(t.flows) {
		mss = int64(t.flows[i].MSS)
	}
	if p.Payload > 0 || p.Flags&network.FlagSYN != 0 {
		if mss > 0 {
			return "tcp", p.Seq / mss
		}
		return "tcp", p.Seq
	}
	if mss > 0 {
		return "ack", (p.Ack - 1) / mss
	}
	return "ack", p.Ack
}

// ns2Flags is ns-2's seven-character flag field: C (ECN echo), P
// (priority, unused), A (congestion action: CWR), E (congestion
// experienced), F (fast start, unused), N (ECN-capable transport), and a
// 7th, unused.
func ns2Flags(p *network.Packet) string {
	f := []byte("-------")
	if p.Flags&network.FlagECE != 0 {
		f[0] = 'C'
	}
	if p.Flags&network.FlagCWR != 0 {
		f[2] = 'A'
	}
	if p.CE {
		f[3] = 'E'
	}
	if p.ECT {
		f[5] = 'N'
	}
	return string(f)
}

// Flush writes buffered lines and returns the first error.
func (t *NS2) Flush() error {
	if t.err != nil {
		return t.err
	}
	return t.w.Flush()
}
