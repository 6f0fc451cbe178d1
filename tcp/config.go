package tcp

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

// Config is everything that sets a TCP flow's behaviour, grouped by
// concern. A profile (ns2, ns3, linux) fills it; a scenario may override
// any field by its YAML name. The groups are inlined: in YAML every field
// is a key of the transport mapping (rto's fields under rto:).
type Config struct {
	Profile string `yaml:"profile"` // the profile this config started from
	Variant string `yaml:"variant"` // congestion control: oldtahoe, tahoe, reno, newreno, ...
	// Params are the variant's own parameters by name (e.g. Vegas alpha).
	Params map[string]float64 `yaml:"params"`

	Segments SegmentConfig   `yaml:",inline"`
	Growth   GrowthConfig    `yaml:",inline"`
	Recovery RecoveryConfig  `yaml:",inline"`
	Acks     AckConfig       `yaml:",inline"`
	TS       TimestampConfig `yaml:",inline"`
	Open     HandshakeConfig `yaml:",inline"`
	Timer    TimerConfig     `yaml:",inline"`
	Pacing   PacingConfig    `yaml:",inline"`
	ECN      bool            `yaml:"ecn"` // RFC 3168: mark data ECT and react to ECE
}

// SegmentConfig sizes segments and windows.
type SegmentConfig struct {
	MSS         int  `yaml:"mss"`          // payload bytes per full segment
	HeaderBytes int  `yaml:"header_bytes"` // TCP/IP (and link) header bytes per packet
	OptionBytes bool `yaml:"option_bytes"` // count timestamp and SACK option bytes in packet sizes (ns-3), or not (ns-2)
	// Window caps the send window in segments, like ns-2's window_ and the
	// receiver's buffer in ns-3 (0: no cap).
	Window          int     `yaml:"window"`
	InitialWindow   float64 `yaml:"initial_window"`   // segments (RFC 6928 uses 10)
	InitialSsthresh float64 `yaml:"initial_ssthresh"` // segments; 0 means the window cap, or no limit without one
}

// GrowthConfig holds the profile choices of window arithmetic that every
// Reno-like variant shares.
type GrowthConfig struct {
	// SsthreshBasis is what a loss halves: flight (RFC 5681 eq. 4, ns-3:
	// bytes in flight) or cwnd (ns-2: min(cwnd, window)).
	SsthreshBasis SsthreshBasis `yaml:"ssthresh_basis"`
	// ByteCounting grows cwnd by the bytes acked (RFC 3465: in slow start
	// with L = 2 SMSS, in congestion avoidance one SMSS per cwnd of bytes
	// acknowledged) rather than by one segment, or MSS²/cwnd, per ACK
	// (ns-2, ns-3 NewReno).
	ByteCounting bool `yaml:"byte_counting"`
	// SlowStartCarry: an ACK that acknowledges more segments than slow
	// start uses also makes one congestion-avoidance increment when it
	// takes cwnd to ssthresh (ns-3's TcpNewReno::IncreaseWindow).
	SlowStartCarry bool `yaml:"slow_start_carry"`
	// IdleRestart: after sending nothing for longer than the RTO, start
	// again from min(IW, cwnd) (RFC 5681 §4.1; Linux's
	// tcp_slow_start_after_idle). Matters only for applications that pause
	// (web pages with think times).
	IdleRestart bool `yaml:"idle_restart"`
}

