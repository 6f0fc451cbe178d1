package wireless

import "github.com/tcplab/tcplab/network"

// kind is an 802.11 frame type this model sends.
type kind uint8

const (
	dataFrame kind = iota
	ackFrame
	rtsFrame
	ctsFrame
)

// frame is what a transmission carries: addresses, the duration field
// (NAV), and for data the packet with its MAC sequence number.
type frame struct {
	kind     kind
	from, to *Radio
	nav      int64 // ns the exchange holds the medium after this frame
	rate     float64
	pkt      *network.Packet // data only; owned by the sender until acknowledged
	seq      uint32
	retry    bool
}

// FrameEvent is a frame put on the air, as a trace sees it.
type FrameEvent struct {
	Kind     string // "data", "ack", "rts" or "cts"
	From, To network.NodeID
	NAV      int64 // the duration field, ns
	Seq      uint32
	Retry    bool
	Packet   *network.Packet // data frames only; not to be kept
	Start    int64           // ns
	AirTime  int64           // ns
	Bytes    int             // MPDU bytes
}

// FrameTracer observes every frame a channel carries.
type FrameTracer interface {
	Frame(e *FrameEvent)
}

var kindNames = [...]string{dataFrame: "data", ackFrame: "ack", rtsFrame: "rts", ctsFrame: "cts"}
