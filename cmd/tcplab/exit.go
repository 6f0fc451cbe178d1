package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	rootCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return badInput(plainFlagError(err)) })
	markArgErrors(rootCmd)
	err := rootCmd.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "tcplab:", err)
	var in inputError
	if errors.As(err, &in) {
		return 2
	}
	var over budgetExceeded
	if errors.As(err, &over) {
		return 3
	}
	return 1
}

// markArgErrors makes every command's argument check (a wrong number of
// arguments, an unknown subcommand) an input error, so that exit statuses
// never depend on the wording of cobra's messages.
func markArgErrors(c *cobra.Command) {
	check := c.Args
	if c.HasSubCommands() && !c.Runnable() {
		// A command that only groups others shows its help; without a
		// run function cobra would show it for an unknown subcommand too,
		// before any argument check.
		c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
	if check == nil {
		if c.HasSubCommands() {
			check = func(_ *cobra.Command, args []string) error {
				if len(args) > 0 {
					return fmt.Errorf("unknown command %q (%s --help lists them)", args[0], c.CommandPath())
				}
				return nil
			}
		} else {
			check = cobra.ArbitraryArgs
		}
	}
	c.Args = func(cmd *cobra.Command, args []string) error { return badInput(check(cmd, args)) }
	for _, sub := range c.Commands() {
		markArgErrors(sub)
	}
}

// plainFlagError says what a flag wants instead of quoting a Go parser's
// message ("strconv.ParseUint: parsing ...").
func plainFlagError(err error) error {
	var bad *pflag.InvalidValueError
	if !errors.As(err, &bad) {
		return err
	}
	want := map[string]string{
		"int": "an integer", "int64": "an integer", "uint64": "a whole number", "uint": "a whole number",
		"float64": "a number", "duration": "a duration such as 10s or 500ms", "bool": "true or false",
	}[bad.GetFlag().Value.Type()]
	if want == "" {
		return err
	}
	return fmt.Errorf("--%s %q: want %s", bad.GetFlag().Name, bad.GetValue(), want)
}
