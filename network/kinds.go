package network

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
)

// The network's pluggable parts. Each kind registers its parameters (a
// struct whose yaml tags name the keys a scenario writes, filled with its
// defaults by the constructor given here) in an init function of the file
// that implements it; a scenario finds it by name. A new queue discipline,
// loss model or delay process is one file: the component, its parameters,
// and their registration (see codel.go).

// QueueParams are a queue discipline's parameters.
type QueueParams interface {
	component.Params
	// NewQueue makes the queue in front of a transmitter named name
	// (a link direction, a radio) that sends at bandwidth bit/s; its
	// random draws, if any, come from net's stream "queue/"+name.
	NewQueue(net *Net, name string, bandwidth float64) Queue
}

// LossParams are a loss model's parameters.
type LossParams interface {
	component.Params
	// NewErrorModel makes the model; its random draws, if any, come from
	// net's stream named stream.
	NewErrorModel(net *Net, stream string) ErrorModel
}

// DelayParams are a delay process's parameters.
type DelayParams interface {
	component.Params
	// NewDelayProcess makes the process for a link whose configured delay
	// is base; its draws, if any, come from net's stream named stream.
	NewDelayProcess(net *Net, base sim.Time, stream string) DelayProcess
}

// The registries: a scenario's queue "type", loss "model" and delay
// process "model" name one of their kinds.
var (
	Queues = component.NewRegistry[QueueParams]("queue")
	Losses = component.NewRegistry[LossParams]("loss model")
	Delays = component.NewRegistry[DelayParams]("delay process")
)
