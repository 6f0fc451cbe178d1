package tcp

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/tcplab/tcplab/sim"
)

// Variant is a congestion-control and loss-differentiation algorithm. The
// engine (Sender) owns sequence space, timers, loss recovery and the
// scoreboard; a variant owns its own state and reacts to events through
// this interface (the split of ns-3's TcpCongestionOps / TcpRecoveryOps).
// It changes the windows in one way only: by setting State.Cwnd and
// State.Ssthresh. Embed Reno to inherit its defaults.
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
	// retransmit), and when an ECN echo signals congestion (l.ECN; no
	// retransmission then). It sets ssthresh and cwnd and says how it
	// classified the loss.
	OnLoss(s *State, l *LossEvent) Response
	// OnDupAckInRecovery may detect a lost retransmission (DAC, DDLRP,
	// T-DLRP): Response.Retransmit asks for the first unacknowledged segment
	// to be sent again now.
	OnDupAckInRecovery(s *State, a *AckEvent) Response
	// OnRecoveryExit is called on the ACK that ends fast recovery, after
	// the engine set cwnd by the profile's recovery exit rule.
	OnRecoveryExit(s *State)
	// OnTimeout is called when the retransmission timer expires. The
	// variant sets ssthresh and cwnd (Reno: half, and one segment).
	OnTimeout(s *State) Response
}

// SendObserver is implemented by variants that watch the segments the
// sender transmits (T-DLRP's Timestamp_new); the engine calls OnSend for
// every data segment, right before it leaves.
type SendObserver interface {
	OnSend(s *State, e *SendEvent)
}

// RateController is implemented by variants that steer by the delivery
// rate (BBR; ns-3's CongControl, Linux's cong_control): after the engine has
// processed an ACK, in or out of recovery, duplicate or not, OnRateSample
// gets its rate sample (rate.go) and may set Cwnd and PacingRate; the
// segments the ACK allows are sent after it returns. The flow paces.
type RateController interface {
	OnRateSample(s *State, rs *RateSample)
}

// ConfigChecker is implemented by variants that need some settings of
// the connection (timestamps, an RTT sample on every ACK); Config.Validate
// calls it and reports each problem at its field.
type ConfigChecker interface {
	CheckConfig(c *Config, bad func(field, format string, a ...any))
}

// Randomized is implemented by variants that draw random numbers (BBR's
// gain-cycle phase): the engine gives each flow's variant a stream of its
// own, seeded from the scenario's seed and the flow's name.
type Randomized interface {
	UseRand(r *rand.Rand)
}

// SendEvent describes one data segment being sent.
type SendEvent struct {
	Seq   int64 // first sequence number
	TSval int64 // its timestamp (0 without timestamps)
	Retx  bool  // a retransmission
	Fast  bool  // a fast retransmission (or a lost retransmission resent)
}

// State is the connection as a variant sees it. The engine keeps it
// current (it is the engine's own storage for these values, not a copy);
// a variant sets Cwnd and Ssthresh and only reads the rest.
type State struct {
	Cwnd     float64 // bytes
	Ssthresh float64 // bytes

	MSS    float64  // bytes per full segment
	Window float64  // the send-window cap in bytes (0: none)
	TSTick sim.Time // the timestamp clock's tick (Config.TS.Tick)
	Now    sim.Time // the time of the event being handled

	Una  int64 // oldest unacknowledged sequence number
	Nxt  int64 // next sequence number to send
	High int64 // highest sequence number sent + 1

	SRTT    sim.Time // smoothed RTT (0 before the first sample)
	MinRTT  sim.Time // smallest RTT seen (sim.Never before any sample)
	LastRTT sim.Time // the latest sample

	// PacingRate is the rate in payload bytes per second at which a paced sender
	// releases segments (pacing.go; 0: not paced). A RateController sets
	// it; for other variants the engine sets it from cwnd and SRTT when
	// the configuration asks for pacing.
	PacingRate float64

	InRecovery bool // in fast recovery
	// (InRecovery shares its word with growth's flags: a State is 120
	// bytes, and the sender's hot fields after it keep their cache lines.)
	growth GrowthConfig
	flight func() int64 // the engine's bytes in flight; nil: High - Una
}

// Flight is the bytes outstanding: the RFC 6675 pipe with SACK, else
// SND.MAX - SND.UNA. It is computed when asked.
func (s *State) Flight() float64 {
	if s.flight != nil {
		return float64(s.flight())
	}
	return float64(s.High - s.Una)
}

// HalfWindow is the standard ssthresh after a congestion loss: half the
// basis (RFC 5681 eq. 4 FlightSize/2, or ns-2's min(cwnd, window_)/2
// truncated to whole segments), at least 2 segments.
func (s *State) HalfWindow() float64 { return s.ReducedWindow(0.5) }

// ReducedWindow is the loss basis times factor, at least 2 segments
// (Veno's 4/5 uses factor 0.8).
func (s *State) ReducedWindow(factor float64) float64 {
	if s.growth.SsthreshBasis == CwndBasis {
		v := s.cwndBasis() * factor
		return max(float64(int64(v/s.MSS))*s.MSS, 2*s.MSS)
	}
	return max(s.Flight()*factor, 2*s.MSS)
}

