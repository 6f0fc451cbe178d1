package repro

import (
	"fmt"
	"math"
	"path/filepath"

	"github.com/tcplab/tcplab/plot"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/store"
	"github.com/tcplab/tcplab/tcp"
)

// Fig. 11's lead time and the received-throughput bins of Figs. 9-11 come
// from time series of single runs: the flow's receiver sampled every
// 0.8 s, and the source's congestion window after every ACK and timeout.

// alltcpBin is the paper's throughput time scale.
const alltcpBin = 800 * sim.Millisecond

// alltcpSeries is what one traced run of examples/alltcp-chain.yaml gave.
type alltcpSeries struct {
	bins []float64 // Mbit/s received in each 0.8 s bin
	// lead are the times from each window reduction of the source until
	// its window is back where it was before it (s); censored counts the
	// reductions not recovered by the end of the run, whose lead is the
	// time to the end (a lower bound).
	lead     []float64
	censored int
}

// alltcpTrace runs the chain with sets and seed and records its series.
func alltcpTrace(c *Context, sets []string, seed uint64) (*alltcpSeries, error) {
	file := "examples/alltcp-chain.yaml"
	if c.Root != "" {
		file = filepath.Join(c.Root, file)
	}
	s, err := scenario.Load(file, sets)
	if err != nil {
		return nil, err
	}
	s.Seed = seed
	run, err := s.Build()
	if err != nil {
		return nil, err
	}
	f := run.TCPFlows()[0]
	out := &alltcpSeries{}
	var bin sim.Timer
	var last int64
	bin.Init(run.Net.Sched, func() {
		out.bins = append(out.bins, float64(f.Snapshot().Delivered-last)*8/alltcpBin.Seconds()/1e6)
		last = f.Snapshot().Delivered
		bin.Arm(run.Net.Now() + alltcpBin)
	})
	bin.Arm(alltcpBin)
	type open struct {
		at     sim.Time
		target float64
	}
	var pending []open
	prev := -1.0
	f.SetAckProbe(func(p *tcp.Sample) {
		if prev >= 0 && p.Cwnd < prev {
			pending = append(pending, open{p.Time, prev}) // a multiplicative decrease (or a timeout's fall)
		}
		prev = p.Cwnd
		keep := pending[:0]
		for _, o := range pending {
			if p.Cwnd >= o.target {
				out.lead = append(out.lead, (p.Time - o.at).Seconds())
			} else {
				keep = append(keep, o)
			}
		}
		pending = keep
	})
	if _, err := run.Run(); err != nil {
		return nil, err
	}
	// A reduction not recovered by the end lasted at least until then:
	// leaving it out would favour whichever recovers the long ones least.
	out.censored = len(pending)
	for _, o := range pending {
		out.lead = append(out.lead, (run.Net.Now() - o.at).Seconds())
	}
	return out, nil
}

// binSeries is 0.8 s bins as a series over time.
func binSeries(name string, bins []float64) plot.Series {
	ser := plot.Series{Name: name}
	for i, v := range bins {
		ser.X, ser.Y = append(ser.X, (float64(i)+1)*alltcpBin.Seconds()), append(ser.Y, v)
	}
	return ser
}

// categorical draws summaries of settings as one series over 0, 1, 2, …,
// with their ticks.
func categorical(name string, sums []store.Summary) ([]plot.Series, []float64) {
	ser := plot.Series{Name: name}
	var ticks []float64
	for i, s := range sums {
		ser.X, ser.Y, ser.Err = append(ser.X, float64(i)), append(ser.Y, s.Mean), append(ser.Err, math.Max(s.CI95, 0))
		ticks = append(ticks, float64(i))
	}
	return []plot.Series{ser}, ticks
}

// writeSecondFigure saves ch beside the entry's main figure as
// NAME-suffix.{png,svg} and lists it in out.
func writeSecondFigure(c *Context, out *Outcome, ch plot.Chart, suffix string) error {
	base := filepath.Join(c.Dir, c.Entry.Name) + "-" + suffix
	ch.Caption = c.captioned(ch.Caption)
	for _, ext := range []string{".svg", ".png"} {
		if err := plot.Line(ch, base+ext); err != nil {
			return err
		}
		out.Files = append(out.Files, base+ext)
	}
	out.Figures = append(out.Figures, base+".svg")
	return nil
}

func init() {
	Register(&Entry{
		Name: "alltcp-fig11", Paper: "alltcp", Alone: alltcpAlone, Source: alltcpSource + ", §4.2, Figs. 10-11 as captioned (lead time, throughput at link error 0.1; the text calls both Fig. 11)",
		Title:  "Lead time for the source's window to recover after a reduction, and received throughput in 0.8 s bins at link error 10%: Tahoe end to end vs ALL-TCP",
		Claim:  "ALL-TCP quickly retrieves the highest congestion window each time it incurs congestion, and always gets higher throughput than Tahoe with link error 0.1.",
		Report: alltcpFig11Report,
		Setup: append([]Deviation{
			{"duration", "0-100 s on the figure's axis", "200 s, 10 seeds", "more reductions to average"},
			{"lead time", "time to 'retrieve the highest congestion window'", "time until the window is back at its value before each reduction", "the highest value is not defined"}}, alltcpSetup...),
	})
}

