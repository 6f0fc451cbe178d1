// Package scenario reads YAML scenario files (topology, links with their
// queues, error models and delay processes, flows with their transport and
// application), checks them strictly, builds the network and runs it.
//
// Every problem is reported with the file, line and field path it comes
// from, all of them at once, before anything runs.
package scenario

import (
	"reflect"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/sim"
)

// Scenario is a decoded and checked scenario file. Field names follow the
// YAML keys; see README.md ("Scenarios") for the format.
type Scenario struct {
	Name        string     `yaml:"name"`
	Description string     `yaml:"description"`
	Duration    sim.Time   `yaml:"duration"`
	Seed        uint64     `yaml:"seed"`
	Nodes       []NodeSpec `yaml:"nodes"`
	Links       []LinkSpec `yaml:"links"`
	Flows       []FlowSpec `yaml:"flows"`
	// Wireless, if present, is an 802.11b channel some nodes share.
	Wireless *WirelessSpec `yaml:"wireless"`
	// Routing chooses the routing protocol (default: static shortest
	// paths).
	Routing *RoutingSpec `yaml:"routing"`
	Trace   TraceSpec    `yaml:"trace"`
	origin

	// File is where the scenario was read from.
	File string   `yaml:"-"`
	sets []string // the overrides, to locate problems found by Build
	// warnings found while loading (a loss rate of a bare 1), passed on
	// to the run's.
	warnings []string
}

// NodeSpec is a host or router. In YAML it is a bare name or a mapping
// with a name (and count, see README).
type NodeSpec struct {
	Name string `yaml:"name"`
	// Agent, if present, is a middlebox on the node (ALL-TCP's edge
	// agent, scenario/agent.go).
	Agent *AgentSpec `yaml:"agent"`
	// Kernel makes the node a kernel host: a network namespace whose real
	// TCP/IP stack sends through the simulated network (tcplab emulate;
	// scenario/kernel.go).
	Kernel bool `yaml:"kernel"`
	// Routing, on a node of the wireless channel, gives it its own
	// settings of the scenario's routing protocol (a node that answers no
	// request from its cache, a larger send buffer): the protocol must be
	// the scenario's, as on-demand protocols do not interoperate.
	Routing *RoutingSpec `yaml:"routing"`
	origin
}

// TraceSpec names output files for traces.
type TraceSpec struct {
	// Drops is a CSV file with one row per dropped packet: time, link,
	// flow, cause, whether it was a retransmission.
	Drops string `yaml:"drops"`
	// TCP is a CSV time series of every TCP flow's sender: one row per
	// segment sent, ACK processed and timeout, with cwnd, ssthresh,
	// flight, RTO, SRTT and the sequence numbers (metrics.SeriesHeader).
	TCP string `yaml:"tcp"`
	// Pcap and NS2 are packet traces of links (trace.go).
	Pcap []PcapSpec `yaml:"pcap"`
	NS2  *NS2Spec   `yaml:"ns2"`
	// Air is a pcap of every frame on the wireless channel, link type
	// IEEE 802.11 (Wireshark decodes the MAC frames).
	Air string `yaml:"air"`
	origin
}

func (n *NodeSpec) decodeNode(d *decoder, y *yaml.Node, path string) {
	if y.Kind == yaml.ScalarNode {
		if s, ok := d.scalar(y, path); ok {
			n.Name = s
			n.line, n.path = y.Line, path
		}
		return
	}
	d.decodeStruct(y, reflect.ValueOf(n).Elem(), path)
}
