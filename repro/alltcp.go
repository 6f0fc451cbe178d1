package repro

import (
	"fmt"
	"math"
	"strings"

	"github.com/tcplab/tcplab/alltcp"
	"github.com/tcplab/tcplab/model"
	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/store"
)

// ALL-TCP (Al Shinwan et al. 2020): its §4.1 model of end-to-end (ETET) vs
// segment-by-segment (SBST) transport, Figs. 2-3, beside a packet-level
// simulation of the same process; and its §4.2 experiments on the Fig. 4
// network (examples/alltcp-chain.yaml) with tcplab's edge agent
// (package alltcp): drops, Figs. 5-8; throughput with one and two agents,
// Figs. 9-10; throughput at 10% link error, Fig. 11.

const alltcpSource = "ALL-TCP, An intelligent long-lived TCP based on real-time traffic regulation (shared paper all-tcp-long-lived-regulation)"

// The figures' set-up (§4.1.4): 8 routers, 5% loss each, the agent after
// the fourth; the x axis is R = 1..6 (the text says R = 10, the plots stop
// at 6).
const (
	alltcpN, alltcpP, alltcpSplit, alltcpPackets = 8, 0.05, 4, 20000
)

func init() {
	Register(&Entry{
		Name: "alltcp-fig2", Paper: "alltcp", Alone: alltcpAlone, Source: alltcpSource + ", §4.1, Fig. 2 (its caption and Fig. 3's are swapped: Fig. 2 plots routers traversed)",
		Title:  "Routers a packet traverses vs the maximum number of transmissions R: ETET vs SBST, model and packet-level simulation",
		Claim:  "In SBST a packet passes fewer routers to reach the receiver than in ETET: SBST consumes less network resource.",
		Report: func(c *Context) (*Outcome, error) { return alltcpReliability(c, false) },
	})
	Register(&Entry{
		Name: "alltcp-fig3", Paper: "alltcp", Alone: alltcpAlone, Source: alltcpSource + ", §4.1, Fig. 3 (captioned resource consumption; it plots the probability of failure)",
		Title:  "Probability a packet never arrives vs the maximum number of transmissions R: ETET vs SBST, model and packet-level simulation",
		Claim:  "SBST is more reliable than the conventional ETET.",
		Report: func(c *Context) (*Outcome, error) { return alltcpReliability(c, true) },
	})
}

