// Package network models what packets cross: nodes with static routes,
// full-duplex links with queues, error models and delay processes.
package network

import "github.com/tcplab/tcplab/sim"

// NodeID indexes Net.Nodes.
type NodeID int32

// Proto is the transport protocol a packet carries.
type Proto uint8

// Transport protocols.
const (
	TCP Proto = iota
	UDP
	// Control is a routing protocol's own packet (an AODV RREQ, a DSR
	// route error): a node hands it to its Router, never to an endpoint.
	Control
)

// Broadcast is the destination of a packet for every neighbour in radio
// range (a routing protocol's flood or hello).
const Broadcast NodeID = -1

// Flags are TCP header flags (RFC 9293 §3.1, RFC 3168 for ECE/CWR).
type Flags uint8

// TCP header flags.
const (
	FlagFIN Flags = 1 << iota
	FlagSYN
	FlagRST
	FlagPSH
	FlagACK
	FlagURG
	FlagECE
	FlagCWR
)

// SackBlock is one SACK block (RFC 2018): bytes [Start, End) held by the
// receiver above the cumulative ACK.
type SackBlock struct{ Start, End int64 }

// MaxSack is the most SACK blocks a segment carries: 4 fit in the 40
// option bytes without timestamps, 3 with them (RFC 2018 §3).
const MaxSack = 4

// DropCause says why a packet was lost. Only metrics and tracing read it;
// protocols never see it (it is ground truth, not information).
type DropCause uint8

// Drop causes.
const (
	NotDropped    DropCause = iota
	QueueOverflow           // tail drop: the queue was full
	AQMDrop                 // an active queue manager (RED) chose to drop
	ChannelError            // the error model of a link corrupted it
	RetxLoss                // injected loss of a retransmission
	NoRoute                 // no path to the destination
	RetryLimit              // a wireless MAC gave up after its retry limit (collisions, radio errors)
	QueueAge                // a wireless interface queue dropped a packet that waited too long
	// The causes of an on-demand routing protocol (package routing): a
	// forwarder whose route broke (its next hop failed, or a route error
	// invalidated it), a packet that waited for a route longer than the
	// protocol's buffer holds one or found that buffer full, a packet the
	// protocol tried to salvage around a broken link and could not.
	BrokenLink
	RouteTimeout
	RouteBufferFull
	SalvageFailed
	NumDropCauses // how many causes there are (NotDropped included): the size of per-cause arrays
)

var dropCauseNames = [...]string{"none", "queue_overflow", "aqm_drop", "channel_error", "retx_loss", "no_route", "retry_limit", "queue_age",
	"broken_link", "route_timeout", "route_buffer_full", "salvage_failed"}

func (c DropCause) String() string { return dropCauseNames[c] }

// Congestive reports whether a drop of this cause is a congestion loss: a
// router's queue chose it (tail drop, AQM). Every other cause but NoRoute is
// a loss on the channel, which a loss-differentiating TCP should call
// wireless; the scoring of verdicts against ground truth reads this.
func (c DropCause) Congestive() bool { return c == QueueOverflow || c == AQMDrop || c == QueueAge }

// Random reports whether a drop of this cause is a loss on the channel
// (corruption, collision, injected loss, and a route that broke under
// it), not a queue's choice: a loss-differentiating TCP that reads a
// broken route as congestion has misjudged it.
func (c DropCause) Random() bool { return c != NotDropped && c != NoRoute && !c.Congestive() }

// Routing reports whether a drop of this cause is an on-demand routing
// protocol's (results list these only where one runs).
func (c DropCause) Routing() bool { return c >= BrokenLink && c < NumDropCauses }

// DropCauses lists every real cause, in a fixed order for reports.
func DropCauses() []DropCause {
	return []DropCause{QueueOverflow, AQMDrop, ChannelError, RetxLoss, NoRoute, RetryLimit, QueueAge,
		BrokenLink, RouteTimeout, RouteBufferFull, SalvageFailed}
}

// Packet is a header-only packet: the fields TCP needs, its size on the
// wire, and ground truth. Packets are pooled (Net.Alloc/Net.Free) so the
// per-packet path does not allocate.
type Packet struct {
	// The fields are ordered so that a packet takes 192 bytes (the
	// allocator's 192-byte class: three cache lines, against 224 bytes
	// and up to five lines in declaration-by-topic order) and so that a
	// hop (the pipe's links, the route, the size) and the TCP header's
	// core read the first line only.

	next     *Packet  // free list, or the next packet in a link's pipe
	arriveAt sim.Time // in a link's pipe: when it reaches the far end
	Seq      int64    // TCP: 64-bit byte offsets (never wrap in a simulation; traces fold them to 32 bits)
	Ack      int64    // TCP

	Flow    int32 // flow index; -1 for a routing protocol's packet
	Src     NodeID
	Dst     NodeID
	Port    int32 // endpoint at Dst (Net.Bind)
	Size    int32 // bytes on the wire, headers included
	Payload int32 // application bytes carried

	Proto Proto
	Flags Flags // TCP
	NSack uint8 // TCP: SACK blocks in use
	Cause DropCause
	// HasWnd: Wnd is the receive window the ACK advertises, in bytes
	// (RFC 9293 §3.8.6: flow control). Receivers without a bounded buffer
	// do not advertise one, and their senders are limited by cwnd alone.
	HasWnd bool
	HasTS  bool // timestamps option (RFC 7323)
	// ECN (RFC 3168) and the congestion-warning mark of TCP NewJersey and
	// T-DLRP, set by routers whose average queue is high.
	ECT    bool // ECN-capable transport
	CE     bool // congestion experienced
	CW     bool // congestion warning set by a router
	CWEcho bool // the receiver echoes CW on its ACK
	// Ground truth: read by metrics, never by protocols.
	Retx     bool // a retransmission
	FastRetx bool // a fast retransmission (third dupack)
	// SR is the source route a DSR packet carries (package routing: a
	// path's handle and how often the packet was salvaged); 0: none.
	// It fills what was padding after the flags.
	SR int32

	ID     uint64   // unique within a run, in order of allocation
	SentAt sim.Time // ground truth: when the source sent it
	Wnd    int64
	TSval  int64
	TSecr  int64
	Sack   [MaxSack]SackBlock

	// Body is what a layer above the network attaches to a packet it
	// made (a coded packet's coefficients and bytes); nil otherwise.
	Body any
}

// Wire is what a packet's Body implements when the packet is a real IP
// packet (a kernel host's, package kernel): traces write these bytes as
// they are instead of headers made from the fields.
type Wire interface {
	IPBytes() []byte
}

// IsData reports whether the packet carries payload (as opposed to a pure
// ACK); error models may apply to one kind only.
func (p *Packet) IsData() bool { return p.Payload > 0 || p.Flags&(FlagSYN|FlagFIN) != 0 }
