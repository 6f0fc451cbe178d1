package repro

import (
	"fmt"
	"strings"

	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/store"
)

// What the paper leaves out and users ask: the agent among other traffic.
// examples/alltcp-background.yaml puts four long-lived flows, ten web users
// and forty Pareto on/off UDP sources (H = 0.8) through the agent's
// bottleneck; the agent scores every predictor of the level.

var alltcpPredictors = []string{"farima", "arima", "ewma", "last"}

func init() {
	var metrics []string
	for _, p := range alltcpPredictors {
		metrics = append(metrics, "run.agent.R1.forecast."+p+".nmse")
	}
	Register(&Entry{
		Name: "alltcp-background", Paper: "alltcp", Alone: alltcpAlone, Source: alltcpSource + ", §1, §3.1 and conclusion 4 (no figure: the paper does not measure it)",
		Title: "Long-lived, short and UDP flows under self-similar background, with and without the agent; FARIMA vs ARIMA vs EWMA on the level",
		Claim: "Separating and regulating long-lived TCP at the edge reduces its impact on UDP and short-lived flows (fairness, conclusion 4); FARIMA predicts the traffic level more accurately than the other predictors (§3.1).",
		Sweep: `name: alltcp-background
scenario: examples/alltcp-background.yaml
grid:
  - name: setting
    cases:
      "without agent": {nodes.R1.agent.mode: observe}
      "ALL-TCP": {nodes.R1.agent.mode: adaptive}
      "background only": {nodes.R1.agent.mode: observe, "flows.long{i}.count": 0, "flows.web{i}.count": 0}
replications: 5
metrics: [goodput_bps, pages, page_seconds_mean, sent_packets, dropped.aqm_drop, dropped.queue_overflow, run.agent.R1.memory_per_flow_bytes, run.agent.R1.flows, run.agent.R1.buffer_total_max_bytes, ` + strings.Join(metrics, ", ") + `]
`,
		Short:  []string{"duration=20s"},
		Report: alltcpBackgroundReport,
		Setup:  []Deviation{{"scenario", "none: the paper measures no fairness", "4 long-lived NewReno flows, 10 web users, 40 Pareto on/off UDP sources through a 10 Mbit/s bottleneck", "tcplab's own test of conclusion 4"}},
	})
}

