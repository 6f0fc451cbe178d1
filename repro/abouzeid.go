package repro

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tcplab/tcplab/model"
	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/store"
)

// Abouzeid & Roy, "TCP in networks with abrupt delay variations and random
// loss" (GLOBECOM 2001): one bulk transfer over an abstract link whose RTT
// jumps between two values (examples/abouzeid.yaml, abouzeid-step.yaml).
// The paper gives the timer it used only for Figs. 1-2 ("a fine grained
// timer and the time-stamps option"); the entries whose outcome hangs on
// the timer run under three, and say so.

const abouzeidSource = "Abouzeid & Roy, \"TCP in networks with abrupt delay variations and random loss\", IEEE GLOBECOM 2001"

// abouzeidTimers are the retransmission timers the entries compare: the
// fine-grained timer with timestamps of the paper's Figs. 1-2 (RFC 6298
// arithmetic, G = 1 ms, minimum 2G), ns-2.35's default (10 ms ticks, 200 ms
// minimum, one timed sample per window) and the coarse 500 ms tick of the
// BSD TCPs of 2001 (minimum RTO 2G = 1 s).
var abouzeidTimers = []string{"fine", "ns2-10ms", "bsd-500ms"}

const abouzeidTimerAxis = `  - name: timer
    cases:
      fine:      {flows.ftp.transport.rto.policy: rfc6298, flows.ftp.transport.rto.granularity: 1ms, flows.ftp.transport.rto.min: 2ms, flows.ftp.transport.timestamps: true, flows.ftp.transport.ts_tick: 1ms, flows.ftp.transport.rtt_sampling: timestamps}
      ns2-10ms:  {flows.ftp.transport.rto.policy: ns2, flows.ftp.transport.rto.granularity: 10ms, flows.ftp.transport.rto.min: 200ms}
      bsd-500ms: {flows.ftp.transport.rto.policy: ns2, flows.ftp.transport.rto.granularity: 500ms, flows.ftp.transport.rto.min: 1s}
`

// abouzeidH are the holding-time factors of Fig. 5, as cases setting both
// states' mean extra stay h·T_i (T1 = 0.1 s, T2 = 0.3 s).
func abouzeidH(hs ...float64) string {
	var b strings.Builder
	b.WriteString("  - name: h\n    cases:\n")
	for _, h := range hs {
		fmt.Fprintf(&b, "      %g: {links.path.delay_process.mean1: %gms, links.path.delay_process.mean2: %gms}\n", h, 100*h, 300*h)
	}
	return b.String()
}

func abouzeidD() string {
	return "  - path: flows.ftp.transport.dupthresh\n    values: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n"
}

