package main

import (
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/fuzz"
)

var fuzzFlags struct {
	seed    uint64
	dir     string
	maxWall time.Duration
}

var fuzzCmd = &cobra.Command{
	Use:   "fuzz N",
	Short: "Run N random scenarios under the invariant checker",
	Long: `Generate N random valid scenarios (chains of 1-4 links with random rates,
delays, queues, losses and delay processes; 1-4 TCP flows of every profile,
variant and application, sometimes CBR) from --seed, run each twice under a
budget, and check: no panic, no budget exceeded, cwnd never below a segment,
no ACK of unsent data, SND.UNA never going back, no flow faster than the
slowest link, no more bytes than that link carries, identical reruns.

A failing scenario is written to --dir as a YAML file that reproduces it
(tcplab run FILE). Exit status 1 if any scenario failed.`,
	Example: `  tcplab fuzz 10000 --seed 1 --dir fuzz-findings`,
	Args:    cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		var n int
		if _, err := fmt.Sscan(args[0], &n); err != nil || n < 1 {
			return badInput(fmt.Errorf("N must be a positive number of scenarios, got %q", args[0]))
		}
		w := cmd.OutOrStdout()
		t0 := time.Now()
		var done, findings atomic.Int64
		tick := time.NewTicker(5 * time.Second)
		defer tick.Stop()
		go func() {
			for range tick.C {
				fmt.Fprintf(cmd.ErrOrStderr(), "tcplab: %d of %d scenarios done (running %d), %d findings\n", done.Load(), n, done.Load(), findings.Load())
			}
		}()
		rep := fuzz.Run(fuzz.Config{Seed: fuzzFlags.seed, N: n, MaxWall: fuzzFlags.maxWall, Dir: fuzzFlags.dir}, func(d int, r *fuzz.Report) {
			done.Store(int64(d))
			findings.Store(int64(len(r.Findings)))
		})
		fmt.Fprintf(w, "seed %d, scenarios 0-%d: %s in %.1f s\n", fuzzFlags.seed, n-1, rep, time.Since(t0).Seconds())
		for _, v := range slices.Sorted(maps.Keys(rep.Variants)) {
			fmt.Fprintf(w, "  %-10s %d flows\n", v, rep.Variants[v])
		}
		for _, f := range rep.Findings {
			fmt.Fprintf(w, "scenario %d: %s %s\n", f.Index, f.Problem, f.File)
		}
		for _, f := range rep.Slow {
			fmt.Fprintf(w, "scenario %d (slow): %s %s\n", f.Index, f.Problem, f.File)
		}
		if len(rep.Findings) > 0 {
			return fmt.Errorf("%d scenarios broke an invariant", len(rep.Findings))
		}
		return nil
	},
}

func init() {
	f := fuzzCmd.Flags()
	f.Uint64Var(&fuzzFlags.seed, "seed", 1, "campaign seed: scenario i is generated from (seed, i)")
	f.StringVar(&fuzzFlags.dir, "dir", "fuzz-findings", "directory for the scenarios that fail")
	f.DurationVar(&fuzzFlags.maxWall, "max-wall", 10*time.Second, "wall-clock budget per run (a run stopped by it is listed as slow)")
	rootCmd.AddCommand(fuzzCmd)
}
