// Package routing holds the routing protocols a scenario chooses with
// "routing:": static shortest paths (package network's tables, the
// default) and the on-demand protocols of mobile ad-hoc networks, AODV
// (RFC 3561, as ns-3.37 runs it). A protocol is a network.Router on every
// node of the wireless channel: its packets are Proto Control, take air
// time, queue in the interface queue and are lost like data; the MAC's
// retry-limit failures reach it as broken links.
package routing

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
)

// Params are a routing protocol's parameters.
type Params interface {
	component.Params
	// NewRouter makes the protocol's instance on node nd, which has a
	// radio; stats are the counters all of the run's instances share.
	// A nil Router means static routes.
	NewRouter(nd *network.Node, stats *Stats) network.Router
	// OnDemand reports whether the protocol finds routes itself (it
	// needs a wireless channel to run on).
	OnDemand() bool
}

// Protocols are the routing protocols by name.
var Protocols = component.NewRegistry[Params]("routing protocol")

// Kind is a control packet's kind, for the counters.
type Kind uint8

// Control packet kinds.
const (
	RREQ    Kind = iota // route request
	RREP                // route reply
	RERR                // route error
	Hello               // AODV's hello (an RREP with TTL 1)
	RREPAck             // AODV's RREP-ACK
	NumKinds
)

var kindNames = [...]string{"rreq", "rrep", "rerr", "hello", "rrep_ack"}

func (k Kind) String() string { return kindNames[k] }

// Counter is packets and bytes.
type Counter struct {
	Packets int64 `json:"packets"`
	Bytes   int64 `json:"bytes"`
}

// Stats counts a run's routing control traffic: each transmission of a
// control packet by a node (originated or forwarded), by kind.
type Stats struct {
	Protocol string              `json:"protocol"`
	Sent     map[string]*Counter `json:"sent"`
	// Discoveries are route discoveries begun (first requests, not
	// retries); Failed, those given up after the last retry.
	Discoveries int64 `json:"discoveries"`
	Failed      int64 `json:"failed_discoveries"`
	// LinkBreaks are next hops declared broken (by the MAC's retry
	// limit or lost hellos).
	LinkBreaks int64 `json:"link_breaks"`
	// LocalRepairs are AODV's local repairs begun (RFC 3561 §6.12).
	LocalRepairs int64 `json:"local_repairs,omitempty"`

	sent [NumKinds]Counter
}

// NewStats makes empty counters for protocol.
func NewStats(protocol string) *Stats { return &Stats{Protocol: protocol} }

// count records the transmission of a control packet.
func (s *Stats) count(k Kind, bytes int32) {
	s.sent[k].Packets++
	s.sent[k].Bytes += int64(bytes)
}

// Finish fills the exported map from the counters (kinds sent at least
// once), for the run's result.
func (s *Stats) Finish() {
	s.Sent = map[string]*Counter{}
	for k := range NumKinds {
		if c := s.sent[k]; c.Packets > 0 {
			s.Sent[k.String()] = &c
		}
	}
}

// Total is every control packet sent.
func (s *Stats) Total() (n int64) {
	for _, c := range s.sent {
		n += c.Packets
	}
	return n
}

// Of is the counter of one kind.
func (s *Stats) Of(k Kind) Counter { return s.sent[k] }

// withdrawer is a radio that can take back the packets queued for a
// neighbour (wireless.Radio).
type withdrawer interface {
	Withdraw(to *network.Node, fn func(p *network.Packet))
}
