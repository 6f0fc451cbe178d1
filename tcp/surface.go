package tcp

import "github.com/tcplab/tcplab/network"

// What other components may do with a flow: read a snapshot of its state,
// put a layer between it and the network, and, for a proxy that
// terminates the connection, drive its receiving end. The sender and the
// receiver themselves stay inside the package: a variant changes the
// windows through State, nothing else writes them.

// Snapshot is a flow's state as others read it.
type Snapshot struct {
	Una, High int64   // SND.UNA and the highest byte sent + 1
	Cwnd      float64 // the congestion window, bytes
	MSS       float64 // bytes per full segment
	RcvNext   int64   // RCV.NXT
	Window    int64   // the receive window last advertised (Relay.SetWindow)
	Delivered int64   // application bytes delivered in order
	State     CongState
}

// Snapshot is the flow's state now.
func (f *Flow) Snapshot() Snapshot {
	s, r := f.snd, f.rcv
	return Snapshot{Una: s.Una, High: s.High, Cwnd: s.Cwnd, MSS: s.MSS,
		RcvNext: r.rcvNxt, Window: r.lastWnd, Delivered: r.Delivered, State: s.congState()}
}

// Layer sits between a flow's endpoints and the network (network
// coding): the flow hands it what its sender and receiver emit; it
// passes packets up through the flow's Up.
type Layer interface {
	FromSender(p *network.Packet)   // a segment the sender emits
	FromReceiver(p *network.Packet) // an acknowledgement the receiver emits
}

// LayerFuncs adapts two functions to Layer.
type LayerFuncs struct{ Sender, Receiver func(p *network.Packet) }

// FromSender implements Layer.
func (l LayerFuncs) FromSender(p *network.Packet) { l.Sender(p) }

// FromReceiver implements Layer.
func (l LayerFuncs) FromReceiver(p *network.Packet) { l.Receiver(p) }

// Interpose puts l between the flow and the network, and returns where l
// hands packets up.
func (f *Flow) Interpose(l Layer) Up {
	f.sendOut, f.ackOut = l.FromSender, l.FromReceiver
	return f.Up()
}

// Up delivers packets to a flow's endpoints from below, as the network
// would: data to its receiver, acknowledgements to its sender.
type Up struct{ f *Flow }

// Up is the flow's entry from below.
func (f *Flow) Up() Up { return Up{f} }

// ToReceiver hands p to the receiver.
func (u Up) ToReceiver(p *network.Packet) { u.f.rcv.Receive(p) }

// ToSender hands p to the sender.
func (u Up) ToSender(p *network.Packet) { u.f.snd.Receive(p) }

// Relay drives a flow's receiving end for a proxy that terminates the
// connection and relays its data (ALL-TCP's split).
type Relay struct{ r *Receiver }

// Relay is the flow's receiving end, for a split-connection proxy.
func (f *Flow) Relay() Relay { return Relay{f.rcv} }

// Expect lets data flow from seq without a handshake, as when a relay
// takes over a connection in the middle.
func (r Relay) Expect(seq int64) { r.r.Expect(seq) }

// SetWindow makes the receiver advertise a receive window: free returns
// the bytes it can take beyond the next expected one.
func (r Relay) SetWindow(free func() int64) { r.r.SetWindow(free) }

// SendAck sends an acknowledgement now: a window update after free space
// grew.
func (r Relay) SendAck() { r.r.SendAck() }

// Held calls fn for every block held above RCV.NXT, in order.
func (r Relay) Held(fn func(start, end int64)) { r.r.Held(fn) }
