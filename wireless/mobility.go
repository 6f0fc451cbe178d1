package wireless

import (
	"math"
	"math/rand/v2"

	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
)

// Mobility moves a radio. Positions are computed when asked, from
// straight legs drawn one after the other (no event per step and no
// allocation per packet); the channel asks at transmission times, which
// never decrease.
type Mobility interface {
	// Position is where the node is at t.
	Position(t sim.Time) (x, y float64)
}

// MobilityParams are a mobility model's parameters (a scenario's
// wireless.mobility entries name one in Mobilities).
type MobilityParams interface {
	component.Params
	// NewMobility makes the model for a node at (x, y) at time 0, or, if
	// placed is false, for a node the model places; its draws come from
	// rng.
	NewMobility(x, y float64, placed bool, rng *rand.Rand) Mobility
	// Places reports whether the model can place a node nobody placed.
	Places() bool
	// Within reports a placed start the model cannot use ("" if fine).
	Within(x, y float64) string
	// CheckRun reports a parameter that makes no sense in a run of
	// this duration (a pause longer than the run), or nil.
	CheckRun(duration sim.Time) *component.FieldError
}

// Mobilities are the mobility models by name.
var Mobilities = component.NewRegistry[MobilityParams]("mobility model")

// leg is straight motion at constant velocity from (x0, y0) at t0 until
// t1 (sim.Never: for ever).
type leg struct {
	t0, t1         sim.Time
	x0, y0, vx, vy float64
}

func (l *leg) at(t sim.Time) (float64, float64) {
	dt := (t - l.t0).Seconds()
	return l.x0 + l.vx*dt, l.y0 + l.vy*dt
}

// track is a node's motion as a sequence of legs; next draws the leg
// that starts where and when the last one ended.
type track struct {
	cur  leg
	next func(t sim.Time, x, y float64) leg
}

// Position implements Mobility.
func (k *track) Position(t sim.Time) (float64, float64) {
	for t > k.cur.t1 {
		x, y := k.cur.at(k.cur.t1)
		k.cur = k.next(k.cur.t1, x, y)
	}
	return k.cur.at(t)
}

// still is a leg that stays at (x, y) from t on.
func still(t sim.Time, x, y float64) leg { return leg{t0: t, t1: sim.Never, x0: x, y0: y} }

// towards is the leg from (x, y) at t to (tx, ty) at speed m/s.
func towards(t sim.Time, x, y, tx, ty, speed float64) leg {
	d := math.Hypot(tx-x, ty-y)
	if d == 0 || speed <= 0 {
		return still(t, x, y)
	}
	dur := sim.Time(math.Round(d / speed * 1e9))
	return leg{t0: t, t1: t + dur, x0: x, y0: y, vx: (tx - x) / d * speed, vy: (ty - y) / d * speed}
}

// ConstantVelocity moves a placed node in a straight line for ever.
type ConstantVelocity struct {
	VX float64 `yaml:"vx"` // m/s
	VY float64 `yaml:"vy"` // m/s
}

// Validate implements component.Params.
func (c *ConstantVelocity) Validate() error {
	if c.VX == 0 && c.VY == 0 {
		return component.Errorf("vx", "%s", "a non-positive speed: give vx or vy (m/s), or leave the node still")
	}
	return nil
}

// NewMobility implements MobilityParams.
func (c *ConstantVelocity) NewMobility(x, y float64, _ bool, _ *rand.Rand) Mobility {
	return &track{cur: leg{t1: sim.Never, x0: x, y0: y, vx: c.VX, vy: c.VY}}
}

// Places implements MobilityParams.
func (*ConstantVelocity) Places() bool { return false }

// Within implements MobilityParams.
func (*ConstantVelocity) Within(float64, float64) string { return "" }

// CheckRun implements MobilityParams.
func (*ConstantVelocity) CheckRun(sim.Time) *component.FieldError { return nil }

// Area is a rectangle [X, X+Width] × [Y, Y+Height].
type Area struct {
	X      float64 `yaml:"x"`
	Y      float64 `yaml:"y"`
	Width  float64 `yaml:"width"`
	Height float64 `yaml:"height"`
}

func (a Area) contains(x, y float64) bool {
	return x >= a.X && x <= a.X+a.Width && y >= a.Y && y <= a.Y+a.Height
}

// RandomWaypoint is the random waypoint model as ns-2's setdest and
// ns-3's RandomWaypointMobilityModel run it: a node pauses, then moves
// in a straight line to a point drawn uniformly in the area at a speed
// drawn uniformly in [MinSpeed, MaxSpeed], pauses again, and so on. A
// node no one placed starts at a uniform point of the area.
type RandomWaypoint struct {
	Area     Area     `yaml:"area"`
	MinSpeed float64  `yaml:"min_speed"` // m/s
	MaxSpeed float64  `yaml:"max_speed"` // m/s
	Pause    sim.Time `yaml:"pause"`
}

// Validate implements component.Params.
func (w *RandomWaypoint) Validate() error {
	var es component.Errors
	if !(w.Area.Width > 0) || !(w.Area.Height > 0) {
		es = append(es, component.Errorf("area", "want a positive width and height (metres), have %g × %g", w.Area.Width, w.Area.Height))
	}
	if !(w.MaxSpeed > 0) {
		es = append(es, component.Errorf("max_speed", "a non-positive speed (%g m/s): nodes would never move", w.MaxSpeed))
	}
	if w.MinSpeed < 0 || w.MinSpeed > w.MaxSpeed {
		es = append(es, component.Errorf("min_speed", "want 0 ≤ min_speed ≤ max_speed, have %g", w.MinSpeed))
	}
	if w.Pause < 0 {
		es = append(es, component.Errorf("pause", "want a time of at least 0, have %v", w.Pause))
	}
	return es.Err()
}

// NewMobility implements MobilityParams.
func (w *RandomWaypoint) NewMobility(x, y float64, placed bool, rng *rand.Rand) Mobility {
	a := w.Area
	if !placed {
		x, y = a.X+rng.Float64()*a.Width, a.Y+rng.Float64()*a.Height
	}
	pausing := true
	next := func(t sim.Time, x, y float64) leg {
		pausing = !pausing
		if pausing {
			return leg{t0: t, t1: t + w.Pause, x0: x, y0: y}
		}
		tx, ty := a.X+rng.Float64()*a.Width, a.Y+rng.Float64()*a.Height
		speed := w.MinSpeed + rng.Float64()*(w.MaxSpeed-w.MinSpeed)
		return towards(t, x, y, tx, ty, speed)
	}
	return &track{cur: leg{t1: w.Pause, x0: x, y0: y}, next: next}
}

// Places implements MobilityParams.
func (*RandomWaypoint) Places() bool { return true }

// Within implements MobilityParams.
func (w *RandomWaypoint) Within(x, y float64) string {
	if !w.Area.contains(x, y) {
		return "outside the mobility area"
	}
	return ""
}

// CheckRun implements MobilityParams.
func (w *RandomWaypoint) CheckRun(duration sim.Time) *component.FieldError {
	if w.Pause > duration {
		return component.Errorf("pause", "%v is longer than the run (%v): no node would ever move", w.Pause, duration)
	}
	return nil
}

func init() {
	Mobilities.Register("constant_velocity", func() MobilityParams { return &ConstantVelocity{} })
	Mobilities.Register("random_waypoint", func() MobilityParams { return &RandomWaypoint{} })
}
