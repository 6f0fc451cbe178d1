// Package agent is the registry of node agents: middleboxes a scenario puts
// on a node (`agent: {type: alltcp, ...}`) that see the packets crossing it
// and are told about the TCP connections that may. A kind registers its
// parameters (a struct whose yaml tags are its keys, filled with its
// defaults) in the package that implements it, as alltcp does.
package agent

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/tcp"
)

// Params are an agent's parameters.
type Params interface {
	component.Params
	// New puts the agent on node. Connections of its own, if it opens
	// any, take flow ids from first on (above the scenario's flows), a
	// numbering the run's agents share.
	New(net *network.Net, node *network.Node, first int32) (Agent, error)
}

// Agent is an agent on a node.
type Agent interface {
	// Watch tells the agent about a TCP connection whose packets may
	// cross it.
	Watch(f *tcp.Flow)
	// Node is where it sits.
	Node() *network.Node
	// Counters is what a run's result reports of it, a value that
	// encodes as a JSON object.
	Counters() any
}

// Kinds is the registry: a scenario's agent "type" names one.
var Kinds = component.NewRegistry[Params]("agent")
