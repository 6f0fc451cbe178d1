// Package tcp is tcplab's TCP: one engine and many congestion-control
// variants behind a narrow interface.
//
// The engine (Sender, Receiver) owns everything that is not a variant's
// choice: sequence space, the retransmission timer and its back-off
// (an RTOPolicy computes the timeout), the SACK scoreboard, delayed ACKs,
// timestamps, ECN, and loss recovery, which is itself an interface with
// one file per algorithm (tahoe_recovery.go, reno_recovery.go,
// newreno_recovery.go for RFC 6582, sack_recovery.go for RFC 6675).
//
// A Variant reacts to events (an ACK of new data, a duplicate ACK, a loss
// found by duplicate ACKs or ECN, a duplicate ACK during recovery, the end
// of recovery, a timeout). It keeps its own state and changes the windows
// in one way only: by setting State.Cwnd and State.Ssthresh. What else it
// needs from the engine arrives as fields of the event (AckEvent,
// LossEvent, SendEvent) or of State. It answers with a Response (its
// verdict on the loss; whether a retransmission was lost; whether to
// repair in place after a timeout). Embedding Reno gives the RFC 5681
// defaults, so a variant writes only what differs: hybla.go is 70 lines.
//
// Register adds a variant under a name usable in scenarios
// (transport.variant) with its parameters (transport.params), validated
// by the same Config.Validate that `tcplab validate` runs. Profiles (ns2,
// ns3, linux) are Configs that reproduce a reference simulator's
// mechanisms; RegisterProfileVariant lets a profile run that simulator's
// own program under a variant's name where it differs from the published
// algorithm (ns-3's TcpCubic, ns-2's Vegas).
package tcp
