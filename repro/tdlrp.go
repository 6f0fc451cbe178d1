package repro

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/store"
)

// T-DLRP's evaluation (Sreekumari, Chung, Lee & Kim, "T-DLRP: Detection of
// Fast Retransmission Losses Using TCP Timestamp for Improving the
// End-to-End Performance of TCP over Wireless Networks", Int. J.
// Distributed Sensor Networks 2013, §5) on its mixed wired-wireless
// topology (Fig. 8, examples/tdlrp-mixed.yaml). The paper ran Qualnet 4.5;
// what it leaves out is chosen in the scenario and in each entry, and
// docs/tdlrp.md lists every choice.

const tdlrpSource = "Sreekumari, Chung, Lee & Kim, \"T-DLRP\", Int. J. Distributed Sensor Networks 2013, §5"

// tdlrpVariants are the paper's seven, as sweep cases. NewJersey marks at
// 30% of the buffer (its own threshold), the others at T-DLRP's 90%; the
// marker is a property of the network that only NewJersey, T-DLRP (and
// DDLRP) read.
const tdlrpVariants = `  - name: variant
    cases:
      newreno:   {"flows.f{i}.transport.variant": newreno}
      vegas:     {"flows.f{i}.transport.variant": vegas}
      veno:      {"flows.f{i}.transport.variant": veno}
      cerl:      {"flows.f{i}.transport.variant": cerl}
      dac:       {"flows.f{i}.transport.variant": dac}
      newjersey: {"flows.f{i}.transport.variant": newjersey, links.bottleneck.queue.fraction: 0.3}
      tdlrp:     {"flows.f{i}.transport.variant": tdlrp}
`

// tdlrpSettings are the two settings the detection entries run under: the
// paper's window of 32 segments (with which this path, 28 segments of
// bandwidth-delay product and a 50-packet buffer, keeps T-DLRP at its
// window cap), and a window of 128 with a marker that reads the queue
// each arrival sees (w_q 1), where the cap does not bind.
var tdlrpSettings = []string{"w32", "w128-wq1"}

// tdlrpShort is the reduced form: 20 s runs instead of 200 s.
var tdlrpShort = []string{"duration=20s"}

