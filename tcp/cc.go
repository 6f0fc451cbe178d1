package tcp

import (
	"fmt"
	"sort"

	"github.com/tcplab/tcplab/sim"
)

// Variant is a congestion-control and loss-differentiation algorithm. The
// engine (Sender) owns sequence space, timers and the scoreboard; a variant
// only reacts to events through this interface (the split of ns-3's
// TcpCongestionOps / TcpRecoveryOps). Embed Reno to inherit its defaults.
type Variant interface {
	Name() string
	// Init is called once when the connection opens.
	Init(s *State)
	// OnAck is called for each ACK of new data outside loss recovery: grow
	// the window, update estimators.
	OnAck(s *State, a *AckEvent)
	// OnDupAck sees every duplicate ACK, in or out of recovery, before the
	// engine acts on it (rate and delay estimators).
	OnDupAck(s *State, a *AckEvent)
	// OnLoss is called when duplicate ACKs reveal a loss (fast
	// retransmit). It says what ssthresh and cwnd become and how it
	// classified the loss.
	OnLoss(s *State, l *LossEvent) Response
	// OnDupAckInRecovery may detect a lost retransmission (DAC, DDLRP,
	// T-DLRP): Response.Retransmit asks for the first unacknowledged segment
	// to be sent again now.
	OnDupAckInRecovery(s *State, a *AckEvent) Response
	// OnRecoveryExit is called on the ACK that ends fast recovery.
	OnRecoveryExit(s *State)
	// OnTimeout is called when the retransmission timer expires.
	OnTimeout(s *State) Response
}

// State is the sender state a variant may read; it sets Cwnd and Ssthresh
// directly (bytes).
type State struct {
	Now        sim.Time
	MSS        float64
	Cwnd       float64 // bytes
	Ssthresh   float64 // bytes
	Flight     float64 // bytes outstanding (the RFC 6675 pipe with SACK)
	Window     float64 // the send-window cap in bytes (0: none)
	SRTT       sim.Time
	MinRTT     sim.Time // smallest RTT seen (sim.Never before any sample)
	LastRTT    sim.Time // the latest sample
	TSTick     sim.Time // the timestamp clock's tick (Config.TSTick)
	InRecovery bool
	// ByteCounting: grow by bytes acked in slow start (RFC 3465).
	ByteCounting bool
	// SlowStartCarry: an ACK covering more segments than slow start uses
	// also makes one congestion-avoidance increment (ns-3).
	SlowStartCarry bool
	Una            int64 // oldest unacknowledged sequence number
	Nxt            int64 // next sequence number to send
	High           int64 // highest sequence number sent + 1
	// halfBasis is the quantity a loss halves, per Config.SsthreshBasis.
	halfBasis float64
	ns2Floor  bool
}

// HalfWindow is the standard ssthresh after a congestion loss: half the
// basis (RFC 5681 eq. 4 FlightSize/2, or ns-2's min(cwnd, window_)/2
// truncated to whole segments), at least 2 segments.
func (s *State) HalfWindow() float64 { return s.ReducedWindow(0.5) }

// ReducedWindow is the basis times factor, at least 2 segments (Veno's
// 4/5 uses factor 0.8).
func (s *State) ReducedWindow(factor float64) float64 {
	v := s.halfBasis * factor
	if s.ns2Floor {
		v = float64(int64(v/s.MSS)) * s.MSS
	}
	return max(v, 2*s.MSS)
}

// InSlowStart reports cwnd < ssthresh (RFC 5681 §3.1).
func (s *State) InSlowStart() bool { return s.Cwnd < s.Ssthresh }

// AckEvent describes one arriving ACK.
type AckEvent struct {
	Ack       int64    // cumulative ACK
	Acked     float64  // bytes newly acknowledged (0 for a duplicate)
	RTT       sim.Time // RTT sample taken on this ACK, or 0
	TSecr     int64    // echoed timestamp, if timestamps are on
	TSval     int64    // the receiver's timestamp on this ACK (ticks of State.TSTick)
	HasTS     bool
	CW        bool // the ACK echoes a router's congestion warning
	ECE       bool // ECN echo
	Dupacks   int  // duplicate ACKs in a row, this one included
	RecvTime  sim.Time
	TSvalSent int64 // Timestamp_new of T-DLRP: TSval of the first new segment after the fast retransmission (0 if none)
}

// LossEvent describes a loss detected by duplicate ACKs.
type LossEvent struct {
	Seq     int64 // first unacknowledged sequence number (the lost segment)
	Dupacks int
	CW      bool // the ACK that triggered it carries a congestion warning
}

// LossClass is a variant's verdict on a loss.
type LossClass uint8

// Loss classes.
const (
	Unclassified LossClass = iota
	Congestion
	Wireless
)

func (c LossClass) String() string {
	return [...]string{"unclassified", "congestion", "wireless"}[c]
}

// Response is what a variant asks of the engine.
type Response struct {
	Ssthresh float64 // new ssthresh in bytes; 0 keeps the engine default
	Cwnd     float64 // new cwnd in bytes; 0 keeps the engine default
	Class    LossClass
	// Retransmit (in recovery): the retransmission was judged lost;
	// send the first unacknowledged segment again now.
	Retransmit bool
	// KeepWindow (on timeout): retransmit one segment but keep cwnd and
	// ssthresh and do not go back N (T-DLRP's IRTOR).
	KeepWindow bool
}

// recoveryKind is the engine's loss-recovery algorithm for a flow.
type recoveryKind uint8

const (
	recOldTahoe recoveryKind = iota // timeouts only
	recTahoe                        // fast retransmit, then slow start
	recReno                         // RFC 5681 fast recovery
	recNewReno                      // RFC 6582
	recSACK                         // RFC 6675
)

type variantSpec struct {
	recovery recoveryKind
	make     func(params map[string]float64) (Variant, error)
}

var variants = map[string]variantSpec{}

// Register adds a congestion-control variant under name. Variants call it
// from init; recovery is the loss recovery it uses without SACK
// ("newreno" for most).
func Register(name string, recovery string, make func(params map[string]float64) (Variant, error)) {
	k, ok := map[string]recoveryKind{"oldtahoe": recOldTahoe, "tahoe": recTahoe, "reno": recReno, "newreno": recNewReno, "sack": recSACK}[recovery]
	if !ok {
		panic("tcp: unknown recovery " + recovery)
	}
	variants[name] = variantSpec{recovery: k, make: make}
}

// VariantNames lists the registered variants.
func VariantNames() []string {
	var ns []string
	for n := range variants {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func newVariant(cfg *Config) (Variant, recoveryKind, error) {
	spec, ok := variants[cfg.Variant]
	if !ok {
		return nil, 0, fmt.Errorf("unknown variant %q (have %v)", cfg.Variant, VariantNames())
	}
	v, err := spec.make(cfg.Params)
	if err != nil {
		return nil, 0, err
	}
	rec := spec.recovery
	if cfg.SACK && rec != recOldTahoe && rec != recTahoe {
		rec = recSACK
	}
	return v, rec, nil
}