// alltcpReliability draws Fig. 2 (routers) or Fig. 3 (loss) for R = 1..6.
func alltcpReliability(c *Context, loss bool) (*Outcome, error) {
	packets := alltcpPackets
	if c.Short {
		packets = 4000
	}
	var sums []store.Summary
	curves := []plot.Curve{{Name: "ETET, model"}, {Name: "SBST, model"}, {Name: "ETET, model as printed"}, {Name: "SBST, model as printed"}}
	var worse, far []string
	pick := func(s model.PathStats) float64 {
		if loss {
			return s.Loss
		}
		return s.Hops
	}
	for r := 1; r <= 6; r++ {
		m, err := model.AllTCP(model.UniformLoss(alltcpN, alltcpP), alltcpSplit, r)
		if err != nil {
			return nil, err
		}
		for i, v := range []float64{pick(m.ETET), pick(m.SBST), pick(m.ETETPaper), pick(m.SBSTPaper)} {
			curves[i].X, curves[i].Y = append(curves[i].X, float64(r)), append(curves[i].Y, v)
		}
		for k, split := range []int{0, alltcpSplit} {
			g, err := alltcp.SimulateReliability(alltcpN, alltcpP, split, r, packets, uint64(r))
			if err != nil {
				return nil, err
			}
			v, want := g.Hops, pick([]model.PathStats{m.ETET, m.SBST}[k])
			ci, tol := 0.0, 0.02*want
			if loss {
				v = g.Loss
				ci = 1.96 * math.Sqrt(v*(1-v)/float64(packets))
				// The binomial spread about the model's value, and
				// the rule of three for rates near zero.
				tol = 1.96*math.Sqrt(want*(1-want)/float64(packets)) + 3/float64(packets)
			}
			name := []string{"ETET", "SBST"}[k]
			rv := float64(r)
			sums = append(sums, store.Summary{Params: store.Params{{Name: "transport", Value: name + ", simulation"}, {Name: "R", Value: fmt.Sprint(r), Num: &rv}},
				N: packets, Mean: v, CI95: ci})
			if math.Abs(v-want) > tol+1e-9 {
				far = append(far, fmt.Sprintf("%s at R %d: %.4g vs %.4g", name, r, v, want))
			}
		}
		a, b := pick(m.ETET), pick(m.SBST)
		if r > 1 && !(b < a) {
			worse = append(worse, fmt.Sprint(r))
		}
	}
	what, unit := "routers traversed per packet", ""
	fig := "Fig. 2"
	if loss {
		what, fig = "probability of failure", "Fig. 3"
	}
	out := &Outcome{}
	// At R = 1 the two are one process (a single attempt, dropped or
	// carried through): equal by construction, so R = 2..6 are compared.
	text := "SBST below ETET at every R from 2 (at R = 1 the two are the same single attempt, and equal)"
	if loss {
		out.Claims = append(out.Claims, everywhereClaim(fig, "SBST more reliable than ETET", "SBST below ETET", what, unit, 5, worse, "not at R ", text))
	} else {
		out.Claims = append(out.Claims, everywhereClaim(fig, "SBST traverses fewer routers than ETET", "SBST below ETET", what, unit, 5, worse, "not at R ", text))
	}
	simOK := len(far) == 0
	reason := "every simulated point within the binomial 95% spread (routers: within 2%) of the exact model"
	if !simOK {
		reason = "simulation and model differ: " + strings.Join(far, "; ")
	}
	out.Claims = append(out.Claims, Claim{Kind: ModelCheck, Figure: fig, Text: "the analytical model matches a simulation of the same process",
		Paper: "MATLAB curves only (the paper claims no simulation of it)", Measured: fmt.Sprintf("%d points, %d outside", 12, len(far)), Verdict: verdictOf(simOK),
		Test: "each simulated point within the binomial 95% spread of the exact model (routers: within 2%)", Reason: reason})
	m1, _ := model.AllTCP(model.UniformLoss(alltcpN, alltcpP), alltcpSplit, 6)
	out.Measured = append(out.Measured, fmt.Sprintf("R = 6: ETET %.4g, SBST %.4g %s (exact); as printed (eqs. 13, 18 leave out a drop at the last router and success at the R-th attempt): %.4g, %.4g",
		pick(m1.ETET), pick(m1.SBST), what, pick(m1.ETETPaper), pick(m1.SBSTPaper)))
	ch := plot.Chart{Title: fmt.Sprintf("ALL-TCP %s: %s vs R", fig, what), XLabel: "maximum number of transmissions R", YLabel: what,
		Series: seriesChart(sums, "R", "transport", 1, 1), Curves: curves, XTicks: []float64{1, 2, 3, 4, 5, 6},
		Caption: fmt.Sprintf("n = %d routers, p = %g each, split after router %d. Points: %d packets sent hop by hop over tcplab links with Bernoulli loss, 95%% CI. Lines: eqs. 10-29 exact and as printed.", alltcpN, alltcpP, alltcpSplit, packets)}
	f, err := writeFigure(c, ch, sums, "value")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = f.Files, f.Figures
	return out, nil
}

// alltcpSetup: what every ALL-TCP simulation adds to §4.2's text.
var alltcpSetup = []Deviation{
	{"link error", "'link error instead of congestion', p_i at each of 4 routers; links not named", "every one of the five links (host links included), data packets, forward direction", "the paper does not say which links; five links make 1-(1-p)^5 per transmission, harsher than four routers' 1-(1-p)^4"},
	{"Tahoe's window and segment", "not stated", "ns-2's defaults: window 20, 1000-byte segments", "the paper ran ns-2"},
}

// alltcpErrors are the link error rates of Figs. 5-8.
var alltcpErrors = []float64{0.025, 0.05, 0.075, 0.1}

