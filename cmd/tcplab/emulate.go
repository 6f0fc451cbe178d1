//go:build linux

package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/kernel"
	"github.com/tcplab/tcplab/output"
	"github.com/tcplab/tcplab/scenario"
)

var emulateFlags struct {
	sets   []string
	seed   uint64
	format string
	bound  time.Duration
}

var emulateCmd = &cobra.Command{
	Use:   "emulate FILE",
	Short: "Run a scenario in real time with kernel hosts: real Linux TCP and programs on the simulated network",
	Long: `Run the scenario in FILE against the wall clock. Nodes marked "kernel: true"
become kernel hosts: each gets a network namespace with a TUN device numbered
from 10.213.0.0/16, and every packet it sends crosses the simulated links,
queues, channel and loss models from its node. A kernel host's flow is a real
socket (app bulk or transfer; transport.variant picks TCP_CONGESTION: reno,
cubic, bbr) or a program (app {type: command, argv: [...], server: [...]},
{src} and {dst} its hosts' addresses). Simulated flows share the network.

The result adds, per kernel flow, its sender's TCP_INFO (sampled every 100 ms),
and the run's lateness against the clock (p50/p99/max); a run whose p99 exceeds
--bound says so in a warning. Ctrl-C stops the run and prints what it had
(exit 3, as a run stopped by a budget).

Needs root and /dev/net/tun (exit 2 otherwise). Everything made is removed at
exit; what a killed run left behind is removed at the next start.

Exit status: 0 on success, 1 for an internal failure, 2 for a bad scenario or
flag, or a machine that cannot emulate, 3 when interrupted (the partial result
is printed).`,
	Example: `  tcplab emulate examples/emulate-dumbbell.yaml
  tcplab emulate examples/emulate-dumbbell.yaml --set flows.kernel.transport.variant=bbr --format json`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		format, err := output.ParseFormat(emulateFlags.format, output.Table, output.JSON, output.CSV)
		if err != nil {
			return badInput(err)
		}
		if err := kernel.Available(); err != nil {
			return badInput(err)
		}
		s, err := loadScenario(args[0], emulateFlags.sets)
		if err != nil {
			return err
		}
		if cmd.Flags().Changed("seed") {
			s.Seed = emulateFlags.seed
		}
		res, interrupted, err := emulate(s, emulateFlags.bound)
		if err != nil {
			return err
		}
		for _, w := range res.Warnings {
			fmt.Fprintf(cmd.ErrOrStderr(), "tcplab: warning: %s\n", w)
		}
		if err := output.WriteResult(cmd.OutOrStdout(), format, res); err != nil {
			return err
		}
		if interrupted {
			return budgetExceeded{fmt.Errorf("interrupted at %.3f s of %v", res.SimSeconds, s.Duration)}
		}
		return nil
	},
}

// emulate builds s, makes its kernel hosts, runs it in real time and
// removes the hosts, on Ctrl-C too (which it reports).
func emulate(s *scenario.Scenario, bound time.Duration) (*scenario.Result, bool, error) {
	run, err := build(s)
	if err != nil {
		return nil, false, err
	}
	e, err := kernel.Attach(run)
	if err != nil {
		var es scenario.Errors
		var un *kernel.UnavailableError
		if errors.As(err, &es) || errors.As(err, &un) {
			return nil, false, badInput(err)
		}
		return nil, false, err
	}
	defer e.Close()
	e.Clock.Bound = bound
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sig)
	go func() {
		if _, ok := <-sig; ok {
			e.Interrupt()
		}
	}()
	res, err := run.Run()
	return res, e.Interrupted(), err
}

// emulator runs a sweep's runs that have kernel hosts.
func emulator(run *scenario.Run) (io.Closer, error) {
	if err := kernel.Available(); err != nil {
		return nil, err
	}
	return kernel.Attach(run)
}

func init() {
	f := emulateCmd.Flags()
	f.StringArrayVar(&emulateFlags.sets, "set", nil, "override a scenario field: PATH=VALUE (repeatable)")
	f.Uint64Var(&emulateFlags.seed, "seed", 0, "random seed (overrides the scenario's seed)")
	f.StringVar(&emulateFlags.format, "format", "table", "output format: table, json or csv")
	f.DurationVar(&emulateFlags.bound, "bound", time.Millisecond, "p99 lateness past which the run is reported as not real-time")
	rootCmd.AddCommand(emulateCmd)
}