func init() {
	for _, e := range []*Entry{
		{
			Name: "abouzeid-fig1-2", Title: "A step of the RTT from 0.2 to 0.3 s at 6 s: a timeout with w_m = 13, none with w_m = 26",
			Claim: "The same RTT increase (0.2 → 0.3 s, less than the RTO) causes no timeout with a window of 26 packets (Fig. 1) and one with 13 (Fig. 2).",
			Sweep: `name: abouzeid-fig1-2
scenario: examples/abouzeid-step.yaml
grid:
  - path: flows.ftp.transport.window
    values: [26, 13]
` + abouzeidTimerAxis + `replications: 10
metrics: [timeouts, spurious_timeouts, goodput_bps]
`,
			Report: fig12Report,
		},
		{
			Name: "abouzeid-fig3-4", Title: "A step of the RTT from 0.2 to 0.1 s: a false fast retransmit depends on where in the round it falls",
			Claim: "An RTT decrease inside the idle part of a round causes no triple duplicate ACK (at 6.00 s, Fig. 3); inside the busy part it causes one (at 6.07 s, Fig. 4).",
			Sweep: `name: abouzeid-fig3-4
scenario: examples/abouzeid-step.yaml
set: {links.path.delay_process.steps.1.delay: 92ms}
grid:
  - path: flows.ftp.transport.window
    values: [26, 13]
  - path: links.path.delay_process.steps.1.at
    values: [6.00s, 6.02s, 6.04s, 6.06s, 6.07s, 6.08s, 6.10s, 6.12s, 6.14s, 6.16s, 6.18s, 6.20s]
replications: 10
metrics: [fast_retransmits, spurious_retransmits]
`,
			Report: fig34Report,
		},
		{
			Name: "abouzeid-fig5", Title: "Goodput vs holding-time factor h: OldTahoe, Reno and the ideal goodput (w_m = 12, p = 0)",
			Claim: "The ideal goodput 2·w_m/(T1+T2) does not depend on h, but the measured goodput deteriorates badly at small h (frequent RTT changes); OldTahoe is less sensitive to h than Reno.",
			Sweep: `name: abouzeid-fig5
scenario: examples/abouzeid.yaml
grid:
` + abouzeidH(0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10) + `  - name: variant
    cases:
      oldtahoe: {flows.ftp.transport.variant: oldtahoe}
      reno:     {flows.ftp.transport.variant: reno}
replications: 10
metrics: [goodput_bps, timeouts, fast_retransmits]
`,
			Report: fig5Report,
		},
		{
			Name: "abouzeid-fig6", Title: "Reno's goodput vs its duplicate-ACK threshold D (h = 0.1, w_m = 12, p = 0)",
			Claim: "On a lossless path the best threshold is D = w_m (never a false fast retransmit), where Reno's goodput approaches OldTahoe's.",
			Sweep: `name: abouzeid-fig6
scenario: examples/abouzeid.yaml
set: {links.path.delay_process.mean1: 10ms, links.path.delay_process.mean2: 30ms}
grid:
` + abouzeidD() + `replications: 10
metrics: [goodput_bps, fast_retransmits]
`,
			Report: fig6Report,
		},
		{
			Name: "abouzeid-fig7", Title: "Goodput vs D for four (loss, holding-time) pairs, under three timers",
			Claim: "The best D depends on p and h: 1 for S4 (p = 0.1, h = 1), w_m for S1 (0.001, 1) and S3 (0.01, 0.1), between 4 and 11 for S2 (0.01, 1).",
			Sweep: `name: abouzeid-fig7
scenario: examples/abouzeid.yaml
grid:
  - name: scenario
    cases:
      S1: {links.path.loss.rate: 0.001, links.path.delay_process.mean1: 100ms, links.path.delay_process.mean2: 300ms}
      S2: {links.path.loss.rate: 0.01, links.path.delay_process.mean1: 100ms, links.path.delay_process.mean2: 300ms}
      S3: {links.path.loss.rate: 0.01, links.path.delay_process.mean1: 10ms, links.path.delay_process.mean2: 30ms}
      S4: {links.path.loss.rate: 0.1, links.path.delay_process.mean1: 100ms, links.path.delay_process.mean2: 300ms}
` + abouzeidD() + abouzeidTimerAxis + `replications: 10
metrics: [goodput_bps]
`,
			Report: fig7Report,
		},
		{
			Name: "abouzeid-fig8", Title: "OldTahoe's goodput vs timer granularity G, minimum RTO 2G (2 Mb/s, h = 10, w_m = 24, p = 0)",
			Claim: "There is an optimum granularity G between the smallest and the largest tried (p = 0; the entry also runs p = 1%).",
			Sweep: `name: abouzeid-fig8
scenario: examples/abouzeid.yaml
set: {links.path.bandwidth: 2Mbps, links.path.delay_process.delay1: 96ms, links.path.delay_process.delay2: 296ms, links.path.delay_process.mean1: 1s, links.path.delay_process.mean2: 3s, flows.ftp.transport.window: 24, flows.ftp.transport.variant: oldtahoe, flows.ftp.transport.rto.policy: ns2}
grid:
  - path: links.path.loss.rate
    values: [0, 0.01]
  - name: G
    cases:
` + granularityCases(0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1) + `replications: 10
metrics: [goodput_bps, timeouts, spurious_timeouts]
`,
			Report: fig8Report,
		},
	} {
		e.Paper, e.Source = "abouzeid", abouzeidSource
		e.Short = []string{"duration=20s"}
		if e.Name == "abouzeid-fig1-2" || e.Name == "abouzeid-fig3-4" {
			e.Short = nil // 15 s runs already
		}
		Register(e)
	}
}

// granularityCases are Fig. 8's timer ticks G (seconds) with the minimum
// RTO 2G the paper couples to them.
func granularityCases(gs ...float64) string {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "      %g: {flows.ftp.transport.rto.granularity: %gms, flows.ftp.transport.rto.min: %gms}\n", g, 1000*g, 2000*g)
	}
	return b.String()
}

// flowValue is metric of the flow ftp in a run.
func flowValue(metric string) func(r *store.Run) (float64, bool) { return flowMetric("ftp", metric, 1) }

