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
	"github.com/tcplab/tcplab/predict"
)

// modelParam is one numeric input of an analytic model.
type modelParam struct {
	name string
	def  float64
	help string
	lo   float64 // inclusive bounds
	hi   float64
	intg bool // must be an integer
}

// modelSpec ties a model to its parameters and a function from a parameter
// point to named outputs (in a fixed order).
type modelSpec struct {
	name   string
	desc   string
	params []modelParam
	run    func(v map[string]float64) ([]modelOut, error)
}

type modelOut struct {
	name  string
	value float64
}

var inf = math.Inf(1)

func pP(def float64) modelParam {
	return modelParam{"p", def, "loss probability per packet", 0, 1, false}
}
func pRTT(def float64) modelParam {
	return modelParam{"rtt", def, "round-trip time, s", 1e-9, inf, false}
}
func pMSS() modelParam {
	return modelParam{"mss", 1460, "segment size, bytes (for bits/s)", 1, inf, true}
}

var models = []modelSpec{
	{
		name:   "mathis",
		desc:   "Mathis et al. square-root law, C/(RTT·sqrt(p)) with C = sqrt(3/(2b))",
		params: []modelParam{pP(0.01), pRTT(0.1), {"b", 1, "packets per ACK", 1, inf, false}, pMSS()},
		run: func(v map[string]float64) ([]modelOut, error) {
			r := model.Mathis(model.MathisParams{P: v["p"], RTT: v["rtt"], B: v["b"]})
			return []modelOut{{"pkts_per_s", r}, {"bits_per_s", model.BitsPerSecond(r, int(v["mss"]))}}, nil
		},
	},
	{
		name: "pftk",
		desc: "Padhye-Firoiu-Towsley-Kurose: full model with timeouts and window limit, and its approximation",
		params: []modelParam{pP(0.01), pRTT(0.114), {"rto", 0.4, "first timeout T0, s", 0, inf, false},
			{"wm", 32, "window limit, packets (0 = none)", 0, inf, false}, {"b", 1, "packets per ACK", 1, inf, false}, pMSS()},
		run: func(v map[string]float64) ([]modelOut, error) {
			m := model.PFTKParams{P: v["p"], RTT: v["rtt"], RTO: v["rto"], Wm: v["wm"], B: v["b"]}
			full, appr := model.PFTK(m), model.PFTKApprox(m)
			mss := int(v["mss"])
			return []modelOut{{"full_pkts_per_s", full}, {"approx_pkts_per_s", appr},
				{"full_bits_per_s", model.BitsPerSecond(full, mss)}, {"approx_bits_per_s", model.BitsPerSecond(appr, mss)}}, nil
		},
	},
	{
		name: "abouzeid",
		desc: "Abouzeid & Roy ideal goodput under a two-state RTT, eqs. 2-3: 2·wm/(T1+T2)",
		params: []modelParam{{"wm", 12, "window, packets", 0, inf, false}, {"t1", 0.1, "RTT in state 1, s", 1e-9, inf, false},
			{"t2", 0.3, "RTT in state 2, s", 1e-9, inf, false}, {"h", 1, "holding-time factor", 0, inf, false}, pMSS()},
		run: func(v map[string]float64) ([]modelOut, error) {
			r := model.AbouzeidIdeal(model.AbouzeidParams{Wm: v["wm"], T1: v["t1"], T2: v["t2"], H: v["h"]})
			return []modelOut{{"pkts_per_s", r}, {"bits_per_s", model.BitsPerSecond(r, int(v["mss"]))}}, nil
		},
	},
	{
		name:   "tcpnc",
		desc:   "TCP-NC Markov chain (Zhang, Lan & Li 2014): E[cwnd], E[Thr], accumulated absorbing probability",
		params: tcpncParams(),
		run: func(v map[string]float64) ([]modelOut, error) {
			r, err := model.TCPNC(tcpncFrom(v))
			if err != nil {
				return nil, err
			}
			return []modelOut{{"p_eff", r.PEff}, {"M", float64(r.M)}, {"accum_absorb", r.Accum}, {"ecwnd", r.ECwnd},
				{"thr_pkts_per_s", r.Thr}, {"thr_bits_per_s", model.BitsPerSecond(r.Thr, int(v["mss"]))}, {"masked", b2f(r.Masked)}}, nil
		},
	},
	{
		name:   "tcpnc-rounds",
		desc:   "exact round-by-round evaluation of the TCP-NC abstraction (slow: O(M^3·cwmax))",
		params: tcpncParams(),
		run: func(v map[string]float64) ([]modelOut, error) {
			r, err := model.TCPNCRounds(tcpncFrom(v))
			if err != nil {
				return nil, err
			}
			return []modelOut{{"p_eff", r.PEff}, {"M", float64(r.M)}, {"escaped", r.Escaped}, {"ecwnd", r.ECwnd},
				{"rounds", r.Rounds}, {"thr_pkts_per_s", r.Thr}, {"thr_bits_per_s", model.BitsPerSecond(r.Thr, int(v["mss"]))}}, nil
		},
	},
	{
		name: "kim",
		desc: "Kim, Médard & Barros TCP/NC with losses masked (R ≥ 1/(1−p))",
		params: []modelParam{pP(0.05), {"r", 1.1, "redundancy factor", 1, inf, false}, {"wmax", 50, "maximum window, packets", 1, inf, true},
			pRTT(0.8), {"w0", 1, "initial window, packets", 1, inf, true}, {"duration", 0, "connection length, s (0 = steady state)", 0, inf, false}, pMSS()},
		run: func(v map[string]float64) ([]modelOut, error) {
			if v["p"] >= 1 {
				return nil, badParam("p", v["p"], "must be below 1")
			}
			r, err := model.KimNC(model.KimParams{P: v["p"], R: v["r"], Wmax: int(v["wmax"]), RTT: v["rtt"], W0: int(v["w0"]), Duration: v["duration"]})
			if err != nil {
				return nil, err
			}
			return []modelOut{{"thr_pkts_per_s", r.Thr}, {"thr_bits_per_s", model.BitsPerSecond(r.Thr, int(v["mss"]))},
				{"min_r", r.MinR}, {"mask_prob", r.MaskProb}}, nil
		},
	},
	{
		name: "alltcp",
		desc: "ALL-TCP reliability (eqs. 10-29): loss probability and routers traversed, end-to-end vs segment-by-segment",
		params: []modelParam{{"n", 8, "routers on the path", 2, inf, true}, {"pi", 0.05, "drop probability per router", 0, 1, false},
			{"n1", 4, "routers in the first segment", 1, inf, true}, {"R", 10, "attempts per transport or segment", 1, inf, true}},
		run: func(v map[string]float64) ([]modelOut, error) {
			if v["n1"] >= v["n"] {
				return nil, badParam("n1", v["n1"], "must be below n")
			}
			r, err := model.AllTCP(model.UniformLoss(int(v["n"]), v["pi"]), int(v["n1"]), int(v["R"]))
			if err != nil {
				return nil, err
			}
			return []modelOut{{"etet_loss", r.ETET.Loss}, {"sbst_loss", r.SBST.Loss},
				{"etet_hops", r.ETET.Hops}, {"sbst_hops", r.SBST.Hops},
				{"etet_hops_paper", r.ETETPaper.Hops}, {"sbst_hops_paper", r.SBSTPaper.Hops}}, nil
		},
	},
	{
		name: "mpi",
		desc: "ALL-TCP maximum prediction interval (eqs. 1-6) of a FARIMA(1,d,0) traffic model",
		params: []modelParam{{"d", 0.3, "memory parameter", -0.49, 0.49, false}, {"phi", 0, "AR(1) coefficient", -0.99, 0.99, false},
			{"sigma", 1, "innovation standard deviation", 1e-12, inf, false}, {"mean", 10, "mean traffic level", 1e-12, inf, false},
			{"eps", 0.2, "tolerance on the relative error", 1e-9, 0.999, false}, {"peps", 0.1, "allowed probability of exceeding eps", 1e-9, 0.499, false}},
		run: func(v map[string]float64) ([]modelOut, error) {
			f := &predict.FARIMA{D: v["d"], ARMA: predict.ARMA{NoiseVar: v["sigma"] * v["sigma"]}}
			if v["phi"] != 0 {
				f.ARMA.Phi = []float64{v["phi"]}
			}
			variance := f.Variance()
			n, err := predict.MPI(predict.MPIParams{H: f.MAWeights(10000), Var: variance, Mean: v["mean"], Eps: v["eps"], PEps: v["peps"]})
			if err != nil {
				return nil, err
			}
			return []modelOut{{"mpi", float64(n)}, {"variance", variance}, {"cv", math.Sqrt(variance) / v["mean"]}}, nil
		},
	},
}

