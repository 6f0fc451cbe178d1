package wireless

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestMovementsFollowSetdestAndALaterCommandCutsAnEarlierOne(t *testing.T) {
	file := `# from setdest
$node_(0) set X_ 0.0
$node_(0) set Y_ 0.0
$node_(0) set Z_ 0.0
$god_ set-dist 0 1 1
$ns_ at 1.0 "$node_(0) setdest 100.0 0.0 10.0"
$ns_ at 3.0 "$node_(0) setdest 0.0 0.0 5.0"
$ns_ at 8.0 "$node_(0) setdest 50.0 50.0 0.0"
$ns_ at 9.5 "$god_ set-dist 0 1 2"
$node_(1) set X_ 7
$node_(1) set Y_ 8
`
	mv, err := ParseMovements(strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	m := mv[0].Mobility(-1, -1)
	cases := []struct {
		at   float64
		x, y float64
	}{
		{0, 0, 0}, {1, 0, 0}, {2, 10, 0}, {3, 20, 0}, // heading for 100 m at 10 m/s, until 3 s
		{5, 10, 0}, {7, 0, 0}, {20, 0, 0}, // then back at 5 m/s, arriving at 7 s; speed 0 at 8 s stops it there
	}
	for _, c := range cases {
		x, y := m.Position(sim.Time(c.at * 1e9))
		if !near(x, c.x) || !near(y, c.y) {
			t.Errorf("at %g s: (%g, %g), want (%g, %g)", c.at, x, y, c.x, c.y)
		}
	}
	if x, y := mv[1].Mobility(0, 0).Position(50 * sim.Second); x != 7 || y != 8 {
		t.Errorf("a node that never moves: (%g, %g), want its start (7, 8)", x, y)
	}
}

func TestBadMovementLinesAreNamed(t *testing.T) {
	cases := []struct{ name, file, want string }{
		{"negative speed", "$node_(0) set X_ 1\n$ns_ at 2 \"$node_(0) setdest 5 5 -3\"\n", "line 2: a negative speed -3 m/s"},
		{"unknown", "$node_(0) set X_ 1\n\nset val(x) 3\n", "line 3: not a movement line"},
		{"bad number", "$node_(3) set Y_ abc\n", `line 1: bad Y_ "abc"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseMovements(strings.NewReader(c.file))
			var me *MovementError
			if !errors.As(err, &me) || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("error %v, want one starting %q", err, c.want)
			}
		})
	}
}

func TestRandomWaypointPausesThenWandersInsideItsArea(t *testing.T) {
	w := &RandomWaypoint{Area: Area{Width: 1500, Height: 300}, MinSpeed: 1, MaxSpeed: 20, Pause: 5 * sim.Second}
	if err := w.Validate(); err != nil {
		t.Fatal(err)
	}
	run := func(seed uint64) []float64 {
		m := w.NewMobility(0, 0, false, sim.Stream(seed, "mobility/n1"))
		x0, y0 := m.Position(0)
		var out []float64
		for s := 0; s <= 300; s++ {
			x, y := m.Position(sim.Time(s) * sim.Second)
			if s <= 5 && (x != x0 || y != y0) {
				t.Fatalf("moved during the first pause: (%g, %g) at %d s", x, y, s)
			}
			if x < -1e-9 || x > 1500+1e-9 || y < -1e-9 || y > 300+1e-9 {
				t.Fatalf("left the area: (%g, %g) at %d s", x, y, s)
			}
			out = append(out, x, y)
		}
		return out
	}
	a, b, c := run(1), run(1), run(2)
	moved := false
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("not deterministic for a seed")
		}
		moved = moved || a[i] != a[i%2]
	}
	if !moved || a[0] == c[0] {
		t.Errorf("moved %v; seeds 1 and 2 start at %g and %g", moved, a[0], c[0])
	}
	// Speeds stay within [1, 20] m/s: no point moves faster.
	for i := 2; i+1 < len(a); i += 2 {
		if d := math.Hypot(a[i]-a[i-2], a[i+1]-a[i-1]); d > 20+1e-6 {
			t.Fatalf("moved %g m in one second", d)
		}
	}
}

func TestAMovingRadioIsHeardWhereItIsNow(t *testing.T) {
	// b leaves a at 100 m/s from 200 m: in range (250 m) until 0.5 s.
	net, ch, a, b := pair(t, 200)
	ch.SetMobility(ch.RadioOf(b), (&ConstantVelocity{VX: 100}).NewMobility(200, 0, true, nil), 0)
	ra := ch.RadioOf(a)
	hears := func(at sim.Time) (n int) {
		net.Sched.At(at, func() { ch.rehear(ra, int64(at)); n = len(ra.hears) })
		net.Run(at + 1)
		return n
	}
	if n := hears(400 * sim.Millisecond); n != 1 {
		t.Errorf("at 0.4 s (240 m) a reaches %d radios, want 1", n)
	}
	if n := hears(600 * sim.Millisecond); n != 0 {
		t.Errorf("at 0.6 s (260 m) a reaches %d radios, want 0", n)
	}
}

// pair is two radios d metres apart on the default channel.
func pair(t *testing.T, d float64) (*network.Net, *Channel, *network.Node, *network.Node) {
	t.Helper()
	return pairWith(t, DefaultConfig(), d)
}

// pairWith is two radios d metres apart on a channel of configuration cfg.
func pairWith(t *testing.T, cfg Config, d float64) (*network.Net, *Channel, *network.Node, *network.Node) {
	t.Helper()
	net := network.New(1)
	ch, err := NewChannel(net, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, b := net.AddNode("a"), net.AddNode("b")
	ch.Attach(a, 0, 0)
	ch.Attach(b, d, 0)
	if err := ch.Build(); err != nil {
		t.Fatal(err)
	}
	return net, ch, a, b
}

func TestWithdrawTakesANeighboursPacketsAndKeepsTheRestInOrder(t *testing.T) {
	for _, q := range []string{"droptail", "codel"} {
		t.Run(q, func(t *testing.T) {
			net, ch, a, b := pair(t, 100)
			ra := ch.RadioOf(a)
			if q == "codel" {
				p, _ := network.Queues.New("codel")
				ra.Queue = p.NewQueue(net, "wifi/a", 11e6)
			}
			var got []int32
			sink := &recorder{}
			port := net.Bind(sink)
			for i := range 6 {
				p := net.Alloc()
				p.Proto, p.Src, p.Dst, p.Port, p.Size, p.Flow = network.UDP, a.ID, b.ID, port, 1000, int32(i)
				to := b
				if i%2 == 1 {
					to = a // a stand-in second neighbour: never sent, withdrawn below
				}
				ra.Send(p, to)
			}
			// The first packet is in service; of the five queued, 1, 3, 5
			// are for "a".
			ra.Withdraw(a, func(p *network.Packet) { got = append(got, p.Flow); net.Free(p) })
			if !slices.Equal(got, []int32{1, 3, 5}) {
				t.Fatalf("withdrew %v, want [1 3 5]", got)
			}
			net.Run(sim.Second)
			if !slices.Equal(sink.flows, []int32{0, 2, 4}) {
				t.Errorf("b received %v, want [0 2 4] in order", sink.flows)
			}
		})
	}
}

type recorder struct{ flows []int32 }

func (r *recorder) Receive(p *network.Packet) { r.flows = append(r.flows, p.Flow) }