func alltcpFig11Report(c *Context) (*Outcome, error) {
	seeds, dur := 10, "200s"
	if c.Short {
		seeds, dur = 3, "100s"
	}
	settings := []struct{ name, mode string }{{"Tahoe end to end", "observe"}, {"ALL-TCP", "split"}}
	var leadSums []store.Summary
	var bins []plot.Series
	means := map[string]float64{}
	thrSums := map[string]store.Summary{}
	out := &Outcome{}
	for _, st := range settings {
		sets := []string{"duration=" + dur, "nodes.R2.agent.mode=" + st.mode}
		for l := 1; l <= 5; l++ {
			sets = append(sets, fmt.Sprintf("links.l%d.loss.rate=10%%", l))
		}
		var leads, perRun []float64
		censored := 0
		var sum []float64
		for seed := 1; seed <= seeds; seed++ {
			tr, err := alltcpTrace(c, append(sets, c.Sets...), uint64(seed))
			if err != nil {
				return nil, err
			}
			leads = append(leads, tr.lead...)
			censored += tr.censored
			var tot float64
			for i, b := range tr.bins {
				if i >= len(sum) {
					sum = append(sum, 0)
				}
				sum[i] += b / float64(seeds)
				tot += b
			}
			perRun = append(perRun, tot/float64(len(tr.bins)))
		}
		ls := store.Summarize(store.Summary{Params: store.Params{{Name: "setting", Value: st.name}}}, leads)
		leadSums = append(leadSums, ls)
		ts := store.Summarize(store.Summary{}, perRun)
		means[st.name] = ts.Mean
		thrSums[st.name] = ts
		bins = append(bins, binSeries(st.name, sum))
		out.Measured = append(out.Measured, fmt.Sprintf("%s: lead time %s s over %d window reductions (%d not recovered by the end, counted to it), throughput %s kbit/s",
			st.name, ciText(ls, 1, ""), ls.N, censored, ciText(ts, 1000, "")))
	}
	e2e, split := leadSums[0], leadSums[1]
	lv, ltest := above(sample(e2e), sample(split), 1, " s")
	tv, ttest := above(sample(thrSums["ALL-TCP"]), sample(thrSums["Tahoe end to end"]), 1000, " kbit/s")
	out.Claims = append(out.Claims,
		Claim{Figure: "Fig. 11 (lead time)", Text: "ALL-TCP recovers its window faster after a reduction",
			Paper: "Tahoe up to ~90 s, ALL-TCP lower", Measured: fmt.Sprintf("mean %.2f vs %.2f s", split.Mean, e2e.Mean),
			Verdict: lv, Test: "Welch's t-test of Tahoe's lead times against ALL-TCP's: " + ltest, Reason: "the source's segment ends at R2: two links, 0.4 of the end-to-end RTT, so its window regrows in fewer seconds"},
		Claim{Figure: "Fig. 11 (throughput)", Text: "ALL-TCP always gets higher throughput than Tahoe at link error 0.1",
			Paper: "higher at all times", Measured: fmt.Sprintf("%.1f vs %.1f kbit/s on average", 1000*means["ALL-TCP"], 1000*means["Tahoe end to end"]),
			Verdict: tv, Test: "Welch's t-test of per-run mean throughput: " + ttest, Reason: "mean of the 0.8 s bins over all seeds; single bins of either can be zero during a timeout"})
	lc := plot.Chart{Title: "ALL-TCP Fig. 11: lead time to recover the window", XLabel: "0 = Tahoe end to end, 1 = ALL-TCP", YLabel: "lead time (s)",
		Caption: fmt.Sprintf("Mean over every reduction of the source's window in %d runs, 95%% CI: the time until the window is back to its value before the reduction.", seeds)}
	lc.Series, lc.XTicks = categorical("lead time", leadSums)
	fig, err := writeFigure(c, lc, leadSums, "lead_seconds")
	if err != nil {
		return nil, err
	}
	out.Files, out.Figures = append(out.Files, fig.Files...), append(out.Figures, fig.Figures...)
	ch := plot.Chart{Title: "ALL-TCP Fig. 11: received throughput at link error 0.1", XLabel: "time (s)", YLabel: "throughput (Mbit/s)", Series: bins,
		Caption: fmt.Sprintf("Bytes received at H2 per 0.8 s, mean of %d seeds; Tahoe (ns-2 agent, window 20), five 4 Mbit/s 50 ms links losing 10%% of data packets each.", seeds)}
	if err := writeSecondFigure(c, out, ch, "throughput"); err != nil {
		return nil, err
	}
	return out, nil
}
