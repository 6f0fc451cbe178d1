package tcp

import (
	"github.com/tcplab/tcplab/component"
)

// The configuration's choices are small typed enums, resolved from their
// YAML names when a scenario is loaded, so that the per-packet path
// compares integers, never strings. Each has String and UnmarshalText.

// SsthreshBasis is what a congestion loss halves.
type SsthreshBasis uint8

// Loss bases.
const (
	FlightBasis SsthreshBasis = iota // RFC 5681 eq. 4: FlightSize (ns-3)
	CwndBasis                        // ns-2: min(cwnd, window_), in whole segments
)

var ssthreshBasisNames = []string{"flight", "cwnd"}

// RecoveryExit is what the ACK ending fast recovery does to cwnd.
type RecoveryExit uint8

// Recovery exits.
const (
	ExitToSsthresh     RecoveryExit = iota // RFC 5681 §3.2 step 6, RFC 6582: deflate to ssthresh
	ExitToSsthreshGrow                     // ns-3.37: deflate, then open as on any new ACK
	ExitGrow                               // ns-2.35: keep the halved cwnd and open it
)

var recoveryExitNames = []string{"ssthresh", "ssthresh_grow", "grow"}

// PartialAckRestart says which partial ACKs restart the retransmission timer.
type PartialAckRestart uint8

// Partial-ACK timer restarts.
const (
	RestartFirst PartialAckRestart = iota // RFC 6582 §4's impatient variant (ns-2, ns-3)
	RestartEvery                          // RFC 6298 §5.3 (Linux)
)

var partialAckRestartNames = []string{"first", "every"}

// TSEcho is the receiver's TSecr rule.
type TSEcho uint8

// Timestamp echo rules.
const (
	EchoRFC7323 TSEcho = iota // §4.3: the segment that last advanced the window
	EchoLatest                // T-DLRP §4.1: the newest segment, in order or not
)

var tsEchoNames = []string{"rfc7323", "latest"}

// Handshake is how a connection opens.
type Handshake uint8

// Handshakes.
const (
	HandshakeNone Handshake = iota // data from the first packet
	HandshakeSYN                   // ns-2: a header-only SYN, acknowledged by the sink
	Handshake3Way                  // SYN, SYN-ACK, ACK (RFC 9293 §3.5)
)

var handshakeNames = []string{"none", "syn", "3way"}

// RTTSampling is where RTT samples come from.
type RTTSampling uint8

// RTT sampling rules.
const (
	SampleTimed      RTTSampling = iota // one timed segment per window (ns-2; RFC 6298 without timestamps)
	SampleEveryAck                      // every ACK covering never-retransmitted data (ns-3)
	SampleTimestamps                    // RFC 7323 RTTM
)

var rttSamplingNames = []string{"timed", "every_ack", "timestamps"}

// Spurious is the spurious-timeout detection.
type Spurious uint8

// Spurious-timeout detections.
const (
	SpuriousNone Spurious = iota
	FRTO                  // RFC 5682
	Eifel                 // RFC 3522 detection (needs timestamps)
)

var spuriousNames = []string{"none", "frto", "eifel"}

func (v SsthreshBasis) String() string { return component.EnumName(ssthreshBasisNames, v) }
func (v RecoveryExit) String() string  { return component.EnumName(recoveryExitNames, v) }
func (v PartialAckRestart) String() string {
	return component.EnumName(partialAckRestartNames, v)
}
func (v TSEcho) String() string      { return component.EnumName(tsEchoNames, v) }
func (v Handshake) String() string   { return component.EnumName(handshakeNames, v) }
func (v RTTSampling) String() string { return component.EnumName(rttSamplingNames, v) }
func (v Spurious) String() string    { return component.EnumName(spuriousNames, v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *SsthreshBasis) UnmarshalText(b []byte) error {
	return component.ParseEnum(ssthreshBasisNames, v, b)
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *RecoveryExit) UnmarshalText(b []byte) error {
	return component.ParseEnum(recoveryExitNames, v, b)
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *PartialAckRestart) UnmarshalText(b []byte) error {
	return component.ParseEnum(partialAckRestartNames, v, b)
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *TSEcho) UnmarshalText(b []byte) error { return component.ParseEnum(tsEchoNames, v, b) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Handshake) UnmarshalText(b []byte) error { return component.ParseEnum(handshakeNames, v, b) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *RTTSampling) UnmarshalText(b []byte) error {
	return component.ParseEnum(rttSamplingNames, v, b)
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Spurious) UnmarshalText(b []byte) error { return component.ParseEnum(spuriousNames, v, b) }
