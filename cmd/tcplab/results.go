package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/output"
	"github.com/tcplab/tcplab/store"
)

var resultsCmd = &cobra.Command{
	Use:   "results",
	Short: "Merge, export and summarise result stores",
}

var resultsMergeCmd = &cobra.Command{
	Use:   "merge OUT IN...",
	Short: "Merge shard stores into one",
	Long: `Add the runs of every IN store to OUT (created if needed). A run already in
OUT is kept and its copies skipped, so merging is idempotent and shards never
duplicate. Stores of different sweeps are refused.`,
	Example: `  tcplab results merge loss.db loss-*-of-8.db`,
	Args:    cobra.MinimumNArgs(2),
	RunE: func(cmd *cobra.Command, args []string) error {
		for _, in := range args[1:] {
			if _, err := os.Stat(in); err != nil {
				return badInput(err)
			}
		}
		st, err := store.Open(args[0])
		if err != nil {
			return err
		}
		added, skipped, err := st.Merge(args[1:]...)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%s: %d runs added, %d already there, from %d stores\n", args[0], added, skipped, len(args)-1)
		return nil
	},
}

var exportFlags struct {
	format string
	out    string
}

var resultsExportCmd = &cobra.Command{
	Use:   "export STORE",
	Short: "Write a store's runs as CSV or JSON",
	Long: `CSV: one row per run and flow, with the grid parameters and metrics as
columns. JSON: an array of runs, each with its parameters, metrics and full
result.`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		format, err := output.ParseFormat(exportFlags.format, output.CSV, output.JSON)
		if err != nil {
			return badInput(err)
		}
		st, err := openStore(args[0])
		if err != nil {
			return err
		}
		defer st.Close()
		return withOutput(cmd, exportFlags.out, func(w io.Writer) error {
			if format == output.JSON {
				return st.WriteJSON(w)
			}
			return st.WriteCSV(w)
		})
	},
}

var summaryFlags struct {
	metric, flow, format, out string
}

var resultsSummaryCmd = &cobra.Command{
	Use:   "summary STORE",
	Short: "Mean, standard deviation and 95% confidence interval per grid point",
	Long: `For each grid point (and flow), summarise a metric over the replications:
n, mean, sample standard deviation and the half-width of the 95% confidence
interval of the mean (Student's t with n-1 degrees of freedom).`,
	Example: `  tcplab results summary loss.db --metric goodput_bps
  tcplab results summary loss.db --metric timeouts --format csv -o timeouts.csv`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		format, err := output.ParseFormat(summaryFlags.format, output.Table, output.CSV)
		if err != nil {
			return badInput(err)
		}
		st, err := openStore(args[0])
		if err != nil {
			return err
		}
		defer st.Close()
		sums, err := st.Aggregate(summaryFlags.metric, summaryFlags.flow)
		if err != nil {
			return err
		}
		if len(sums) == 0 {
			names, _ := st.MetricNames()
			return badInput(fmt.Errorf("no values of metric %q (stored: %s)", summaryFlags.metric, strings.Join(names, ", ")))
		}
		params, err := st.ParamNames()
		if err != nil {
			return err
		}
		return withOutput(cmd, summaryFlags.out, func(w io.Writer) error {
			return store.WriteSummary(w, format, params, sums)
		})
	},
}

func init() {
	resultsExportCmd.Flags().StringVar(&exportFlags.format, "format", "csv", "csv or json")
	resultsExportCmd.Flags().StringVarP(&exportFlags.out, "out", "o", "", "output file (default: standard output)")
	f := resultsSummaryCmd.Flags()
	f.StringVar(&summaryFlags.metric, "metric", "goodput_bps", "metric to summarise")
	f.StringVar(&summaryFlags.flow, "flow", "", "only this flow (default: every flow)")
	f.StringVar(&summaryFlags.format, "format", "table", "table or csv")
	f.StringVarP(&summaryFlags.out, "out", "o", "", "output file (default: standard output)")
	resultsCmd.AddCommand(resultsMergeCmd, resultsExportCmd, resultsSummaryCmd)
	rootCmd.AddCommand(resultsCmd)
}

// openStore opens an existing store; a missing file is the user's input.
func openStore(path string) (*store.Store, error) {
	st, err := store.OpenExisting(path)
	if err != nil {
		return nil, badInput(err)
	}
	return st, nil
}

// withOutput runs write on standard output, or on a file it creates.
func withOutput(cmd *cobra.Command, path string, write func(io.Writer) error) error {
	if path == "" {
		return write(cmd.OutOrStdout())
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