func alltcpBackgroundReport(c *Context) (*Outcome, error) {
	type measure struct {
		name, unit string
		scale      float64
		f          func(r *store.Run) (float64, bool)
	}
	measures := []measure{
		{"long-lived goodput, sum", "Mbit/s", 1e-6, func(r *store.Run) (float64, bool) { s, n := flowsSum(r, "long", "goodput_bps"); return s, n > 0 }},
		{"web page time, mean", "s", 1, func(r *store.Run) (float64, bool) {
			t, _ := flowsSum(r, "web", "page_seconds_mean")
			_, n := flowsSum(r, "web", "pages")
			return t / float64(n), n > 0
		}},
		{"UDP goodput, sum", "Mbit/s", 1e-6, func(r *store.Run) (float64, bool) { s, n := flowsSum(r, "udp", "goodput_bps"); return s, n > 0 }},
		{"UDP packets lost", "%", 100, func(r *store.Run) (float64, bool) {
			a, _ := flowsSum(r, "udp", "dropped.aqm_drop")
			q, _ := flowsSum(r, "udp", "dropped.queue_overflow")
			s, n := flowsSum(r, "udp", "sent_packets")
			return (a + q) / s, n > 0 && s > 0
		}},
	}
	out := &Outcome{}
	vals := map[string][2]store.Summary{}
	for _, m := range measures {
		pts, err := perRun(c.Store, m.f)
		if err != nil {
			return nil, err
		}
		sums := summaries(pts)
		without, _ := find(sums, "setting", "without agent")
		with, _ := find(sums, "setting", "ALL-TCP")
		vals[m.name] = [2]store.Summary{without, with}
		out.Measured = append(out.Measured, fmt.Sprintf("%s: without agent %s, with %s %s", m.name, ciText(without, m.scale, ""), ciText(with, m.scale, ""), m.unit))
	}
	web, udp := vals["web page time, mean"], vals["UDP packets lost"]
	wv, wtest := above(sample(web[0]), sample(web[1]), 1, " s")
	uv, utest := above(sample(udp[0]), sample(udp[1]), 100, "%")
	webBetter, udpBetter := wv == Confirmed, uv == Confirmed
	claim := Claim{Figure: "conclusion 4", Text: "regulating long-lived TCP at the edge leaves more to UDP and short flows",
		Paper: "fairness obtained (not measured)",
		Measured: fmt.Sprintf("web page %.2f → %.2f s, UDP loss %.2f → %.2f%%, long-lived %.2f → %.2f Mbit/s", web[0].Mean, web[1].Mean,
			100*udp[0].Mean, 100*udp[1].Mean, vals["long-lived goodput, sum"][0].Mean*1e-6, vals["long-lived goodput, sum"][1].Mean*1e-6)}
	claim.Test = fmt.Sprintf("Welch's t-test, web page time without against with the agent: %s; UDP loss without against with: %s", wtest, utest)
	switch {
	case wv == Refuted || uv == Refuted:
		claim.Verdict = Refuted
		claim.Reason = "one class does significantly worse with the agent: the bottleneck is saturated, so the predicted level stays above β and the agent regulates (it never splits); RED on the prediction slows the long-lived flows, which shortens the queue for short TCP flows, but it drops UDP with the same probability (§3.2 keeps RED's behaviour for it)"
	case webBetter && udpBetter:
		claim.Verdict, claim.Reason = Confirmed, "short flows and UDP both do better; the long-lived flows pay"
	default:
		claim.Verdict, claim.Reason = Inconclusive, "one class or both without a significant difference"
	}
	out.Claims = append(out.Claims, claim)

	// Forecast errors on the self-similar background alone (the paper's
	// premise), and on the saturated bottleneck for contrast.
	var best string
	bestV := 0.0
	var parts []string
	var pred []store.Summary
	for _, p := range alltcpPredictors {
		pts, err := perRun(c.Store, runMetric("run.agent.R1.forecast."+p+".nmse"))
		if err != nil {
			return nil, err
		}
		sums := summaries(pts)
		s, _ := find(sums, "setting", "background only")
		sat, _ := find(sums, "setting", "without agent")
		s.Params = append(s.Params, store.Param{Name: "predictor", Value: p})
		pred = append(pred, s)
		parts = append(parts, fmt.Sprintf("%s %.3f (saturated: %.3f)", p, s.Mean, sat.Mean))
		if best == "" || s.Mean < bestV {
			best, bestV = p, s.Mean
		}
	}
	reason := "FARIMA has the lowest NMSE on the self-similar background (40 Pareto on/off sources, H = 0.8)"
	if best != "farima" {
		reason = best + " has the lowest NMSE on the self-similar background (40 Pareto on/off sources, H = 0.8, level per 100 ms, refit every 32 intervals on the last 256): with so short a window FARIMA's d is poorly estimated; on the saturated bottleneck the level sits near 1 and every predictor is near the variance"
	}
	var fc []comparison
	if fs, ok := find(pred, "predictor", "farima"); ok {
		for _, s := range pred {
			if p := s.Params.Value("predictor"); p != "farima" {
				fc = append(fc, means(p, sample(s), sample(fs), 1, ""))
			}
		}
	}
	fv, ftest := aboveEverywhere(fc)
	out.Claims = append(out.Claims, Claim{Figure: "§3.1", Text: "FARIMA predicts the traffic level more accurately than ARIMA and EWMA",
		Paper: "FARIMA best (Feng and Shu, by MSE and NMSE)", Measured: "NMSE, τ = 1 interval: " + strings.Join(parts, ", "),
		Verdict: fv, Test: "Welch's t-test of each other predictor's NMSE against FARIMA's, " + ftest, Reason: reason})
	mem, err := perRun(c.Store, runMetric("run.agent.R1.memory_per_flow_bytes"))
	if err != nil {
		return nil, err
	}
	nf, err := perRun(c.Store, runMetric("run.agent.R1.flows"))
	if err != nil {
		return nil, err
	}
	if ms, ns := summaries(mem), summaries(nf); len(ms) > 0 && len(ns) > 0 {
		out.Measured = append(out.Measured, fmt.Sprintf("agent memory: %.0f bytes of bookkeeping per TCP flow seen, %.0f flows: %.1f KB (UDP flows cost nothing; split flows add their relay buffer)",
			ms[0].Mean, ns[0].Mean, ms[0].Mean*ns[0].Mean/1000))
	}
	ch := plot.Chart{Title: "ALL-TCP agent: forecast error of the level by predictor", XLabel: "predictor (farima, arima, ewma, last)", YLabel: "NMSE, τ = 1",
		Caption: fmt.Sprintf("Mean of %d runs, 95%% CI; background only (40 Pareto on/off UDP sources, H = 0.8), agent observing; level = utilisation of the 10 Mbit/s bottleneck per 100 ms, refit every 32 intervals on 256.", pred[0].N)}
	ch.Series, ch.XTicks = categorical("NMSE", pred)
	fig, err := writeFigure(c, ch, pred, "nmse")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = fig.Files, fig.Figures
	return out, nil
}