func alltcpErrorCases() string {
	var b strings.Builder
	b.WriteString("  - name: error\n    cases:\n")
	for _, p := range alltcpErrors {
		fmt.Fprintf(&b, "      \"%g%%\": {", 100*p)
		for l := 1; l <= 5; l++ {
			if l > 1 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "links.l%d.loss.rate: %g%%", l, 100*p)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// alltcpSettings are the three ways the agents run.
const alltcpSettings = `  - name: setting
    cases:
      "Tahoe end to end": {nodes.R2.agent.mode: observe}
      "ALL-TCP": {nodes.R2.agent.mode: split}
`

func init() {
	Register(&Entry{
		Name: "alltcp-fig5", Quoted: []string{"2000"}, Paper: "alltcp", Alone: alltcpAlone, Source: alltcpSource + ", §4.2, Figs. 5-8 and 11",
		Title: "Packets dropped for 2000 packets at link error 2.5-10%: Tahoe end to end vs ALL-TCP (agent at R2), with the analytic drop rates",
		Claim: "The packet drop probability of ALL-TCP is always smaller than the conventional Tahoe TCP's, as the analytical model says (Figs. 5-8); ALL-TCP gets higher throughput than Tahoe at link error 0.1 (Fig. 11).",
		Sweep: `name: alltcp-fig5
scenario: examples/alltcp-chain.yaml
set: {duration: 3000s}
grid:
` + alltcpErrorCases() + alltcpSettings + `replications: 10
metrics: [dropped.channel_error, sent_packets, delivered_bytes, goodput_bps, completion_seconds, run.agent.R2.splits]
`,
		Short:  []string{"duration=600s"},
		Report: alltcpDropsReport,
		Setup: append([]Deviation{
			{"figures", "captions 5-7 at link error 0.05, 0.075, 0.1 (the text's Figs. 6-8; its Fig. 5, 0.025, has no caption)", "2.5, 5, 7.5 and 10%", "the text's four rates"},
			{"drop probability", "dropped against sent packets", "drops per packet delivered (the verdict), drops per packet sent (a sensitivity line)", "a split flow sends each packet twice, once per segment: per delivered packet compares the cost of the data carried"}}, alltcpSetup...),
	})
	Register(&Entry{
		Name: "alltcp-fig9", Quoted: []string{"2000"}, Paper: "alltcp", Alone: alltcpAlone, Source: alltcpSource + ", §4.2, Figs. 8-9 as captioned (the text's Figs. 9-10)",
		Title: "Throughput of 2000 packets in the normal state (no link error): end to end, one agent, two agents",
		Claim: "ALL-TCP achieves higher throughput than Tahoe and finishes 2000 packets sooner, because each segment's RTT is shorter; two agents do better still.",
		Sweep: `name: alltcp-fig9
scenario: examples/alltcp-chain.yaml
set: {duration: 200s, links.l1.loss.rate: 0, links.l2.loss.rate: 0, links.l3.loss.rate: 0, links.l4.loss.rate: 0, links.l5.loss.rate: 0}
grid:
  - name: setting
    cases:
      "Tahoe end to end": {nodes.R2.agent.mode: observe}
      "1 ALL-TCP agent": {nodes.R2.agent.mode: split}
      "2 ALL-TCP agents": {nodes.R2.agent.mode: split, nodes.R3.agent.mode: split}
replications: 3
metrics: [goodput_bps, completion_seconds, run.agent.R2.splits, run.agent.R3.splits]
`,
		Short:         []string{"duration=100s"},
		Report:        alltcpThroughputReport,
		Deterministic: true,
		Setup: append([]Deviation{
			{"normal state", "traffic below the agent's minimum threshold", "no link error, the agent forced to split", "the threshold's traffic is not given"},
			{"second agent", "not placed", "at R3", "the text does not say where"}}, alltcpSetup...),
	})
}

// alltcpDropsReport compares drops per packet with the analytic rates: end
// to end every transmission crosses all five lossy links, 1 − (1−p)^5 per
// packet sent; split, a packet delivered costs ((1−p)^−2 − 1) + ((1−p)^−3 − 1)
// drops with ideal retransmission on each segment (2 and 3 links).
func alltcpDropsReport(c *Context) (*Outcome, error) {
	perSent, err := perRun(c.Store, func(r *store.Run) (float64, bool) {
		d, _ := flowMetric("f", "dropped.channel_error", 1)(r)
		s, ok := flowMetric("f", "sent_packets", 1)(r)
		return d / s, ok && s > 0
	})
	if err != nil {
		return nil, err
	}
	perDelivered, err := perRun(c.Store, func(r *store.Run) (float64, bool) {
		d, _ := flowMetric("f", "dropped.channel_error", 1)(r)
		b, ok := flowMetric("f", "delivered_bytes", 1)(r)
		return d / (b / 1000), ok && b > 0
	})
	if err != nil {
		return nil, err
	}
	goodput, err := perRun(c.Store, flowMetric("f", "goodput_bps", 1e-3))
	if err != nil {
		return nil, err
	}
	ds, dd, gs := summaries(perSent), summaries(perDelivered), summaries(goodput)
	const e2e, split = "Tahoe end to end", "ALL-TCP"
	out := &Outcome{}
	var notLower, e2eFar []string
	var splitNotes []string
	var fewer []comparison
	var splitCmp []equivalencePoint
	for _, p := range alltcpErrors {
		x := fmt.Sprintf("%g%%", 100*p)
		a, ok1 := find(dd, "error", x, "setting", e2e)
		b, ok2 := find(dd, "error", x, "setting", split)
		if !ok1 || !ok2 {
			continue
		}
		if !(b.Mean < a.Mean) {
			notLower = append(notLower, x)
		}
		fewer = append(fewer, means(x, sample(a), sample(b), 1000, " per 1000"))
		s, _ := find(ds, "error", x, "setting", e2e)
		want := 1 - math.Pow(1-p, 5)
		if math.Abs(s.Mean-want) > math.Max(s.CI95, 0.01*want) {
			e2eFar = append(e2eFar, fmt.Sprintf("%s: %.4f vs %.4f", x, s.Mean, want))
		}
		ideal := math.Pow(1-p, -2) - 1 + math.Pow(1-p, -3) - 1
		splitNotes = append(splitNotes, fmt.Sprintf("%s: %.3f vs %.3f", x, b.Mean, ideal))
		splitCmp = append(splitCmp, equivalencePoint{x, sample(b), constant(ideal)})
		out.Measured = append(out.Measured, fmt.Sprintf("error %s: drops per 1000 packets delivered, end to end %s, ALL-TCP %s (ideal SBST %.0f, ideal ETET %.0f)",
			x, ciText(a, 1000, ""), ciText(b, 1000, ""), 1000*ideal, 1000*(math.Pow(1-p, -5)-1)))
	}
	dv, dtest := aboveEverywhere(fewer)
	var perSentCmp []comparison
	for _, x := range errorLabels() {
		a, ok1 := find(ds, "error", x, "setting", e2e)
		b, ok2 := find(ds, "error", x, "setting", split)
		if ok1 && ok2 {
			perSentCmp = append(perSentCmp, means(x, sample(a), sample(b), 1000, " per 1000"))
		}
	}
	sv2, stest2 := aboveEverywhere(perSentCmp)
	out.Claims = append(out.Claims, Claim{Figure: "Figs. 5-8", Text: "ALL-TCP drops fewer packets than Tahoe for the data it delivers", Paper: "always smaller",
		Measured: fmt.Sprintf("below at %d of %d error rates (means)", len(alltcpErrors)-len(notLower), len(alltcpErrors)), Verdict: dv,
		Test:        "Welch's t-test of Tahoe's drops per delivered packet against ALL-TCP's at each error rate, " + dtest,
		Sensitivity: []string{fmt.Sprintf("per packet sent (the paper's axis: dropped against sent): %s (%s)", sv2, stest2)},
		Reason:      "a loss on the second segment is repaired from R2, across three links instead of five"})
	reason := "end to end, drops per packet sent equal 1 − (1 − p)^5 within the 95% interval at every rate: every transmission crosses the five lossy links"
	if len(e2eFar) > 0 {
		reason = "outside the interval: " + strings.Join(e2eFar, "; ")
	}
	out.Claims = append(out.Claims, Claim{Kind: SanityCheck, Figure: "Figs. 5-8", Text: "end to end, drops per packet sent are 1 − (1 − p)^5", Paper: "(the error model: five lossy links)",
		Measured: fmt.Sprintf("%d rates, %d outside", len(alltcpErrors), len(e2eFar)), Verdict: verdictOf(len(e2eFar) == 0),
		Test: "each rate's mean within its 95% interval (or 1%) of 1 − (1 − p)^5: the Bernoulli error model on five links, not the paper", Reason: reason})
	sv, stest := equivalentEverywhere(splitCmp, 0.10)
	out.Claims = append(out.Claims, Claim{Figure: "Figs. 5-8", Text: "the analytic drop rate matches the simulation (split, within ±10%)", Paper: "analytical model matched well with ns-2",
		Measured: strings.Join(splitNotes, "; "), Verdict: sv, Test: "TOST of drops per delivered packet against the ideal SBST rate at each error rate: " + stest,
		Reason: "the SBST model assumes each drop costs one retransmission on its segment; Tahoe's go-back-N after a timeout resends segments that had arrived, so drops per delivered packet exceed the ideal rate by how often timeouts strike"})
	hiE, _ := find(gs, "error", "10%", "setting", e2e)
	hiS, _ := find(gs, "error", "10%", "setting", split)
	tv, ttest := above(sample(hiS), sample(hiE), 1, "")
	out.Claims = append(out.Claims, Claim{Figure: "Fig. 11", Text: "ALL-TCP gets higher throughput than Tahoe at link error 0.1",
		Paper: "higher", Measured: fmt.Sprintf("%s vs %s kbit/s", ciText(hiS, 1, ""), ciText(hiE, 1, "")), Verdict: tv, Test: ttest,
		Reason: "the split halves the path a loss is repaired over and each segment's RTT"})
	ch := plot.Chart{Title: "ALL-TCP Figs. 5-8: drops per packet delivered vs link error", XLabel: "link error per link (%)", YLabel: "drops per packet delivered",
		Series:  seriesChart(dd, "error", "setting", 1, 1),
		Caption: fmt.Sprintf("Mean of %d runs, 95%% CI; 2000 packets of 1000 bytes, Tahoe (ns-2 agent, window 20), five 4 Mbit/s 50 ms links each losing data packets with the given probability; agent at R2. Lines: ideal retransmission.", dd[0].N)}
	for _, cv := range []struct {
		name string
		f    func(p float64) float64
	}{{"ideal ETET", func(p float64) float64 { return math.Pow(1-p, -5) - 1 }},
		{"ideal SBST", func(p float64) float64 { return math.Pow(1-p, -2) - 1 + math.Pow(1-p, -3) - 1 }}} {
		k := plot.Curve{Name: cv.name}
		for _, p := range alltcpErrors {
			k.X, k.Y = append(k.X, 100*p), append(k.Y, cv.f(p))
		}
		ch.Curves = append(ch.Curves, k)
	}
	fig, err := writeFigure(c, ch, dd, "drops_per_packet")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = fig.Files, fig.Figures
	return out, nil
}

// alltcpThroughputReport compares goodput and completion time of the
// three settings.
func alltcpThroughputReport(c *Context) (*Outcome, error) {
	g, err := perRun(c.Store, flowMetric("f", "goodput_bps", 1e-6))
	if err != nil {
		return nil, err
	}
	t, err := perRun(c.Store, flowMetric("f", "completion_seconds", 1))
	if err != nil {
		return nil, err
	}
	gs, ts := summaries(g), summaries(t)
	at := func(sums []store.Summary, s string) store.Summary { v, _ := find(sums, "setting", s); return v }
	e2e, one, two := at(gs, "Tahoe end to end"), at(gs, "1 ALL-TCP agent"), at(gs, "2 ALL-TCP agents")
	te, t1, t2 := at(ts, "Tahoe end to end"), at(ts, "1 ALL-TCP agent"), at(ts, "2 ALL-TCP agents")
	out := &Outcome{}
	for _, s := range gs {
		ct := at(ts, s.Params.Value("setting"))
		out.Measured = append(out.Measured, fmt.Sprintf("%s: goodput %s kbit/s, 2000 packets in %s s", s.Params.Value("setting"), ciText(s, 1000, ""), ciText(ct, 1, "")))
	}
	// With window_ 20 of 1000-byte segments a connection carries at most
	// 20 segments per RTT: 0.32 Mbit/s over the 0.5 s path, 0.53 over the
	// three links after R2, 0.8 over two.
	out.Claims = append(out.Claims,
		Claim{Figure: "Fig. 9", Text: "ALL-TCP achieves higher throughput than Tahoe", Paper: "about 0.6 vs 0.3 Mbit/s",
			Measured: fmt.Sprintf("%.3f vs %.3f Mbit/s", one.Mean, e2e.Mean), Verdict: verdictOf(one.Mean > e2e.Mean), Test: deterministic,
			Reason: "with the window capped at 20 segments, throughput is 20 segments per RTT: the segment after R2 (three links) has 0.6 of the end-to-end RTT"},
		Claim{Figure: "Fig. 9", Text: "ALL-TCP finishes 2000 packets sooner", Paper: "shorter",
			Measured: fmt.Sprintf("%.1f vs %.1f s", t1.Mean, te.Mean), Verdict: verdictOf(t1.Mean < te.Mean), Test: deterministic, Reason: "follows from the throughput"},
		Claim{Figure: "Fig. 10", Text: "two agents do better than one", Paper: "up to 0.9 Mbit/s",
			Measured: fmt.Sprintf("%.3f vs %.3f Mbit/s, %.1f vs %.1f s", two.Mean, one.Mean, t2.Mean, t1.Mean), Verdict: verdictOf(two.Mean > one.Mean), Test: deterministic,
			Reason: "a second split at R3 leaves segments of two, one and two links: the slowest has 0.4 of the end-to-end RTT"})
	ch := plot.Chart{Title: "ALL-TCP Figs. 9-10: goodput of 2000 packets, normal state", XLabel: "agents splitting the flow", YLabel: "goodput (Mbit/s)",
		Caption: fmt.Sprintf("Mean of %d runs, 95%% CI; no link error, Tahoe (window 20), examples/alltcp-chain.yaml.", gs[0].N)}
	ch.Series, ch.XTicks = categorical("goodput", []store.Summary{e2e, one, two})
	fig, err := writeFigure(c, ch, gs, "goodput_mbps")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = fig.Files, fig.Figures
	// The paper's figures: bytes received per 0.8 s over time, one run.
	bins := plot.Chart{Title: "ALL-TCP Figs. 9-10: received throughput, normal state", XLabel: "time (s)", YLabel: "throughput (Mbit/s)",
		Caption: "Bytes received at H2 per 0.8 s, seed 1; no link error, Tahoe (ns-2 agent, window 20)."}
	for _, st := range []struct{ name, r2, r3 string }{{"Tahoe end to end", "observe", "observe"}, {"1 ALL-TCP agent", "split", "observe"}, {"2 ALL-TCP agents", "split", "split"}} {
		sets := []string{"duration=80s", "nodes.R2.agent.mode=" + st.r2, "nodes.R3.agent.mode=" + st.r3}
		for l := 1; l <= 5; l++ {
			sets = append(sets, fmt.Sprintf("links.l%d.loss.rate=0", l))
		}
		tr, err := alltcpTrace(c, sets, 1)
		if err != nil {
			return nil, err
		}
		bins.Series = append(bins.Series, binSeries(st.name, tr.bins))
	}
	if err := writeSecondFigure(c, out, bins, "throughput"); err != nil {
		return nil, err
	}
	return out, nil
}

// errorLabels are the error cases' labels, as the sweep names them.
func errorLabels() []string {
	var out []string
	for _, p := range alltcpErrors {
		out = append(out, fmt.Sprintf("%g%%", 100*p))
	}
	return out
}