func init() {
	for _, e := range []*Entry{
		{
			Name: "tdlrp-fig9-10", Title: "NewReno vs T-DLRP under lost fast retransmissions: timeouts and cwnd",
			Claim: "NewReno times out when a fast retransmission is lost (four such timeouts between 40 and 100 s in Fig. 9a); T-DLRP detects the loss, retransmits, and has none (Fig. 10a).",
			Sweep: `name: tdlrp-fig9-10
scenario: examples/tdlrp-mixed.yaml
set: {links.wireless.loss.1.rate: 5%}
grid:
  - name: setting
    cases:
      w32:      {"flows.f{i}.transport.window": 32}
      w128-wq1: {"flows.f{i}.transport.window": 128, links.bottleneck.queue.wq: 1}
  - name: variant
    cases:
      newreno: {"flows.f{i}.transport.variant": newreno}
      tdlrp:   {"flows.f{i}.transport.variant": tdlrp}
replications: 10
metrics: [goodput_bps, timeouts, timeouts_after_lost_fast_retransmit, fast_retransmits, accuracy.n_lost_fr_wireless, accuracy.rl_detected]
`,
			Report: fig9Report,
		},
		{
			Name: "tdlrp-fig11a", Title: "Goodput vs wireless loss rate, seven variants",
			Claim: "T-DLRP has the highest throughput at every loss rate from 1 to 5%; at 5% more than 50% above NewReno and 20% above NewJersey.",
			Sweep: `name: tdlrp-fig11a
scenario: examples/tdlrp-mixed.yaml
grid:
  - path: links.wireless.loss.0.rate
    values: [1%, 2%, 3%, 4%, 5%]
` + tdlrpVariants + `replications: 10
metrics: [goodput_bps, timeouts, timeouts_after_lost_fast_retransmit]
`,
			Report: func(c *Context) (*Outcome, error) {
				return goodputFigure(c, "links.wireless.loss.0.rate", "wireless loss rate (%)", 100, "5%",
					"Fig. 11a", []gainClaim{{"newreno", 0.50}, {"newjersey", 0.20}})
			},
		},
		{
			Name: "tdlrp-fig11b", Title: "Goodput per connection vs number of connections, with CBR cross traffic",
			Claim: "Throughput falls as connections are added; T-DLRP stays the highest.",
			Sweep: `name: tdlrp-fig11b
scenario: examples/tdlrp-mixed.yaml
set: {"flows.cbr{i}.count": 1}
grid:
  - path: flows.f{i}.count
    values: [1, 2, 4, 6, 8, 10]
` + tdlrpVariants + `replications: 10
metrics: [goodput_bps]
`,
			Report: func(c *Context) (*Outcome, error) {
				return goodputFigure(c, "flows.f{i}.count", "TCP connections", 1, "", "Fig. 11b", nil)
			},
		},
		{
			Name: "tdlrp-fig12a", Title: "Goodput per connection vs wireless bandwidth, 5 connections, 3% wireless and 1% retransmission loss",
			Claim: "At 11 Mb/s T-DLRP's throughput is 70% above NewReno's, 75% above DAC's and 40% above NewJersey's.",
			Sweep: `name: tdlrp-fig12a
scenario: examples/tdlrp-mixed.yaml
set: {"flows.f{i}.count": 5, links.wireless.loss.0.rate: 3%, links.wireless.loss.1.rate: 1%}
grid:
  - path: links.wireless.bandwidth
    values: [2Mbps, 5.5Mbps, 11Mbps]
` + tdlrpVariants + `replications: 10
metrics: [goodput_bps]
`,
			Report: func(c *Context) (*Outcome, error) {
				return goodputFigure(c, "links.wireless.bandwidth", "wireless bandwidth (Mb/s)", 1e-6, "11Mbps",
					"Fig. 12a", []gainClaim{{"newreno", 0.70}, {"dac", 0.75}, {"newjersey", 0.40}})
			},
		},
		{
			Name: "tdlrp-fig16", Title: "A_RLC: lost fast retransmissions to congestion detected and classified right, vs connections",
			Claim: "T-DLRP is more accurate than DAC at every number of connections; accuracy falls as connections are added; at 10 connections T-DLRP is more than 75% above DAC, whose accuracy is below 60%.",
			Sweep: `name: tdlrp-fig16
scenario: examples/tdlrp-mixed.yaml
set: {links.bottleneck.queue.retx_drop: 0.5, links.wireless.loss.1.rate: 0}
grid:
  - path: flows.f{i}.count
    values: [2, 4, 6, 8, 10]
  - name: setting
    cases:
      w32:      {"flows.f{i}.transport.window": 32}
      w128-wq1: {"flows.f{i}.transport.window": 128, links.bottleneck.queue.wq: 1}
  - name: variant
    cases:
      dac:   {"flows.f{i}.transport.variant": dac}
      tdlrp: {"flows.f{i}.transport.variant": tdlrp}
replications: 10
metrics: [accuracy.n_lost_fr_congestion, accuracy.a_rlc, accuracy.rl_detected]
`,
			Report: func(c *Context) (*Outcome, error) {
				return accuracyFigure(c, "flows.f{i}.count", "TCP connections", 1, "Fig. 16", "congestion")
			},
		},
		{
			Name: "tdlrp-fig17", Title: "A_RLWL: lost fast retransmissions to wireless loss detected and classified right, vs wireless loss",
			Claim: "DAC's A_RLWL is 0% (it calls every loss congestion); T-DLRP's is higher and falls as the loss rate grows.",
			Sweep: `name: tdlrp-fig17
scenario: examples/tdlrp-mixed.yaml
set: {links.wireless.loss.1.rate: 5%}
grid:
  - path: links.wireless.loss.0.rate
    values: [1%, 2%, 3%, 4%, 5%]
  - name: setting
    cases:
      w32:      {"flows.f{i}.transport.window": 32}
      w128-wq1: {"flows.f{i}.transport.window": 128, links.bottleneck.queue.wq: 1}
  - name: variant
    cases:
      dac:   {"flows.f{i}.transport.variant": dac}
      tdlrp: {"flows.f{i}.transport.variant": tdlrp}
replications: 10
metrics: [accuracy.n_lost_fr_wireless, accuracy.a_rlwl, accuracy.rl_detected]
`,
			Report: func(c *Context) (*Outcome, error) {
				return accuracyFigure(c, "links.wireless.loss.0.rate", "wireless loss rate (%)", 100, "Fig. 17", "wireless")
			},
		},
		{
			Name: "tdlrp-fig18", Title: "Average_RLCW vs retransmission loss, 10 connections",
			Claim: "T-DLRP's average accuracy (eq. 11) is above DAC's at every retransmission loss rate from 0.1 to 0.6%.",
			Sweep: `name: tdlrp-fig18
scenario: examples/tdlrp-mixed.yaml
set: {"flows.f{i}.count": 10, links.bottleneck.queue.retx_drop: 0.5}
grid:
  - path: links.wireless.loss.1.rate
    values: [1%, 2%, 3%, 4%, 5%, 6%]
  - name: setting
    cases:
      w32:      {"flows.f{i}.transport.window": 32}
      w128-wq1: {"flows.f{i}.transport.window": 128, links.bottleneck.queue.wq: 1}
  - name: variant
    cases:
      dac:   {"flows.f{i}.transport.variant": dac}
      tdlrp: {"flows.f{i}.transport.variant": tdlrp}
replications: 10
metrics: [accuracy.n_lost_fr_congestion, accuracy.a_rlc, accuracy.n_lost_fr_wireless, accuracy.a_rlwl]
`,
			Report: func(c *Context) (*Outcome, error) {
				return accuracyFigure(c, "links.wireless.loss.1.rate", "fast retransmissions lost on the wireless hop (%)", 100, "Fig. 18", "average")
			},
		},
		{
			Name: "tdlrp-table2", Title: "Jain fairness of 10 connections, 6 Mb/s bottleneck, 1% retransmission loss",
			Claim: "Both are fair (index ≥ 0.998 at every error rate) and T-DLRP's index is at least NewReno's at every error rate.",
			Sweep: `name: tdlrp-table2
scenario: examples/tdlrp-mixed.yaml
set: {"flows.f{i}.count": 10, links.bottleneck.bandwidth: 6Mbps}
grid:
  - path: links.wireless.loss.0.rate
    values: [0.1%, 0.5%, 1%, 5%, 10%]
  - name: variant
    cases:
      newreno: {"flows.f{i}.transport.variant": newreno}
      tdlrp:   {"flows.f{i}.transport.variant": tdlrp}
replications: 10
metrics: [goodput_bps]
`,
			Report: table2Report,
		},
		{
			Name: "tdlrp-sensitivity", Title: "T-DLRP over NewJersey and NewReno at 5% loss: window and marker averaging",
			Claim: "(settings the paper leaves out) T-DLRP's gain over NewJersey at 5% loss, more than 20% in Fig. 11a, does not hinge on the window or on how the marker averages.",
			Sweep: `name: tdlrp-sensitivity
scenario: examples/tdlrp-mixed.yaml
set: {links.wireless.loss.0.rate: 5%}
grid:
  - name: setting
    cases:
      w32-wq0.002: {"flows.f{i}.transport.window": 32, links.bottleneck.queue.wq: 0.002}
      w32-wq1:     {"flows.f{i}.transport.window": 32, links.bottleneck.queue.wq: 1}
      w64-wq0.002: {"flows.f{i}.transport.window": 64, links.bottleneck.queue.wq: 0.002}
      w64-wq1:     {"flows.f{i}.transport.window": 64, links.bottleneck.queue.wq: 1}
  - name: variant
    cases:
      newreno:   {"flows.f{i}.transport.variant": newreno}
      newjersey: {"flows.f{i}.transport.variant": newjersey, links.bottleneck.queue.fraction: 0.3}
      tdlrp:     {"flows.f{i}.transport.variant": tdlrp}
replications: 10
metrics: [goodput_bps, timeouts]
`,
			Report: sensitivityReport,
		},
	} {
		e.Paper, e.Source, e.Short = "tdlrp", tdlrpSource, tdlrpShort
		Register(e)
	}
}

