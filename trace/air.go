package trace

import (
	"encoding/binary"
	"io"
	"math"

	"github.com/gopacket/gopacket/layers"

	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/wireless"
)

// bssid names the ad-hoc network in 802.11 headers (locally administered).
var bssid = []byte{0x02, 0x74, 0x63, 0x70, 0x6c, 0x00}

// Air writes every frame an 802.11 channel carries as a pcap of link type
// IEEE 802.11 (no radiotap, no FCS), which Wireshark decodes down to the
// MAC frame: data frames with their sequence number, retry flag and
// duration, LLC/SNAP, IPv4 and TCP or UDP; ACK, RTS and CTS frames. A
// frame is recorded as its transmission starts, collided or not.
type Air struct {
	pc   *Pcap
	dot  layers.Dot11
	llc  layers.LLC
	snap layers.SNAP
	ctl  [16]byte
}

// NewAir writes the pcap file header to w.
func NewAir(w io.Writer, flows []Flow) (*Air, error) {
	pc, err := newPcap(w, flows, PcapOptions{}, layers.LinkTypeIEEE802_11)
	if err != nil {
		return nil, err
	}
	return &Air{pc: pc}, nil
}

// Packets is the number of frames written.
func (a *Air) Packets() int64 { return a.pc.n }

// Err is the first write error, if any.
func (a *Air) Err() error { return a.pc.err }

// durationID is the duration field: the NAV in whole microseconds.
func durationID(ns int64) uint16 {
	return uint16(min(math.Ceil(float64(ns)/1e3), 32767))
}

// Frame implements wireless.FrameTracer.
func (a *Air) Frame(e *wireless.FrameEvent) {
	if a.pc.err != nil {
		return
	}
	now := sim.Time(e.Start)
	switch e.Kind {
	case "data":
		a.dot = layers.Dot11{Type: layers.Dot11TypeData, DurationID: durationID(e.NAV),
			Address1: nodeMAC(e.To), Address2: nodeMAC(e.From), Address3: bssid,
			SequenceNumber: uint16(e.Seq & 0xfff)}
		if e.Retry {
			a.dot.Flags |= layers.Dot11FlagsRetry
		}
		a.llc = layers.LLC{DSAP: 0xaa, SSAP: 0xaa, Control: 3}
		a.snap = layers.SNAP{OrganizationalCode: []byte{0, 0, 0}, Type: layers.EthernetTypeIPv4}
		data, err := a.pc.encode(e.Packet, &a.dot, &a.llc, &a.snap)
		if err != nil {
			a.pc.err = err
			return
		}
		a.pc.write(data, now)
	default:
		// Control frames: frame control, duration, receiver address, and
		// for an RTS the transmitter address (802.11-2020 §9.3.1).
		b := a.ctl[:10]
		switch e.Kind {
		case "ack":
			b[0] = 0xd4
		case "cts":
			b[0] = 0xc4
		case "rts":
			b = a.ctl[:16]
			b[0] = 0xb4
			copy(b[10:], nodeMAC(e.From))
		}
		b[1] = 0
		binary.LittleEndian.PutUint16(b[2:], durationID(e.NAV))
		copy(b[4:], nodeMAC(e.To))
		a.pc.write(b, now)
	}
}
