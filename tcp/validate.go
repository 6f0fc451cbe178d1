package tcp

import (
	"errors"
	"fmt"
	"slices"
)

// FieldError names the offending field by its YAML path inside the
// transport section (e.g. "rto.min"), so the scenario layer can point at
// the line.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }

// variantChecks holds what variants demand of the configuration; a
// variant's file adds its check, which reports through bad.
var variantChecks = map[string]func(c *Config, bad func(field, format string, a ...any)){}

// Validate checks the configuration; every problem is a *FieldError,
// joined with errors.Join.
func (c *Config) Validate() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, &FieldError{field, fmt.Sprintf(format, a...)})
	}
	if _, ok := variants[c.Variant]; !ok {
		bad("variant", "unknown variant %q (have %v)", c.Variant, VariantNames())
	}
	oneOf := func(field, v string, allowed ...string) {
		if !slices.Contains(allowed, v) {
			bad(field, "%q is not one of %v", v, allowed)
		}
	}
	if c.MSS <= 0 {
		bad("mss", "must be positive, got %d", c.MSS)
	}
	if c.HeaderBytes < 0 {
		bad("header_bytes", "must not be negative, got %d", c.HeaderBytes)
	}
	if c.Window < 0 {
		bad("window", "must not be negative, got %d", c.Window)
	}
	if c.InitialWindow < 1 {
		bad("initial_window", "must be at least 1 segment, got %v", c.InitialWindow)
	}
	if c.InitialSsthresh < 0 {
		bad("initial_ssthresh", "must not be negative, got %v", c.InitialSsthresh)
	}
	oneOf("ssthresh_basis", c.SsthreshBasis, "flight", "cwnd")
	oneOf("recovery_exit", c.RecoveryExit, "ssthresh", "ssthresh_grow", "grow")
	oneOf("partial_ack_restart", c.PartialAckRestart, "first", "every")
	if c.DupThresh < 1 {
		bad("dupthresh", "must be at least 1, got %d", c.DupThresh)
	}
	if c.DelAckCount < 1 {
		bad("delack_count", "must be at least 1 (1 means no delayed ACKs), got %d", c.DelAckCount)
	}
	if c.DelAckCount > 1 && c.DelAckTimeout <= 0 {
		bad("delack_timeout", "must be positive with delayed ACKs")
	}
	oneOf("ts_echo", c.TSEcho, "rfc7323", "latest")
	if check := variantChecks[c.Variant]; check != nil {
		check(c, bad)
	}
	if c.TSTick <= 0 {
		bad("ts_tick", "must be positive")
	}
	oneOf("handshake", c.Handshake, "none", "syn", "3way")
	oneOf("rtt_sampling", c.RTTSampling, "timed", "every_ack", "timestamps")
	if c.RTTSampling == "timestamps" && !c.Timestamps {
		bad("rtt_sampling", "\"timestamps\" needs timestamps: true")
	}
	oneOf("spurious", c.Spurious, "none", "frto", "eifel")
	if c.Spurious == "eifel" && !c.Timestamps {
		bad("spurious", "eifel needs timestamps: true")
	}
	oneOf("rto.policy", c.RTO.Policy, "rfc6298", "ns2")
	if c.RTO.Min < 0 {
		bad("rto.min", "must not be negative")
	}
	if c.RTO.Max <= 0 || c.RTO.Max < c.RTO.Min {
		bad("rto.max", "must be positive and at least rto.min")
	}
	if c.RTO.Initial <= 0 {
		bad("rto.initial", "must be positive")
	}
	if c.RTO.Granularity <= 0 {
		bad("rto.granularity", "must be positive")
	}
	if c.RTO.K <= 0 {
		bad("rto.k", "must be positive")
	}
	if c.RTO.Alpha <= 0 || c.RTO.Alpha > 1 {
		bad("rto.alpha", "must be in (0, 1]")
	}
	if c.RTO.Beta <= 0 || c.RTO.Beta > 1 {
		bad("rto.beta", "must be in (0, 1]")
	}
	return errors.Join(errs...)
}