func tcpncParams() []modelParam {
	return []modelParam{pP(0.05), {"r", 1, "redundancy factor R", 1, inf, false}, {"cwmax", 50, "maximum window, packets", 1, inf, true},
		{"M", 0, "upper bound on the visual window (0 = automatic)", 0, 5000, true}, pRTT(0.8),
		{"rto", 0, "timeout, s (0 = w·RTT, as in the paper)", 0, inf, false}, {"mss", 1024, "segment size, bytes", 1, inf, true}}
}

func tcpncFrom(v map[string]float64) model.TCPNCParams {
	return model.TCPNCParams{P: v["p"], R: v["r"], CWMax: int(v["cwmax"]), M: int(v["M"]), RTT: v["rtt"], RTO: v["rto"]}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func badParam(name string, v float64, why string) error {
	return badInput(fmt.Errorf("--%s %v: %s", name, v, why))
}

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
		return badInput(fmt.Errorf("unknown model %q (see tcplab model list)", args[0]))
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
			for _, m := range models {
				fmt.Fprintf(w, "%s\n    %s\n", m.name, m.desc)
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				for _, p := range m.params {
					fmt.Fprintf(tw, "    --%s\t%s\t%s\n", p.name, strconv.FormatFloat(p.def, 'g', -1, 64), p.help)
				}
				tw.Flush()
			}
			return nil
		},
	})
	for _, m := range models {
		modelCmd.AddCommand(modelCommand(m))
	}
}

