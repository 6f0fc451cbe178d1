package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/store"
)

var sweepFlags struct {
	out      string
	workers  int
	resume   bool
	shard    string
	shards   int
	sets     []string
	progress string
	dryRun   bool
}

var sweepCmd = &cobra.Command{
	Use:   "sweep FILE",
	Short: "Run a parameter sweep with replications into a result store",
	Long: `Run the sweep in FILE: a base scenario, a grid of parameter values (any
scenario field by path, or named cases that set several fields), a number of
replications with seeds derived from (seed, grid point, replication), and the
metrics to keep. Runs use every core and each finished run is stored at once
in an SQLite file (--out), so a sweep stopped by Ctrl-C, kill -9 or a crash
continues with --resume, redoing no finished run.

On a cluster, --shard I/N runs every N-th run from the I-th; in a Slurm job
array or a Kubernetes Indexed Job the shard is read from SLURM_ARRAY_TASK_ID/
SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX (with --shards N). Give each
shard its own --out and combine them with 'tcplab results merge'.

See README.md ("Experiments") for the file format.`,
	Example: `  tcplab sweep examples/sweep-loss-variants.yaml --out loss.db
  tcplab sweep examples/sweep-loss-variants.yaml --out loss.db --resume
  tcplab sweep examples/sweep-loss-variants.yaml --shard 2/8 --out shard-2.db`,
	Args: cobra.ExactArgs(1),
	RunE: runSweep,
}

func init() {
	f := sweepCmd.Flags()
	f.StringVarP(&sweepFlags.out, "out", "o", "", "result store (SQLite file; default: NAME.db, NAME-I-of-N.db for a shard)")
	f.IntVarP(&sweepFlags.workers, "workers", "j", 0, "parallel runs (default: one per core)")
	f.BoolVar(&sweepFlags.resume, "resume", false, "continue a sweep in an existing store, skipping stored runs")
	f.StringVar(&sweepFlags.shard, "shard", "", "run only shard I of N (I/N, 0-based)")
	f.IntVar(&sweepFlags.shards, "shards", 0, "number of shards when the index comes from JOB_COMPLETION_INDEX")
	f.StringArrayVar(&sweepFlags.sets, "set", nil, "override a scenario field in every run: PATH=VALUE (repeatable)")
	f.StringVar(&sweepFlags.progress, "progress", "auto", "progress display: auto, bar, lines or none")
	f.BoolVar(&sweepFlags.dryRun, "dry-run", false, "list the runs (this shard's) without running them")
	rootCmd.AddCommand(sweepCmd)
}

// sweepShard resolves --shard, or the cluster's environment.
func sweepShard() (i, n int, err error) {
	if sweepFlags.shard != "" {
		return experiment.ParseShard(sweepFlags.shard)
	}
	i, n, ok, err := experiment.ShardFromEnv(os.Getenv, sweepFlags.shards)
	if err != nil || !ok {
		return 0, 1, err
	}
	return i, n, nil
}

func runSweep(cmd *cobra.Command, args []string) error {
	sw, err := experiment.Load(args[0], sweepFlags.sets)
	if err != nil {
		return badInput(scenarioError(err))
	}
	sw.Emulate = emulator
	shard, shards, err := sweepShard()
	if err != nil {
		return badInput(err)
	}
	if sweepFlags.dryRun {
		for _, j := range experiment.Shard(sw.Jobs(), shard, shards) {
			var ps []string
			for _, p := range j.Point.Params {
				ps = append(ps, p.Name+"="+p.Value)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%d\t%s\trep %d\tseed %d\t%s\n", j.Index, j.Key, j.Replication, j.Seed, strings.Join(ps, " "))
		}
		return nil
	}
	out := sweepFlags.out
	if out == "" {
		out = sw.Name + ".db"
		if shards > 1 {
			out = fmt.Sprintf("%s-%d-of-%d.db", sw.Name, shard, shards)
		}
	}
	if dir := filepath.Dir(out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	label := sw.Name
	if shards > 1 {
		label = fmt.Sprintf("%s [shard %d/%d]", sw.Name, shard, shards)
	}
	// Every flag is checked before the store is created: a typo must not
	// leave an empty store behind.
	prog, err := newProgress(sweepFlags.progress, os.Stderr, label)
	if err != nil {
		return badInput(err)
	}
	st, err := store.Open(out)
	if err != nil {
		return err
	}
	defer st.Close()
	// Ctrl-C stops handing out runs and lets the ones in progress finish
	// and be stored; a second Ctrl-C exits at once (the store is still
	// consistent: each run is one transaction).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	go func() {
		<-sig
		fmt.Fprintln(os.Stderr, "\ntcplab: interrupted; finishing the runs in progress (Ctrl-C again to quit now)")
		cancel()
		<-sig
		os.Exit(130)
	}()

	rep, err := experiment.Run(ctx, sw, st, experiment.Options{
		Workers: sweepFlags.workers, Shard: shard, Shards: shards,
		Resume: sweepFlags.resume, Progress: prog,
	})
	if err != nil {
		if errors.Is(err, experiment.ErrStoreInUse) {
			return badInput(fmt.Errorf("%s: %w", out, err))
		}
		var held *store.InUseError
		if errors.As(err, &held) {
			return badInput(err)
		}
		return err
	}
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%s: %d runs stored in %s (%d now, %d already there) on %d workers in %.1f s\n",
		label, rep.Skipped+rep.Ran, out, rep.Ran, rep.Skipped, rep.Workers, rep.Wall.Seconds())
	for _, e := range rep.Failed {
		fmt.Fprintln(os.Stderr, "tcplab: failed:", e)
	}
	switch {
	case rep.Interrupted:
		return fmt.Errorf("interrupted with %d of %d runs stored; continue with: %s",
			rep.Skipped+rep.Ran, rep.Jobs, resumeCommand(args[0], out, shard, shards))
	case len(rep.Failed) > 0:
		return fmt.Errorf("%d runs failed (not stored; --resume retries them)", len(rep.Failed))
	}
	return nil
}

// resumeCommand is the command line that continues this sweep: the same
// file, store, overrides and shard, with --resume.
func resumeCommand(file, out string, shard, shards int) string {
	words := []string{"tcplab", "sweep", file, "--out", out}
	for _, set := range sweepFlags.sets {
		words = append(words, "--set", set)
	}
	if shards > 1 {
		words = append(words, "--shard", fmt.Sprintf("%d/%d", shard, shards))
	}
	words = append(words, "--resume")
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes w for a POSIX shell when it holds anything but plain
// characters.
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:%@+") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
