package wireless

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/internal/ring"
	"github.com/tcplab/tcplab/network"
)

// Class is a kind of packet an interface queue may serve ahead of the
// rest (Config.Ahead).
type Class uint8

const (
	// Routing is a routing protocol's control packets.
	Routing Class = iota
	// TCPAcks is TCP segments without payload.
	TCPAcks
)

var classNames = [...]string{"routing", "tcp_acks"}

func (c Class) String() string { return component.EnumName(classNames[:], c) }

// ParseClass is the class a scenario names.
func ParseClass(s string) (Class, error) {
	var c Class
	return c, component.ParseEnum(classNames[:], &c, []byte(s))
}

func (c Class) holds(p *network.Packet) bool {
	switch c {
	case Routing:
		return p.Proto == network.Control
	default:
		return p.Proto == network.TCP && p.Payload == 0
	}
}

// lane is the queue of one class served ahead of the interface queue:
// strict priority, each lane a drop-tail of the interface queue's limit
// (ns-2.35's CMUPriQueue, whose bands hold 50 packets each).
type lane struct {
	class Class
	q     *network.DropTail
	enqAt ring.Buffer[queued]
}

// queueOf is the queue p waits in, and its side entries.
func (r *Radio) queueOf(p *network.Packet) (network.Queue, *ring.Buffer[queued]) {
	for i := range r.ahead {
		if l := &r.ahead[i]; l.class.holds(p) {
			return l.q, &l.enqAt
		}
	}
	return r.Queue, &r.enqAt
}

// head is the queue the MAC serves next: the first lane holding a packet,
// else the interface queue.
func (r *Radio) head() (network.Queue, *ring.Buffer[queued]) {
	for i := range r.ahead {
		if l := &r.ahead[i]; l.q.Len() > 0 {
			return l.q, &l.enqAt
		}
	}
	return r.Queue, &r.enqAt
}

// queuedLen is the packets waiting in every queue.
func (r *Radio) queuedLen() int {
	n := r.Queue.Len()
	for i := range r.ahead {
		n += r.ahead[i].q.Len()
	}
	return n
}
