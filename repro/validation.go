package repro

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tcplab/tcplab/model"
	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/store"
)

// The engine's validation against the analytic models: goodput of one
// bulk flow over dumbbell-lossy (2 Mb/s bottleneck, 114 ms base RTT,
// 32-segment window, random loss on the last hop) against the loss rate,
// for Reno, NewReno and NewReno with SACK.
func init() {
	Register(&Entry{
		Name:  "validation-goodput-loss",
		Paper: "validation",
		Title: "Goodput vs loss rate: Reno, NewReno, SACK against the PFTK and Mathis models",
		Source: "Padhye, Firoiu, Towsley & Kurose, \"Modeling TCP Throughput\", SIGCOMM '98 (Fig. 7-12 style); " +
			"Mathis, Semke, Mahdavi & Ott, \"The Macroscopic Behavior of the TCP Congestion Avoidance Algorithm\", CCR 1997",
		Claim: "PFTK's full model (with timeouts and the window limit) predicts a bulk Reno flow's rate well across loss rates; " +
			"the square-root law C/(RTT·√p) matches at low loss but overestimates once timeouts dominate (p ≳ 2-5%).",
		Sweep: `name: validation-goodput-loss
scenario: examples/dumbbell-lossy.yaml
grid:
  - path: links.lossy.loss.rate
    values: [0.5%, 1%, 2%, 3%, 5%, 8%, 10%]
  - name: variant
    cases:
      reno:    {flows.ftp.transport.variant: reno}
      newreno: {flows.ftp.transport.variant: newreno}
      sack:    {flows.ftp.transport.variant: newreno, flows.ftp.transport.sack: true}
replications: 10
seed: 1
metrics: [goodput_bps, throughput_bps, timeouts, fast_retransmits, retransmitted_packets]
`,
		Report: validationReport,
	})
}

const (
	lossAxis  = "links.lossy.loss.rate"
	mss       = 1024 // the scenario's payload per segment
	window    = 32   // its window cap, segments (PFTK's Wm)
	baseRTT   = 0.114
	probeFlow = "newreno" // the variant whose SRTT/RTO feed the models
)

// rttProbe runs, at each loss rate, replication 0 of NewReno with the TCP
// time series on and averages the sender's SRTT and RTO over its ACKs:
// the RTT and T0 the models are given.
func rttProbe(c *Context) (srtt, rto map[string]float64, err error) {
	srtt, rto = map[string]float64{}, map[string]float64{}
	tmp, err := os.MkdirTemp("", "tcplab-repro-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	for _, j := range c.Sweep.Jobs() {
		if j.Replication != 0 || j.Point.Params.Value("variant") != probeFlow {
			continue
		}
		loss := j.Point.Params.Value(lossAxis)
		path := filepath.Join(tmp, "tcp.csv")
		sets := append(append(append([]string{}, c.Sweep.Sets...), j.Point.Sets...), "trace.tcp="+path)
		s, err := scenario.Parse(c.Sweep.Scenario, c.Sweep.ScenarioData, sets)
		if err != nil {
			return nil, nil, err
		}
		s.Seed = j.Seed
		if _, err := s.Run(); err != nil {
			return nil, nil, err
		}
		a, b, err := meanSRTTandRTO(path)
		if err != nil {
			return nil, nil, err
		}
		srtt[loss], rto[loss] = a, b
	}
	return srtt, rto, nil
}

// meanSRTTandRTO averages srtt_s and rto_s over the ACK rows of a TCP
// time series that carry an estimate.
func meanSRTTandRTO(path string) (float64, float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	h, err := r.Read()
	if err != nil {
		return 0, 0, err
	}
	col := map[string]int{}
	for i, n := range h {
		col[n] = i
	}
	for _, n := range []string{"event", "srtt_s", "rto_s"} {
		if _, ok := col[n]; !ok {
			return 0, 0, fmt.Errorf("%s: no column %s", path, n)
		}
	}
	var s1, s2 float64
	var n int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, 0, err
		}
		if rec[col["event"]] != "a" {
			continue
		}
		a, _ := strconv.ParseFloat(rec[col["srtt_s"]], 64)
		b, _ := strconv.ParseFloat(rec[col["rto_s"]], 64)
		if a <= 0 {
			continue
		}
		s1, s2, n = s1+a, s2+b, n+1
	}
	if n == 0 {
		return 0, 0, fmt.Errorf("%s: no RTT estimate in the time series", path)
	}
	return s1 / float64(n), s2 / float64(n), nil
}