// RecoveryConfig chooses the loss recovery and its details.
type RecoveryConfig struct {
	// SACK turns on RFC 2018 SACK blocks at the receiver and RFC 6675
	// loss recovery at the sender.
	SACK      bool `yaml:"sack"`
	DupThresh int  `yaml:"dupthresh"` // duplicate ACKs that trigger fast retransmit (RFC 5681: 3)
	// LimitedTransmit sends new data on the first two duplicate ACKs (RFC 3042).
	LimitedTransmit bool `yaml:"limited_transmit"`
	// LimitedTransmitGoBackN lets limited transmit also send the
	// go-back-N retransmission at SND.NXT after a timeout, not only new
	// data (ns-2.35's send_one on the first dupacks).
	LimitedTransmitGoBackN bool `yaml:"limited_transmit_gbn"`
	// Exit is what the ACK ending fast recovery does to cwnd: ssthresh
	// (RFC 5681 §3.2 step 6, RFC 6582), ssthresh_grow (ns-3.37) or grow
	// (ns-2.35).
	Exit RecoveryExit `yaml:"recovery_exit"`
	// LossExitNoGrowth: the ACK that completes the repair after a timeout
	// (reaches recover) does not open cwnd (ns-3.37 leaving CA_LOSS).
	LossExitNoGrowth bool `yaml:"loss_exit_no_growth"`
	// PartialAckRestart: which partial ACKs in fast recovery restart the
	// retransmission timer: first (RFC 6582 §4's impatient variant, ns-2
	// and ns-3) or every (RFC 6298 §5.3, Linux).
	PartialAckRestart PartialAckRestart `yaml:"partial_ack_restart"`
	// RecoverInclusive allows a new fast retransmit once the cumulative ACK
	// reaches recover (ns-3), not only once it passes it (RFC 6582 §3.2
	// "covers more than recover", ns-2's bug_fix_).
	RecoverInclusive bool `yaml:"recover_inclusive"`
	// RenoCareful makes Reno, too, refuse a second fast retransmit until the
	// cumulative ACK passes recover (ns-2's bug_fix_, RFC 2582 §5's careful
	// variant): a second loss in a window then waits for the timer. Plain
	// RFC 5681 Reno retransmits on any third duplicate ACK.
	RenoCareful bool `yaml:"reno_careful"`
	// PipeKeepsSackedRetx counts a retransmitted segment in the pipe even
	// after it is SACKed (ns-3.37's BytesInFlight keeps its retransmission
	// flag); RFC 6675 §4 counts only segments not SACKed.
	PipeKeepsSackedRetx bool `yaml:"pipe_keeps_sacked_retx"`
	// SACKPartialRetransmit sends one segment chosen by NextSeg on every
	// partial ACK of SACK recovery whatever the pipe says (ns-3.37); RFC
	// 6675 sends only while cwnd - pipe allows.
	SACKPartialRetransmit bool `yaml:"sack_partial_retransmit"`
	// RACK adds RFC 8985's time-based loss detection to SACK recovery
	// (tcp/rack.go): a segment is lost once a segment sent after it is
	// delivered and an RTT plus a reordering window has passed since it
	// was sent, however few duplicate ACKs came; a retransmission is
	// judged the same way, and a timeout marks lost only what was sent
	// RACK.rtt ago (Linux's default, the linux profile's). It reads SACK
	// blocks: without SACK it does nothing.
	RACK bool `yaml:"rack"`
	// PRR paces SACK recovery's sending by Proportional Rate Reduction
	// (RFC 6937, Linux's tcp_cwnd_reduction) instead of RFC 6675's
	// cwnd = ssthresh against the pipe: the flight falls towards ssthresh
	// by one segment sent for every ssthresh/RecoverFS delivered, and
	// below it grows back by slow start, so a small window keeps sending
	// through recovery. A variant that sets its own window (BBR) is not
	// reduced by it, as Linux's cong_control hook is not.
	PRR bool `yaml:"prr"`
	// LossByMarks: the losses a rate sample reports (BBR's loss signal)
	// are the change, either way, of the bytes marked lost over the ACK
	// (ns-3.37's TcpSocketBase hands TcpRateOps |lost after − lost
	// before|: a hole counts when marked and again when its
	// retransmission is SACKed or acknowledged, while the mark comes off).
	// Otherwise a segment counts once, when retransmitted (Linux's
	// tcp_rate, the delivery-rate draft). Needs SACK.
	LossByMarks bool `yaml:"loss_by_marks"`
}

