//go:build linux

package kernel

import (
	"encoding/binary"
	"net/netip"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// tcpPacket is an IPv4/TCP packet from src to dst with payload bytes.
func tcpPacket(src, dst netip.Addr, srcPort, dstPort uint16, payload int) []byte {
	b := make([]byte, 40+payload)
	b[0], b[9] = 0x45, 6
	binary.BigEndian.PutUint16(b[2:4], uint16(len(b)))
	s, d := src.As4(), dst.As4()
	copy(b[12:16], s[:])
	copy(b[16:20], d[:])
	binary.BigEndian.PutUint16(b[20:22], srcPort)
	binary.BigEndian.PutUint16(b[22:24], dstPort)
	binary.BigEndian.PutUint32(b[24:28], 1000)
	b[32] = 5 << 4                                  // data offset: 20 bytes
	b[33] = byte(network.FlagACK | network.FlagPSH) // flags
	return b
}

// pipeHosts is an emulation of two hosts joined by a 100 Mbit/s link whose
// devices are pipes (no root needed): what the network delivers to B is
// written to B's pipe.
func pipeHosts(t *testing.T) (*Emulation, *Host, *Host, int) {
	t.Helper()
	n := network.New(1)
	a, b := n.AddNode("A"), n.AddNode("B")
	n.Connect("ab", a, b, network.LinkConfig{Bandwidth: 100e6, Delay: sim.Millisecond},
		func() network.Queue { return network.NewDropTail(100, 0) })
	n.ComputeRoutes()
	e := &Emulation{net: n, byAddr: map[netip.Addr]*Host{}, flows: map[flowKey]int32{}}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(p[0]); unix.Close(p[1]) })
	addr := Range.Addr()
	var hs []*Host
	for _, nd := range []*network.Node{a, b} {
		addr = addr.Next()
		h := &Host{Node: nd, Addr: addr, fd: p[1], e: e}
		h.port = n.Bind(h)
		e.hosts = append(e.hosts, h)
		e.byAddr[addr] = h
		hs = append(hs, h)
	}
	n.OnDrop(e.dropped)
	return e, hs[0], hs[1], p[0]
}

// A kernel packet enters at its node, crosses the link and is written
// whole at the destination's device, counted for its flow by its ports,
// and the per-packet path allocates nothing once frames and packets are
// pooled.
func TestAKernelPacketCrossesAndAllocatesNothing(t *testing.T) {
	e, a, b, out := pipeHosts(t)
	e.bindFlow(0, a.Node.ID, b.Node.ID, senderBase)
	pkt := tcpPacket(a.Addr, b.Addr, senderBase, listenBase, 1000)
	got := make([]byte, 4096)
	send := func() int {
		f := e.frames.get()
		f.n = copy(f.b[:], pkt)
		e.inject(a, f)
		e.net.Run(e.net.Now() + 10*sim.Millisecond)
		n, _ := unix.Read(out, got)
		return n
	}
	if n := send(); n != len(pkt) || string(got[:n]) != string(pkt) {
		t.Fatalf("the destination's device got %d bytes, want the %d sent, unchanged", n, len(pkt))
	}
	w := e.wire[0]
	if a.Stats.Sent != 1 || b.Stats.Delivered != 1 || w.dataPackets != 1 || w.deliveredPayload != 1000 || w.dataBytes != int64(len(pkt)) {
		t.Fatalf("counters: A %+v, B %+v, flow %+v", a.Stats, b.Stats, w)
	}
	if allocs := testing.AllocsPerRun(1000, func() { send() }); allocs != 0 {
		t.Errorf("%.1f allocations per packet", allocs)
	}
}

// Packets for no host of the scenario, and what is not IPv4, stop at the
// device and are counted.
func TestPacketsForNoHostStopAtTheDevice(t *testing.T) {
	e, a, b, _ := pipeHosts(t)
	for _, pkt := range [][]byte{
		tcpPacket(a.Addr, netip.MustParseAddr("192.0.2.1"), 1, 2, 10),  // outside the range
		tcpPacket(a.Addr, netip.MustParseAddr("10.213.7.7"), 1, 2, 10), // in it, no host
		tcpPacket(a.Addr, a.Addr, 1, 2, 10),                            // to itself
		{0x60, 0, 0, 0},                                                // IPv6
	} {
		f := e.frames.get()
		f.n = copy(f.b[:], pkt)
		e.inject(a, f)
	}
	e.net.Run(10 * sim.Millisecond)
	if a.Stats.Foreign != 4 || a.Stats.Sent != 0 || b.Stats.Delivered != 0 {
		t.Errorf("A %+v, B %+v: want 4 foreign, none sent", a.Stats, b.Stats)
	}
}
