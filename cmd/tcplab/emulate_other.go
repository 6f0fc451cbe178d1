//go:build !linux

package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/tcplab/tcplab/scenario"
)

// Kernel hosts are Linux network namespaces and TUN devices.
var emulateCmd = &cobra.Command{
	Use:   "emulate FILE",
	Short: "Run a scenario in real time with kernel hosts (Linux only)",
	Args:  cobra.ExactArgs(1),
	RunE: func(*cobra.Command, []string) error {
		return badInput(errors.New("emulation needs Linux (network namespaces and TUN devices)"))
	},
}

func init() { rootCmd.AddCommand(emulateCmd) }

// emulator: no kernel hosts here; a sweep over them fails at its runs.
var emulator func(*scenario.Run) (io.Closer, error)
