package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/repro"
)

var reproFlags struct {
	out, root, progress string
	workers             int
	sets                []string
}

var reproCmd = &cobra.Command{
	Use:   "repro NAME",
	Short: "Reproduce a paper's figure or table with one command",
	Long: `Run the sweep behind a figure or table of a paper, write its CSV and PNG/SVG
into --out (default repro-out/NAME), and print the paper's claim beside the
measured result. Runs are stored as they finish: an interrupted reproduction
continues where it stopped when run again. 'tcplab repro list' lists them.`,
	Example: `  tcplab repro list
  tcplab repro validation-goodput-loss
  tcplab repro validation-goodput-loss --set duration=50s --out /tmp/quick`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		e, err := repro.Get(args[0])
		if err != nil {
			return badInput(err)
		}
		prog, err := newProgress(reproFlags.progress, os.Stderr, e.Name)
		if err != nil {
			return badInput(err)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		out, rep, err := repro.Run(ctx, e, repro.Options{Root: reproFlags.root, Dir: reproFlags.out,
			Sets: reproFlags.sets, Workers: reproFlags.workers, Progress: prog})
		if err != nil {
			return err
		}
		w := cmd.OutOrStdout()
		fmt.Fprintf(w, "%s\n%s\n\n", e.Title, e.Source)
		fmt.Fprintf(w, "Claim:    %s\n\nMeasured (%d runs, %d now):\n", e.Claim, rep.Jobs, rep.Ran)
		for _, l := range out.Measured {
			fmt.Fprintln(w, "  "+l)
		}
		fmt.Fprintf(w, "\nWrote: %s\n", strings.Join(out.Files, ", "))
		return nil
	},
}

var reproListCmd = &cobra.Command{
	Use:   "list",
	Short: "List the reproductions",
	Args:  cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		for _, e := range repro.List() {
			fmt.Fprintf(cmd.OutOrStdout(), "%-28s %s\n%-28s   %s\n", e.Name, e.Title, "", e.Source)
		}
		return nil
	},
}

func init() {
	f := reproCmd.Flags()
	f.StringVarP(&reproFlags.out, "out", "o", "", "output directory (default repro-out/NAME)")
	f.StringVar(&reproFlags.root, "root", "", "tcplab repository root, where examples/ is (default: found from the working directory)")
	f.IntVarP(&reproFlags.workers, "workers", "j", 0, "parallel runs (default: one per core)")
	f.StringArrayVar(&reproFlags.sets, "set", nil, "override a scenario field in every run, e.g. duration=50s for a quick look")
	f.StringVar(&reproFlags.progress, "progress", "auto", "progress display: auto, bar, lines or none")
	reproCmd.AddCommand(reproListCmd)
	rootCmd.AddCommand(reproCmd)
}