// AckConfig is the receiver's acknowledgment policy.
type AckConfig struct {
	DelAckCount   int      `yaml:"delack_count"`   // ACK every this many full segments; 1 means no delayed ACKs
	DelAckTimeout sim.Time `yaml:"delack_timeout"` // RFC 1122: at most 500 ms, usually 200 ms
}

// TimestampConfig is the RFC 7323 timestamps option.
type TimestampConfig struct {
	Enabled bool     `yaml:"timestamps"`
	Echo    TSEcho   `yaml:"ts_echo"` // rfc7323 or latest (T-DLRP §4.1, Fig. 4c)
	Tick    sim.Time `yaml:"ts_tick"` // timestamp clock tick (RFC 7323 §5.4: 1 ms to 1 s)
}

// HandshakeConfig is how the connection opens.
type HandshakeConfig struct {
	Mode Handshake `yaml:"handshake"` // none, syn (ns-2) or 3way
	// SynTimeout is the SYN's retransmission timeout (ns-3's ConnTimeout,
	// 3 s); 0 uses rto.initial (RFC 6298 §2.1).
	SynTimeout sim.Time `yaml:"syn_timeout"`
	// SynLossIW1 starts from one segment after a lost SYN (RFC 5681 §3.1,
	// ns-2); ns-3.37 keeps its initial window.
	SynLossIW1 bool `yaml:"syn_loss_iw1"`
	// SynRTTFromFirst times the handshake from the first SYN even when it
	// was retransmitted (ns-3.37; a Karn violation that leaves a large RTO
	// after a lost SYN).
	SynRTTFromFirst bool `yaml:"syn_rtt_from_first"`
}

// TimerConfig is the retransmission timer and what feeds it.
type TimerConfig struct {
	RTO RTOConfig `yaml:"rto"`
	// RTTSampling: timed (one timed segment per window, ns-2), every_ack
	// (ns-3) or timestamps (RFC 7323 RTTM, needs timestamps).
	RTTSampling RTTSampling `yaml:"rtt_sampling"`
	// RestartOnFastRetransmit restarts the retransmission timer when the
	// fast retransmission is sent (ns-2's dupack_action does, ns-3.37 does not).
	RestartOnFastRetransmit bool `yaml:"rtx_restart"`
	// KeepBackoff keeps an RTO back-off until a fresh RTT sample (ns-2,
	// RFC 6298 §5.7 via Karn); false drops it on any new ACK (ns-3).
	KeepBackoff bool `yaml:"keep_backoff"`
	// Spurious is the spurious-timeout detection: none, frto (RFC 5682) or
	// eifel (RFC 3522 detection, RFC 4015 response; needs timestamps).
	Spurious Spurious `yaml:"spurious"`
}

// RTOConfig sets the retransmission timer (RFC 6298).
type RTOConfig struct {
	// Policy names the RTO estimator (RegisterRTOPolicy): rfc6298
	// (floating point, RTO = SRTT + max(G, K·RTTVAR)) or ns2 (ns-2.35's
	// fixed-point tick arithmetic).
	Policy      string   `yaml:"policy"`
	Min         sim.Time `yaml:"min"`         // RFC 6298 (2.4): 1 s; Linux 200 ms
	Max         sim.Time `yaml:"max"`         // RFC 6298 (2.5): at least 60 s
	Initial     sim.Time `yaml:"initial"`     // RFC 6298 (2.1): 1 s
	Granularity sim.Time `yaml:"granularity"` // clock tick G (ns-2 tcpTick_)
	K           float64  `yaml:"k"`           // RTTVAR multiplier, 4
	Alpha       float64  `yaml:"alpha"`       // SRTT gain, 1/8
	Beta        float64  `yaml:"beta"`        // RTTVAR gain, 1/4
}

