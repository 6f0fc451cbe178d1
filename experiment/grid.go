package experiment

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/store"
)

// Point is one combination of axis values.
type Point struct {
	Index  int          // in grid order (last axis fastest)
	Params store.Params // one per axis, in axis order
	Sets   []string     // the overrides of its values
	id     string       // canonical text of the point, for keys and seeds
}

// Job is one run: a grid point and a replication.
type Job struct {
	Index       int // in sweep order: point-major, replication-minor
	Point       *Point
	Replication int
	Seed        uint64
	Key         string
}

// Points expands the grid: the cartesian product of the axes. A sweep
// without axes has one point.
func (sw *Sweep) Points() []*Point {
	pts := []*Point{{}}
	for _, ax := range sw.Axes {
		var next []*Point
		for _, p := range pts {
			for _, v := range ax.Values {
				q := &Point{
					Params: append(append(store.Params{}, p.Params...), store.Param{Name: ax.Name, Value: v.Label, Num: ParseNumber(v.Label)}),
					Sets:   append(append([]string{}, p.Sets...), v.Sets...),
				}
				next = append(next, q)
			}
		}
		pts = next
	}
	for i, p := range pts {
		p.Index = i
		p.id = pointID(p)
	}
	return pts
}

// pointID is the canonical text of a point: its axis names, labels and
// the overrides they stand for (so redefining a case gives new keys).
// It does not depend on the other values of any axis, which keeps a
// point's key and seeds when values are added to the grid.
func pointID(p *Point) string {
	type pv struct {
		Name, Value string
	}
	var b strings.Builder
	for _, q := range p.Params {
		j, _ := json.Marshal(pv{q.Name, q.Value})
		b.Write(j)
		b.WriteByte('\n')
	}
	j, _ := json.Marshal(p.Sets)
	b.Write(j)
	return b.String()
}

// Jobs lists every run of the sweep in sweep order.
func (sw *Sweep) Jobs() []Job {
	var jobs []Job
	for _, p := range sw.Points() {
		for r := 0; r < sw.Replications; r++ {
			jobs = append(jobs, Job{Index: len(jobs), Point: p, Replication: r,
				Seed: DeriveSeed(sw.Seed, p.id, r), Key: RunKey(p.id, r)})
		}
	}
	return jobs
}

// DeriveSeed is the seed of replication rep at a grid point: a named
// random stream (sim.Stream) of the base seed, so seeds are unrelated
// across points and replications yet fixed by them alone. The top bit is
// cleared so that seeds fit SQLite's signed integers.
func DeriveSeed(base uint64, pointID string, rep int) uint64 {
	return sim.Stream(base, "sweep/"+pointID+"/rep"+strconv.Itoa(rep)).Uint64() >> 1
}

// RunKey identifies a run in a store: a hash of its point and
// replication.
func RunKey(pointID string, rep int) string {
	h := sha256.Sum256([]byte(pointID + "\nrep " + strconv.Itoa(rep)))
	return hex.EncodeToString(h[:16])
}

// Shard returns the jobs of shard i of n: every n-th job from the i-th,
// which balances shards however the grid is ordered.
func Shard(jobs []Job, i, n int) []Job {
	if n <= 1 {
		return jobs
	}
	var out []Job
	for _, j := range jobs {
		if j.Index%n == i {
			out = append(out, j)
		}
	}
	return out
}

// ParseNumber reads a label as a number when it is one: 0.5, 2%, 10ms,
// 2Mbps (the number before the unit, in the unit written; % is divided by
// 100). Other labels (reno) give nil.
func ParseNumber(s string) *float64 {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "%") {
		if x, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s, "%")), 64); err == nil {
			x /= 100
			return &x
		}
		return nil
	}
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' || s[i] == '-' || s[i] == '+' || s[i] == 'e' && i > 0) {
		i++
	}
	if i == 0 {
		return nil
	}
	// A trailing 'e' belongs to a unit, not an exponent.
	for i > 0 && s[i-1] == 'e' {
		i--
	}
	x, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return nil
	}
	return &x
}