// flowMetric is metric of the named flow in a run, times scale.
func flowMetric(flow, metric string, scale float64) func(r *store.Run) (float64, bool) {
	return func(r *store.Run) (float64, bool) {
		for _, m := range r.Metrics {
			if m.Name == metric && m.Flow == flow {
				return m.Value * scale, true
			}
		}
		return 0, false
	}
}

func summarized(c *Context, metric string) ([]store.Summary, error) {
	pts, err := perRun(c.Store, flowValue(metric))
	if err != nil {
		return nil, err
	}
	return summaries(pts), nil
}

func fig12Report(c *Context) (*Outcome, error) {
	sums, err := summarized(c, "timeouts")
	if err != nil {
		return nil, err
	}
	out := &Outcome{}
	per := map[string][]Claim{}
	for _, tm := range abouzeidTimers {
		w26, ok1 := find(sums, "timer", tm, "flows.ftp.transport.window", "26")
		w13, ok2 := find(sums, "timer", tm, "flows.ftp.transport.window", "13")
		if !ok1 || !ok2 {
			continue
		}
		out.Measured = append(out.Measured, fmt.Sprintf("timer %s: timeouts in 15 s: w_m=26 %s, w_m=13 %s", tm, ciText(w26, 1, ""), ciText(w13, 1, "")))
		per[tm] = []Claim{
			{Figure: "Fig. 1", Text: "with w_m = 26 the RTT step causes no timeout", Paper: "no timeout",
				Measured: fmt.Sprintf("%.1f timeouts", w26.Mean), Verdict: verdictOf(w26.Mean == 0),
				Reason: "26 packets fill the 0.2 s pipe: ACKs keep arriving through the step and the RTO has room"},
			{Figure: "Fig. 2", Text: "with w_m = 13 the same step causes a timeout", Paper: "one timeout",
				Measured: fmt.Sprintf("%.1f timeouts", w13.Mean), Verdict: verdictOf(w13.Mean >= 1),
				Reason: timerReason(tm, w13.Mean >= 1)},
		}
	}
	out.Claims = mergeSettingsNamed(per, abouzeidTimers, "timer")
	return out, nil
}

func timerReason(timer string, timedOut bool) string {
	switch {
	case timedOut:
		return "half the pipe is idle, the RTO has converged close to the 0.2 s RTT, and the first ACK after the step comes 0.1 s late"
	case timer == "fine":
		return "the RTO keeps 4·RTTVAR above the RTT, more than the 0.1 s step here"
	default:
		return "the timer's tick and minimum RTO keep the RTO well above 0.3 s"
	}
}

// mergeSettingsNamed is mergeSettings with the axis named in the reason.
func mergeSettingsNamed(per map[string][]Claim, order []string, axis string) []Claim {
	cs := mergeSettings(per, order)
	for i := range cs {
		cs[i].Reason = strings.Replace(cs[i].Reason, "depends on the window and marker setting", "depends on the "+axis, 1)
	}
	return cs
}