// runPoint is one grid point's per-run values.
type runPoint struct {
	params []store.Param
	vals   []float64
}

// perRun computes v for every run and groups the values by grid point,
// in grid order; runs for which v has no value are left out.
func perRun(st *store.Store, v func(r *store.Run) (float64, bool)) ([]*runPoint, error) {
	runs, err := st.Runs()
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(runs, func(a, b *store.Run) int { return a.Point - b.Point })
	var pts []*runPoint
	byPoint := map[int]*runPoint{}
	for _, r := range runs {
		p := byPoint[r.Point]
		if p == nil {
			p = &runPoint{params: r.Params}
			byPoint[r.Point] = p
			pts = append(pts, p)
		}
		if x, ok := v(r); ok {
			p.vals = append(p.vals, x)
		}
	}
	return pts, nil
}

func (p *runPoint) summary() store.Summary {
	return store.Summarize(store.Summary{Params: p.params}, p.vals)
}

// tcpFlow reports whether a stored flow is one of the scenario's TCP
// connections (f1, f2, ...), not the CBR cross traffic.
func tcpFlow(flow string) bool { return strings.HasPrefix(flow, "f") }

// flowSum adds metric over the TCP flows of a run; n is how many had it.
func flowSum(r *store.Run, metric string) (sum float64, n int) {
	for _, m := range r.Metrics {
		if m.Name == metric && tcpFlow(m.Flow) {
			sum += m.Value
			n++
		}
	}
	return sum, n
}

// meanGoodput is the mean goodput per TCP connection of a run, bit/s.
func meanGoodput(r *store.Run) (float64, bool) {
	s, n := flowSum(r, "goodput_bps")
	return s / float64(n), n > 0
}

// jain is Jain's fairness index of the TCP connections' goodputs,
// (Σx)² / (n·Σx²).
func jain(r *store.Run) (float64, bool) {
	var s, s2 float64
	var n int
	for _, m := range r.Metrics {
		if m.Name == "goodput_bps" && tcpFlow(m.Flow) {
			s, s2, n = s+m.Value, s2+m.Value*m.Value, n+1
		}
	}
	return s * s / (float64(n) * s2), n > 0 && s2 > 0
}

// pooledAccuracy is eq. 9 or 10 over all connections of a run: of the
// fast retransmissions lost to class (congestion or wireless), the share
// detected and classified right, in percent. A flow's a_rlc (a_rlwl) times
// its count gives the number right.
func pooledAccuracy(r *store.Run, class string) (float64, bool) {
	key, count := "accuracy.a_rlc", "accuracy.n_lost_fr_congestion"
	if class == "wireless" {
		key, count = "accuracy.a_rlwl", "accuracy.n_lost_fr_wireless"
	}
	pct := map[string]float64{}
	for _, m := range r.Metrics {
		if m.Name == key {
			pct[m.Flow] = m.Value
		}
	}
	var right, total float64
	for _, m := range r.Metrics {
		if m.Name == count && tcpFlow(m.Flow) {
			total += m.Value
			right += m.Value * pct[m.Flow] / 100
		}
	}
	return 100 * right / total, total > 0
}

