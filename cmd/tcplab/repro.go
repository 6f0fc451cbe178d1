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
	"github.com/spf13/pflag"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/repro"
)

var reproFlags reproOptions

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
		w := cmd.OutOrStdout()
		var all []repro.Claim
		var tally repro.Tally
		preview := ""
		err = reproFlags.each(entries, reproFlags.out, len(entries) > 1, func(e *repro.Entry, out *repro.Outcome, rep *experiment.Report) {
			fmt.Fprintf(w, "== %s: %s\n%s\n\n", e.Name, e.Title, e.Source)
			if out.Preview != "" {
				fmt.Fprintf(w, "** %s **\n\n", out.Preview)
				preview = out.Preview
			}
			fmt.Fprintf(w, "Claim:    %s\n\n", e.Claim)
			if e.Sweep != "" {
				fmt.Fprintf(w, "Measured (%d runs, %d now):\n", rep.Jobs, rep.Ran)
			} else {
				fmt.Fprintln(w, "Computed (no sweep):")
			}
			for _, l := range out.Measured {
				fmt.Fprintln(w, "  "+l)
			}
			for _, n := range out.Notes {
				fmt.Fprintln(w, "  note: "+n)
			}
			writeClaims(w, out.Claims)
			all = append(all, out.Claims...)
			tally.Add(out.Claims)
			fmt.Fprintf(w, "\nWrote: %s\n\n", strings.Join(out.Files, ", "))
		})
		if err != nil {
			return err
		}
		if len(entries) > 1 {
			fmt.Fprintf(w, "== Summary: %s, %d entries\n", args[0], len(entries))
			writeClaims(w, all)
		}
		if preview != "" {
			fmt.Fprintf(w, "\n%s: %s (not counted)\n", preview, tally)
		} else {
			fmt.Fprintf(w, "\n%s\n", tally)
		}
		return nil
	},
}

// reproOptions are the flags shared by repro and report.
type reproOptions struct {
	out, root, progress string
	workers             int
	sets                []string
	short               bool
}

func (o *reproOptions) register(f *pflag.FlagSet, outHelp string) {
	f.StringVarP(&o.out, "out", "o", "", outHelp)
	f.StringVar(&o.root, "root", "", "tcplab repository root, where examples/ is (default: found from the working directory, else the built-in examples)")
	f.IntVarP(&o.workers, "workers", "j", 0, "parallel runs (default: one per core)")
	f.StringArrayVar(&o.sets, "set", nil, "override a scenario field in every run, e.g. duration=50s for a quick look")
	f.BoolVar(&o.short, "short", false, "the reduced form: shorter runs, at most 3 seeds a point")
	f.StringVar(&o.progress, "progress", "auto", "progress display: auto, bar, lines or none")
}

// each runs the entries in turn (each resuming its store) and hands each
// outcome to done. Entry e writes into out/e.Name when nest is set, into
// out itself otherwise, and into repro-out/NAME when out is empty. Ctrl-C
// stops the sweep in progress with its finished runs stored.
func (o *reproOptions) each(entries []*repro.Entry, out string, nest bool, done func(*repro.Entry, *repro.Outcome, *experiment.Report)) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	for _, e := range entries {
		prog, err := newProgress(o.progress, os.Stderr, e.Name)
		if err != nil {
			return badInput(err)
		}
		dir := out
		if dir != "" && nest {
			dir = filepath.Join(dir, e.Name)
		}
		res, rep, err := repro.Run(ctx, e, repro.Options{Root: o.root, Dir: dir, Short: o.short,
			Sets: o.sets, Workers: o.workers, Progress: prog})
		if err != nil {
			return fmt.Errorf("%s: %w", e.Name, err)
		}
		done(e, res, rep)
	}
	return nil
}

// command is the repro command line that makes entry e as o makes it.
func (o *reproOptions) command(e *repro.Entry) string {
	words := []string{"tcplab", "repro", e.Name}
	if o.short {
		words = append(words, "--short")
	}
	for _, s := range o.sets {
		words = append(words, "--set", s)
	}
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// writeClaims prints claim | paper | tcplab | verdict | test, one block a
// claim; tcplab's own checks say what kind they are.
func writeClaims(w io.Writer, cs []repro.Claim) {
	for _, c := range cs {
		kind := ""
		if c.Kind != repro.PaperClaim {
			kind = " (" + c.Kind.String() + ")"
		}
		fmt.Fprintf(w, "\n  [%s]%s %s: %s\n    paper:  %s\n    tcplab: %s\n    test:   %s\n",
			strings.ToUpper(string(c.Verdict)), kind, c.Figure, c.Text, c.Paper, c.Measured, c.Test)
		if c.Reason != "" {
			fmt.Fprintf(w, "    why:    %s\n", c.Reason)
		}
		for _, s := range c.Sensitivity {
			fmt.Fprintf(w, "    beyond the paper's settings: %s\n", s)
		}
		if c.CrossCheck != "" {
			fmt.Fprintf(w, "    cross-check: %s\n", c.CrossCheck)
		}
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
	reproFlags.register(reproCmd.Flags(), "output directory (default repro-out/NAME)")
	reproCmd.AddCommand(reproListCmd)
	rootCmd.AddCommand(reproCmd)
}
