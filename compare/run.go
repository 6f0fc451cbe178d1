package compare

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/tcplab/tcplab/scenario"
)

// Row is one line of the comparison table.
type Row struct {
	Point  Point
	Anchor Stat // reference runs
	Ours   Stat // tcplab over the same seeds
}

// Diff is tcplab's mean goodput relative to the reference mean.
func (r Row) Diff() float64 {
	if r.Anchor.Mean == 0 {
		return math.NaN()
	}
	return r.Ours.Mean/r.Anchor.Mean - 1
}

// Measure runs every point over seeds 1..seeds, with root the repository
// root (where examples/ lives), on all cores. Results do not depend on the
// number of workers: each run is a deterministic function of its seed.
func Measure(root string, points []Point, seeds int, anchors []Run) ([]Row, error) {
	type job struct{ pt, seed int }
	type out struct {
		kbps, rtos, wall float64
		err              error
	}
	res := make([][]out, len(points))
	for i := range res {
		res[i] = make([]out, seeds)
	}
	var jobs []job
	for i := range points {
		for s := 1; s <= seeds; s++ {
			jobs = append(jobs, job{i, s})
		}
	}
	onAllCores(len(jobs), func(k int) {
		j := jobs[k]
		kbps, rtos, wall, err := runOne(root, points[j.pt], j.seed)
		res[j.pt][j.seed-1] = out{kbps, rtos, wall, err}
	})
	rows := make([]Row, len(points))
	for i, p := range points {
		var xs, rt, wl []float64
		for _, o := range res[i] {
			if o.err != nil {
				return nil, fmt.Errorf("%s: %w", p.Label(), o.err)
			}
			xs, rt, wl = append(xs, o.kbps), append(rt, o.rtos), append(wl, o.wall)
		}
		rows[i] = Row{Point: p, Anchor: Lookup(anchors, p.Sim, p.Scen, p.Var, p.P), Ours: summarize(xs, rt, wl)}
	}
	return rows, nil
}

// onAllCores calls run(0) .. run(n-1), as many at once as there are
// cores. Each call must write only its own results.
func onAllCores(n int, run func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// runOne returns goodput as the anchors define it (payload delivered in
// order by the end, over the whole simulated time, summed over flows),
// timeouts and wall seconds.
func runOne(root string, p Point, seed int) (kbps, rtos, wall float64, err error) {
	sets := append(append([]string(nil), p.Sets...), fmt.Sprintf("seed=%d", seed))
	sc, err := scenario.Load(filepath.Join(root, p.File), sets)
	if err != nil {
		return 0, 0, 0, err
	}
	r, err := sc.Run()
	if err != nil {
		return 0, 0, 0, err
	}
	var bytes int64
	for _, f := range r.Flows {
		bytes += f.DeliveredBytes
		rtos += float64(f.Timeouts)
	}
	return float64(bytes) * 8 / p.Seconds / 1e3, rtos, r.WallSeconds, nil
}

// WriteMarkdown prints the table: reference mean ± sd, tcplab mean ± sd,
// the difference, and timeouts per run for both.
func WriteMarkdown(w io.Writer, rows []Row) {
	fmt.Fprintln(w, "| scenario | reference | variant | p | reference kbit/s | tcplab kbit/s | diff | RTOs ref / tcplab |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		p := r.Point
		fmt.Fprintf(w, "| %s | %s | %s | %g | %.1f ± %.1f | %.1f ± %.1f | %+.1f%% | %.1f / %.1f |\n",
			p.Scen, p.Sim, p.Var, p.P, r.Anchor.Mean, r.Anchor.SD, r.Ours.Mean, r.Ours.SD, 100*r.Diff(), r.Anchor.RTOs, r.Ours.RTOs)
	}
}