// pooledCount sums accuracy.n_lost_fr_CLASS over the connections of a run.
func pooledCount(r *store.Run, class string) (float64, bool) {
	s, n := flowSum(r, "accuracy.n_lost_fr_"+class)
	return s, n > 0
}

// seriesChart draws per-point summaries as one series per value of
// series, x from the numeric parameter xParam times xScale.
func seriesChart(sums []store.Summary, xParam, series string, xScale, yScale float64) []plot.Series {
	var out []plot.Series
	idx := map[string]int{}
	for _, s := range sums {
		name := paramValue(s.Params, series)
		if set := paramValue(s.Params, "setting"); set != "" {
			name += " (" + set + ")"
		}
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, plot.Series{Name: name})
		}
		ci := s.CI95
		if math.IsNaN(ci) {
			ci = 0
		}
		out[i].X = append(out[i].X, *findNum(s.Params, xParam)*xScale)
		out[i].Y = append(out[i].Y, s.Mean*yScale)
		out[i].Err = append(out[i].Err, ci*yScale)
	}
	return out
}

// writeFigure saves ch as PNG and SVG and the summaries as CSV, into the
// outcome.
func writeFigure(c *Context, ch plot.Chart, sums []store.Summary, metric string) (*Outcome, error) {
	base := filepath.Join(c.Dir, c.Entry.Name)
	// A title that would not fit the chart keeps its part before the
	// colon; the caption and the entry's title say the rest.
	if i := strings.Index(ch.Title, ":"); len(ch.Title) > 70 && i > 0 {
		ch.Title = ch.Title[:i]
	}
	out := &Outcome{}
	for _, ext := range []string{".png", ".svg"} {
		if err := plot.Line(ch, base+ext); err != nil {
			return nil, err
		}
		out.Files = append(out.Files, base+ext)
	}
	out.Figures = []string{base + ".svg"}
	f, err := os.Create(base + ".csv")
	if err != nil {
		return nil, err
	}
	w := csv.NewWriter(f)
	var head []string
	for _, p := range sums[0].Params {
		head = append(head, p.Name)
	}
	w.Write(append(head, "n", metric+"_mean", metric+"_sd", metric+"_ci95"))
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	for _, s := range sums {
		var row []string
		for _, p := range s.Params {
			row = append(row, p.Value)
		}
		w.Write(append(row, strconv.Itoa(s.N), g(s.Mean), g(s.SD), g(s.CI95)))
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	out.Files = append(out.Files, base+".csv")
	return out, nil
}

func summaries(pts []*runPoint) []store.Summary {
	out := make([]store.Summary, 0, len(pts))
	for _, p := range pts {
		if len(p.vals) > 0 {
			out = append(out, p.summary())
		}
	}
	return out
}

// find returns the summary whose parameters have the given name, value
// pairs ("" names are skipped).
func find(sums []store.Summary, kv ...string) (store.Summary, bool) {
next:
	for _, s := range sums {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] != "" && paramValue(s.Params, kv[i]) != kv[i+1] {
				continue next
			}
		}
		return s, true
	}
	return store.Summary{}, false
}

// at finds the summary of variant at x.
func at(sums []store.Summary, xParam, x, variant string) (store.Summary, bool) {
	return find(sums, xParam, x, "variant", variant)
}

func verdictOf(ok bool) Verdict {
	if ok {
		return Confirmed
	}
	return Refuted
}

func ciText(s store.Summary, scale float64, unit string) string {
	if math.IsNaN(s.CI95) {
		return fmt.Sprintf("%.1f%s (n=%d)", s.Mean*scale, unit, s.N)
	}
	return fmt.Sprintf("%.1f ± %.1f%s (n=%d)", s.Mean*scale, s.CI95*scale, unit, s.N)
}

// everywhereClaim is a claim that holds at every one of n points unless
// misses lists some: "highest at 3 of 5 points", confirmed only without a
// miss, the reason naming the misses.
func everywhereClaim(fig, text, paper, what, unit string, n int, misses []string, missPrefix, allReason string) Claim {
	c := Claim{Figure: fig, Text: text, Paper: paper,
		Measured: fmt.Sprintf("%s at %d of %d %s", what, n-len(misses), n, unit), Verdict: verdictOf(len(misses) == 0)}
	if len(misses) > 0 {
		c.Reason = missPrefix + strings.Join(misses, "; ")
	} else {
		c.Reason = allReason
	}
	return c
}

// gainClaim is "T-DLRP is more than Gain above Over" at the claim's point.
type gainClaim struct {
	over string
	gain float64
}

