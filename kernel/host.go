//go:build linux

package kernel

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"runtime"
	"strings"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
	"golang.org/x/sys/unix"

	"github.com/tcplab/tcplab/network"
)

// tunName is every host's device, one per namespace.
const tunName = "tcplab0"

// Host is a simulated node whose traffic is a real network stack's: its own
// network namespace with one TUN device, numbered from Range, through
// which every packet the namespace sends enters the simulated network at
// the node, and every packet the network delivers to the node is written.
type Host struct {
	Node *network.Node
	Addr netip.Addr
	// Namespace is the namespace's name (ip netns exec NAME ... enters it).
	Namespace string
	ns        netns.NsHandle
	fd        int   // the TUN device, non-blocking
	port      int32 // the node's endpoint for packets of kernel hosts
	e         *Emulation
	Stats     HostStats
}

// HostStats counts a host's packets at its TUN device.
type HostStats struct {
	// Sent: packets the namespace sent into the simulated network;
	// Delivered: packets the network delivered and the device took.
	Sent      int64 `json:"sent"`
	Delivered int64 `json:"delivered"`
	// Foreign: packets for an address outside the scenario's hosts (not
	// IPv4, outside Range, or no host has it), dropped at the device.
	Foreign int64 `json:"foreign"`
	// DeviceFull: packets the network delivered that the device's queue
	// had no room for (the kernel's receive backlog).
	DeviceFull int64 `json:"device_full,omitempty"`
}

// newHost makes the namespace and its device for node nd and numbers it.
func newHost(e *Emulation, nd *network.Node, addr netip.Addr) (*Host, error) {
	// Emulations in one process (a test's, side by side) number their
	// namespaces apart.
	name := nsName(os.Getpid(), fmt.Sprintf("%d-%s", e.id, sanitize(nd.Name)))
	h := &Host{Node: nd, Addr: addr, Namespace: name, fd: -1, e: e}
	if err := h.create(); err != nil {
		h.close()
		return nil, fmt.Errorf("kernel host %s: %w", nd.Name, err)
	}
	return h, nil
}

// create makes the namespace (the thread enters it), opens the TUN device
// from inside so that the device is the namespace's, turns IPv6 off (no
// router solicitations to count as foreign), and returns the thread.
func (h *Host) create() error {
	runtime.LockOSThread()
	orig, err := netns.Get()
	if err != nil {
		runtime.UnlockOSThread()
		return err
	}
	defer orig.Close()
	ns, err := netns.NewNamed(h.Namespace)
	if err != nil {
		netns.Set(orig)
		runtime.UnlockOSThread()
		name := h.Namespace
		h.Namespace = "" // not ours to remove
		return fmt.Errorf("new namespace %s: %w", name, err)
	}
	h.ns = ns
	fd, terr := openTUN(tunName)
	serr := sysctl("net/ipv6/conf/all/disable_ipv6", "1")
	if err := netns.Set(orig); err != nil {
		return fmt.Errorf("leave namespace: %w", err) // the thread stays locked and dies
	}
	runtime.UnlockOSThread()
	if terr != nil {
		return terr
	}
	h.fd = fd
	if serr != nil && !errors.Is(serr, os.ErrNotExist) {
		return serr
	}
	return h.configure()
}

// openTUN opens a TUN device (IP packets, no packet-information prefix)
// in the calling thread's namespace.
func openTUN(name string) (int, error) {
	fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fmt.Errorf("open /dev/net/tun: %w", err)
	}
	ifr, err := unix.NewIfreq(name)
	if err != nil {
		unix.Close(fd)
		return -1, err
	}
	ifr.SetUint16(unix.IFF_TUN | unix.IFF_NO_PI)
	if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
		unix.Close(fd)
		return -1, fmt.Errorf("TUNSETIFF: %w", err)
	}
	return fd, nil
}

// sysctl writes a net sysctl of the calling thread's namespace.
func sysctl(key, value string) error {
	return os.WriteFile("/proc/sys/"+key, []byte(value), 0)
}

// configure numbers the device from Range (the range's route is then the
// namespace's only one) and brings it and loopback up.
func (h *Host) configure() error {
	nl, err := netlink.NewHandleAt(h.ns)
	if err != nil {
		return fmt.Errorf("netlink: %w", err)
	}
	defer nl.Close()
	lo, err := nl.LinkByName("lo")
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	if err := nl.LinkSetUp(lo); err != nil {
		return fmt.Errorf("loopback up: %w", err)
	}
	tun, err := nl.LinkByName(tunName)
	if err != nil {
		return fmt.Errorf("device: %w", err)
	}
	ip := h.Addr.As4()
	a := &netlink.Addr{IPNet: &net.IPNet{IP: net.IP(ip[:]), Mask: net.CIDRMask(Range.Bits(), 32)}}
	if err := nl.AddrAdd(tun, a); err != nil {
		return fmt.Errorf("address %v: %w", h.Addr, err)
	}
	if err := nl.LinkSetUp(tun); err != nil {
		return fmt.Errorf("device up: %w", err)
	}
	return nil
}

// Set writes a net sysctl of the host's namespace ("ipv4/tcp_sack", "1").
func (h *Host) Set(key, value string) error {
	return inNS(h.ns, func() error { return sysctl("net/"+key, value) })
}

// Run calls fn inside the host's namespace (a socket made there is the
// host's).
func (h *Host) Run(fn func() error) error { return inNS(h.ns, fn) }

// close removes the device and the namespace.
func (h *Host) close() error {
	if h.fd >= 0 {
		unix.Close(h.fd)
		h.fd = -1
	}
	if h.ns != 0 && h.ns != -1 {
		h.ns.Close()
		h.ns = 0
	}
	if h.Namespace == "" {
		return nil
	}
	return removeNamespace(h.Namespace)
}

// sanitize keeps a node's name usable in a namespace's name.
func sanitize(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
}
