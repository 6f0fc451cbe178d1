//go:build linux

package kernel

import (
	"encoding/binary"
	"net/netip"

	"github.com/tcplab/tcplab/network"
)

// frame holds the bytes of one IP packet a kernel host sent; it rides in
// network.Packet.Body across the simulated network and is written to the
// destination's TUN device. Frames are pooled: the per-packet path does
// not allocate (at 100 Mbit/s a frame each would be 12 MB/s of garbage,
// and collections are lateness).
type frame struct {
	next *frame
	n    int
	b    [frameSize]byte
}

// frameSize holds the TUN device's 1500-byte MTU with room to spare; a
// longer read would be truncated, so the devices keep the default MTU.
const frameSize = 2048

// IPBytes implements network.Wire: traces write a kernel packet as sent.
func (f *frame) IPBytes() []byte { return f.b[:f.n] }

type frames struct{ free *frame }

func (fs *frames) get() *frame {
	f := fs.free
	if f == nil {
		return new(frame)
	}
	fs.free = f.next
	return f
}

func (fs *frames) put(f *frame) {
	f.next, f.n = fs.free, 0
	fs.free = f
}

// header is what the simulated network reads of a kernel host's packet:
// addresses, and for TCP the ports and the header fields that error models
// (data-only loss), traces and metrics look at.
type header struct {
	dst              netip.Addr
	proto            network.Proto
	srcPort, dstPort uint16
	flags            network.Flags
	seq, ack         uint32
	payload          int
}

// parse reads an IPv4 packet's header; ok is false for anything else
// (IPv6, a truncated packet).
func parse(b []byte) (h header, ok bool) {
	if len(b) < 20 || b[0]>>4 != 4 {
		return h, false
	}
	ihl := int(b[0]&0x0f) * 4
	total := int(binary.BigEndian.Uint16(b[2:4]))
	if ihl < 20 || total < ihl || total > len(b) {
		return h, false
	}
	h.dst = netip.AddrFrom4([4]byte(b[16:20]))
	l4 := b[ihl:total]
	switch b[9] {
	case 6: // TCP (RFC 9293 §3.1)
		h.proto = network.TCP
		if len(l4) < 20 {
			return h, true
		}
		off := int(l4[12]>>4) * 4
		h.srcPort, h.dstPort = binary.BigEndian.Uint16(l4[0:2]), binary.BigEndian.Uint16(l4[2:4])
		h.seq, h.ack = binary.BigEndian.Uint32(l4[4:8]), binary.BigEndian.Uint32(l4[8:12])
		h.flags = network.Flags(l4[13])
		if off >= 20 && off <= len(l4) {
			h.payload = len(l4) - off
		}
	case 17: // UDP
		h.proto = network.UDP
		if len(l4) >= 8 {
			h.srcPort, h.dstPort = binary.BigEndian.Uint16(l4[0:2]), binary.BigEndian.Uint16(l4[2:4])
			h.payload = len(l4) - 8
		}
	default:
		h.proto = network.UDP // ICMP and the rest: datagrams to the network
		h.payload = len(l4)
	}
	return h, true
}
