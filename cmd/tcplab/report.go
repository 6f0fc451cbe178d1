package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/report"
	"github.com/tcplab/tcplab/repro"
	"github.com/tcplab/tcplab/version"
)

var reportFlags reproOptions

var reportCmd = &cobra.Command{
	Use:   "report [NAME|PAPER ...]",
	Short: "Reproduce papers' figures and write them up as static HTML pages",
	Long: `Run the named reproductions (default: all of them), each resuming its store,
and write one HTML page per entry into --out (its figures, each claim of the
paper beside the measurement with its verdict, the command and scenario that
made it, links to the CSV data) and an index.html of them all. The pages
open from disk in any browser; nothing is fetched from the network.
A second call reuses the stored runs and only rewrites the pages.`,
	Example: `  tcplab report --short
  tcplab report tdlrp abouzeid --out report
  tcplab report adminrto-web -j 2`,
	RunE: func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			args = repro.Papers()
		}
		var entries []*repro.Entry
		for _, a := range args {
			es, err := repro.Select(a)
			if err != nil {
				return badInput(err)
			}
			entries = append(entries, es...)
		}
		out := reportFlags.out
		if out == "" {
			out = "report"
		}
		var pages []report.Page
		tallies := map[string]*repro.Tally{}
		var papers []string
		preview := ""
		err := reportFlags.each(entries, out, true, func(e *repro.Entry, res *repro.Outcome, rep *experiment.Report) {
			pages = append(pages, report.Page{Entry: e, Outcome: res, Command: reportFlags.command(e),
				Runs: rep.Jobs, Ran: rep.Ran, Wall: rep.Wall})
			fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d claims, %d runs (%d now)\n", e.Name, len(res.Claims), rep.Jobs, rep.Ran)
			if tallies[e.Paper] == nil {
				tallies[e.Paper] = &repro.Tally{}
				papers = append(papers, e.Paper)
			}
			tallies[e.Paper].Add(res.Claims)
			preview = res.Preview
		})
		if err != nil {
			return err
		}
		if _, err := report.Write(out, pages, report.Meta{Version: version.Get().String(), Generated: time.Now()}); err != nil {
			return err
		}
		w := cmd.OutOrStdout()
		if preview != "" {
			fmt.Fprintf(w, "%s: verdicts not counted\n", preview)
		}
		var total repro.Tally
		for _, p := range papers {
			fmt.Fprintf(w, "%-10s %s\n", p, tallies[p])
			total = total.Plus(*tallies[p])
		}
		fmt.Fprintf(w, "%-10s %s\n", "all", total)
		fmt.Fprintln(w, filepath.Join(out, "index.html"))
		return nil
	},
}

func init() {
	reportFlags.register(reportCmd.Flags(), "directory for the pages and every entry's outputs (default report)")
	rootCmd.AddCommand(reportCmd)
}