// goodputFigure draws mean goodput per connection against xParam, one
// series per variant, and checks that T-DLRP is highest at every x and
// the gains the paper prints at claimAt.
func goodputFigure(c *Context, xParam, xLabel string, xScale float64, claimAt, fig string, gains []gainClaim) (*Outcome, error) {
	pts, err := perRun(c.Store, meanGoodput)
	if err != nil {
		return nil, err
	}
	sums := summaries(pts)
	ch := plot.Chart{
		Title:  c.Entry.Title,
		XLabel: xLabel, YLabel: "goodput per connection (kbit/s)",
		Series:  seriesChart(sums, xParam, "variant", xScale, 1e-3),
		Caption: fmt.Sprintf("%s of T-DLRP (2013) on examples/%s; mean of the replications, 95%% CI (Student's t). See docs/tdlrp.md for the settings the paper leaves out.", fig, filepath.Base(c.Sweep.Scenario)),
	}
	out, err := writeFigure(c, ch, sums, "goodput_per_connection_bps")
	if err != nil {
		return nil, err
	}
	// Highest at every x?
	xs := map[string]bool{}
	var order []string
	for _, s := range sums {
		x := paramValue(s.Params, xParam)
		if !xs[x] {
			xs[x] = true
			order = append(order, x)
		}
	}
	var lost []string
	for _, x := range order {
		t, _ := at(sums, xParam, x, "tdlrp")
		best, bestName := 0.0, ""
		for _, s := range sums {
			if paramValue(s.Params, xParam) == x && paramValue(s.Params, "variant") != "tdlrp" && s.Mean > best {
				best, bestName = s.Mean, paramValue(s.Params, "variant")
			}
		}
		out.Measured = append(out.Measured, fmt.Sprintf("%s=%s: T-DLRP %s kbit/s; best other %s %.1f", xParam, x, ciText(t, 1e-3, ""), bestName, best/1e3))
		if t.Mean <= best {
			lost = append(lost, fmt.Sprintf("%s at %s (%.1f vs %.1f kbit/s)", bestName, x, best/1e3, t.Mean/1e3))
		}
	}
	out.Claims = append(out.Claims, everywhereClaim(fig, "T-DLRP has the highest throughput at every point", "highest everywhere",
		"highest", "points", len(order), lost, "beaten by ", "mean of the replications above every other variant's mean at every point"))
	t, _ := at(sums, xParam, claimAt, "tdlrp")
	for _, g := range gains {
		o, ok := at(sums, xParam, claimAt, g.over)
		if !ok || o.Mean <= 0 {
			continue
		}
		r := t.Mean/o.Mean - 1
		cl := Claim{Figure: fig, Text: fmt.Sprintf("at %s T-DLRP is more than %.0f%% above %s", claimAt, 100*g.gain, g.over),
			Paper:    fmt.Sprintf("> +%.0f%%", 100*g.gain),
			Measured: fmt.Sprintf("%+.0f%% (%.1f vs %.1f kbit/s, %d seeds)", 100*r, t.Mean/1e3, o.Mean/1e3, t.N),
			Verdict:  verdictOf(r > g.gain)}
		switch {
		case r > g.gain:
			cl.Reason = "the measured gain exceeds the paper's"
		case r > 0:
			cl.Reason = "T-DLRP is ahead, by less than the paper reports"
		default:
			cl.Reason = "T-DLRP is not ahead here"
		}
		out.Claims = append(out.Claims, cl)
	}
	return out, nil
}

