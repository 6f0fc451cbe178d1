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
	dataEnd  int64 // the data frame's end at the sender, for matching its ACK
}
