package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/output"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/sim"
)

var runFlags struct {
	seed       uint64
	sets       []string
	format     string
	cpuprofile string
	maxEvents  uint64
	maxWall    time.Duration
	progress   bool
}

// longRun is the estimated event count past which run warns before
// starting (a few minutes at this machine's 5-10 M events/s).
const longRun = 2e9

var runCmd = &cobra.Command{
	Use:   "run FILE",
	Short: "Run a scenario and print per-flow results",
	Long: `Run the scenario in FILE (YAML, see README.md) and print one result per flow:
goodput and throughput, packets sent and retransmitted, fast retransmits,
timeouts, drops by cause.

Any field can be overridden without editing the file, by its path:
  --set links.bottleneck.loss.rate=2% --set flows.f1.transport.variant=reno
List elements are named by their name (or id) or index.

Formats: table (aligned, kbit/s), json (the stable result contract, indented),
csv (a header and one row per flow, bit/s).

Before a run that may be long (more than 2·10^9 events at full link load),
a warning gives the estimate. --max-events and --max-wall stop a run
cleanly at a budget; --progress prints the simulated time reached.

Exit status: 0 on success, 1 for an internal failure, 2 for a bad scenario
or flag, 3 when a budget stopped the run (the partial result is printed).`,
	Example: `  tcplab run examples/dumbbell-lossy.yaml
  tcplab run examples/dumbbell-lossy.yaml --seed 3 --set links.lossy.loss.rate=5% --format json`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		format, err := output.ParseFormat(runFlags.format, output.Table, output.JSON, output.CSV)
		if err != nil {
			return badInput(err)
		}
		write := func(w io.Writer, res *scenario.Result) error { return output.WriteResult(w, format, res) }
		if runFlags.cpuprofile != "" {
			// Where the time goes, loading included: go tool pprof tcplab FILE.
			f, err := os.Create(runFlags.cpuprofile)
			if err != nil {
				return badInput(err)
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
			defer pprof.StopCPUProfile()
		}
		s, err := loadScenario(args[0], runFlags.sets)
		if err != nil {
			return err
		}
		if cmd.Flags().Changed("seed") {
			s.Seed = runFlags.seed
		}
		b := scenario.Budget{MaxEvents: runFlags.maxEvents, MaxWall: runFlags.maxWall}
		if runFlags.progress {
			last := time.Now()
			b.Progress = func(now sim.Time, events uint64) {
				if time.Since(last) >= time.Second {
					last = time.Now()
					fmt.Fprintf(cmd.ErrOrStderr(), "tcplab: %v of %v simulated, %d events\n", now, s.Duration, events)
				}
			}
		}
		res, err := runScenario(s, b, func(run *scenario.Run) {
			if e := run.EstimatedEvents(); e > longRun {
				fmt.Fprintf(cmd.ErrOrStderr(), "tcplab: warning: about %.2g events if every flow sends as fast as its path lets it (minutes or more); --max-wall or --max-events bound it\n", e)
			}
		})
		var over *scenario.BudgetError
		if errors.As(err, &over) && res != nil {
			if werr := write(cmd.OutOrStdout(), res); werr != nil {
				return werr
			}
			return budgetExceeded{over}
		}
		if err != nil {
			return err
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(cmd.ErrOrStderr(), "tcplab: warning: %s\n", w)
		}
		return write(cmd.OutOrStdout(), res)
	},
}

func init() {
	f := runCmd.Flags()
	f.Uint64Var(&runFlags.seed, "seed", 0, "random seed (overrides the scenario's seed)")
	f.StringArrayVar(&runFlags.sets, "set", nil, "override a scenario field: PATH=VALUE (repeatable)")
	f.StringVar(&runFlags.format, "format", "table", "output format: table, json or csv")
	f.StringVar(&runFlags.cpuprofile, "cpuprofile", "", "write a CPU profile of loading and running the scenario to this file (go tool pprof)")
	f.Uint64Var(&runFlags.maxEvents, "max-events", 0, "stop the run after this many events (exit 3; 0: no limit)")
	f.DurationVar(&runFlags.maxWall, "max-wall", 0, "stop the run after this much wall-clock time, e.g. 30s (exit 3; 0: no limit)")
	f.BoolVar(&runFlags.progress, "progress", false, "print the simulated time reached, every second, to stderr")
	rootCmd.AddCommand(runCmd)
}

// loadScenario loads a scenario; every failure is the user's input.
func loadScenario(path string, sets []string) (*scenario.Scenario, error) {
	s, err := scenario.Load(path, sets)
	if err != nil {
		return nil, badInput(scenarioError(err))
	}
	return s, nil
}

// scenarioError puts several problems under a count, one per line, each
// in the file:line: form editors jump to.
func scenarioError(err error) error {
	var es scenario.Errors
	if errors.As(err, &es) && len(es) > 1 {
		return fmt.Errorf("%d problems:\n%w", len(es), err)
	}
	return err
}

// build builds s; a problem in the scenario is bad input (exit 2).
func build(s *scenario.Scenario) (*scenario.Run, error) {
	run, err := s.Build()
	if err != nil {
		var es scenario.Errors
		if errors.As(err, &es) {
			return nil, badInput(scenarioError(err))
		}
		return nil, err
	}
	return run, nil
}

// runScenario builds s, hands the built run to before, and runs it. A
// panic below is a bug, not bad input: it becomes an internal error (exit
// 1) rather than Go's exit status 2.
func runScenario(s *scenario.Scenario, b scenario.Budget, before func(*scenario.Run)) (res *scenario.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	run, err := build(s)
	if err != nil {
		return nil, err
	}
	before(run)
	res, err = run.RunWithin(b)
	var es scenario.Errors
	if errors.As(err, &es) {
		// A scenario the run refuses (kernel hosts: tcplab emulate).
		return res, badInput(scenarioError(err))
	}
	return res, err
}