// accuracyFigure draws pooled detection accuracy (eq. 9, 10, or their mean
// eq. 11 for class "average") of DAC and T-DLRP against xParam.
func accuracyFigure(c *Context, xParam, xLabel string, xScale float64, fig, class string) (*Outcome, error) {
	value := func(r *store.Run) (float64, bool) { return pooledAccuracy(r, class) }
	label, metric := "A_RLC (%)", "a_rlc"
	switch class {
	case "wireless":
		label, metric = "A_RLWL (%)", "a_rlwl"
	case "average":
		label, metric = "Average_RLCW (%)", "average_rlcw"
		value = func(r *store.Run) (float64, bool) {
			a, ok1 := pooledAccuracy(r, "congestion")
			b, ok2 := pooledAccuracy(r, "wireless")
			return (a + b) / 2, ok1 && ok2
		}
	}
	pts, err := perRun(c.Store, value)
	if err != nil {
		return nil, err
	}
	sums := summaries(pts)
	if len(sums) == 0 {
		return nil, fmt.Errorf("%s: no run lost a fast retransmission of class %s: nothing to score", c.Entry.Name, class)
	}
	ch := plot.Chart{Title: c.Entry.Title, XLabel: xLabel, YLabel: label,
		Series:  seriesChart(sums, xParam, "variant", xScale, 1),
		Caption: fmt.Sprintf("%s of T-DLRP (2013): of the fast retransmissions lost (ground truth), the share the sender detected before a timeout and classified right, pooled over the connections of a run; mean of the runs, 95%% CI.", fig)}
	out, err := writeFigure(c, ch, sums, metric)
	if err != nil {
		return nil, err
	}
	// How many lost fast retransmissions were scored per run.
	counts := map[string]float64{}
	for _, cl := range []string{"congestion", "wireless"} {
		cp, err := perRun(c.Store, func(r *store.Run) (float64, bool) { return pooledCount(r, cl) })
		if err != nil {
			return nil, err
		}
		for _, p := range cp {
			var s float64
			for _, v := range p.vals {
				s += v
			}
			counts[cl] += s
		}
	}
	out.Measured = append(out.Measured, fmt.Sprintf("lost fast retransmissions scored, all runs: %.0f to congestion, %.0f to wireless loss", counts["congestion"], counts["wireless"]))
	perSetting := map[string][]Claim{}
	for _, set := range tdlrpSettings {
		var worse, points int
		var firstT, lastT, lastD store.Summary
		for _, t := range sums {
			if paramValue(t.Params, "variant") != "tdlrp" || paramValue(t.Params, "setting") != set {
				continue
			}
			x := paramValue(t.Params, xParam)
			d, ok := find(sums, xParam, x, "setting", set, "variant", "dac")
			if !ok {
				continue
			}
			points++
			if points == 1 {
				firstT = t
			}
			lastT, lastD = t, d
			out.Measured = append(out.Measured, fmt.Sprintf("%s %s=%s: T-DLRP %s, DAC %s", set, xParam, x, ciText(t, 1, "%"), ciText(d, 1, "%")))
			if t.Mean <= d.Mean {
				worse++
			}
		}
		if points == 0 {
			out.Measured = append(out.Measured, fmt.Sprintf("%s: no run lost a fast retransmission of this class to both variants: nothing to compare", set))
			continue
		}
		cs := []Claim{{Figure: fig, Text: "T-DLRP is more accurate than DAC at every point", Paper: "T-DLRP above DAC everywhere",
			Measured: fmt.Sprintf("above at %d of %d points", points-worse, points), Verdict: verdictOf(worse == 0),
			Reason: accuracyReason(class, worse == 0)}}
		switch fig {
		case "Fig. 16":
			r := lastT.Mean/lastD.Mean - 1
			cs = append(cs,
				Claim{Figure: fig, Text: "at 10 connections T-DLRP is more than 75% above DAC", Paper: "> +75%",
					Measured: fmt.Sprintf("%+.0f%% (%.1f%% vs %.1f%%)", 100*r, lastT.Mean, lastD.Mean), Verdict: verdictOf(r > 0.75),
					Reason: "DAC counts duplicate ACKs and calls every loss congestion; T-DLRP needs a segment sent after the retransmission and reads the CW mark"},
				Claim{Figure: fig, Text: "DAC's accuracy is below 60% at 10 connections", Paper: "< 60%",
					Measured: fmt.Sprintf("%.1f%%", lastD.Mean), Verdict: verdictOf(lastD.Mean < 60),
					Reason: "DAC calls every lost retransmission congestion, so its A_RLC is its detection rate"},
				Claim{Figure: fig, Text: "accuracy falls as connections are added", Paper: "decreasing",
					Measured: fmt.Sprintf("T-DLRP %.1f%% at the fewest, %.1f%% at the most", firstT.Mean, lastT.Mean), Verdict: verdictOf(lastT.Mean < firstT.Mean),
					Reason: "more connections, more of the retransmission's detecting ACKs delayed behind a full queue"})
		case "Fig. 17":
			cs = append(cs,
				Claim{Figure: fig, Text: "DAC's A_RLWL is 0%", Paper: "0% at every loss rate", Measured: fmt.Sprintf("%.1f%% at the highest loss rate", lastD.Mean),
					Verdict: verdictOf(lastD.Mean == 0), Reason: "DAC has no loss differentiation: a lost retransmission is always congestion to it"},
				Claim{Figure: fig, Text: "T-DLRP's A_RLWL falls as the loss rate grows", Paper: "decreasing",
					Measured: fmt.Sprintf("%.1f%% at the lowest, %.1f%% at the highest", firstT.Mean, lastT.Mean), Verdict: verdictOf(lastT.Mean < firstT.Mean),
					Reason: "with more loss, fewer later segments arrive in time to reveal the lost retransmission before the timer"})
		}
		perSetting[set] = cs
	}
	out.Claims = mergeSettings(perSetting, tdlrpSettings)
	return out, nil
}

// mergeSettings turns each claim, checked under every setting (in the
// order given), into one: the same verdict everywhere stands; different
// verdicts make it Depends, with each setting's measurement and reason.
func mergeSettings(per map[string][]Claim, order []string) []Claim {
	var sets []string
	for _, s := range order {
		if len(per[s]) > 0 {
			sets = append(sets, s)
		}
	}
	if len(sets) == 0 {
		return nil
	}
	var out []Claim
	for i, c := range per[sets[0]] {
		same := true
		var meas, why []string
		for _, s := range sets {
			o := per[s][i]
			same = same && o.Verdict == c.Verdict
			meas = append(meas, s+": "+o.Measured)
			why = append(why, fmt.Sprintf("%s %s (%s)", s, o.Verdict, o.Reason))
		}
		c.Measured = strings.Join(meas, "; ")
		if same {
			c.Reason = c.Reason + " (the same under " + strings.Join(sets, " and ") + ")"
		} else {
			c.Verdict = Depends
			c.Reason = "depends on the window and marker setting: " + strings.Join(why, "; ")
		}
		out = append(out, c)
	}
	return out
}

