package experiment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/store"
)

// version is set at link time (-ldflags "-X github.com/tcplab/tcplab/experiment.version=v1.2");
// otherwise it comes from the build's VCS stamp, or is "dev".
var version string

// Version is the tcplab version recorded with every run.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += "+" + s.Value[:12]
			}
		}
		if v != "" && v != "(devel)" {
			return v
		}
	}
	return "dev"
}

// Progress is told how a sweep advances (a terminal bar or log lines).
type Progress interface {
	Start(total, already int)
	Advance(done int)
	Finish()
}

// Options tune how a sweep runs; they never change its results.
type Options struct {
	Workers  int // 0: one per core
	Shard    int // this process's shard, 0-based
	Shards   int // number of shards (0 or 1: no sharding)
	Resume   bool
	Progress Progress
}

// Report says what a sweep did.
type Report struct {
	Jobs        int // runs in this shard
	Skipped     int // already in the store (resumed)
	Ran         int // run and stored now
	Failed      []error
	Workers     int
	Wall        time.Duration
	Interrupted bool
}

// ErrStoreInUse is returned when the store already holds runs and the
// sweep was not asked to resume.
var ErrStoreInUse = errors.New("store already holds runs")

// Run runs the sweep's jobs (its shard's share) on a pool of workers and
// stores each run as it finishes. Cancelling ctx stops handing out runs;
// runs in progress finish and are stored, so nothing done is lost.
func Run(ctx context.Context, sw *Sweep, st *store.Store, o Options) (*Report, error) {
	release, err := st.Lock()
	if err != nil {
		return nil, err
	}
	defer release()
	if err := prepareStore(sw, st, o.Resume); err != nil {
		return nil, err
	}
	jobs := Shard(sw.Jobs(), o.Shard, o.Shards)
	done, err := st.Keys()
	if err != nil {
		return nil, err
	}
	rep := &Report{Jobs: len(jobs)}
	var todo []Job
	for _, j := range jobs {
		if done[j.Key] {
			rep.Skipped++
		} else {
			todo = append(todo, j)
		}
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = max(1, min(workers, len(todo)))
	rep.Workers = workers
	if o.Progress != nil {
		o.Progress.Start(len(jobs), rep.Skipped)
		defer o.Progress.Finish()
	}
	t0 := time.Now()
	type outcome struct {
		run *store.Run
		err error
	}
	in := make(chan Job)
	out := make(chan outcome, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range in {
				r, err := sw.RunJob(j)
				out <- outcome{r, err}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, j := range todo {
			select {
			case <-ctx.Done():
				return
			case in <- j:
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()

	var storeErr error
	for oc := range out {
		if oc.err != nil {
			rep.Failed = append(rep.Failed, oc.err)
			continue
		}
		if storeErr != nil {
			continue // keep draining so workers can exit
		}
		if _, err := st.Put(oc.run); err != nil {
			storeErr = fmt.Errorf("storing run %s: %w", oc.run.Key, err)
			continue
		}
		rep.Ran++
		if o.Progress != nil {
			o.Progress.Advance(rep.Skipped + rep.Ran)
		}
	}
	rep.Wall = time.Since(t0)
	rep.Interrupted = ctx.Err() != nil && rep.Skipped+rep.Ran+len(rep.Failed) < len(jobs)
	return rep, storeErr
}

// prepareStore records the sweep in a new store, or checks that a store
// with runs belongs to this sweep and that resuming was asked for.
func prepareStore(sw *Sweep, st *store.Store, resume bool) error {
	n, err := st.Count()
	if err != nil {
		return err
	}
	spec, err := st.Meta("spec")
	if err != nil {
		return err
	}
	if n > 0 {
		if !resume {
			return fmt.Errorf("%w (%d); pass --resume to finish this sweep, or use another --out", ErrStoreInUse, n)
		}
		if spec != "" && spec != sw.Spec() {
			return fmt.Errorf("the store holds runs of a different sweep (its base scenario, fixed overrides or seed changed); use another --out")
		}
	}
	axes := make([]string, len(sw.Axes))
	for i, a := range sw.Axes {
		axes[i] = a.Name
	}
	aj, _ := json.Marshal(axes)
	for k, v := range map[string]string{
		"spec": sw.Spec(), "sweep": sw.Name, "scenario": sw.Scenario, "axes": string(aj),
		"replications": strconv.Itoa(sw.Replications), "seed": strconv.FormatUint(sw.Seed, 10),
	} {
		if err := st.SetMeta(k, v); err != nil {
			return err
		}
	}
	return nil
}

// RunJob runs one job and returns it as a store row. Results depend only
// on the scenario, the overrides and the seed, never on the worker.
func (sw *Sweep) RunJob(j Job) (r *store.Run, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("run %d (%s, replication %d): internal error: %v", j.Index, paramText(j.Point), j.Replication, p)
		}
	}()
	sets := append(append([]string{}, sw.Sets...), j.Point.Sets...)
	s, err := scenario.Parse(sw.Scenario, sw.ScenarioData, sets)
	if err != nil {
		return nil, fmt.Errorf("run %d (%s): %w", j.Index, paramText(j.Point), err)
	}
	s.Seed = j.Seed
	// Parallel runs must not write the same trace files; trace a single
	// run with tcplab run instead.
	s.Trace = scenario.TraceSpec{}
	res, err := sw.run(s)
	if err != nil {
		return nil, fmt.Errorf("run %d (%s, replication %d): %w", j.Index, paramText(j.Point), j.Replication, err)
	}
	wall := res.WallSeconds
	res.WallSeconds = 0 // the stored result is then a pure function of the run
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &store.Run{
		Key: j.Key, Sweep: sw.Name, Point: j.Point.Index, Replication: j.Replication, Seed: j.Seed,
		Params: j.Point.Params, Metrics: extract(res, sw.Metrics, sw.Flows), Result: b,
		Version: Version(), Events: int64(res.Events), WallSeconds: wall,
		FinishedAt: time.Now().UTC().Format(time.RFC3339),
	}, nil
}

// run runs s, in real time with its kernel hosts if it has any.
func (sw *Sweep) run(s *scenario.Scenario) (*scenario.Result, error) {
	if len(s.KernelHosts()) == 0 || sw.Emulate == nil {
		return s.Run()
	}
	run, err := s.Build()
	if err != nil {
		return nil, err
	}
	e, err := sw.Emulate(run)
	if err != nil {
		return nil, err
	}
	defer e.Close()
	return run.Run()
}

func paramText(p *Point) string {
	s := ""
	for i, q := range p.Params {
		if i > 0 {
			s += ", "
		}
		s += q.Name + "=" + q.Value
	}
	if s == "" {
		return "base"
	}
	return s
}
