package wireless

import (
	"fmt"
	"math"
	"strings"

	"github.com/tcplab/tcplab/component"
)

// Propagation turns a transmit power and a distance into a received power
// (dBm). Received power must not increase with distance.
type Propagation interface {
	RxPower(txDBm, metres float64) float64
	Name() string
	// Validate checks the model's parameters.
	Validate() error
}

// none is the received power of a signal that does not arrive.
const none = -1000.0

// Range delivers the full transmit power up to Max metres and nothing
// beyond: a hard disc, the simplest model that still has hidden terminals.
type Range struct{ Max float64 }

// RxPower implements Propagation.
func (r Range) RxPower(tx, d float64) float64 {
	if d <= r.Max {
		return tx
	}
	return none
}

// Name implements Propagation.
func (Range) Name() string { return "range" }

// Validate implements Propagation.
func (r Range) Validate() error {
	if !(r.Max > 0) {
		return fmt.Errorf("range: want a positive range")
	}
	return nil
}

func init() {
	// A hard disc: decoded and sensed up to the decode range.
	RegisterPropagation("range", func(decode float64) Propagation { return Range{Max: decode} }, true)
}

const lightSpeed = 299792458.0

// Friis is free space: Pr = Pt·λ² / ((4πd)²·L).
type Friis struct {
	Frequency  float64 // Hz
	SystemLoss float64 // L ≥ 1
}

// RxPower implements Propagation.
func (f Friis) RxPower(tx, d float64) float64 {
	if d <= 0 {
		return tx
	}
	lambda := lightSpeed / f.Frequency
	return tx + 10*math.Log10(lambda*lambda/(16*math.Pi*math.Pi*d*d*f.SystemLoss))
}

// Name implements Propagation.
func (Friis) Name() string { return "friis" }

// Validate implements Propagation.
func (f Friis) Validate() error {
	if !(f.Frequency > 0) || f.SystemLoss < 1 {
		return fmt.Errorf("friis: want a positive frequency and a system loss ≥ 1")
	}
	return nil
}

func init() {
	// Free space at 2.412 GHz (802.11b channel 1).
	RegisterPropagation("friis", func(float64) Propagation { return Friis{Frequency: 2.412e9, SystemLoss: 1} }, false)
}

// TwoRay is the two-ray ground model of ns-2: Friis up to the crossover
// distance dc = 4π·ht·hr/λ, then Pr = Pt·ht²·hr² / (d⁴·L), where the
// ground reflection cancels the direct ray.
type TwoRay struct {
	Frequency  float64 // Hz
	Height     float64 // antenna height above ground, m (both ends)
	SystemLoss float64
}

// RxPower implements Propagation.
func (t TwoRay) RxPower(tx, d float64) float64 {
	lambda := lightSpeed / t.Frequency
	if dc := 4 * math.Pi * t.Height * t.Height / lambda; d <= dc {
		return Friis{Frequency: t.Frequency, SystemLoss: t.SystemLoss}.RxPower(tx, d)
	}
	h := t.Height
	return tx + 10*math.Log10(h*h*h*h/(d*d*d*d*t.SystemLoss))
}

// Name implements Propagation.
func (TwoRay) Name() string { return "tworay" }

// Validate implements Propagation.
func (t TwoRay) Validate() error {
	if !(t.Frequency > 0) || !(t.Height > 0) || t.SystemLoss < 1 {
		return fmt.Errorf("tworay: want a positive frequency and antenna height, and a system loss ≥ 1")
	}
	return nil
}

func init() {
	// Two-ray ground at 914 MHz, antennas 1.5 m high: ns-2's classic.
	RegisterPropagation("tworay", func(float64) Propagation { return TwoRay{Frequency: 914e6, Height: 1.5, SystemLoss: 1} }, false)
}

// Reach is the farthest distance at which a transmission at tx dBm still
// arrives with at least threshold dBm (bisection: received power does not
// increase with distance); it is at most 100 km.
func Reach(p Propagation, tx, threshold float64) float64 {
	const far = 1e5
	if p.RxPower(tx, far) >= threshold {
		return far
	}
	if p.RxPower(tx, 0) < threshold {
		return 0
	}
	lo, hi := 0.0, far
	for range 100 {
		mid := (lo + hi) / 2
		if p.RxPower(tx, mid) >= threshold {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// ThresholdAt is the received power at distance d: the threshold that
// makes d the edge of a range (a hair below it, so that d itself is in).
func ThresholdAt(p Propagation, tx, d float64) float64 {
	return p.RxPower(tx, d) - 0.01
}

func dBmToMW(dbm float64) float64 { return math.Pow(10, dbm/10) }

func mwToDBm(mw float64) float64 { return 10 * math.Log10(mw) }

// propagationProfile is a propagation model as the reference ns-3
// programs set it up, for a decode range; senseIsDecode: the medium is
// sensed exactly as far as frames decode (a hard disc).
type propagationProfile struct {
	make          func(decode float64) Propagation
	senseIsDecode bool
}

var propagations = map[string]propagationProfile{}

// Profiles are the registered propagation set-ups, in registration order
// (the file order of their init functions): a scenario's
// wireless.propagation names one.
var Profiles []string

// RegisterPropagation adds a propagation profile; models call it from
// init, beside their type.
func RegisterPropagation(name string, make func(decode float64) Propagation, senseIsDecode bool) {
	if _, dup := propagations[name]; dup {
		panic("wireless: duplicate propagation " + name)
	}
	propagations[name] = propagationProfile{make, senseIsDecode}
	Profiles = append(Profiles, name)
}

// UseProfile sets the propagation model and derives the thresholds from
// the ranges: frames decode up to decode metres, the medium is sensed busy
// and signals interfere up to sense metres, and farther signals do not
// exist. With "range" both ranges are the decode range.
func (c *Config) UseProfile(name string, decode, sense float64) error {
	p, ok := propagations[name]
	if !ok {
		last := len(Profiles) - 1
		return component.Errorf("propagation", "unknown profile %q (want %s or %s)", name, strings.Join(Profiles[:last], ", "), Profiles[last])
	}
	c.Propagation = p.make(decode)
	if p.senseIsDecode {
		sense = decode
	}
	if !(decode > 0) || sense < decode {
		return component.Errorf("sense_range", "%g m is shorter than the decode range %g m: frames would be decoded where the medium is not even sensed", sense, decode)
	}
	c.RxThreshold = ThresholdAt(c.Propagation, c.TxPower, decode)
	c.CCAThreshold = ThresholdAt(c.Propagation, c.TxPower, sense)
	c.Sensitivity = c.CCAThreshold
	return nil
}