func fig34Report(c *Context) (*Outcome, error) {
	sums, err := summarized(c, "fast_retransmits")
	if err != nil {
		return nil, err
	}
	const at, win = "links.path.delay_process.steps.1.at", "flows.ftp.transport.window"
	windows := []string{"26", "13"}
	out := &Outcome{}
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "instant of the RTT decrease (s)", YLabel: "false fast retransmits in 15 s",
		Series:  seriesChart(sums, at, win, 1, 1),
		Caption: "Abouzeid & Roy Figs. 3-4: Reno, the RTT drops from 0.2 to 0.1 s once; one series per window w_m (the paper's caption says 26). A round is 0.2 s: busy while the window's packets leave (8 ms each), idle after."}
	for i := range ch.Series {
		ch.Series[i].Name = "w_m = " + ch.Series[i].Name
	}
	o, err := writeFigure(c, ch, sums, "fast_retransmits")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = o.Files, o.Figures
	per := map[string][]Claim{}
	for _, w := range windows {
		var with, without []string
		n := 0
		for _, s := range sums {
			if paramValue(s.Params, win) != w {
				continue
			}
			n++
			if x := paramValue(s.Params, at); s.Mean > 0 {
				with = append(with, x)
			} else {
				without = append(without, x)
			}
		}
		if n == 0 {
			continue
		}
		out.Measured = append(out.Measured, fmt.Sprintf("w_m=%s: a false fast retransmit after a decrease at [%s], none at [%s]", w, strings.Join(with, " "), strings.Join(without, " ")))
		s600 := mustFind(sums, win, w, at, "6.00s")
		s607 := mustFind(sums, win, w, at, "6.07s")
		phase := Claim{Figure: "Figs. 3-4", Text: "whether an RTT decrease causes a false fast retransmit depends on where in the round it falls", Paper: "none at 6.00 s (idle part), one at 6.07 s (busy part)",
			Measured: fmt.Sprintf("w_m=%s: one at %d of %d instants", w, len(with), n), Verdict: verdictOf(len(with) > 0 && len(without) > 0),
			Reason: "a decrease during the busy part lets the rest of the round overtake the packets still in flight by D or more, provided the round has an idle part to overtake into"}
		exact := Claim{Figure: "Figs. 3-4", Text: "none at 6.00 s, one at 6.07 s", Paper: "6.00 s: 0, 6.07 s: 1",
			Measured: fmt.Sprintf("w_m=%s: 6.00 s: %.0f, 6.07 s: %.0f", w, s600.Mean, s607.Mean), Verdict: verdictOf(s600.Mean == 0 && s607.Mean >= 1),
			Reason: "the instants fall in the idle and the busy part of a round as in the paper"}
		if len(with) == 0 {
			phase.Reason = fmt.Sprintf("w_m = %s packets cover the 25-packet pipe (1 Mb/s × 0.2 s): the round has no idle part, the new packets interleave with the old ones one for one, and no third duplicate ACK comes", w)
			exact.Reason = phase.Reason
		}
		per[w] = []Claim{phase, exact}
	}
	out.Claims = mergeSettingsNamed(per, windows, "window w_m")
	return out, nil
}

// idealKbps is eq. 3 in kbit/s of payload: 2·w_m/(T1+T2) packets/s.
func idealKbps(wm, t1, t2 float64) float64 {
	return model.AbouzeidIdeal(model.AbouzeidParams{Wm: wm, T1: t1, T2: t2}) * 960 * 8 / 1e3
}

func fig5Report(c *Context) (*Outcome, error) {
	sums, err := summarized(c, "goodput_bps")
	if err != nil {
		return nil, err
	}
	ideal := idealKbps(12, 0.1, 0.3)
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "holding-time factor h", YLabel: "goodput (kbit/s)", LogX: true,
		Series: seriesChart(sums, "h", "variant", 1, 1e-3), LegendBottomLeft: false,
		Curves:  []plot.Curve{{Name: "ideal 2·w_m/(T1+T2) (eq. 3)", X: []float64{0.01, 10}, Y: []float64{ideal, ideal}}},
		Caption: "Abouzeid & Roy Fig. 5: 1 Mb/s, T1 = 0.1 s, T2 = 0.3 s, w_m = 12, p = 0; ns-2.35's TCP (10 ms ticks). Mean of 10 runs of 200 s, 95% CI."}
	out, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	get := func(v, h string) store.Summary { s, _ := find(sums, "h", h, "variant", v); return s }
	lo, hi := "0.01", "10"
	tLo, tHi, rLo, rHi := get("oldtahoe", lo), get("oldtahoe", hi), get("reno", lo), get("reno", hi)
	for _, s := range sums {
		out.Measured = append(out.Measured, fmt.Sprintf("h=%s %s: %s kbit/s (ideal %.1f)", paramValue(s.Params, "h"), paramValue(s.Params, "variant"), ciText(s, 1e-3, ""), ideal))
	}
	above := 0
	for _, s := range sums {
		if s.Mean/1e3 > ideal*1.01 {
			above++
		}
	}
	out.Claims = []Claim{
		{Figure: "Fig. 5", Text: "goodput deteriorates at small h", Paper: "severe drop as h → 0",
			Measured: fmt.Sprintf("Reno %.0f → %.0f, OldTahoe %.0f → %.0f kbit/s from h = %s to %s", rHi.Mean/1e3, rLo.Mean/1e3, tHi.Mean/1e3, tLo.Mean/1e3, hi, lo),
			Verdict:  verdictOf(rLo.Mean < 0.8*rHi.Mean && tLo.Mean < tHi.Mean), Reason: "each RTT change can cause a false timeout or fast retransmit, and small h means many changes"},
		{Figure: "Fig. 5", Text: "OldTahoe is less sensitive to h than Reno", Paper: "OldTahoe above Reno at small h",
			Measured: fmt.Sprintf("at h = %s: OldTahoe %.0f, Reno %.0f kbit/s; relative drop %.0f%% vs %.0f%%", lo, tLo.Mean/1e3, rLo.Mean/1e3, 100*(1-tLo.Mean/tHi.Mean), 100*(1-rLo.Mean/rHi.Mean)),
			Verdict:  verdictOf(1-tLo.Mean/tHi.Mean < 1-rLo.Mean/rHi.Mean), Reason: "OldTahoe has no duplicate-ACK inference, so RTT decreases (reordering) cost it nothing"},
		{Figure: "Fig. 5", Text: "the ideal goodput bounds the measurement", Paper: "R = 2·w_m/(T1+T2) above every point",
			Measured: fmt.Sprintf("%d of %d points above R = %.1f kbit/s", above, len(sums), ideal), Verdict: verdictOf(above == 0),
			Reason: "eq. 3 is the rate of a sender that never shrinks its window below w_m"},
	}
	return out, nil
}

