//go:build linux

// Package kernel puts real network stacks on a simulated network: a
// scenario's kernel hosts each get a network namespace and a TUN device,
// every packet a namespace sends crosses the simulated links, queues,
// channel and loss models from its node, and the simulation runs against
// the wall clock (package realtime). Kernel TCP (reno, cubic, bbr) and
// users' programs then share a path with simulated flows.
package kernel

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/realtime"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/sim"
)

// UnavailableError says why this machine cannot emulate (not root, no
// TUN device); the command line exits 2 on it.
type UnavailableError struct{ Reason string }

func (e *UnavailableError) Error() string { return "emulation unavailable: " + e.Reason }

// Available reports whether kernel hosts can be made here: root (to make
// namespaces and devices) and /dev/net/tun.
func Available() error {
	if os.Geteuid() != 0 {
		return &UnavailableError{"kernel hosts need root (network namespaces and TUN devices); run as root or skip them"}
	}
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
	if err != nil {
		return &UnavailableError{fmt.Sprintf("cannot open /dev/net/tun: %v", err)}
	}
	unix.Close(fd)
	if err := probed(); err != nil {
		return &UnavailableError{fmt.Sprintf("cannot make a named network namespace: %v", err)}
	}
	return nil
}

// probed is the answer of the first probe: the rights do not change while
// a process runs, and emulations made side by side must not probe under
// one name at once.
var probed = sync.OnceValue(probeNamespace)

// probeNamespace makes a named namespace and removes it: root in a
// container may lack the rights (CAP_SYS_ADMIN, a writable /run) that
// kernel hosts need.
func probeNamespace() error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	orig, err := netns.Get()
	if err != nil {
		return err
	}
	defer orig.Close()
	name := nsName(os.Getpid(), "probe")
	ns, err := netns.NewNamed(name)
	if serr := netns.Set(orig); serr != nil {
		panic(fmt.Sprintf("kernel: cannot return to the original network namespace: %v", serr))
	}
	if err != nil {
		return err
	}
	ns.Close()
	return netns.DeleteNamed(name)
}

// Emulation is a simulated network with kernel hosts on it, run in real
// time.
type Emulation struct {
	net    *network.Net
	Clock  *realtime.Clock
	hosts  []*Host
	byAddr map[netip.Addr]*Host
	frames frames
	// flows finds the flow a kernel packet belongs to (for per-flow
	// drops and counts): by (from, to, a port of the sender's socket),
	// else by (from, to, 0) for a command's packets.
	flows   map[flowKey]int32
	wire    []wireCount // per flow index
	apps    []app
	removed []string // leftovers of dead runs removed at the start
	id      int64    // numbers this emulation's namespaces apart from others'

	interrupted atomic.Bool
	run         *scenario.Run // the run it drives (Attach), for its traces
}

var emulations atomic.Int64

type flowKey struct {
	from, to network.NodeID
	port     uint16
}

// wireCount is what a flow put on the wire at its source and what the
// network delivered at its destination.
type wireCount struct {
	dst                    network.NodeID // the flow's destination
	dataPackets, dataBytes int64          // data packets the source sent, with headers
	deliveredPayload       int64          // payload bytes delivered at dst
}

// New makes a kernel host of each node: namespaces and devices, numbered
// in the order given from Range. Namespaces that runs killed before their
// clean-up left behind are removed first.
func New(net *network.Net, nodes []*network.Node) (*Emulation, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if len(nodes) > 1<<(32-Range.Bits())-2 {
		return nil, fmt.Errorf("%d kernel hosts: %v numbers at most %d", len(nodes), Range, 1<<(32-Range.Bits())-2)
	}
	removed, err := RemoveLeftovers()
	if err != nil {
		return nil, err
	}
	clock, err := realtime.New(net.Sched)
	if err != nil {
		return nil, err
	}
	e := &Emulation{net: net, Clock: clock, byAddr: map[netip.Addr]*Host{}, flows: map[flowKey]int32{}, removed: removed,
		id: emulations.Add(1)}
	addr := Range.Addr()
	for _, nd := range nodes {
		addr = addr.Next()
		h, err := newHost(e, nd, addr)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.hosts = append(e.hosts, h)
		e.byAddr[addr] = h
		h.port = net.Bind(h)
		if err := clock.Watch(h.fd, h.readAll); err != nil {
			e.Close()
			return nil, err
		}
	}
	net.OnDrop(e.dropped)
	return e, nil
}

// Hosts lists the kernel hosts.
func (e *Emulation) Hosts() []*Host { return e.hosts }

// Host is node nd's kernel host, or nil.
func (e *Emulation) Host(nd *network.Node) *Host {
	for _, h := range e.hosts {
		if h.Node == nd {
			return h
		}
	}
	return nil
}

