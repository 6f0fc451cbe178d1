package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/compare"
)

var compareFlags struct {
	seeds   int
	only    string
	anchors string
	root    string
}

var compareCmd = &cobra.Command{
	Use:   "compare",
	Short: "Run the ns-2/ns-3 anchor scenarios and print tcplab beside the reference results",
	Long: `Run scenarios A (dumbbell-lossy), B (chain-4hop) and C (dumbbell-10flows)
through tcplab's ns2 and ns3 profiles over seeds 1..N and print, per point,
the reference goodput (mean ± sd over its 10 seeds), tcplab's, the relative
difference and the timeouts per run, as a Markdown table.

The reference numbers are the recorded ns-2.35 / ns-3.37 runs of the shared
anchors. To compare with a fresh run of those simulators instead, rerun the
anchors' run-all.sh and pass its results/raw.txt with --anchors.`,
	Example: `  tcplab compare
  tcplab compare --only B --seeds 20
  tcplab compare --anchors /tmp/anchors/results/raw.txt`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		if compareFlags.seeds < 1 {
			return badInput(fmt.Errorf("--seeds must be at least 1"))
		}
		runs := compare.Recorded()
		if compareFlags.anchors != "" {
			b, err := os.ReadFile(compareFlags.anchors)
			if err != nil {
				return badInput(err)
			}
			if runs, err = compare.Anchors(string(b)); err != nil {
				return badInput(fmt.Errorf("%s: %w", compareFlags.anchors, err))
			}
		}
		var pts []compare.Point
		for _, p := range compare.Points() {
			if compareFlags.only == "" || strings.EqualFold(compareFlags.only, p.Scen) {
				pts = append(pts, p)
			}
		}
		if len(pts) == 0 {
			return badInput(fmt.Errorf("--only %q matches no scenario (A, B or C)", compareFlags.only))
		}
		rows, err := compare.Measure(compareFlags.root, pts, compareFlags.seeds, runs)
		if err != nil {
			return err
		}
		compare.WriteMarkdown(cmd.OutOrStdout(), rows)
		return nil
	},
}

func init() {
	f := compareCmd.Flags()
	f.IntVar(&compareFlags.seeds, "seeds", 10, "seeds per point (1..N)")
	f.StringVar(&compareFlags.only, "only", "", "one scenario: A, B or C")
	f.StringVar(&compareFlags.anchors, "anchors", "", "RESULT lines of a fresh anchors run (default: the recorded ones)")
	f.StringVar(&compareFlags.root, "root", ".", "repository root, where examples/ is")
	rootCmd.AddCommand(compareCmd)
}
