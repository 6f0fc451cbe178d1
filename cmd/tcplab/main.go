// Command tcplab runs TCP scenarios, sweeps and analytic models.
package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/version"
)

var rootCmd = &cobra.Command{
	Use:           "tcplab",
	Short:         "A laboratory for TCP over lossy, wireless and variable-delay networks",
	SilenceUsage:  true,
	SilenceErrors: true,
	Version:       version.Get().String(),
}

func init() {
	rootCmd.SetVersionTemplate("tcplab {{.Version}}\n")
	rootCmd.CompletionOptions.HiddenDefaultCmd = false
}

func main() {
	os.Exit(execute(os.Args[1:]))
}