// modelGoodput is a model's rate in packets/s turned into goodput in
// bit/s: (1-p) of the packets sent arrive, each with mss bytes.
func modelGoodput(pkts, p float64) float64 { return model.BitsPerSecond(pkts*(1-p), mss) }

func validationReport(c *Context) (*Outcome, error) {
	sums, err := c.Store.Aggregate("goodput_bps", "ftp")
	if err != nil {
		return nil, err
	}
	srtt, rto, err := rttProbe(c)
	if err != nil {
		return nil, fmt.Errorf("measuring SRTT: %w", err)
	}
	var rttSum, rtoSum float64
	for k := range srtt {
		rttSum += srtt[k]
		rtoSum += rto[k]
	}
	rtt, t0 := rttSum/float64(len(srtt)), rtoSum/float64(len(rto))

	fig, err := plot.FromStore(c.Store, plot.Query{Metric: "goodput_bps", Flow: "ftp", X: lossAxis, Series: "variant"})
	if err != nil {
		return nil, err
	}
	ch := &fig.Chart
	ch.Title = "Goodput vs loss rate (dumbbell-lossy, 2 Mb/s bottleneck, window 32)"
	ch.XLabel = "packet loss rate on the last hop (%)"
	ch.YLabel = "goodput (kbit/s)"
	ch.LogX, ch.LogY = true, true
	ch.LegendBottomLeft = true
	var xs []float64
	for p := 0.004; p <= 0.105; p *= 1.05 {
		xs = append(xs, p)
	}
	pftk := plot.Curve{Name: fmt.Sprintf("PFTK full model (RTT %.0f ms, T0 %.0f ms, Wm %d)", rtt*1e3, t0*1e3, window)}
	mathis := plot.Curve{Name: fmt.Sprintf("Mathis sqrt(3/2)/(RTT·sqrt(p)) (RTT %.0f ms)", rtt*1e3)}
	for _, p := range xs {
		pftk.X = append(pftk.X, p*100)
		pftk.Y = append(pftk.Y, modelGoodput(model.PFTK(model.PFTKParams{P: p, RTT: rtt, RTO: t0, Wm: window, B: 1}), p)/1e3)
		mathis.X = append(mathis.X, p*100)
		mathis.Y = append(mathis.Y, modelGoodput(model.Mathis(model.MathisParams{P: p, RTT: rtt, B: 1}), p)/1e3)
	}
	ch.Curves = []plot.Curve{pftk, mathis}
	ch.Caption = fmt.Sprintf("Points: mean goodput of %d replications (%g s each, ns-2 profile, no delayed ACKs); error bars: 95%% CI (Student's t). "+
		"Models: packets/s × (1-p) × 1024 B, p = the link's loss rate, RTT = mean SRTT measured by NewReno over all loss rates "+
		"(base RTT %.0f ms + queueing), T0 = mean RTO measured likewise, b = 1.", sums[0].N, runSeconds(c), baseRTT*1e3)

	base := filepath.Join(c.Dir, c.Entry.Name)
	ch.Caption = c.captioned(ch.Caption)
	out, err := saveFigure(base, fig.Save)
	if err != nil {
		return nil, err
	}

	// CSV: one row per (loss, variant), with the models at that loss.
	f, w, err := createCSV(base)
	if err != nil {
		return nil, err
	}
	w.Write([]string{"loss_rate", "variant", "n", "goodput_mean_bps", "goodput_sd_bps", "goodput_ci95_bps",
		"pftk_bps", "mathis_bps", "rtt_s", "t0_s", "srtt_measured_s", "rto_measured_s"})
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	out.Measured = append(out.Measured, fmt.Sprintf("%-6s %-8s %22s %10s %10s %8s %8s", "loss", "variant", "goodput kbit/s (95% CI)", "PFTK", "Mathis", "/PFTK", "/Mathis"))
	// The claims, from NewReno's points: PFTK within 10% everywhere;
	// Mathis above the measurement once timeouts dominate (p >= 5%).
	worstPFTK, mathisHigh, highPoints := 0.0, 0, 0
	for _, s := range sums {
		if s.Params.Value("variant") != "newreno" {
			continue
		}
		p := *findNum(s.Params, lossAxis)
		pf := modelGoodput(model.PFTK(model.PFTKParams{P: p, RTT: rtt, RTO: t0, Wm: window, B: 1}), p)
		worstPFTK = max(worstPFTK, math.Abs(s.Mean/pf-1))
		if p >= 0.05 {
			highPoints++
			if ma := modelGoodput(model.Mathis(model.MathisParams{P: p, RTT: rtt, B: 1}), p); ma > 1.1*s.Mean {
				mathisHigh++
			}
		}
	}
	verdict := func(ok bool) Verdict {
		if ok {
			return Confirmed
		}
		return Refuted
	}
	out.Claims = []Claim{
		{Figure: "PFTK Figs. 7-12", Text: "PFTK's full model predicts a bulk NewReno flow's goodput across loss rates",
			Paper: "within about 10% of measurements", Measured: fmt.Sprintf("worst NewReno point %.1f%% from PFTK, %d seeds a point", 100*worstPFTK, sums[0].N),
			Verdict: verdict(worstPFTK <= 0.10), Test: "the worst NewReno point's mean against PFTK's prediction, 10% tolerance", Reason: "PFTK given the SRTT and RTO the sender measured, Wm = 32, b = 1"},
		{Figure: "Mathis et al. §3", Text: "the square-root law overestimates once timeouts dominate",
			Paper: "valid for p below a few percent", Measured: fmt.Sprintf("Mathis above NewReno by more than 10%% at %d of %d points with p >= 5%%", mathisHigh, highPoints),
			Verdict: verdict(highPoints > 0 && mathisHigh == highPoints), Test: "each NewReno mean at p ≥ 5% against the law's prediction: more than 10% below it", Reason: "the law has no timeouts; at p >= 5% NewReno spends much of the run in back-off"},
	}
	for _, s := range sums {
		loss := s.Params.Value(lossAxis)
		variant := s.Params.Value("variant")
		p := *findNum(s.Params, lossAxis)
		pf := modelGoodput(model.PFTK(model.PFTKParams{P: p, RTT: rtt, RTO: t0, Wm: window, B: 1}), p)
		ma := modelGoodput(model.Mathis(model.MathisParams{P: p, RTT: rtt, B: 1}), p)
		w.Write([]string{g(p), variant, strconv.Itoa(s.N), g(s.Mean), g(s.SD), g(s.CI95), g(pf), g(ma), g(rtt), g(t0), g(srtt[loss]), g(rto[loss])})
		out.Measured = append(out.Measured, fmt.Sprintf("%-6s %-8s %12.1f ± %-7.1f %10.1f %10.1f %8.2f %8.2f",
			loss, variant, s.Mean/1e3, s.CI95/1e3, pf/1e3, ma/1e3, s.Mean/pf, s.Mean/ma))
	}
	if err := finishCSV(out, base, f, w); err != nil {
		return nil, err
	}
	out.Measured = append(out.Measured, fmt.Sprintf("models use RTT = %.1f ms (mean SRTT measured; base RTT %.0f ms), T0 = %.0f ms (mean RTO measured), Wm = %d, b = 1",
		rtt*1e3, baseRTT*1e3, t0*1e3, window))
	return out, nil
}

func findNum(ps store.Params, name string) *float64 {
	v, ok := ps.Num(name)
	if !ok {
		v = math.NaN()
	}
	return &v
}

// runSeconds is the simulated duration of the entry's runs, as the sweep
// (with --set and the reduced form) sets it.
func runSeconds(c *Context) float64 {
	runs, err := c.Store.Runs()
	if err != nil || len(runs) == 0 {
		return math.NaN()
	}
	var res struct {
		SimSeconds float64 `json:"sim_seconds"`
	}
	if json.Unmarshal(runs[0].Result, &res) != nil {
		return math.NaN()
	}
	return res.SimSeconds
}
