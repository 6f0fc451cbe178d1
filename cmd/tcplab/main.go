// Command tcplab runs TCP scenarios, sweeps and analytic models.
package main

import (
	"os"

	"github.com/spf13/cobra"
)

var rootCmd = &cobra.Command{
	Use:           "tcplab",
	Short:         "A laboratory for TCP over lossy, wireless and variable-delay networks",
	SilenceUsage:  true,
	SilenceErrors: true,
}

func main() {
	os.Exit(execute(os.Args[1:]))
}