func fig6Report(c *Context) (*Outcome, error) {
	sums, err := summarized(c, "goodput_bps")
	if err != nil {
		return nil, err
	}
	const d = "flows.ftp.transport.dupthresh"
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "duplicate-ACK threshold D (packets)", YLabel: "goodput (kbit/s)",
		Series: seriesChart(sums, d, "", 1, 1e-3), Caption: "Abouzeid & Roy Fig. 6: Reno, 1 Mb/s, T1 = 0.1 s, T2 = 0.3 s, h = 0.1, w_m = 12, p = 0. Mean of 10 runs of 200 s, 95% CI."}
	out, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	best, bestD := bestOf(sums, d)
	last := sums[len(sums)-1]
	out.Measured = append(out.Measured, fmt.Sprintf("best D = %s (%.0f kbit/s); D = 3: %.0f; D = 12: %s", bestD, best.Mean/1e3, mustFind(sums, d, "3").Mean/1e3, ciText(last, 1e-3, " kbit/s")))
	ok := bestD == "12" || last.Mean+last.CI95 >= best.Mean
	out.Claims = []Claim{{Figure: "Fig. 6", Text: "on a lossless path the best D is w_m", Paper: "optimum at D = w_m = 12",
		Measured: fmt.Sprintf("best mean at D = %s; D = 12 %s", bestD, ciText(last, 1e-3, " kbit/s")), Verdict: verdictOf(ok),
		Reason: "with no loss every fast retransmit is false; D = w_m never triggers one"}}
	return out, nil
}

// bestOf is the summary with the highest mean and its value of param.
func bestOf(sums []store.Summary, param string) (store.Summary, string) {
	var best store.Summary
	best.Mean = math.Inf(-1)
	for _, s := range sums {
		if s.Mean > best.Mean {
			best = s
		}
	}
	return best, paramValue(best.Params, param)
}

func mustFind(sums []store.Summary, kv ...string) store.Summary {
	s, _ := find(sums, kv...)
	return s
}

