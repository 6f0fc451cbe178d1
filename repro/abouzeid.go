package repro

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/tcplab/tcplab/model"
	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/stats"
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

// abouzeidFine is the paper's timer of Figs. 1-2 as --set overrides.
const abouzeidFine = `flows.ftp.transport.rto.policy: rfc6298, flows.ftp.transport.rto.granularity: 1ms, flows.ftp.transport.rto.min: 2ms`

// abouzeidStepTimers adds to the three timers the fine one without
// timestamps (one timed sample a window), for the paper's "the results
// for the case without time-stamps is identical" (§III.A).
const abouzeidStepTimers = `  - name: timer
    cases:
      fine:      {` + abouzeidFine + `, flows.ftp.transport.timestamps: true, flows.ftp.transport.ts_tick: 1ms, flows.ftp.transport.rtt_sampling: timestamps}
      fine-nots: {` + abouzeidFine + `, flows.ftp.transport.timestamps: false, flows.ftp.transport.rtt_sampling: timed}
      ns2-10ms:  {flows.ftp.transport.rto.policy: ns2, flows.ftp.transport.rto.granularity: 10ms, flows.ftp.transport.rto.min: 200ms}
      bsd-500ms: {flows.ftp.transport.rto.policy: ns2, flows.ftp.transport.rto.granularity: 500ms, flows.ftp.transport.rto.min: 1s}
`

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
			Name: "abouzeid-fig1-2", Quoted: []string{"0.2s", "0.3s", "0.2"}, Title: "A step of the RTT from 0.2 to 0.3 s at 6 s: a timeout with w_m = 13, none with w_m = 26",
			Claim: "The same RTT increase (0.2 → 0.3 s, less than the RTO) causes no timeout with a window of 26 packets (Fig. 1) and one with 13 (Fig. 2).",
			Sweep: `name: abouzeid-fig1-2
scenario: examples/abouzeid-step.yaml
grid:
  - path: flows.ftp.transport.window
    values: [26, 13]
` + abouzeidStepTimers + `replications: 10
metrics: [timeouts, spurious_timeouts, goodput_bps]
`,
			Report:        fig12Report,
			Deterministic: true,
			Setup:         append([]Deviation{{"timer", "a fine-grained timer with the timestamps option", "RFC 6298 arithmetic, G = 1 ms, minimum 2G; also without timestamps, and ns-2.35's and BSD's timers as sensitivity lines", "the paper names no granularity or minimum"}}, abouzeidSetup...),
		},
		{
			Name: "abouzeid-fig3-4", Quoted: []string{"0.2s", "0.1s"}, Title: "A step of the RTT from 0.2 to 0.1 s: a false fast retransmit depends on where in the round it falls",
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
			Report:        fig34Report,
			Deterministic: true,
			Setup: append([]Deviation{
				{"window", "w_m = 26 (Fig. 3's caption; Fig. 4 'same as Fig. 3')", "26, and 13 as a sensitivity line", "13 gives each round an idle part, which the paper's explanation needs"},
				{"instants", "6.00 s and 6.07 s", "twelve instants from 6.00 to 6.20 s", "to see the whole round"}}, abouzeidSetup...),
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
			Setup:  append([]Deviation{{"h values", "not readable in the text", "0.01 to 10", "a log range around the paper's h = 0.1 and 1"}}, abouzeidSetup...),
		},
		{
			Name: "abouzeid-fig5-loss", Title: "Fig. 5 with random loss: is the drop in goodput proportional to p?",
			Claim: "Random loss shifts the three curves of Fig. 5 downwards by an amount proportional to the packet loss rate p (§IV.B).",
			Sweep: `name: abouzeid-fig5-loss
scenario: examples/abouzeid.yaml
set: {links.path.loss.rate: 0, links.path.loss.direction: forward, links.path.loss.packets: data}
grid:
` + abouzeidH(0.1, 1, 10) + `  - path: links.path.loss.rate
    values: [0, 0.001, 0.003, 0.01, 0.03]
  - name: variant
    cases:
      oldtahoe: {flows.ftp.transport.variant: oldtahoe}
      reno:     {flows.ftp.transport.variant: reno}
replications: 10
metrics: [goodput_bps, timeouts]
`,
			Report: fig5LossReport,
			Setup: append([]Deviation{
				{"loss", "random loss at rate p, direction not stated", "data packets on the forward path only", "the paper's model loses data packets"},
				{"p and h", "not stated for this sentence", "p = 0.001 to 0.03, h = 0.1, 1, 10", "the range of Figs. 7-8"}}, abouzeidSetup...),
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
			Setup:  abouzeidSetup,
		},
		{
			Name: "abouzeid-fig7", Title: "Goodput vs D for four (loss, holding-time) pairs, under three timers",
			Claim: "The best D depends on p and h: 1 for S4 (p = 0.1, h = 1), w_m for S1 (0.001, 1) and S3 (0.01, 0.1), between 4 and 11 for S2 (0.01, 1).",
			Sweep: `name: abouzeid-fig7
scenario: examples/abouzeid.yaml
set: {links.path.loss.rate: 0, links.path.loss.direction: forward, links.path.loss.packets: data}
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
			Setup: append([]Deviation{
				{"loss", "random loss at rate p, direction not stated", "data packets on the forward path only", "the paper's model loses data packets (until 2026-12 tcplab lost data and ACKs both ways)"},
				{"timer", "not stated", "three: fine, ns-2.35's, BSD's 500 ms", "decides nothing alone: the verdict depends on it where they disagree"}}, abouzeidSetup...),
		},
		{
			Name: "abouzeid-fig8", Quoted: []string{"10"}, Title: "OldTahoe's goodput vs timer granularity G, minimum RTO 2G (2 Mb/s, h = 10, w_m = 24, p = 0)",
			Claim: "There is an optimum granularity G between the smallest and the largest tried (p = 0; the entry also runs p = 1%).",
			Sweep: `name: abouzeid-fig8
scenario: examples/abouzeid.yaml
set: {links.path.loss.rate: 0, links.path.loss.direction: forward, links.path.loss.packets: data, links.path.bandwidth: 2Mbps, links.path.delay_process.delay1: 96ms, links.path.delay_process.delay2: 296ms, links.path.delay_process.mean1: 1s, links.path.delay_process.mean2: 3s, flows.ftp.transport.window: 24, flows.ftp.transport.variant: oldtahoe, flows.ftp.transport.rto.policy: ns2}
grid:
  - path: links.path.loss.rate
    values: [0, 0.01]
  - name: G
    cases:
` + granularityCases(0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1) + `replications: 10
metrics: [goodput_bps, timeouts, spurious_timeouts]
`,
			Report: fig8Report,
			Setup: append([]Deviation{
				{"loss rate", "p = 0", "0, and 0.01 as a sensitivity line", "Fig. 8 is at p = 0"},
				{"loss", "not stated", "data packets on the forward path", "as Fig. 7"}}, abouzeidSetup...),
		},
	} {
		e.Paper, e.Source = "abouzeid", abouzeidSource
		e.Alone = "the delay process (RTT steps and two-state holding times) exists in neither ns-2.35 nor ns-3.37 without new code"
		e.Short = []string{"duration=20s"}
		if e.Name == "abouzeid-fig1-2" || e.Name == "abouzeid-fig3-4" {
			e.Short = nil // 15 s runs already
		}
		Register(e)
	}
}

// abouzeidSetup is what every entry adds to or changes from the paper.
var abouzeidSetup = []Deviation{
	{"TCP", "ns-2 of 2001, timer not stated for Figs. 5-8", "ns-2.35's TCP (profile ns2: 10 ms tick, 200 ms minimum RTO) unless the entry says otherwise", "ns-2's defaults have changed since; the entries whose outcome hangs on the timer run several"},
	{"goodput", "not defined", "payload bytes delivered (960 B a packet) per second", "the paper's unit"},
	{"runs", "not stated", "10 seeds a point of 200 s (Figs. 1-4: 15 s; one run where nothing is random)", "not given"},
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

func fig12Report(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("timeouts"))
	if err != nil {
		return nil, err
	}
	out := &Outcome{}
	per := map[string][]Claim{}
	timers := []string{"fine", "fine-nots", "ns2-10ms", "bsd-500ms"}
	for _, tm := range timers {
		w26, ok1 := find(sums, "timer", tm, "flows.ftp.transport.window", "26")
		w13, ok2 := find(sums, "timer", tm, "flows.ftp.transport.window", "13")
		if !ok1 || !ok2 {
			continue
		}
		out.Measured = append(out.Measured, fmt.Sprintf("timer %s: timeouts in 15 s: w_m=26 %.0f, w_m=13 %.0f", tm, w26.Mean, w13.Mean))
		per[tm] = []Claim{
			{Figure: "Fig. 1", Text: "with w_m = 26 the RTT step causes no timeout", Paper: "no timeout",
				Measured: fmt.Sprintf("%.0f timeouts", w26.Mean), Verdict: verdictOf(w26.Mean == 0), Test: deterministic,
				Reason: "26 packets fill the 0.2 s pipe: ACKs keep arriving through the step and the RTO has room"},
			{Figure: "Fig. 2", Text: "with w_m = 13 the same step causes a timeout", Paper: "one timeout",
				Measured: fmt.Sprintf("%.0f timeouts", w13.Mean), Verdict: verdictOf(w13.Mean >= 1), Test: deterministic,
				Reason: timerReason(tm, w13.Mean >= 1)},
		}
	}
	out.Claims = across(per, timers, "timer", func(t string) bool { return t == "fine" })
	// §III.A: "The results for the case without time-stamps is identical".
	var same, total int
	var diff []string
	for _, w := range []string{"26", "13"} {
		a, ok1 := find(sums, "timer", "fine", "flows.ftp.transport.window", w)
		b, ok2 := find(sums, "timer", "fine-nots", "flows.ftp.transport.window", w)
		if !ok1 || !ok2 {
			continue
		}
		total++
		if a.Mean == b.Mean {
			same++
		} else {
			diff = append(diff, fmt.Sprintf("w_m = %s: %.0f with, %.0f without", w, a.Mean, b.Mean))
		}
	}
	ts := Claim{Figure: "§III.A (Figs. 1-2)", Text: "without timestamps the results are identical", Paper: "identical (the RTO decays more slowly after the spike)",
		Measured: fmt.Sprintf("timeouts equal at %d of %d windows", same, total), Verdict: verdictOf(total > 0 && same == total),
		Test: deterministic + "; the fine timer with timestamps (every ACK a sample) against without (one timed sample a window)"}
	if len(diff) > 0 {
		ts.Reason = strings.Join(diff, "; ")
	}
	out.Claims = append(out.Claims, ts)
	return out, nil
}

func timerReason(timer string, timedOut bool) string {
	switch {
	case timedOut:
		return "half the pipe is idle, the RTO has converged close to the 0.2 s RTT, and the first ACK after the step comes 0.1 s late"
	case strings.HasPrefix(timer, "fine"):
		return "the RTO keeps 4·RTTVAR above the RTT, more than the 0.1 s step here"
	default:
		return "the timer's tick and minimum RTO keep the RTO well above 0.3 s"
	}
}

func fig34Report(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("fast_retransmits"))
	if err != nil {
		return nil, err
	}
	const at, win = "links.path.delay_process.steps.1.at", "flows.ftp.transport.window"
	windows := []string{"26", "13"}
	out := &Outcome{}
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "instant of the RTT decrease (s)", YLabel: "false fast retransmits in 15 s",
		Series:  seriesChart(sums, at, win, 1, 1),
		Caption: "Abouzeid & Roy Figs. 3-4: Reno, the RTT drops from 0.2 to 0.1 s once; one series per window w_m (the paper's caption says 26). A round is 0.2 s: busy while the window's packets leave (8 ms each), idle after. One run a point: nothing is random."}
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
			if s.Params.Value(win) != w {
				continue
			}
			n++
			if x := s.Params.Value(at); s.Mean > 0 {
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
			Measured: fmt.Sprintf("one at %d of %d instants", len(with), n), Verdict: verdictOf(len(with) > 0 && len(without) > 0), Test: deterministic,
			Reason: "a decrease during the busy part lets the rest of the round overtake the packets still in flight by D or more, provided the round has an idle part to overtake into"}
		exact := Claim{Figure: "Figs. 3-4", Text: "none at 6.00 s, one at 6.07 s", Paper: "6.00 s: 0, 6.07 s: 1",
			Measured: fmt.Sprintf("6.00 s: %.0f, 6.07 s: %.0f", s600.Mean, s607.Mean), Verdict: verdictOf(s600.Mean == 0 && s607.Mean >= 1), Test: deterministic,
			Reason: "the instants fall in the idle and the busy part of a round as in the paper"}
		if len(with) == 0 {
			phase.Reason = fmt.Sprintf("w_m = %s packets cover the 25-packet pipe (1 Mb/s × 0.2 s): the round has no idle part, the new packets interleave with the old ones one for one, and no third duplicate ACK comes", w)
			exact.Reason = phase.Reason
		}
		per[w] = []Claim{phase, exact}
	}
	out.Claims = across(per, windows, "window w_m", func(w string) bool { return w == "26" })
	if err := fig34CrossCheck(sums, out); err != nil {
		return nil, err
	}
	return out, nil
}

// idealKbps is eq. 3 in kbit/s of payload: 2·w_m/(T1+T2) packets/s.
func idealKbps(wm, t1, t2 float64) float64 {
	return model.AbouzeidIdeal(model.AbouzeidParams{Wm: wm, T1: t1, T2: t2}) * 960 * 8 / 1e3
}

func fig5Report(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("goodput_bps"))
	if err != nil {
		return nil, err
	}
	ideal := idealKbps(12, 0.1, 0.3)
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "holding-time factor h", YLabel: "goodput (kbit/s)", LogX: true,
		Series: seriesChart(sums, "h", "variant", 1, 1e-3), LegendBottomLeft: false,
		Curves:  []plot.Curve{{Name: "ideal 2·w_m/(T1+T2) (eq. 3)", X: []float64{0.01, 10}, Y: []float64{ideal, ideal}}},
		Caption: "Abouzeid & Roy Fig. 5: 1 Mb/s, T1 = 0.1 s, T2 = 0.3 s, w_m = 12, p = 0; ns-2.35's TCP (10 ms ticks). Mean of " + c.runsText() + ", 95% CI."}
	out, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	get := func(v, h string) store.Summary { s, _ := find(sums, "h", h, "variant", v); return s }
	lo, hi := "0.01", "10"
	tLo, tHi, rLo, rHi := get("oldtahoe", lo), get("oldtahoe", hi), get("reno", lo), get("reno", hi)
	for _, s := range sums {
		out.Measured = append(out.Measured, fmt.Sprintf("h=%s %s: %s kbit/s (ideal %.1f)", s.Params.Value("h"), s.Params.Value("variant"), ciText(s, 1e-3, ""), ideal))
	}
	overIdeal := 0
	for _, s := range sums {
		if s.Mean/1e3 > ideal*1.01 {
			overIdeal++
		}
	}
	// "deteriorates with small h": goodput rises with h over the whole
	// curve, for both variants.
	pts, err := perRun(c.Store, flowValue("goodput_bps"))
	if err != nil {
		return nil, err
	}
	var tests []string
	verdicts := map[Verdict]int{}
	for _, v := range []string{"reno", "oldtahoe"} {
		var xs []float64
		var groups [][]float64
		for _, p := range pts {
			if p.params.Value("variant") == v {
				xs = append(xs, *findNum(p.params, "h"))
				groups = append(groups, p.vals)
			}
		}
		tv, tt := trend(xs, groups, +1)
		verdicts[tv]++
		tests = append(tests, v+": "+string(tv)+" ("+tt+")")
	}
	shape := Inconclusive
	switch {
	case verdicts[Refuted] > 0:
		shape = Refuted
	case verdicts[Confirmed] == 2:
		shape = Confirmed
	}
	ov, otest := above(sample(tLo), sample(rLo), 1e-3, " kbit/s")
	out.Claims = []Claim{
		{Figure: "Fig. 5", Text: "goodput deteriorates as h gets small, over the whole curve", Paper: "severe drop as h → 0",
			Measured: fmt.Sprintf("Reno %.0f → %.0f, OldTahoe %.0f → %.0f kbit/s from h = %s to %s (the figure has every h)", rHi.Mean/1e3, rLo.Mean/1e3, tHi.Mean/1e3, tLo.Mean/1e3, hi, lo),
			Verdict:  shape, Test: "goodput rising with h, judged on the whole curve: " + strings.Join(tests, "; "),
			Reason: "each RTT change can cause a false timeout or fast retransmit, and small h means many changes; at the smallest h the changes come faster than a round and average out"},
		{Figure: "Fig. 5", Text: "OldTahoe is less sensitive to h than Reno", Paper: "OldTahoe above Reno at small h",
			Measured: fmt.Sprintf("at h = %s: OldTahoe %.0f, Reno %.0f kbit/s; relative drop %.0f%% vs %.0f%%", lo, tLo.Mean/1e3, rLo.Mean/1e3, 100*(1-tLo.Mean/tHi.Mean), 100*(1-rLo.Mean/rHi.Mean)),
			Verdict:  ov, Test: "OldTahoe above Reno at the smallest h: " + otest, Reason: "OldTahoe has no duplicate-ACK inference, so RTT decreases (reordering) cost it nothing"},
		{Kind: ModelCheck, Figure: "Fig. 5", Text: "the ideal goodput bounds the measurement", Paper: "R = 2·w_m/(T1+T2) above every point",
			Measured: fmt.Sprintf("%d of %d points above R = %.1f kbit/s", overIdeal, len(sums), ideal), Verdict: verdictOf(overIdeal == 0),
			Test:   "every point's mean at most 1% above eq. 3",
			Reason: "eq. 3 is the rate of a sender that never shrinks its window below w_m: a sender capped at w_m cannot exceed it"},
	}
	return out, nil
}

// fig5LossReport checks §IV.B's "shifted downwards by an amount
// proportional to the packet loss rate": the drop Δ(p) = G(0) - G(p) over
// p must keep its ratio Δ/p from the smallest p to the largest.
func fig5LossReport(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("goodput_bps"))
	if err != nil {
		return nil, err
	}
	const loss = "links.path.loss.rate"
	var series []plot.Series
	out := &Outcome{}
	var cmps []comparison
	for _, v := range []string{"oldtahoe", "reno"} {
		for _, h := range []string{"0.1", "1", "10"} {
			g0, ok := find(sums, "h", h, "variant", v, loss, "0")
			if !ok {
				continue
			}
			sr := plot.Series{Name: fmt.Sprintf("%s, h = %s", v, h)}
			type ratio struct{ r, se, p float64 }
			var rs []ratio
			for _, s := range sums {
				if s.Params.Value("h") != h || s.Params.Value("variant") != v {
					continue
				}
				p := *findNum(s.Params, loss)
				d := stats.Welch(sample(g0), sample(s))
				sr.X = append(sr.X, 100*p)
				sr.Y = append(sr.Y, d.Diff/1e3)
				sr.Err = append(sr.Err, ciOrZero((d.Hi-d.Lo)/2)/1e3)
				if p > 0 {
					se := math.Sqrt(g0.SD*g0.SD/float64(g0.N) + s.SD*s.SD/float64(s.N))
					rs = append(rs, ratio{d.Diff / p, se / p, p})
				}
			}
			series = append(series, sr)
			if len(rs) < 2 {
				continue
			}
			first, last := rs[0], rs[len(rs)-1]
			z := (first.r - last.r) / math.Sqrt(first.se*first.se+last.se*last.se)
			pz := 2 * distuv.UnitNormal.Survival(math.Abs(z))
			cmps = append(cmps, comparison{where: fmt.Sprintf("%s h=%s", v, h), diff: first.r - last.r, p: pz, decided: g0.N >= stats.MinRuns,
				text: fmt.Sprintf("Δ/p %.0f at p = %g against %.0f at p = %g kbit/s per unit p, z = %.1f", first.r/1e3, first.p, last.r/1e3, last.p, z)})
			out.Measured = append(out.Measured, fmt.Sprintf("%s h=%s: drop per unit of p %.0f kbit/s at p = %g, %.0f at p = %g", v, h, first.r/1e3, first.p, last.r/1e3, last.p))
		}
	}
	ch := plot.Chart{Title: "Abouzeid & Roy §IV.B: goodput lost to random loss, G(0) - G(p)", XLabel: "packet loss rate p (%)", YLabel: "goodput lost (kbit/s)",
		Series: series, Caption: "Mean goodput without loss less mean goodput at p (data packets lost on the forward path), 95% CI of the difference (Welch). Proportional to p would be a straight line through the origin."}
	o, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = o.Files, o.Figures
	// Proportional: Δ/p the same at the smallest and the largest p.
	adj := make([]float64, len(cmps))
	for i, cm := range cmps {
		adj[i] = cm.p
	}
	adj = stats.Holm(adj)
	var differ, texts []string
	for i, cm := range cmps {
		texts = append(texts, cm.where+": "+cm.text+", Holm p = "+stats.PText(adj[i]))
		if adj[i] < stats.Alpha {
			differ = append(differ, cm.where)
		}
	}
	v := Inconclusive
	if len(differ) > 0 {
		v = Refuted
	}
	out.Claims = []Claim{{Figure: "§IV.B (Fig. 5)", Text: "loss shifts the Fig. 5 curves down by an amount proportional to p", Paper: "proportional to p",
		Measured: fmt.Sprintf("Δ/p differs between the smallest and the largest p in %d of %d curves", len(differ), len(cmps)), Verdict: v,
		Test:   "two-sided z-test of Δ/p at the smallest against the largest p, Holm-corrected (no difference cannot confirm proportionality, only fail to refute it): " + strings.Join(texts, "; "),
		Reason: "a window-limited sender's loss rate response is not linear: each loss costs a window halving or a timeout, whose cost depends on how often they come"}}
	return out, nil
}

func fig6Report(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("goodput_bps"))
	if err != nil {
		return nil, err
	}
	const d = "flows.ftp.transport.dupthresh"
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "duplicate-ACK threshold D (packets)", YLabel: "goodput (kbit/s)",
		Series: seriesChart(sums, d, "", 1, 1e-3), Caption: "Abouzeid & Roy Fig. 6: Reno, 1 Mb/s, T1 = 0.1 s, T2 = 0.3 s, h = 0.1, w_m = 12, p = 0. Mean of " + c.runsText() + ", 95% CI."}
	out, err := writeFigure(c, ch, sums, "goodput_bps")
	if err != nil {
		return nil, err
	}
	best, bestD := bestOf(sums, d)
	last := sums[len(sums)-1]
	out.Measured = append(out.Measured, fmt.Sprintf("best D = %s (%.0f kbit/s); D = 3: %.0f; D = 12: %s", bestD, best.Mean/1e3, mustFind(sums, d, "3").Mean/1e3, ciText(last, 1e-3, " kbit/s")))
	var cmps []comparison
	for _, s := range sums[:len(sums)-1] {
		cmps = append(cmps, means("D = "+s.Params.Value(d), sample(last), sample(s), 1e-3, " kbit/s"))
	}
	v, test := aboveEverywhere(cmps)
	out.Claims = []Claim{{Figure: "Fig. 6", Text: "on a lossless path the best D is w_m", Paper: "optimum at D = w_m = 12",
		Measured: fmt.Sprintf("best mean at D = %s; D = 12 %s", bestD, ciText(last, 1e-3, " kbit/s")), Verdict: v,
		Test:   "Welch's t-test of D = 12 against each smaller D, " + test,
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
	return best, best.Params.Value(param)
}

func mustFind(sums []store.Summary, kv ...string) store.Summary {
	s, _ := find(sums, kv...)
	return s
}

func fig7Report(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("goodput_bps"))
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
				if s.Params.Value("timer") == tm && s.Params.Value("scenario") == sc {
					sub = append(sub, s)
				}
			}
			if len(sub) == 0 {
				continue
			}
			best, bestD := bestOf(sub, d)
			// The best D the paper names against every D it does not:
			// confirmed when the paper's is significantly above all of
			// them, refuted when any of them is significantly above it.
			var in store.Summary
			in.Mean = math.Inf(-1)
			for _, s := range sub {
				var xi int
				fmt.Sscan(s.Params.Value(d), &xi)
				if want[sc](xi) && s.Mean > in.Mean {
					in = s
				}
			}
			var cmps []comparison
			for _, s := range sub {
				var xi int
				fmt.Sscan(s.Params.Value(d), &xi)
				if !want[sc](xi) {
					cmps = append(cmps, means("D = "+s.Params.Value(d), sample(in), sample(s), 1e-3, " kbit/s"))
				}
			}
			v, test := aboveEverywhere(cmps)
			out.Measured = append(out.Measured, fmt.Sprintf("timer %s %s: best D = %s (%.0f kbit/s); the paper's best, D = %s: %.0f", tm, sc, bestD, best.Mean/1e3, in.Params.Value(d), in.Mean/1e3))
			per[tm] = append(per[tm], Claim{Figure: "Fig. 7", Text: fmt.Sprintf("best D for %s is %s", sc, paper[sc]), Paper: paper[sc],
				Measured: fmt.Sprintf("best mean at D = %s; %s at its best D = %s", bestD, paper[sc], in.Params.Value(d)), Verdict: v,
				Test:   fmt.Sprintf("Welch's t-test of D = %s against each D outside %s, %s", in.Params.Value(d), paper[sc], test),
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
	out.Claims = across(per, abouzeidTimers, "timer", nil)
	return out, nil
}

func ciOrZero(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	return x
}

func fig8Report(c *Context) (*Outcome, error) {
	sums, err := summarize(c, flowValue("goodput_bps"))
	if err != nil {
		return nil, err
	}
	const loss = "links.path.loss.rate"
	ch := plot.Chart{Title: c.Entry.Title, XLabel: "timer granularity G (s)", YLabel: "goodput (kbit/s)", LogX: true,
		Series: seriesChart(sums, "G", loss, 1, 1e-3), Caption: "Abouzeid & Roy Fig. 8: OldTahoe, ns-2's tick arithmetic with tick G and minimum RTO 2G; 2 Mb/s, T1 = 0.1 s, T2 = 0.3 s, h = 10, w_m = 24; one series per loss rate p (the paper's is 0). Mean of " + c.runsText() + ", 95% CI."}
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
			if s.Params.Value(loss) == p {
				sub = append(sub, s)
				out.Measured = append(out.Measured, fmt.Sprintf("p = %s, G = %s s: %s kbit/s", p, s.Params.Value("G"), ciText(s, 1e-3, "")))
			}
		}
		if len(sub) == 0 {
			continue
		}
		first, last := sub[0], sub[len(sub)-1]
		best, bestG := bestOf(sub[1:len(sub)-1], "G")
		v, test := aboveEverywhere([]comparison{
			means("G = "+first.Params.Value("G"), sample(best), sample(first), 1e-3, " kbit/s"),
			means("G = "+last.Params.Value("G"), sample(best), sample(last), 1e-3, " kbit/s")})
		cl := Claim{Figure: "Fig. 8", Text: "an interior optimum of G exists", Paper: "optimum between the extremes (p = 0)",
			Measured: fmt.Sprintf("best interior G = %s s (%.0f kbit/s); G = %s: %.0f, G = %s: %.0f", bestG, best.Mean/1e3,
				first.Params.Value("G"), first.Mean/1e3, last.Params.Value("G"), last.Mean/1e3),
			Verdict: v, Test: fmt.Sprintf("Welch's t-test of the best interior G (%s s) against each end, %s", bestG, test)}
		if v == Confirmed {
			cl.Reason = "a fine tick lets RTT increases cause false timeouts; a coarse one makes real losses wait long"
		} else {
			lo := slices.MinFunc(sub, func(a, b store.Summary) int { return cmp.Compare(a.Mean, b.Mean) })
			hi, _ := bestOf(sub, "G")
			cl.Reason = fmt.Sprintf("the means span %.0f-%.0f kbit/s (a flat curve, or one falling with G as real losses wait for a coarse timer)", lo.Mean/1e3, hi.Mean/1e3)
		}
		per[p] = []Claim{cl}
	}
	out.Claims = across(per, ps, "loss rate p", func(p string) bool { return p == "0" })
	return out, nil
}
