package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tcplab/tcplab/model"
	"github.com/tcplab/tcplab/output"
	_ "github.com/tcplab/tcplab/predict" // registers the traffic-prediction models
)

var modelCmd = &cobra.Command{
	Use:   "model NAME [--param value|lo:hi:step ...]",
	Short: "Evaluate an analytic model (tcplab model list shows them)",
	Long: `Evaluate an analytic model and print its outputs.

Any numeric parameter may be a range lo:hi:step; the model is then evaluated
at every point (the Cartesian product over several ranges) and printed as CSV,
one row per point, ready to plot.`,
	Args: cobra.ArbitraryArgs,
	RunE: func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		_, err := model.Lookup(args[0])
		return badInput(fmt.Errorf("%w (see tcplab model list)", err))
	},
}

func init() {
	rootCmd.AddCommand(modelCmd)
	modelCmd.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the models and their parameters",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			for _, m := range model.All() {
				fmt.Fprintf(w, "%s\n    %s\n", m.Name, m.Doc)
				rows := make([][]string, len(m.Params))
				for i, p := range m.Params {
					rows[i] = []string{"    --" + p.Name, strconv.FormatFloat(p.Default, 'g', -1, 64), string(p.Unit), p.Help}
				}
				if len(rows) == 0 {
					continue
				}
				if err := output.WriteTable(w, rows[0], rows[1:], nil); err != nil {
					return err
				}
			}
			return nil
		},
	})
	for _, m := range model.All() {
		modelCmd.AddCommand(modelCommand(m))
	}
}

func modelCommand(m *model.Model) *cobra.Command {
	c := &cobra.Command{
		Use:   m.Name,
		Short: m.Doc,
		Args:  cobra.NoArgs,
	}
	for _, p := range m.Params {
		c.Flags().String(p.Name, strconv.FormatFloat(p.Default, 'g', -1, 64), p.Help+" ("+p.Form()+", or lo:hi:step)")
	}
	c.Flags().String("format", "", "table, json or csv (default: table for one point, csv for a range)")
	c.RunE = func(cmd *cobra.Command, _ []string) error {
		// Flag values outlive one execution (tests run several in one
		// process): put them back to the defaults when done.
		defer cmd.Flags().VisitAll(func(f *pflag.Flag) {
			f.Value.Set(f.DefValue)
			f.Changed = false
		})
		return runModel(cmd, m)
	}
	return c
}

func runModel(cmd *cobra.Command, m *model.Model) error {
	values := map[string][]float64{}
	ranged := false
	for _, p := range m.Params {
		if !cmd.Flags().Changed(p.Name) {
			continue
		}
		s, _ := cmd.Flags().GetString(p.Name)
		vals, isRange, err := p.Parse(s)
		if err != nil {
			return modelInputError(err)
		}
		values[p.Name] = vals
		ranged = ranged || isRange
	}
	format, _ := cmd.Flags().GetString("format")
	if format == "" {
		format = "table"
		if ranged {
			format = "csv"
		}
	}
	f, err := output.ParseFormat(format, output.Table, output.JSON, output.CSV)
	if err != nil {
		return badInput(err)
	}
	points, err := m.Grid(values)
	if err != nil {
		return modelInputError(err)
	}
	return output.WriteModel(cmd.OutOrStdout(), f, m, points)
}

// modelInputError names the flag of a parameter error; every failure of a
// model's evaluation is a point outside its domain, so bad input.
func modelInputError(err error) error {
	var ie *model.InputError
	if errors.As(err, &ie) {
		return badInput(fmt.Errorf("--%s", ie.Error()))
	}
	return badInput(err)
}