// readAll takes every packet waiting at the host's device into the
// simulated network, at the current (wall-clock) time.
func (h *Host) readAll() {
	e := h.e
	for {
		f := e.frames.get()
		n, err := unix.Read(h.fd, f.b[:])
		if err != nil || n <= 0 {
			e.frames.put(f)
			return // EAGAIN: drained (a closed device: the run is ending)
		}
		f.n = n
		e.inject(h, f)
	}
}

// inject sends frame f from host h into the network: to the host whose
// address it is for, or nowhere (counted as foreign) if none is.
func (e *Emulation) inject(h *Host, f *frame) {
	hdr, ok := parse(f.b[:f.n])
	var to *Host
	if ok && Range.Contains(hdr.dst) {
		to = e.byAddr[hdr.dst]
	}
	if to == nil || to == h {
		h.Stats.Foreign++
		e.frames.put(f)
		return
	}
	h.Stats.Sent++
	p := e.net.Alloc()
	p.Src, p.Dst, p.Port = h.Node.ID, to.Node.ID, to.port
	p.Proto, p.Flags, p.Size, p.Payload = hdr.proto, hdr.flags, int32(f.n), int32(hdr.payload)
	p.Seq, p.Ack = int64(hdr.seq), int64(hdr.ack)
	p.SentAt = e.net.Now()
	p.Flow = e.flowOf(h.Node.ID, to.Node.ID, hdr.srcPort, hdr.dstPort)
	if p.Flow >= 0 && p.IsData() && e.wire[p.Flow].dst == p.Dst {
		w := &e.wire[p.Flow]
		w.dataPackets++
		w.dataBytes += int64(f.n)
	}
	p.Body = f
	h.Node.Send(p)
}

func (e *Emulation) flowOf(from, to network.NodeID, srcPort, dstPort uint16) int32 {
	if i, ok := e.flows[flowKey{from, to, srcPort}]; ok {
		return i
	}
	if i, ok := e.flows[flowKey{from, to, dstPort}]; ok {
		return i
	}
	if i, ok := e.flows[flowKey{from, to, 0}]; ok {
		return i
	}
	return -1
}

// bindFlow makes packets between from and to that carry port (0: any)
// count as flow i's.
func (e *Emulation) bindFlow(i int32, from, to network.NodeID, port uint16) {
	for len(e.wire) <= int(i) {
		e.wire = append(e.wire, wireCount{})
	}
	e.wire[i].dst = to
	e.flows[flowKey{from, to, port}] = i
	e.flows[flowKey{to, from, port}] = i
}

// Receive implements network.Endpoint: a packet for the host, written to
// its device (the kernel takes it as arriving from the network).
func (h *Host) Receive(p *network.Packet) {
	e := h.e
	f, ok := p.Body.(*frame)
	if !ok {
		e.net.Free(p) // not a kernel packet: nothing to write
		return
	}
	if _, err := unix.Write(h.fd, f.b[:f.n]); err != nil {
		h.Stats.DeviceFull++
	} else {
		h.Stats.Delivered++
		if p.Flow >= 0 && int(p.Flow) < len(e.wire) && e.wire[p.Flow].dst == p.Dst {
			e.wire[p.Flow].deliveredPayload += int64(p.Payload)
		}
	}
	p.Body = nil
	e.frames.put(f)
	e.net.Free(p)
}

// dropped returns a lost kernel packet's frame to the pool.
func (e *Emulation) dropped(p *network.Packet, _ network.DropCause, _ *network.Link) {
	if f, ok := p.Body.(*frame); ok {
		p.Body = nil
		e.frames.put(f)
	}
}

// Run runs the simulation until end in real time, the applications
// started and stopped at their times; it reports whether Interrupt
// stopped it.
func (e *Emulation) Run(end sim.Time) (bool, error) {
	for _, a := range e.apps {
		a.schedule(e)
	}
	interrupted, err := e.Clock.Run(end)
	for _, a := range e.apps {
		a.finish(e)
	}
	return interrupted, err
}

// Interrupt stops a run soon (Ctrl-C); safe from any goroutine.
func (e *Emulation) Interrupt() { e.interrupted.Store(true); e.Clock.Interrupt() }

// Interrupted reports whether Interrupt stopped the run.
func (e *Emulation) Interrupted() bool { return e.interrupted.Load() }

// Close stops every program and removes every namespace and device the
// emulation made.
func (e *Emulation) Close() error {
	var errs []error
	for _, a := range e.apps {
		a.close()
	}
	for _, h := range e.hosts {
		if err := h.close(); err != nil {
			errs = append(errs, err)
		}
	}
	if e.Clock != nil {
		e.Clock.Close()
	}
	return errors.Join(errs...)
}
