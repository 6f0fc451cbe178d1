package tcp

import (
	"errors"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
)

// Limits that keep every size and count in range for the types and the
// memory it ends up in (a scoreboard entry per outstanding segment).
const (
	maxPacketBytes = 1 << 24         // MSS plus headers: far above any real MTU, far below int32
	maxSegments    = 1 << 24         // window and initial window, in segments
	minRTOMax      = sim.Millisecond // rto.max: a timer that fires faster only spins
)

// Validate checks the configuration, the variant's params included (the
// same checks whether a scenario is only validated or run). Every problem
// is a *component.FieldError, joined with errors.Join.
func (c *Config) Validate() error {
	_, err := c.validate()
	return err
}

// validate checks the configuration and returns the variant it made on
// the way, which NewFlow uses: a flow builds its variant once.
func (c *Config) validate() (Variant, error) {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, component.Errorf(field, format, a...))
	}
	var v Variant
	if spec, ok := variants[c.VariantImpl()]; !ok {
		bad("variant", "unknown variant %q (have %v)", c.Variant, VariantNames())
	} else if made, err := spec.make(c.Params); err != nil {
		var fe *component.FieldError
		if !errors.As(err, &fe) {
			fe = component.Errorf("params", "%s", err.Error())
		}
		errs = append(errs, fe)
	} else {
		v = made
	}
	seg := &c.Segments
	if seg.MSS <= 0 || seg.MSS > maxPacketBytes {
		bad("mss", "must be in [1, %d] bytes, got %d", maxPacketBytes, seg.MSS)
	}
	if seg.HeaderBytes < 0 || seg.HeaderBytes > 65535 {
		bad("header_bytes", "must be in [0, 65535], got %d", seg.HeaderBytes)
	}
	if seg.Window < 0 || seg.Window > maxSegments {
		bad("window", "must be in [0, %d] segments (0: no cap), got %d", maxSegments, seg.Window)
	}
	if !(seg.InitialWindow >= 1 && seg.InitialWindow <= maxSegments) {
		bad("initial_window", "must be in [1, %d] segments, got %v", maxSegments, seg.InitialWindow)
	}
	if !(seg.InitialSsthresh >= 0 && seg.InitialSsthresh <= maxSegments) {
		bad("initial_ssthresh", "must be in [0, %d] segments (0: the window cap, or none), got %v", maxSegments, seg.InitialSsthresh)
	}
	enum := func(field string, v, n int) {
		if v >= n {
			bad(field, "invalid value %d", v)
		}
	}
	enum("ssthresh_basis", int(c.Growth.SsthreshBasis), len(ssthreshBasisNames))
	enum("recovery_exit", int(c.Recovery.Exit), len(recoveryExitNames))
	enum("partial_ack_restart", int(c.Recovery.PartialAckRestart), len(partialAckRestartNames))
	enum("ts_echo", int(c.TS.Echo), len(tsEchoNames))
	enum("handshake", int(c.Open.Mode), len(handshakeNames))
	enum("rtt_sampling", int(c.Timer.RTTSampling), len(rttSamplingNames))
	enum("spurious", int(c.Timer.Spurious), len(spuriousNames))
	if c.Recovery.DupThresh < 1 || c.Recovery.DupThresh > maxSegments {
		bad("dupthresh", "must be in [1, %d], got %d", maxSegments, c.Recovery.DupThresh)
	}
	if c.Acks.DelAckCount < 1 || c.Acks.DelAckCount > maxSegments {
		bad("delack_count", "must be in [1, %d] (1 means no delayed ACKs), got %d", maxSegments, c.Acks.DelAckCount)
	}
	if c.Acks.DelAckCount > 1 && c.Acks.DelAckTimeout <= 0 {
		bad("delack_timeout", "must be positive with delayed ACKs")
	}
	if ch, ok := v.(ConfigChecker); ok {
		ch.CheckConfig(c, bad)
	}
	if c.TS.Tick <= 0 {
		bad("ts_tick", "must be positive")
	}
	if c.Timer.RTTSampling == SampleTimestamps && !c.TS.Enabled {
		bad("rtt_sampling", "\"timestamps\" needs timestamps: true")
	}
	if c.Timer.Spurious == Eifel && !c.TS.Enabled {
		bad("spurious", "eifel needs timestamps: true")
	}
	r := &c.Timer.RTO
	if _, ok := rtoPolicies[r.Policy]; !ok {
		bad("rto.policy", "unknown policy %q (have %v)", r.Policy, RTOPolicyNames())
	}
	if r.Min < 0 {
		bad("rto.min", "must not be negative")
	}
	if r.Max < minRTOMax || r.Max < r.Min {
		bad("rto.max", "must be at least %v and at least rto.min", minRTOMax)
	}
	if r.Initial <= 0 {
		bad("rto.initial", "must be positive")
	}
	if r.Granularity <= 0 {
		bad("rto.granularity", "must be positive")
	}
	if !(r.K > 0 && r.K <= 1e6) {
		bad("rto.k", "must be in (0, 1e6]")
	}
	if !(r.Alpha > 0 && r.Alpha <= 1) {
		bad("rto.alpha", "must be in (0, 1]")
	}
	if !(r.Beta > 0 && r.Beta <= 1) {
		bad("rto.beta", "must be in (0, 1]")
	}
	if c.Open.SynTimeout < 0 {
		bad("syn_timeout", "must not be negative")
	}
	pc := &c.Pacing
	if pc.Quantum < 0 || pc.Quantum > maxSegments {
		bad("pacing_quantum", "must be in [0, %d] segments (0: sized from the rate, as Linux), got %d", maxSegments, pc.Quantum)
	}
	for _, r := range []struct {
		field string
		v     float64
	}{{"pacing_ss_ratio", pc.SSRatio}, {"pacing_ca_ratio", pc.CARatio}} {
		if !(r.v > 0 && r.v <= 1e6) {
			bad(r.field, "must be in (0, 1e6] percent of cwnd per RTT, got %v", r.v)
		}
	}
	return v, errors.Join(errs...)
}