// cwndBasis is ns-2's loss basis, min(cwnd, window_).
func (s *State) cwndBasis() float64 {
	if s.Window > 0 && s.Window < s.Cwnd {
		return s.Window
	}
	return s.Cwnd
}

// Halve is Reno's response to a congestion loss (RFC 5681 eq. 4):
// ssthresh = HalfWindow and cwnd = ssthresh; with ns-2's cwnd basis cwnd
// keeps the fraction of the half window (ns-2's CLOSE_CWND_HALF).
func (s *State) Halve() {
	half := s.HalfWindow()
	if s.growth.SsthreshBasis == CwndBasis {
		s.Cwnd = max(s.cwndBasis()/2, s.MSS)
	} else {
		s.Cwnd = half
	}
	s.Ssthresh = half
}

// InSlowStart reports cwnd < ssthresh (RFC 5681 §3.1).
func (s *State) InSlowStart() bool { return s.Cwnd < s.Ssthresh }

// AckEvent describes one arriving ACK.
type AckEvent struct {
	Ack     int64    // cumulative ACK
	Acked   float64  // bytes newly acknowledged (0 for a duplicate)
	RTT     sim.Time // RTT sample taken on this ACK, or 0
	TSecr   int64    // echoed timestamp, if timestamps are on
	TSval   int64    // the receiver's timestamp on this ACK (ticks of State.TSTick)
	HasTS   bool
	CW      bool // the ACK echoes a router's congestion warning
	ECE     bool // ECN echo
	Dupacks int  // duplicate ACKs in a row, this one included
	// NewestRTT is the RTT of the newest segment the ACK covers, if it
	// was sent once (0 otherwise): ns-2 Vegas's fine-grained sample.
	NewestRTT sim.Time
}

// LossEvent describes a loss detected by duplicate ACKs, or congestion
// signalled by ECN.
type LossEvent struct {
	Seq     int64 // first unacknowledged sequence number (the lost segment)
	Dupacks int
	CW      bool // the ACK that triggered it carries a congestion warning
	ECN     bool // an ECN echo, not a loss: nothing is retransmitted (RFC 3168 §6.1.2)
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

// Response is what a variant asks of the engine besides the windows.
type Response struct {
	Class LossClass
	// Retransmit (OnDupAckInRecovery): the retransmission was judged lost;
	// send the first unacknowledged segment again now.
	Retransmit bool
	// RepairInPlace (OnTimeout): retransmit only the first unacknowledged
	// segment and repair the rest of the window as fast recovery does (a
	// partial ACK resends the next hole, until everything sent before the
	// timeout is acknowledged), instead of going back N (T-DLRP's IRTOR).
	RepairInPlace bool
}

type variantSpec struct {
	recovery string
	make     func(params map[string]float64) (Variant, error)
}

var variants = map[string]variantSpec{}

// Register adds a congestion-control variant under name. Variants call it
// from init; recovery names the loss recovery it uses without SACK
// (RegisterRecovery: oldtahoe, tahoe, reno or newreno for most); with
// sack: true every variant but the Tahoes uses RFC 6675. make builds one
// instance from the scenario's params and rejects unknown ones
// (ParamError).
func Register(name string, recovery string, make func(params map[string]float64) (Variant, error)) {
	if _, ok := recoveries[recovery]; !ok {
		panic("tcp: unknown recovery " + recovery)
	}
	variants[name] = variantSpec{recovery: recovery, make: make}
}

// profileVariants maps, per profile, a variant name to the implementation
// that profile's simulator runs under that name: where ns-2's or ns-3's
// program differs from the algorithm as published (ns-3's TcpCubic has no
// Reno-friendly region and counts in whole segments; ns-2's Vegas is a
// sender of its own), `profile: ns3, variant: cubic` runs the ns-3 program
// and the published one stays available under its own name.
var profileVariants = map[string]map[string]string{}

// RegisterProfileVariant makes variant name, under profile, run the
// registered variant impl.
func RegisterProfileVariant(profile, name, impl string) {
	if profileVariants[profile] == nil {
		profileVariants[profile] = map[string]string{}
	}
	profileVariants[profile][name] = impl
}

// VariantImpl is the registered variant a flow with this configuration
// runs: Variant, or the profile's own implementation of it.
func (c *Config) VariantImpl() string {
	if impl, ok := profileVariants[c.Profile][c.Variant]; ok {
		return impl
	}
	return c.Variant
}

// UsesSACK reports whether a flow of this configuration sends and reads
// SACK blocks: with sack: true, or with the variant "sack" (NewReno with
// RFC 6675 recovery, which needs them at both ends). NewFlow resolves it
// once into Recovery.SACK, which everything after reads.
func (c *Config) UsesSACK() bool {
	return c.Recovery.SACK || variants[c.VariantImpl()].recovery == "sack"
}

// VariantNames lists the registered variants.
func VariantNames() []string { return slices.Sorted(maps.Keys(variants)) }
