package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tcplab/tcplab/model"
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
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				for _, p := range m.Params {
					fmt.Fprintf(tw, "    --%s\t%s\t%s\t%s\n", p.Name, strconv.FormatFloat(p.Default, 'g', -1, 64), p.Unit, p.Help)
				}
				tw.Flush()
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
		c.Flags().String(p.Name, strconv.FormatFloat(p.Default, 'g', -1, 64), p.Help+" (number or lo:hi:step)")
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
	if format != "table" && format != "json" && format != "csv" {
		return badInput(fmt.Errorf("--format %q: want table, json or csv", format))
	}
	points, err := m.Grid(values)
	if err != nil {
		return modelInputError(err)
	}
	return writeModel(cmd.OutOrStdout(), format, m, points)
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

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

func writeModel(w io.Writer, format string, m *model.Model, points []model.Point) error {
	var params, outs []string
	for _, p := range m.Params {
		params = append(params, p.Name)
	}
	for _, o := range points[0].Outputs {
		outs = append(outs, o.Name)
	}
	switch format {
	case "json":
		type kv = map[string]float64
		var list []map[string]kv
		for _, pt := range points {
			o := kv{}
			for _, x := range pt.Outputs {
				o[x.Name] = jsonSafe(x.Value)
			}
			list = append(list, map[string]kv{"params": kv(pt.Inputs), "outputs": o})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if len(list) == 1 {
			return enc.Encode(list[0])
		}
		return enc.Encode(list)
	case "csv":
		writeRows(w, ",", params, outs, points)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if len(points) == 1 {
		for _, p := range params {
			fmt.Fprintf(tw, "%s\t%s\n", p, fmtNum(points[0].Inputs[p]))
		}
		fmt.Fprintln(tw, "--\t")
		for _, x := range points[0].Outputs {
			fmt.Fprintf(tw, "%s\t%s\n", x.Name, fmtNum(x.Value))
		}
		return tw.Flush()
	}
	writeRows(tw, "\t", params, outs, points)
	return tw.Flush()
}

// jsonSafe maps ±Inf (Mathis at p = 0) to the largest float, which JSON
// can carry.
func jsonSafe(v float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return math.MaxFloat64
	case math.IsInf(v, -1):
		return -math.MaxFloat64
	}
	return v
}

// writeRows writes a header and one row per evaluated point, fields joined
// by sep (CSV or the table's tabs).
func writeRows(w io.Writer, sep string, params, outs []string, points []model.Point) {
	fmt.Fprintln(w, strings.Join(append(append([]string{}, params...), outs...), sep))
	for _, pt := range points {
		var f []string
		for _, p := range params {
			f = append(f, fmtNum(pt.Inputs[p]))
		}
		for _, x := range pt.Outputs {
			f = append(f, fmtNum(x.Value))
		}
		fmt.Fprintln(w, strings.Join(f, sep))
	}
}
