package trace

import (
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Addressing of pcap traces. A node's address is derived from its ID so
// that the same scenario always gives the same addresses.
const (
	// SenderPortBase + flow index is a flow's port at its sender; the
	// receiver listens on ReceiverPort, so each flow is one 4-tuple.
	SenderPortBase = 10000
	ReceiverPort   = 5001
	// maxWindow is the largest window the 16-bit field carries without
	// the window-scale option, which tcplab packets do not negotiate.
	maxWindow = 65535
)

// NodeIP is the IPv4 address of node id: 10.0.0.1 for node 0, and so on.
func NodeIP(id network.NodeID) [4]byte {
	n := uint32(id) + 1
	return [4]byte{10, byte(n >> 16), byte(n >> 8), byte(n)}
}

func nodeMAC(id network.NodeID) []byte {
	if id == network.Broadcast {
		return []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	}
	n := uint32(id) + 1
	return []byte{0x02, 0, byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}
}

// ISN is the initial sequence number a flow's sender (or receiver) uses
// in pcap traces. tcplab sequence numbers are 64-bit offsets from 0; a
// trace shows ISN + offset mod 2³², as a real stack would. Derived by
// hashing so that flows differ (tools that match by sequence number do not
// confuse them) and wrap-around is exercised in long runs.
func ISN(flow int32, receiver bool) uint32 {
	x := uint64(uint32(flow))<<1 | 0x5eed0000_00000000
	if receiver {
		x |= 1
	}
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return uint32(x)
}

// Fold maps a 64-bit sequence offset to the 32-bit wire value.
func Fold(isn uint32, seq int64) uint32 { return isn + uint32(seq) }

// PcapOptions choose what a Pcap writer records.
type PcapOptions struct {
	// Events are the link events recorded (network.LinkTracer letters):
	// "-" (default) captures packets as they start transmission, like
	// tcpdump on the sending interface; "r" as they arrive at the far
	// end, after any channel loss.
	Events string
	// Snaplen caps the bytes stored per packet (0: whole packets, with
	// zero-filled payload). 128 keeps every header and option.
	Snaplen int
}

// Pcap writes the packets crossing one or more link directions as an
// Ethernet pcap file (microsecond timestamps, the format every tool
// reads). Payload bytes are zeros; headers are real, checksums correct. A
// kernel host's packet (network.Wire) is written as the kernel sent it.
type Pcap struct {
	w      *pcapgo.Writer
	flows  []Flow
	events string
	snap   int
	buf    gopacket.SerializeBuffer
	zeros  []byte
	n      int64
	err    error

	eth    layers.Ethernet
	layers []gopacket.SerializableLayer
	ip     layers.IPv4
	tcp    layers.TCP
	udp    layers.UDP
	opts   [2]layers.TCPOption
	ts     [8]byte
	sack   [8 * network.MaxSack]byte
}

// NewPcap writes the pcap file header to w. flows describes the
// scenario's flows by index (packets of flows not listed are taken to be
// data if they carry payload).
func NewPcap(w io.Writer, flows []Flow, o PcapOptions) (*Pcap, error) {
	return newPcap(w, flows, o, layers.LinkTypeEthernet)
}

func newPcap(w io.Writer, flows []Flow, o PcapOptions, link layers.LinkType) (*Pcap, error) {
	if o.Events == "" {
		o.Events = "-"
	}
	for _, c := range []byte(o.Events) {
		if c != '+' && c != '-' && c != 'r' && c != 'd' {
			return nil, fmt.Errorf("pcap events %q: want letters from + - r d", o.Events)
		}
	}
	snap := o.Snaplen
	if snap <= 0 {
		snap = 65535
	}
	pw := pcapgo.NewWriter(w)
	if err := pw.WriteFileHeader(uint32(snap), link); err != nil {
		return nil, err
	}
	return &Pcap{w: pw, flows: flows, events: o.Events, snap: snap,
		buf: gopacket.NewSerializeBuffer()}, nil
}

// Packets is the number of packets written.
func (c *Pcap) Packets() int64 { return c.n }

// Err is the first write error, if any; tracing stops at it.
func (c *Pcap) Err() error { return c.err }

// Trace implements network.LinkTracer.
func (c *Pcap) Trace(ev byte, _ *network.Link, p *network.Packet, now sim.Time) {
	if c.err != nil || !hasByte(c.events, ev) {
		return
	}
	c.eth = layers.Ethernet{SrcMAC: nodeMAC(p.Src), DstMAC: nodeMAC(p.Dst), EthernetType: layers.EthernetTypeIPv4}
	data, err := c.encode(p, &c.eth)
	if err != nil {
		c.err = err
		return
	}
	c.write(data, now)
}

// write stores one captured frame.
func (c *Pcap) write(data []byte, now sim.Time) {
	wire := len(data)
	ci := gopacket.CaptureInfo{
		Timestamp:     time.Unix(0, int64(now)).UTC(),
		CaptureLength: min(len(data), c.snap),
		Length:        wire,
	}
	if err := c.w.WritePacket(ci, data[:ci.CaptureLength]); err != nil {
		c.err = err
		return
	}
	c.n++
}

func hasByte(s string, b byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return true
		}
	}
	return false
}

