package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/repro"
)

var reproFlags struct {
	out, root, progress string
	workers             int
	sets                []string
	short               bool
}

var reproCmd = &cobra.Command{
	Use:   "repro NAME|PAPER",
	Short: "Reproduce a paper's figure or table with one command",
	Long: `Run the sweep behind a figure or table of a paper, write its CSV and figures
into --out (default repro-out/NAME), and print the paper's claims beside the
measured results, each confirmed, refuted, or depending on a named setting.
A paper's name (e.g. tdlrp) runs all of its entries and ends with a summary.
Runs are stored as they finish: an interrupted reproduction continues where
it stopped when run again. 'tcplab repro list' lists them.`,
	Example: `  tcplab repro list
  tcplab repro validation-goodput-loss
  tcplab repro validation --short
  tcplab repro validation-goodput-loss --set duration=50s --out /tmp/quick`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		entries, err := repro.Select(args[0])
		if err != nil {
			return badInput(err)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		w := cmd.OutOrStdout()
		var all []repro.Claim
		for _, e := range entries {
			prog, err := newProgress(reproFlags.progress, os.Stderr, e.Name)
			if err != nil {
				return badInput(err)
			}
			dir := reproFlags.out
			if dir != "" && len(entries) > 1 {
				dir = filepath.Join(dir, e.Name)
			}
			out, rep, err := repro.Run(ctx, e, repro.Options{Root: reproFlags.root, Dir: dir, Short: reproFlags.short,
				Sets: reproFlags.sets, Workers: reproFlags.workers, Progress: prog})
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name, err)
			}
			fmt.Fprintf(w, "== %s: %s\n%s\n\n", e.Name, e.Title, e.Source)
			fmt.Fprintf(w, "Claim:    %s\n\nMeasured (%d runs, %d now):\n", e.Claim, rep.Jobs, rep.Ran)
			for _, l := range out.Measured {
				fmt.Fprintln(w, "  "+l)
			}
			writeClaims(w, out.Claims)
			all = append(all, out.Claims...)
			fmt.Fprintf(w, "\nWrote: %s\n\n", strings.Join(out.Files, ", "))
		}
		if len(entries) > 1 {
			fmt.Fprintf(w, "== Summary: %s, %d entries\n", args[0], len(entries))
			writeClaims(w, all)
		}
		return nil
	},
}

// writeClaims prints claim | paper | tcplab | verdict | why, one block a
// claim.
func writeClaims(w io.Writer, cs []repro.Claim) {
	for _, c := range cs {
		fmt.Fprintf(w, "\n  [%s] %s: %s\n    paper:  %s\n    tcplab: %s\n    why:    %s\n",
			strings.ToUpper(string(c.Verdict)), c.Figure, c.Text, c.Paper, c.Measured, c.Reason)
	}
}

var reproListCmd = &cobra.Command{
	Use:   "list",
	Short: "List the reproductions",
	Args:  cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		for _, e := range repro.List() {
			fmt.Fprintf(cmd.OutOrStdout(), "%-28s %s\n%-28s   %s\n", e.Name, e.Title, "", e.Source)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "\npapers (run all their entries): %s\n", strings.Join(repro.Papers(), ", "))
		return nil
	},
}

func init() {
	f := reproCmd.Flags()
	f.StringVarP(&reproFlags.out, "out", "o", "", "output directory (default repro-out/NAME)")
	f.StringVar(&reproFlags.root, "root", "", "tcplab repository root, where examples/ is (default: found from the working directory)")
	f.IntVarP(&reproFlags.workers, "workers", "j", 0, "parallel runs (default: one per core)")
	f.StringArrayVar(&reproFlags.sets, "set", nil, "override a scenario field in every run, e.g. duration=50s for a quick look")
	f.BoolVar(&reproFlags.short, "short", false, "the reduced form: shorter runs, at most 3 seeds a point")
	f.StringVar(&reproFlags.progress, "progress", "auto", "progress display: auto, bar, lines or none")
	reproCmd.AddCommand(reproListCmd)
	rootCmd.AddCommand(reproCmd)
}
