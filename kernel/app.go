//go:build linux

package kernel

import (
	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// app is what runs on kernel hosts for one flow: a socket pair (Bulk) or a
// user's programs (Command).
type app interface {
	// schedule arms its start and stop on the simulation's clock (before
	// the run); what it does there must not block the clock's thread.
	schedule(e *Emulation)
	// finish takes the final readings once the run is over.
	finish(e *Emulation)
	// close stops whatever it started.
	close()
	// Err is why it could not run, if it could not.
	Err() error
	// traceRows are its rows of the run's TCP time series (none for a
	// program, whose TCP the emulator does not see).
	traceRows() []metrics.Row
}

// flowBase is what every kernel flow keeps: its identity, its times, and
// its packets' drops.
type flowBase struct {
	Flow        int32
	Name        string
	Src, Dst    *Host
	Start, Stop sim.Time // Stop: sim.Never for the end of the run
	e           *Emulation
	drops       [network.NumDropCauses]int64
	stoppedAt   sim.Time  // when it stopped (0: not yet)
	atStop      wireCount // the wire's counts then: the rates are over the active time
}

// stopped records the flow's stop at now, on the clock's thread.
func (b *flowBase) stopped(now sim.Time) {
	b.stoppedAt, b.atStop = now, b.e.wire[b.Flow]
}

func (b *flowBase) bind(e *Emulation) {
	b.e = e
	e.net.OnFlowDrop(b.Flow, func(_ *network.Packet, c network.DropCause, _ *network.Link) { b.drops[c]++ })
}

// result fills what the network saw of the flow.
func (b *flowBase) result(now sim.Time, delivered int64) metrics.Flow {
	end := min(now, b.Stop)
	if b.stoppedAt > 0 {
		end = b.stoppedAt
	}
	r := metrics.Flow{ID: b.Name, Transport: "tcp", Stack: "kernel", Src: b.Src.Node.Name, Dst: b.Dst.Node.Name,
		StartSeconds: b.Start.Seconds(), StopSeconds: end.Seconds(), DeliveredBytes: delivered, Dropped: map[string]int64{}}
	w := b.e.wire[b.Flow]
	if b.stoppedAt > 0 {
		w = b.atStop
	}
	r.SentPackets = w.dataPackets
	if active := (end - b.Start).Seconds(); active > 0 {
		r.GoodputBps = float64(delivered) * 8 / active
		r.ThroughputBps = float64(w.dataBytes) * 8 / active
	}
	for _, c := range network.DropCauses() {
		if n := b.drops[c]; n > 0 {
			r.Dropped[c.String()] = n
		}
	}
	return r
}
