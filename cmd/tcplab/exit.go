package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// inputError marks a failure caused by what the user gave us (a bad flag, a
// bad scenario); it exits with status 2. Anything else is an internal
// failure and exits with status 1.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// budgetExceeded marks a run stopped by --max-events or --max-wall: exit
// status 3.
type budgetExceeded struct{ err error }

func (e budgetExceeded) Error() string { return e.err.Error() }
func (e budgetExceeded) Unwrap() error { return e.err }

// badInput wraps err so that the command exits with status 2.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

func execute(args []string) int {
	rootCmd.SetArgs(args)
	rootCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return badInput(err) })
	err := rootCmd.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "tcplab:", err)
	var in inputError
	if errors.As(err, &in) || isCobraUsage(err) {
		return 2
	}
	var over budgetExceeded
	if errors.As(err, &over) {
		return 3
	}
	return 1
}

// isCobraUsage reports errors cobra raises for unknown commands or wrong
// argument counts, which are input errors too.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