func accuracyReason(class string, ok bool) string {
	switch {
	case ok:
		return "T-DLRP detects the lost retransmission from a later segment's duplicate ACK and classifies it by the CW mark; DAC calls every loss congestion"
	case class == "wireless":
		return "T-DLRP detects a lost retransmission only from a duplicate ACK caused by a segment sent after it: at the window cap nothing new is sent in recovery, and it detects (almost) none"
	default:
		return "T-DLRP needs a segment sent after the retransmission (none at the window cap) and a CW mark on the detecting ACK (late with w_q 0.002); DAC counts duplicate ACKs and always says congestion"
	}
}

func fig9Report(c *Context) (*Outcome, error) {
	out := &Outcome{}
	get := func(metric string) ([]store.Summary, error) {
		pts, err := perRun(c.Store, func(r *store.Run) (float64, bool) {
			s, n := flowSum(r, metric)
			return s, n > 0
		})
		if err != nil {
			return nil, err
		}
		return summaries(pts), nil
	}
	lostTO, err := get("timeouts_after_lost_fast_retransmit")
	if err != nil {
		return nil, err
	}
	lostFR, err := get("accuracy.n_lost_fr_wireless")
	if err != nil {
		return nil, err
	}
	per := map[string][]Claim{}
	for _, set := range tdlrpSettings {
		nr, ok1 := find(lostTO, "setting", set, "variant", "newreno")
		td, ok2 := find(lostTO, "setting", set, "variant", "tdlrp")
		if !ok1 || !ok2 {
			continue
		}
		nrL, _ := find(lostFR, "setting", set, "variant", "newreno")
		tdL, _ := find(lostFR, "setting", set, "variant", "tdlrp")
		out.Measured = append(out.Measured,
			fmt.Sprintf("%s: timeouts after a lost fast retransmission per run: NewReno %s, T-DLRP %s", set, ciText(nr, 1, ""), ciText(td, 1, "")),
			fmt.Sprintf("%s: fast retransmissions lost per run: NewReno %s, T-DLRP %s", set, ciText(nrL, 1, ""), ciText(tdL, 1, "")))
		// Timeouts per lost fast retransmission: T-DLRP keeps its window
		// on wireless losses and so fast-retransmits (and loses) more.
		share := func(to, lost store.Summary) float64 { return to.Mean / math.Max(lost.Mean, 1e-9) }
		per[set] = []Claim{
			{Figure: "Fig. 9a", Text: "NewReno times out when a fast retransmission is lost", Paper: "4 such timeouts in 60 s of one run",
				Measured: ciText(nr, 1, " per 200 s run"), Verdict: verdictOf(nr.Mean > 0),
				Reason: "NewReno cannot see a lost retransmission; only the timer repairs it"},
			{Figure: "Fig. 10a", Text: "T-DLRP avoids the timeouts that lost fast retransmissions cause", Paper: "none in Fig. 10a",
				Measured: fmt.Sprintf("%.0f%% of its lost fast retransmissions end in a timeout (%s per run), NewReno %.0f%%", 100*share(td, tdL), ciText(td, 1, ""), 100*share(nr, nrL)),
				Verdict:  verdictOf(share(td, tdL) < 0.5*share(nr, nrL)),
				Reason:   "FRL sees a lost retransmission only through a duplicate ACK caused by a segment sent after it; at the window cap nothing new is sent in recovery"},
		}
		if per[set][1].Verdict == Confirmed {
			per[set][1].Reason = "below the window cap new segments follow the retransmission; their duplicate ACKs reveal its loss and IFR resends it before the timer"
		}
	}
	out.Claims = mergeSettings(per, tdlrpSettings)
	// The cwnd timelines of the first replication under the paper's
	// window, as Figs. 9b and 10b.
	for _, v := range []string{"newreno", "tdlrp"} {
		path := filepath.Join(c.Dir, c.Entry.Name+"-"+v+"-cwnd.csv")
		sets := append(append([]string{}, c.Sweep.Sets...), "flows.f{i}.transport.variant="+v, "trace.tcp="+path)
		if err := runTraced(c, sets); err != nil {
			return nil, err
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		ts, err := plot.FromSeriesCSV(f, "cwnd_bytes", "a")
		f.Close()
		if err != nil {
			return nil, err
		}
		fig := map[string]string{"newreno": "Fig. 9b", "tdlrp": "Fig. 10b"}[v]
		ts.Title = fmt.Sprintf("%s: cwnd of %s, window 32 (seed %d)", fig, v, c.Sweep.Seed)
		svg := filepath.Join(c.Dir, c.Entry.Name+"-"+v+"-cwnd.svg")
		if err := ts.Draw(svg); err != nil {
			return nil, err
		}
		out.Files = append(out.Files, path, svg)
		out.Figures = append(out.Figures, svg)
	}
	return out, nil
}

// runTraced runs the sweep's scenario once, seed as the sweep's first,
// with sets (a TCP trace among them).
func runTraced(c *Context, sets []string) error {
	s, err := scenario.Parse(c.Sweep.Scenario, c.Sweep.ScenarioData, sets)
	if err != nil {
		return err
	}
	s.Seed = c.Sweep.Seed
	_, err = s.Run()
	return err
}

func table2Report(c *Context) (*Outcome, error) {
	pts, err := perRun(c.Store, jain)
	if err != nil {
		return nil, err
	}
	sums := summaries(pts)
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "wireless error rate (%)", YLabel: "Jain fairness index", LogX: true,
		Series:  seriesChart(sums, "links.wireless.loss.0.rate", "variant", 100, 1),
		Caption: "Table 2 of T-DLRP (2013): (Σx)²/(n·Σx²) over the 10 connections' goodputs; mean of the runs, 95% CI."}
	out, err := writeFigure(c, ch, sums, "jain")
	if err != nil {
		return nil, err
	}
	paper := map[string][2]float64{"0.1%": {0.9999, 0.9999}, "0.5%": {0.9999, 0.9997}, "1%": {0.9998, 0.9992}, "5%": {0.9994, 0.9986}, "10%": {0.9989, 0.9981}}
	minIdx, lower := 1.0, 0
	out.Measured = append(out.Measured, fmt.Sprintf("%-6s %-22s %-22s %s", "error", "T-DLRP", "NewReno", "paper T-DLRP / NewReno"))
	for _, x := range []string{"0.1%", "0.5%", "1%", "5%", "10%"} {
		t, ok1 := at(sums, "links.wireless.loss.0.rate", x, "tdlrp")
		n, ok2 := at(sums, "links.wireless.loss.0.rate", x, "newreno")
		if !ok1 || !ok2 {
			continue
		}
		minIdx = min(minIdx, t.Mean, n.Mean)
		if t.Mean < n.Mean {
			lower++
		}
		out.Measured = append(out.Measured, fmt.Sprintf("%-6s %-22s %-22s %.4f / %.4f", x,
			fmt.Sprintf("%.4f ± %.4f", t.Mean, t.CI95), fmt.Sprintf("%.4f ± %.4f", n.Mean, n.CI95), paper[x][0], paper[x][1]))
	}
	out.Claims = []Claim{
		{Figure: "Table 2", Text: "both are fair: index at least 0.998 at every error rate", Paper: "0.9981-0.9999",
			Measured: fmt.Sprintf("lowest mean index %.4f", minIdx), Verdict: verdictOf(minIdx >= 0.998),
			Reason: "ten identical connections sharing one bottleneck, staggered 100 ms"},
		{Figure: "Table 2", Text: "T-DLRP's index is at least NewReno's at every error rate", Paper: "T-DLRP ≥ NewReno",
			Measured: fmt.Sprintf("T-DLRP below NewReno at %d of 5 rates", lower), Verdict: verdictOf(lower == 0),
			Reason: "T-DLRP keeps its window on unmarked losses; with w_q 0.002 some congestion losses are unmarked, which favours whichever connection was hit then"},
	}
	return out, nil
}