// profiles are the named starting points. Each documents the simulator or
// stack whose defaults it reproduces (shared anchors README, RFCs).
var profiles = map[string]Config{
	// ns-2.35 Agent/TCP defaults (tcl/lib/ns-default.tcl as read back from
	// the binary): window_ 20, windowInit_ 2, tcpTick_ 10 ms, minrto_ 0.2 s,
	// maxrto_ 60 s, rtxcur_init_ 3 s, a 40-byte SYN, 40-byte headers, one
	// timed segment per RTT, timer restart at fast retransmit, back-off kept
	// until a fresh sample, ssthresh from min(cwnd, window_).
	"ns2": {
		Profile: "ns2", Variant: "newreno",
		Segments: SegmentConfig{MSS: 1000, HeaderBytes: 40, Window: 20, InitialWindow: 2},
		Growth:   GrowthConfig{SsthreshBasis: CwndBasis},
		Recovery: RecoveryConfig{DupThresh: 3, LimitedTransmit: true, LimitedTransmitGoBackN: true,
			Exit: ExitGrow, PartialAckRestart: RestartFirst, RenoCareful: true},
		Acks: AckConfig{DelAckCount: 1, DelAckTimeout: 100 * sim.Millisecond},
		TS:   TimestampConfig{Echo: EchoRFC7323, Tick: 10 * sim.Millisecond},
		Open: HandshakeConfig{Mode: HandshakeSYN, SynLossIW1: true},
		Timer: TimerConfig{
			RTO: RTOConfig{Policy: "ns2", Min: 200 * sim.Millisecond, Max: 60 * sim.Second,
				Initial: 3 * sim.Second, Granularity: 10 * sim.Millisecond, K: 4, Alpha: 0.125, Beta: 0.25},
			RTTSampling: SampleTimed, RestartOnFastRetransmit: true, KeepBackoff: true, Spurious: SpuriousNone},
		Pacing: PacingConfig{SSRatio: 200, CARatio: 120, Quantum: 1},
	},
	// ns-3.37 TcpSocketBase defaults, less its two defects (anchors README):
	// IW 10, SACK, timestamps, delayed ACK every 2 segments or 200 ms, MinRto
	// 1 s, 1 ms clock, every-ACK RTT samples, no timer restart at fast
	// retransmit, back-off dropped on new ACKs, ssthresh from bytes in
	// flight, 42-byte headers (TCP 20 + IPv4 20 + PPP 2) plus options.
	// ns-3's default congestion control is CUBIC; this profile uses NewReno
	// until CUBIC is selected with variant.
	"ns3": {
		Profile: "ns3", Variant: "newreno",
		Segments: SegmentConfig{MSS: 536, HeaderBytes: 42, OptionBytes: true, InitialWindow: 10},
		Growth:   GrowthConfig{SsthreshBasis: FlightBasis, SlowStartCarry: true},
		Recovery: RecoveryConfig{SACK: true, DupThresh: 3, LimitedTransmit: true, Exit: ExitToSsthreshGrow,
			LossExitNoGrowth: true, PartialAckRestart: RestartFirst, RecoverInclusive: true,
			PipeKeepsSackedRetx: true, SACKPartialRetransmit: true, LossByMarks: true},
		Acks: AckConfig{DelAckCount: 2, DelAckTimeout: 200 * sim.Millisecond},
		TS:   TimestampConfig{Enabled: true, Echo: EchoRFC7323, Tick: sim.Millisecond},
		Open: HandshakeConfig{Mode: Handshake3Way, SynTimeout: 3 * sim.Second, SynRTTFromFirst: true},
		Timer: TimerConfig{
			RTO: RTOConfig{Policy: "rfc6298", Min: sim.Second, Max: 60 * sim.Second,
				Initial: sim.Second, Granularity: sim.Millisecond, K: 4, Alpha: 0.125, Beta: 0.25},
			RTTSampling: SampleEveryAck, Spurious: SpuriousNone},
		Pacing: PacingConfig{SSRatio: 200, CARatio: 120, Quantum: 1},
	},
	// A modern Linux sender: CUBIC, IW 10 (RFC 6928), SACK with RACK
	// (RFC 8985) and PRR (RFC 6937), timestamps, Linux's RTO estimator
	// (200 ms on top of SRTT), delayed ACKs, 1 ms clock, F-RTO; checked
	// against the kernel's own TCP on emulated paths (docs/emulation.md).
	"linux": {
		Profile: "linux", Variant: "cubic",
		Segments: SegmentConfig{MSS: 1448, HeaderBytes: 40, OptionBytes: true, InitialWindow: 10},
		// Linux halves cwnd, not the flight (tcp_reno_ssthresh: max(cwnd/2, 2)),
		// and counts acknowledged segments in congestion avoidance too
		// (tcp_cong_avoid_ai).
		Growth: GrowthConfig{SsthreshBasis: CwndBasis, ByteCounting: true, IdleRestart: true},
		// A recovery ends, and the next may begin, once SND.UNA reaches
		// high_seq (tcp_fastretrans_alert).
		Recovery: RecoveryConfig{SACK: true, DupThresh: 3, LimitedTransmit: true, Exit: ExitToSsthresh,
			PartialAckRestart: RestartEvery, RecoverInclusive: true, RACK: true, PRR: true},
		Acks: AckConfig{DelAckCount: 2, DelAckTimeout: 40 * sim.Millisecond},
		TS:   TimestampConfig{Enabled: true, Echo: EchoRFC7323, Tick: sim.Millisecond},
		Open: HandshakeConfig{Mode: Handshake3Way, SynLossIW1: true},
		Timer: TimerConfig{
			RTO: RTOConfig{Policy: "linux", Min: 200 * sim.Millisecond, Max: 120 * sim.Second,
				Initial: sim.Second, Granularity: sim.Millisecond, K: 4, Alpha: 0.125, Beta: 0.25},
			RTTSampling: SampleTimestamps, RestartOnFastRetransmit: true, Spurious: FRTO},
		Pacing: PacingConfig{SSRatio: 200, CARatio: 120},
	},
}