// fromSender reports whether p travels in its flow's data direction.
func (c *Pcap) fromSender(p *network.Packet) bool {
	if i := int(p.Flow); i >= 0 && i < len(c.flows) {
		return p.Src == c.flows[i].Src
	}
	return p.IsData()
}

// encode builds the frame for p behind the given link-layer headers.
func (c *Pcap) encode(p *network.Packet, link ...gopacket.SerializableLayer) ([]byte, error) {
	if w, ok := p.Body.(network.Wire); ok {
		// A real IP packet (a kernel host's): its own bytes, payload and
		// all, behind the link layer.
		c.layers = append(append(c.layers[:0], link...), gopacket.Payload(w.IPBytes()))
		if err := gopacket.SerializeLayers(c.buf, gopacket.SerializeOptions{}, c.layers...); err != nil {
			return nil, err
		}
		return c.buf.Bytes(), nil
	}
	src, dst := NodeIP(p.Src), NodeIP(p.Dst)
	c.ip = layers.IPv4{Version: 4, TTL: 64, SrcIP: src[:], DstIP: dst[:], Id: uint16(p.ID), Flags: layers.IPv4DontFragment}
	// ECN field of the TOS byte (RFC 3168 §5): ECT(0) = 10, CE = 11.
	switch {
	case p.CE:
		c.ip.TOS = 0x03
	case p.ECT:
		c.ip.TOS = 0x02
	}
	payload := int(p.Payload)
	if cap(c.zeros) < payload {
		c.zeros = make([]byte, payload)
	}
	var l4 gopacket.SerializableLayer
	if p.Proto == network.UDP {
		c.ip.Protocol = layers.IPProtocolUDP
		port := layers.UDPPort(SenderPortBase + int(p.Flow))
		c.udp = layers.UDP{SrcPort: port, DstPort: ReceiverPort}
		c.udp.SetNetworkLayerForChecksum(&c.ip)
		l4 = &c.udp
	} else {
		c.ip.Protocol = layers.IPProtocolTCP
		c.encodeTCP(p)
		l4 = &c.tcp
	}
	ls := append(append(c.layers[:0], link...), &c.ip, l4, gopacket.Payload(c.zeros[:payload]))
	c.layers = ls
	if err := gopacket.SerializeLayers(c.buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...); err != nil {
		return nil, err
	}
	return c.buf.Bytes(), nil
}

func (c *Pcap) encodeTCP(p *network.Packet) {
	sender := c.fromSender(p)
	isnS, isnR := ISN(p.Flow, false), ISN(p.Flow, true)
	t := &c.tcp
	*t = layers.TCP{
		SYN: p.Flags&network.FlagSYN != 0, FIN: p.Flags&network.FlagFIN != 0,
		RST: p.Flags&network.FlagRST != 0, PSH: p.Flags&network.FlagPSH != 0,
		ACK: p.Flags&network.FlagACK != 0, URG: p.Flags&network.FlagURG != 0,
		ECE: p.Flags&network.FlagECE != 0, CWR: p.Flags&network.FlagCWR != 0,
		// The receive window is not modelled (the sender's window cap
		// stands for it): advertise the largest, as a zero would read as
		// a zero-window probe to every tool.
		Window: maxWindow,
	}
	sport, rport := layers.TCPPort(SenderPortBase+int(p.Flow)), layers.TCPPort(ReceiverPort)
	if sender {
		t.SrcPort, t.DstPort = sport, rport
		t.Seq = Fold(isnS, p.Seq)
		// The receiver sends no data: its sequence number is its ISN,
		// plus one once its SYN (if any) is acknowledged.
		if t.ACK {
			t.Ack = isnR + 1
		}
	} else {
		t.SrcPort, t.DstPort = rport, sport
		t.Seq = isnR
		if !t.SYN {
			t.Seq++
		}
		t.Ack = Fold(isnS, p.Ack)
	}
	t.Options = c.opts[:0]
	if p.HasTS {
		binary.BigEndian.PutUint32(c.ts[0:], uint32(p.TSval))
		binary.BigEndian.PutUint32(c.ts[4:], uint32(p.TSecr))
		t.Options = append(t.Options, layers.TCPOption{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10, OptionData: c.ts[:]})
	}
	if n := int(p.NSack); n > 0 {
		// SACK edges are the sender's sequence space (RFC 2018).
		for i := 0; i < n; i++ {
			binary.BigEndian.PutUint32(c.sack[8*i:], Fold(isnS, p.Sack[i].Start))
			binary.BigEndian.PutUint32(c.sack[8*i+4:], Fold(isnS, p.Sack[i].End))
		}
		t.Options = append(t.Options, layers.TCPOption{OptionType: layers.TCPOptionKindSACK, OptionLength: uint8(2 + 8*n), OptionData: c.sack[:8*n]})
	}
	// Two NOPs before each option align them as real stacks do
	// (RFC 7323 Appendix A); gopacket pads the end.
	if len(t.Options) > 0 {
		var opts []layers.TCPOption
		for _, o := range t.Options {
			opts = append(opts, layers.TCPOption{OptionType: layers.TCPOptionKindNop, OptionLength: 1},
				layers.TCPOption{OptionType: layers.TCPOptionKindNop, OptionLength: 1}, o)
		}
		t.Options = opts
	}
	t.SetNetworkLayerForChecksum(&c.ip)
}
