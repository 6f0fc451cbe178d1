package tcp

import (
	"tcplab/metrics"
	"tcplab/network"
	"tcplab/sim"
)

// Flow is one TCP connection: a sender at Src and a receiver at Dst.
type Flow struct {
	ID       int32
	Name     string
	Cfg      Config
	Src, Dst *network.Node
	Snd      *Sender
	Rcv      *Receiver
	start    sim.Time
	stop     sim.Time
}

// NewFlow builds a connection from src to dst and binds its two endpoints.
// It does not send until Start.
func NewFlow(net *network.Net, id int32, name string, cfg Config, src, dst *network.Node) (*Flow, error) {
	panic("not yet")
}

// SetLimit makes the flow a fixed-size transfer of n application bytes
// (0: bulk, an unlimited backlog as ns-2's FTP).
func (f *Flow) SetLimit(n int64) { panic("not yet") }

// Start schedules the connection to open at time at.
func (f *Flow) Start(at sim.Time) { panic("not yet") }

// StopAt makes the sender stop offering new data at time at.
func (f *Flow) StopAt(at sim.Time) { panic("not yet") }

// Result summarises the flow at time now (the end of the run).
func (f *Flow) Result(now sim.Time) metrics.Flow { panic("not yet") }