func sensitivityReport(c *Context) (*Outcome, error) {
	pts, err := perRun(c.Store, meanGoodput)
	if err != nil {
		return nil, err
	}
	sums := summaries(pts)
	out := &Outcome{}
	var gains []float64
	var rows []string
	for _, set := range []string{"w32-wq0.002", "w32-wq1", "w64-wq0.002", "w64-wq1"} {
		t, ok1 := at(sums, "setting", set, "tdlrp")
		j, ok2 := at(sums, "setting", set, "newjersey")
		n, ok3 := at(sums, "setting", set, "newreno")
		if !ok1 || !ok2 || !ok3 {
			continue
		}
		g := t.Mean/j.Mean - 1
		gains = append(gains, g)
		rows = append(rows, fmt.Sprintf("%s %+.0f%%", set, 100*g))
		out.Measured = append(out.Measured, fmt.Sprintf("%-12s T-DLRP %s kbit/s, NewJersey %.1f (%+.0f%%), NewReno %.1f (%+.0f%%)",
			set, ciText(t, 1e-3, ""), j.Mean/1e3, 100*g, n.Mean/1e3, 100*(t.Mean/n.Mean-1)))
	}
	if len(gains) == 0 {
		return nil, fmt.Errorf("%s: no complete setting in the store", c.Entry.Name)
	}
	lo, hi := slices.Min(gains), slices.Max(gains)
	cl := Claim{Figure: "Fig. 11a, §5.2", Text: "T-DLRP's gain over NewJersey at 5% loss holds whatever the window and marker averaging",
		Paper: "> +20% (window 32; averaging not given)", Measured: strings.Join(rows, ", ")}
	switch {
	case lo > 0.20:
		cl.Verdict, cl.Reason = Confirmed, "above 20% under every setting"
	case hi > 0.20:
		cl.Verdict, cl.Reason = Depends, fmt.Sprintf("the gain ranges from %+.0f%% to %+.0f%%: it depends on the window and on the marker's averaging weight", 100*lo, 100*hi)
	default:
		cl.Verdict, cl.Reason = Refuted, fmt.Sprintf("at most %+.0f%% under any of the four settings", 100*hi)
	}
	out.Claims = []Claim{cl}
	return out, nil
}