// Profile returns the named profile's configuration.
func Profile(name string) (Config, error) {
	c, ok := profiles[name]
	if !ok {
		return Config{}, fmt.Errorf("unknown profile %q (have %v)", name, ProfileNames())
	}
	c.Params = nil
	return c, nil
}

// ProfileNames lists the profiles in sorted order.
func ProfileNames() []string { return slices.Sorted(maps.Keys(profiles)) }

// DefaultProfile is the profile a flow uses when the scenario names none.
const DefaultProfile = "ns2"

// recentConfigs are the last configurations (up to recentShared) flows of
// one network were made with, newest last.
type recentConfigs struct{ cfgs []*Config }

const recentShared = 8

// sharedConfigs is the key of a network's recentConfigs (Net.Shared).
type sharedConfigs struct{}

// shareConfig returns a copy of c that flows made one after another with
// an equal configuration (a scenario's counted flows: thousands) share, so
// that the fields every packet reads at both ends are one set of cache
// lines for all of them, not a set per flow; with 1 000 flows, per-flow
// copies cost 7% of the second-level cache misses. Only the last few are
// compared, so that making n flows costs O(n). Nothing writes a
// configuration once its flow is made.
func shareConfig(net *network.Net, c *Config) *Config {
	r := net.Shared(sharedConfigs{}, func() any { return &recentConfigs{} }).(*recentConfigs)
	for i := len(r.cfgs) - 1; i >= 0; i-- {
		if r.cfgs[i].equal(c) {
			return r.cfgs[i]
		}
	}
	cp := *c
	if len(r.cfgs) == recentShared {
		r.cfgs = append(r.cfgs[:0], r.cfgs[1:]...)
	}
	r.cfgs = append(r.cfgs, &cp)
	return &cp
}

// equal reports whether two configurations are the same in every field.
func (c *Config) equal(o *Config) bool {
	return c.Profile == o.Profile && c.Variant == o.Variant && maps.Equal(c.Params, o.Params) &&
		c.Segments == o.Segments && c.Growth == o.Growth && c.Recovery == o.Recovery &&
		c.Acks == o.Acks && c.TS == o.TS && c.Open == o.Open && c.Timer == o.Timer && c.Pacing == o.Pacing && c.ECN == o.ECN
}
