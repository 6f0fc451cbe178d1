package wireless

import (
	"fmt"
	"math"

	"github.com/tcplab/tcplab/component"
)

// Propagation turns a transmit power and a distance into a received power
// (dBm). Received power must not increase with distance.
type Propagation interface {
	RxPower(txDBm, metres float64) float64
	Name() string
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

// validate checks a propagation model's parameters.
func validate(p Propagation) error {
	switch p := p.(type) {
	case Range:
		if !(p.Max > 0) {
			return fmt.Errorf("range: want a positive range")
		}
	case Friis:
		if !(p.Frequency > 0) || p.SystemLoss < 1 {
			return fmt.Errorf("friis: want a positive frequency and a system loss ≥ 1")
		}
	case TwoRay:
		if !(p.Frequency > 0) || !(p.Height > 0) || p.SystemLoss < 1 {
			return fmt.Errorf("tworay: want a positive frequency and antenna height, and a system loss ≥ 1")
		}
	}
	return nil
}

// Profiles are the propagation set-ups of the reference ns-3 programs:
// "range" (a hard disc: decoded and sensed up to the decode range),
// "friis" (free space at 2.412 GHz) and "tworay" (two-ray ground at
// 914 MHz, antennas 1.5 m high, ns-2's classic).
var Profiles = []string{"range", "friis", "tworay"}

// UseProfile sets the propagation model and derives the thresholds from
// the ranges: frames decode up to decode metres, the medium is sensed busy
// and signals interfere up to sense metres, and farther signals do not
// exist. With "range" both ranges are the decode range.
func (c *Config) UseProfile(name string, decode, sense float64) error {
	switch name {
	case "range":
		c.Propagation = Range{Max: decode}
		sense = decode
	case "friis":
		c.Propagation = Friis{Frequency: 2.412e9, SystemLoss: 1}
	case "tworay":
		c.Propagation = TwoRay{Frequency: 914e6, Height: 1.5, SystemLoss: 1}
	default:
		return component.Errorf("propagation", "unknown profile %q (want range, friis or tworay)", name)
	}
	if !(decode > 0) || sense < decode {
		return component.Errorf("sense_range", "%g m is shorter than the decode range %g m: frames would be decoded where the medium is not even sensed", sense, decode)
	}
	c.RxThreshold = ThresholdAt(c.Propagation, c.TxPower, decode)
	c.CCAThreshold = ThresholdAt(c.Propagation, c.TxPower, sense)
	c.Sensitivity = c.CCAThreshold
	return nil
}
