package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/scenario"
)

var validateSets []string

var validateCmd = &cobra.Command{
	Use:   "validate FILE",
	Short: "Check a scenario without running it",
	Long: `Parse and check the scenario in FILE, with any --set overrides, and print a
one-line summary. Every problem found is listed as FILE:LINE: FIELD: message
(or --set PATH=VALUE: FIELD: message for an override).

Exit status: 0 if the scenario is valid, 2 if not, 1 for an internal failure.`,
	Example: `  tcplab validate examples/c-big.yaml
  tcplab validate examples/dumbbell-lossy.yaml --set flows.ftp.transport.variant=reno`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		s, err := loadScenario(args[0], validateSets)
		if err != nil {
			return err
		}
		fmt.Fprintln(cmd.OutOrStdout(), summary(s))
		return nil
	},
}

func init() {
	validateCmd.Flags().StringArrayVar(&validateSets, "set", nil, "override a scenario field: PATH=VALUE (repeatable)")
	rootCmd.AddCommand(validateCmd)
}

// summary is one line saying what the scenario holds.
func summary(s *scenario.Scenario) string {
	var tcp, udp int
	for _, f := range s.Flows {
		if f.Transport.Protocol == "udp" {
			udp++
		} else {
			tcp++
		}
	}
	return fmt.Sprintf("%s: ok: %s, %s, %s (%d tcp, %d udp), %s s, seed %d",
		s.File, plural(len(s.Nodes), "node"), plural(len(s.Links), "link"),
		plural(len(s.Flows), "flow"), tcp, udp, strconv.FormatFloat(s.Duration.Seconds(), 'g', -1, 64), s.Seed)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
