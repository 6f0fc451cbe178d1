package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/examples"
	"github.com/tcplab/tcplab/output"
)

var examplesWrite string

var examplesCmd = &cobra.Command{
	Use:   "examples [NAME]",
	Short: "List, print or write out the example scenarios built into tcplab",
	Long: `The example scenarios and sweeps are built into the binary: every command
that takes a path under examples/ finds them from any directory (a file on
disk wins). Without NAME, list them; with NAME, print one; with --write DIR,
write them all into DIR to edit (existing files are never overwritten).`,
	Example: `  tcplab examples
  tcplab examples dumbbell-lossy.yaml
  tcplab examples --write my-examples`,
	Args: cobra.MaximumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		w := cmd.OutOrStdout()
		switch {
		case examplesWrite != "":
			wrote, err := examples.WriteAll(examplesWrite)
			for _, p := range wrote {
				fmt.Fprintln(w, p)
			}
			return err
		case len(args) == 1:
			b, ok := examples.Read(args[0])
			if !ok && filepath.Ext(args[0]) == "" {
				b, ok = examples.Read(args[0] + ".yaml") // as listed, without the extension
			}
			if !ok {
				return badInput(fmt.Errorf("no built-in example %q (tcplab examples lists them)", args[0]))
			}
			_, err := w.Write(b)
			return err
		}
		var rows [][]string
		for _, e := range examples.List() {
			rows = append(rows, []string{examples.Dir + "/" + e.Name, e.Summary})
		}
		return output.WriteTable(w, []string{"file", "what"}, rows, nil)
	},
}

func init() {
	examplesCmd.Flags().StringVar(&examplesWrite, "write", "", "write every example into `DIR`")
	rootCmd.AddCommand(examplesCmd)
}
