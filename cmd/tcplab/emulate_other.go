//go:build !linux

package main

import (
	"errors"

	"github.com/spf13/cobra"
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
