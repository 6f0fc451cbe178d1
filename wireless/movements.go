package wireless

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/tcplab/tcplab/sim"
)

// Movements is one node's part of an ns-2 movement file (what setdest
// writes): its start position and its setdest commands in time order.
type Movements struct {
	X, Y   float64
	Placed bool // X_ and Y_ were set
	Moves  []Move
}

// Move is "$ns_ at T "$node_(i) setdest X Y S"": from time T, head for
// (X, Y) at S m/s (0: stop where it is, as ns-2 does); a later move takes
// over from wherever the node is.
type Move struct {
	At          sim.Time
	X, Y, Speed float64
	Line        int
}

// MovementError is a bad line of a movement file.
type MovementError struct {
	Line int
	Msg  string
}

func (e *MovementError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

var (
	setLine  = regexp.MustCompile(`^\$node_\((\d+)\)\s+set\s+([XYZ])_\s+(\S+)$`)
	moveLine = regexp.MustCompile(`^\$ns_\s+at\s+(\S+)\s+"\$node_\((\d+)\)\s+setdest\s+(\S+)\s+(\S+)\s+(\S+)"$`)
	skipLine = regexp.MustCompile(`^(#|\$god_|\$ns_\s+at\s+\S+\s+"\$god_)`)
)

// ParseMovements reads an ns-2 movement file into each node index's
// movements. Blank lines, comments and $god_ lines are skipped; any other
// line that is not one of the two forms above is an error naming it.
func ParseMovements(r io.Reader) (map[int]*Movements, error) {
	out := map[int]*Movements{}
	get := func(i int) *Movements {
		if out[i] == nil {
			out[i] = &Movements{}
		}
		return out[i]
	}
	num := func(s, what string, line int) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, &MovementError{line, fmt.Sprintf("bad %s %q", what, s)}
		}
		return v, nil
	}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		text := trimSpace(sc.Text())
		if text == "" || skipLine.MatchString(text) {
			continue
		}
		if m := setLine.FindStringSubmatch(text); m != nil {
			i, _ := strconv.Atoi(m[1])
			v, err := num(m[3], m[2]+"_", n)
			if err != nil {
				return nil, err
			}
			mv := get(i)
			switch m[2] {
			case "X":
				mv.X, mv.Placed = v, true
			case "Y":
				mv.Y, mv.Placed = v, true
			}
			continue
		}
		if m := moveLine.FindStringSubmatch(text); m != nil {
			t, err := num(m[1], "time", n)
			if err != nil {
				return nil, err
			}
			i, _ := strconv.Atoi(m[2])
			var xyz [3]float64
			for k, what := range []string{"x", "y", "speed"} {
				if xyz[k], err = num(m[3+k], what, n); err != nil {
					return nil, err
				}
			}
			if t < 0 {
				return nil, &MovementError{n, fmt.Sprintf("negative time %g", t)}
			}
			if xyz[2] < 0 {
				// Speed 0 is setdest's own way to stop a node.
				return nil, &MovementError{n, fmt.Sprintf("a negative speed %g m/s", xyz[2])}
			}
			mv := get(i)
			mv.Moves = append(mv.Moves, Move{At: sim.Time(math.Round(t * 1e9)), X: xyz[0], Y: xyz[1], Speed: xyz[2], Line: n})
			continue
		}
		return nil, &MovementError{n, fmt.Sprintf("not a movement line (want \"$node_(i) set X_ x\" or \"$ns_ at t \\\"$node_(i) setdest x y speed\\\"\"): %q", text)}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, mv := range out {
		slices.SortStableFunc(mv.Moves, func(a, b Move) int { return int(a.At - b.At) })
	}
	return out, nil
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\r') {
		j--
	}
	return s[i:j]
}

// Mobility is the node's motion from (x, y) at time 0 (its own start if
// the file sets one).
func (mv *Movements) Mobility(x, y float64) Mobility {
	if mv.Placed {
		x, y = mv.X, mv.Y
	}
	moves := mv.Moves
	next := func(t sim.Time, x, y float64) leg {
		// The leg that ended at t was cut by the next command, or arrived.
		if len(moves) == 0 || moves[0].At > t {
			end := sim.Never
			if len(moves) > 0 {
				end = moves[0].At
			}
			return leg{t0: t, t1: end, x0: x, y0: y}
		}
		m := moves[0]
		moves = moves[1:]
		l := towards(t, x, y, m.X, m.Y, m.Speed)
		if len(moves) > 0 && moves[0].At < l.t1 {
			l.t1 = moves[0].At
		}
		return l
	}
	first := leg{t1: sim.Never, x0: x, y0: y}
	if len(moves) > 0 {
		first.t1 = moves[0].At
	}
	k := &track{cur: first, next: next}
	if first.t1 == 0 {
		k.cur = next(0, x, y)
	}
	return k
}