func modelCommand(m modelSpec) *cobra.Command {
	c := &cobra.Command{
		Use:   m.name,
		Short: m.desc,
		Args:  cobra.NoArgs,
	}
	for _, p := range m.params {
		c.Flags().String(p.name, strconv.FormatFloat(p.def, 'g', -1, 64), p.help+" (number or lo:hi:step)")
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

func runModel(cmd *cobra.Command, m modelSpec) error {
	axes := make([][]float64, len(m.params))
	ranged := false
	for i, p := range m.params {
		s, _ := cmd.Flags().GetString(p.name)
		vals, isRange, err := parseValues(s)
		if err != nil {
			return badInput(fmt.Errorf("--%s: %w", p.name, err))
		}
		for _, v := range vals {
			if err := p.check(v); err != nil {
				return err
			}
		}
		axes[i] = vals
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
	var rows []map[string]float64
	var outs []string
	var points [][]modelOut
	idx := make([]int, len(axes))
	for {
		v := map[string]float64{}
		for i, p := range m.params {
			v[p.name] = axes[i][idx[i]]
		}
		o, err := m.run(v)
		if err != nil {
			var in inputError
			if errors.As(err, &in) {
				return err
			}
			return badInput(err)
		}
		rows = append(rows, v)
		points = append(points, o)
		if outs == nil {
			for _, x := range o {
				outs = append(outs, x.name)
			}
		}
		// Odometer over the axes, last parameter fastest.
		k := len(idx) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < len(axes[k]) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			break
		}
	}
	var names []string
	for _, p := range m.params {
		names = append(names, p.name)
	}
	return writeModel(cmd.OutOrStdout(), format, names, rows, outs, points)
}

func (p modelParam) check(v float64) error {
	if math.IsNaN(v) || v < p.lo || v > p.hi {
		return badParam(p.name, v, fmt.Sprintf("outside [%v, %v]", p.lo, p.hi))
	}
	if p.intg && v != math.Trunc(v) {
		return badParam(p.name, v, "must be an integer")
	}
	return nil
}

// parseValues reads a number or a range lo:hi:step (hi included when the
// steps land on it, within rounding).
func parseValues(s string) ([]float64, bool, error) {
	parts := strings.Split(s, ":")
	switch len(parts) {
	case 1:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, false, fmt.Errorf("%q is not a number", s)
		}
		return []float64{v}, false, nil
	case 3:
		var f [3]float64
		for i, p := range parts {
			v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
			if err != nil {
				return nil, false, fmt.Errorf("range %q: %q is not a number", s, p)
			}
			f[i] = v
		}
		lo, hi, step := f[0], f[1], f[2]
		if !(step > 0) || hi < lo {
			return nil, false, fmt.Errorf("range %q: want lo ≤ hi and step > 0", s)
		}
		n := int(math.Floor((hi-lo)/step+1e-9)) + 1
		if n > 100000 {
			return nil, false, fmt.Errorf("range %q has %d points (limit 100000)", s, n)
		}
		vals := make([]float64, n)
		for i := range vals {
			// Round away the binary noise of lo + i·step.
			vals[i], _ = strconv.ParseFloat(strconv.FormatFloat(lo+float64(i)*step, 'g', 12, 64), 64)
		}
		return vals, true, nil
	}
	return nil, false, fmt.Errorf("%q: want a number or lo:hi:step", s)
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }

func writeModel(w io.Writer, format string, params []string, rows []map[string]float64, outs []string, points [][]modelOut) error {
	switch format {
	case "json":
		type kv = map[string]float64
		var list []map[string]kv
		for i, r := range rows {
			o := kv{}
			for _, x := range points[i] {
				o[x.name] = jsonSafe(x.value)
			}
			in := kv{}
			for k, v := range r {
				in[k] = v
			}
			list = append(list, map[string]kv{"params": in, "outputs": o})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if len(list) == 1 {
			return enc.Encode(list[0])
		}
		return enc.Encode(list)
	case "csv":
		writeRows(w, ",", params, outs, rows, points)
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	if len(rows) == 1 {
		for _, p := range params {
			fmt.Fprintf(tw, "%s\t%s\n", p, fmtNum(rows[0][p]))
		}
		fmt.Fprintln(tw, "--\t")
		for _, x := range points[0] {
			fmt.Fprintf(tw, "%s\t%s\n", x.name, fmtNum(x.value))
		}
		return tw.Flush()
	}
	writeRows(tw, "\t", params, outs, rows, points)
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
func writeRows(w io.Writer, sep string, params []string, outs []string, rows []map[string]float64, points [][]modelOut) {
	fmt.Fprintln(w, strings.Join(append(append([]string{}, params...), outs...), sep))
	for i, r := range rows {
		var f []string
		for _, p := range params {
			f = append(f, fmtNum(r[p]))
		}
		for _, x := range points[i] {
			f = append(f, fmtNum(x.value))
		}
		fmt.Fprintln(w, strings.Join(f, sep))
	}
}
