package wireless

import (
	"slices"
	"strings"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
)

// reception is how a radio's PHY picks the frame it receives among the
// signals on the air and decides whether that frame survived. The radio
// (phy.go) keeps the signals' power and calls these at each change; the
// MAC sees only the outcome.
type reception interface {
	// arrived is a signal's first bit at r (its power already counted).
	arrived(r *Radio, s *signal)
	// left is a signal other than the received one leaving r (its power
	// already removed).
	left(r *Radio, s *signal)
	// decode says whether s, the frame r received, survived, and whether
	// another signal overlapped it.
	decode(r *Radio, s *signal) (ok, collided bool)
	// sending is r starting to transmit.
	sending(r *Radio)
}

// Receptions are the reception models by name (Config.Reception).
var Receptions = []string{"dsss", "threshold"}

func newReception(cfg Config) reception {
	if cfg.Reception == "threshold" {
		return thresholdReception{capture: cfg.CaptureRatio}
	}
	return dsssReception{}
}

func checkReception(c Config) error {
	if c.Reception != "" && !slices.Contains(Receptions, c.Reception) {
		return component.Errorf("reception", "unknown model %q (want %s)", c.Reception, strings.Join(Receptions, " or "))
	}
	if c.Reception == "threshold" && !(c.CaptureRatio >= 1) {
		return component.Errorf("capture_ratio", "want a power ratio of at least 1, have %g", c.CaptureRatio)
	}
	return nil
}

// dsssReception is ns-3.37's: a frame is locked onto if, 4 µs into its
// preamble (ThresholdPreambleDetectionModel), it is above the decode
// threshold with an SINR of at least PreambleSNR; two frames that start
// together are lost to both detections. Once locked, every later signal
// is interference, tracked segment by segment, and the PLCP header and
// the body each survive at the SINR of their segments through the DSSS
// error model (dsss.go). No capture. A radio that starts sending abandons
// its reception.
type dsssReception struct{}

func (dsssReception) arrived(r *Radio, s *signal) {
	switch {
	case r.rx != nil:
		r.segs = append(r.segs, segment{r.now(), r.power - r.rx.mw})
	case r.cand == nil && !r.transmitting() && s.mw >= r.ch.rxMW:
		r.cand = s
		r.detect.Arm(sim.Time(r.now() + 4000))
	}
}

// onDetect ends a candidate's preamble detection window.
func (r *Radio) onDetect() {
	s := r.cand
	r.cand = nil
	if s == nil || r.rx != nil || r.transmitting() {
		return
	}
	if s.mw/(r.ch.noise+r.power-s.mw) < r.ch.preSN {
		return // only energy: it makes the medium busy if strong enough
	}
	r.rx = s
	r.segs = append(r.segs[:0], segment{r.now(), r.power - s.mw})
	r.update()
}

func (dsssReception) left(r *Radio, s *signal) {
	if s == r.cand {
		r.cand = nil
		r.detect.Cancel()
	}
	if r.rx != nil {
		r.segs = append(r.segs, segment{r.now(), r.power - r.rx.mw})
	}
}

// decode draws whether the frame survived: the PLCP header at 1 Mbit/s
// DBPSK and the rest at the frame's rate, each piece at the SINR of its
// interference segment. The preamble itself is not error-modelled (its
// detection was).
func (dsssReception) decode(r *Radio, s *signal) (ok, collided bool) {
	hdrStart, hdrEnd := s.start+preamble, s.start+plcpTotal
	p := 1.0
	for i, seg := range r.segs {
		end := s.end
		if i+1 < len(r.segs) {
			end = r.segs[i+1].t
		}
		if seg.mw > r.ch.noise*1e-3 {
			collided = true
		}
		sinr := s.mw / (r.ch.noise + seg.mw)
		if h := overlap(seg.t, end, hdrStart, hdrEnd); h > 0 {
			p *= chunkSuccess(sinr, float64(h)/1000, 1e6) // 1 bit a µs
		}
		if b := overlap(seg.t, end, hdrEnd, s.end); b > 0 {
			p *= chunkSuccess(sinr, float64(b)*s.f.rate/1e9, s.f.rate)
		}
	}
	return p >= 1 || r.rng.Float64() < p, collided
}

func (dsssReception) sending(r *Radio) {
	r.rx, r.cand = nil, nil
	r.detect.Cancel()
}

func overlap(a0, a1, b0, b1 int64) int64 {
	return max(0, min(a1, b1)-max(a0, b0))
}

// thresholdReception is ns-2.35's (WirelessPhy::sendUp and Mac802_11's
// recv, capture and collision): a radio that is not receiving locks onto
// every signal it senses at its first bit — one below the decode
// threshold, or arriving while the radio sends, is received in error. A
// signal arriving during a reception is captured (ignored, but counted as
// an error for the interframe space: EIFS after it ends, as ns-2 sets its
// NAV) if the frame being received is at least capture times stronger
// (ns-2's CPThresh_ 10); otherwise both are lost, and the radio stays
// receiving until the later of the two ends. A frame that nothing
// overlapped survives: no error model. A radio that starts sending (only
// a response can, SIFS after a frame) spoils its reception but keeps
// receiving to its end.
type thresholdReception struct{ capture float64 }

func (m thresholdReception) arrived(r *Radio, s *signal) {
	switch {
	case r.rx == nil:
		r.rx, r.rxColl = s, false
		r.rxBad = r.transmitting() || s.mw < r.ch.rxMW
	case r.rx.mw >= m.capture*s.mw:
		// Captured: the EIFS ns-2's capture() asks, counted from the
		// frame's end in place of the DIFS the MAC would wait.
		if end := s.end + r.ch.eifs - difs; end > r.navEnd {
			r.navEnd = end
			r.nav.Arm(sim.Time(end))
		}
	default:
		r.rxColl = true
		if s.end > r.rx.end {
			r.rx = s
		}
	}
}

func (thresholdReception) left(*Radio, *signal) {}

func (thresholdReception) decode(r *Radio, _ *signal) (ok, collided bool) {
	return !r.rxColl && !r.rxBad, r.rxColl
}

func (thresholdReception) sending(r *Radio) {
	r.rxBad = r.rx != nil
}