func fig7Report(c *Context) (*Outcome, error) {
	sums, err := summarized(c, "goodput_bps")
	if err != nil {
		return nil, err
	}
	const d = "flows.ftp.transport.dupthresh"
	out := &Outcome{}
	want := map[string]func(int) bool{
		"S1": func(x int) bool { return x == 12 }, "S2": func(x int) bool { return x >= 4 && x <= 11 },
		"S3": func(x int) bool { return x == 12 }, "S4": func(x int) bool { return x == 1 },
	}
	paper := map[string]string{"S1": "D = w_m", "S2": "D in [4, 11]", "S3": "D = w_m", "S4": "D = 1"}
	per := map[string][]Claim{}
	var series []plot.Series
	for _, tm := range abouzeidTimers {
		for _, sc := range []string{"S1", "S2", "S3", "S4"} {
			var sub []store.Summary
			for _, s := range sums {
				if paramValue(s.Params, "timer") == tm && paramValue(s.Params, "scenario") == sc {
					sub = append(sub, s)
				}
			}
			if len(sub) == 0 {
				continue
			}
			best, bestD := bestOf(sub, d)
			var x int
			fmt.Sscan(bestD, &x)
			// Every D whose mean is within the best's 95% CI is as good.
			var tied []string
			okAny := false
			for _, s := range sub {
				if s.Mean >= best.Mean-best.CI95 {
					v := paramValue(s.Params, d)
					tied = append(tied, v)
					var xi int
					fmt.Sscan(v, &xi)
					okAny = okAny || want[sc](xi)
				}
			}
			out.Measured = append(out.Measured, fmt.Sprintf("timer %s %s: best D = %s (%.0f kbit/s); within its CI: %s", tm, sc, bestD, best.Mean/1e3, strings.Join(tied, " ")))
			per[tm] = append(per[tm], Claim{Figure: "Fig. 7", Text: fmt.Sprintf("best D for %s is %s", sc, paper[sc]), Paper: paper[sc],
				Measured: fmt.Sprintf("best D = %s (tied within the CI: %s)", bestD, strings.Join(tied, " ")), Verdict: verdictOf(okAny),
				Reason: "a small D repairs real losses fast; a large D ignores the reordering of RTT decreases: which wins depends on p against h"})
			if tm == "ns2-10ms" {
				s := plot.Series{Name: sc}
				for _, v := range sub {
					s.X = append(s.X, *findNum(v.Params, d))
					s.Y = append(s.Y, v.Mean/1e3)
					s.Err = append(s.Err, ciOrZero(v.CI95)/1e3)
				}
				series = append(series, s)
			}
		}
	}
	ch := plot.Chart{Title: "Abouzeid & Roy Fig. 7: goodput vs D (ns-2.35 timer)", XLabel: "duplicate-ACK threshold D (packets)", YLabel: "goodput (kbit/s)",
		Series: series, Caption: "S1 (p 0.001, h 1), S2 (0.01, 1), S3 (0.01, 0.1), S4 (0.1, 1); w_m = 12, 1 Mb/s. The CSV has all three timers."}
	o, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = o.Files, o.Figures
	out.Claims = mergeSettingsNamed(per, abouzeidTimers, "timer")
	return out, nil
}

func ciOrZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

func fig8Report(c *Context) (*Outcome, error) {
	sums, err := summarized(c, "goodput_bps")
	if err != nil {
		return nil, err
	}
	const loss = "links.path.loss.rate"
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "timer granularity G (s)", YLabel: "goodput (kbit/s)", LogX: true,
		Series: seriesChart(sums, "G", loss, 1, 1e-3), Caption: "Abouzeid & Roy Fig. 8: OldTahoe, ns-2's tick arithmetic with tick G and minimum RTO 2G; 2 Mb/s, T1 = 0.1 s, T2 = 0.3 s, h = 10, w_m = 24; one series per loss rate p (the paper's is 0). Mean of 10 runs, 95% CI."}
	for i := range ch.Series {
		ch.Series[i].Name = "p = " + ch.Series[i].Name
	}
	out, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	ps := []string{"0", "0.01"}
	per := map[string][]Claim{}
	for _, p := range ps {
		var sub []store.Summary
		for _, s := range sums {
			if paramValue(s.Params, loss) == p {
				sub = append(sub, s)
				out.Measured = append(out.Measured, fmt.Sprintf("p = %s, G = %s s: %s kbit/s", p, paramValue(s.Params, "G"), ciText(s, 1e-3, "")))
			}
		}
		if len(sub) == 0 {
			continue
		}
		best, bestG := bestOf(sub, "G")
		first, last := sub[0], sub[len(sub)-1]
		interior := best.Mean > first.Mean+ciOrZero(first.CI95) && best.Mean > last.Mean+ciOrZero(last.CI95)
		cl := Claim{Figure: "Fig. 8", Text: "an interior optimum of G exists", Paper: "optimum between the extremes (p = 0)",
			Measured: fmt.Sprintf("p = %s: best G = %s s (%.0f kbit/s); G = %s: %.0f, G = %s: %.0f", p, bestG, best.Mean/1e3,
				paramValue(first.Params, "G"), first.Mean/1e3, paramValue(last.Params, "G"), last.Mean/1e3),
			Verdict: verdictOf(interior)}
		if interior {
			cl.Reason = "a fine tick lets RTT increases cause false timeouts; a coarse one makes real losses wait long"
		} else {
			lo := slices.MinFunc(sub, func(a, b store.Summary) int { return cmp.Compare(a.Mean, b.Mean) })
			cl.Reason = fmt.Sprintf("no G beats both ends beyond their 95%% CI; the means span %.0f-%.0f kbit/s (a flat curve, or one falling with G as real losses wait for a coarse timer)", lo.Mean/1e3, best.Mean/1e3)
		}
		per[p] = []Claim{cl}
	}
	out.Claims = mergeSettingsNamed(per, ps, "loss rate p")
	return out, nil
}
