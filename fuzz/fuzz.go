// Package fuzz generates random valid scenarios and runs each under a
// budget with invariants checked: no panic, no hang, no byte acknowledged
// that was never sent, cwnd never below one segment, SND.UNA never going
// back, no flow faster than the slowest link of its path, no more bytes
// delivered than that link carries in the run, and a rerun with
// the same seed byte-identical. A scenario that breaks one is written out
// as a YAML file that reproduces it with `tcplab run`.
package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/tcp"
)

// Config is one fuzzing campaign: scenarios Seed·N ... are generated from
// (Seed, index), so any one can be regenerated alone.
type Config struct {
	Seed      uint64
	N         int
	MaxEvents uint64        // per run; 0: 20 million
	MaxWall   time.Duration // per run; 0: 10 s
	Dir       string        // where failing scenarios are written ("": not written)
}

// Finding is a scenario that broke an invariant.
type Finding struct {
	Index   int
	File    string // the scenario written out, if Config.Dir was set
	Problem string
}

// Report sums up a campaign.
type Report struct {
	Runs     int
	Events   uint64
	Rejected int // generated scenarios the validator refused (generator misses, not findings)
	Findings []Finding
	// Slow are the runs stopped by the budget: not an invariant broken,
	// but a run a user would have to wait for (see the README's notes on
	// SACK's per-ACK cost with very large windows).
	Slow     []Finding
	Variants map[string]int // runs per variant, to show the coverage
}

// Run generates and checks cfg.N scenarios; progress, if set, is called
// after each.
func Run(cfg Config, progress func(done int, r *Report)) *Report {
	if cfg.MaxEvents == 0 {
		cfg.MaxEvents = 20_000_000
	}
	if cfg.MaxWall == 0 {
		cfg.MaxWall = 10 * time.Second
	}
	rep := &Report{Variants: map[string]int{}}
	for i := 0; i < cfg.N; i++ {
		src, variants := Generate(cfg.Seed, i)
		events, err := Check(fmt.Sprintf("fuzz-%d-%d.yaml", cfg.Seed, i), src, scenario.Budget{MaxEvents: cfg.MaxEvents, MaxWall: cfg.MaxWall})
		var rejected *rejectedError
		var over *scenario.BudgetError
		switch {
		case errors.As(err, &over):
			rep.Runs++
			rep.Slow = append(rep.Slow, Finding{Index: i, Problem: err.Error(), File: write(cfg.Dir, cfg.Seed, i, err, src)})
		case err == nil:
			rep.Runs++
			rep.Events += events
			for _, v := range variants {
				rep.Variants[v]++
			}
		case asRejected(err, &rejected):
			rep.Rejected++
		default:
			rep.Runs++
			rep.Findings = append(rep.Findings, Finding{Index: i, Problem: err.Error(), File: write(cfg.Dir, cfg.Seed, i, err, src)})
		}
		if progress != nil {
			progress(i+1, rep)
		}
	}
	return rep
}

// write saves a scenario that failed, with the failure as a comment, and
// returns its path ("" if dir is "").
func write(dir string, seed uint64, i int, err error, src []byte) string {
	if dir == "" {
		return ""
	}
	path := filepath.Join(dir, fmt.Sprintf("fuzz-%d-%d.yaml", seed, i))
	os.MkdirAll(dir, 0o755)
	os.WriteFile(path, append([]byte("# "+strings.ReplaceAll(err.Error(), "\n", "\n# ")+"\n"), src...), 0o644)
	return path
}

// rejectedError is a generated scenario the validator refused.
type rejectedError struct{ err error }

func (e *rejectedError) Error() string { return "rejected: " + e.err.Error() }

func asRejected(err error, target **rejectedError) bool {
	r, ok := err.(*rejectedError)
	if ok {
		*target = r
	}
	return ok
}

// Check runs one scenario twice under the budget and checks the
// invariants; it returns the events of one run.
func Check(name string, src []byte, b scenario.Budget) (events uint64, err error) {
	first, events, err := runChecked(name, src, b)
	if err != nil {
		return events, err
	}
	second, _, err := runChecked(name, src, b)
	if err != nil {
		return events, fmt.Errorf("rerun: %w", err)
	}
	if !bytes.Equal(first, second) {
		return events, fmt.Errorf("two runs with the same seed differ")
	}
	return events, nil
}

// runChecked runs once, with the per-event invariants probed, and returns
// the result JSON without its wall time.
func runChecked(name string, src []byte, b scenario.Budget) (out []byte, events uint64, err error) {
	s, err := scenario.Parse(name, src, nil)
	if err != nil {
		return nil, 0, &rejectedError{err}
	}
	run, err := s.Build()
	if err != nil {
		return nil, 0, &rejectedError{err}
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	var broken []string
	for _, f := range run.TCPFlows() {
		f := f
		mss := float64(f.Config().Segments.MSS)
		lastUna := int64(-1)
		f.SetAckProbe(func(p *tcp.Sample) {
			if len(broken) > 3 {
				return
			}
			switch {
			case p.Cwnd < mss*(1-1e-9):
				broken = append(broken, fmt.Sprintf("flow %s: cwnd %.1f below one segment (%g) at %v", f.Name, p.Cwnd, mss, p.Time))
			case p.Una > p.High:
				broken = append(broken, fmt.Sprintf("flow %s: SND.UNA %d beyond SND.MAX %d at %v (an ACK of unsent data)", f.Name, p.Una, p.High, p.Time))
			case p.Una < lastUna:
				broken = append(broken, fmt.Sprintf("flow %s: SND.UNA went back from %d to %d at %v", f.Name, lastUna, p.Una, p.Time))
			}
			lastUna = max(lastUna, p.Una)
		})
	}
	res, err := run.RunWithin(b)
	if err != nil {
		return nil, 0, err
	}
	if len(broken) > 0 {
		return nil, res.Events, fmt.Errorf("%s", strings.Join(broken, "; "))
	}
	// No flow faster than the slowest link (every flow crosses the whole
	// chain), payload being a part of what the links carry.
	slowest := -1.0
	for _, l := range s.Links {
		if bw := float64(l.Bandwidth); slowest < 0 || bw < slowest {
			slowest = bw
		}
	}
	// Each flow over its own active time, and all flows' bytes over the
	// run (flows active at different times may each use the whole link).
	// Every flow's goodput, a stopped one's included (bytes received by
	// its stop over its active time), stays within the slowest link.
	var bytes float64
	for _, f := range res.Flows {
		if f.GoodputBps > slowest*1.0001 {
			return nil, res.Events, fmt.Errorf("flow %s (%s): goodput %.0f bit/s exceeds the slowest link's %.0f bit/s", f.ID, f.Transport, f.GoodputBps, slowest)
		}
		if f.Transport != "tcp" {
			continue
		}
		bytes += float64(f.DeliveredBytes)
	}
	if capacity := slowest / 8 * res.SimSeconds; bytes > capacity*1.0001+64*1024 {
		return nil, res.Events, fmt.Errorf("TCP flows delivered %.0f bytes, more than the slowest link carries in %gs (%.0f)", bytes, res.SimSeconds, capacity)
	}
	res.WallSeconds = 0
	out, err = json.Marshal(res)
	return out, res.Events, err
}

// Generate builds scenario i of campaign seed: a chain of 1-4 links of
// random rates, delays, queues, losses and delay processes, 1-4 TCP flows
// of random profiles, variants, options and applications end to end, and
// sometimes a CBR flow. It returns the YAML and the variants used.
func Generate(seed uint64, i int) ([]byte, []string) {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	var b strings.Builder
	hops := 1 + r.IntN(4)
	fmt.Fprintf(&b, "name: fuzz-%d-%d\nduration: %ds\nseed: %d\nnodes: [", seed, i, 2+r.IntN(19), r.Uint64()%1000)
	for k := 0; k <= hops; k++ {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "N%d", k)
	}
	b.WriteString("]\nlinks:\n")
	for k := 0; k < hops; k++ {
		fmt.Fprintf(&b, "  - name: l%d\n    from: N%d\n    to: N%d\n    bandwidth: %s\n    delay: %s\n", k, k, k+1,
			pick("64kbps", "256kbps", "1Mbps", "2Mbps", "10Mbps", "100Mbps"), pick("1ms", "5ms", "20ms", "50ms", "100ms"))
		limit := []int{5, 20, 50, 200}[r.IntN(4)]
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "    queue: {type: droptail, limit: %d}\n", limit)
		case 1:
			fmt.Fprintf(&b, "    queue: {type: red, limit: %d, min_th: %d, max_th: %d}\n", max(limit, 20), 3, 15)
		case 2:
			fmt.Fprintf(&b, "    queue: {type: marker, limit: %d, fraction: %s, retx_drop: %s}\n", limit, pick("0.3", "0.9"), pick("0", "0.5"))
		}
		switch r.IntN(5) {
		case 1:
			fmt.Fprintf(&b, "    loss: {rate: %s, direction: %s}\n", pick("0.1%", "1%", "5%", "10%"), pick("forward", "reverse", "both"))
		case 2:
			fmt.Fprintf(&b, "    loss: {model: onoff, mean_up: %s, mean_down: %s, direction: forward}\n", pick("1s", "5s"), pick("10ms", "100ms"))
		case 3:
			fmt.Fprintf(&b, "    loss:\n      - {rate: 1%%, direction: forward}\n      - {model: targeted, rate: %s, fast_only: true, direction: forward}\n", pick("1%", "10%"))
		}
		switch r.IntN(6) {
		case 1:
			fmt.Fprintf(&b, "    delay_process: {model: two_state, delay2: %s, mean1: 1s, mean2: 1s, direction: forward}\n", pick("5ms", "200ms"))
		case 2:
			fmt.Fprintf(&b, "    delay_process: {model: jitter, spread: %s}\n", pick("1ms", "30ms"))
		}
	}
	b.WriteString("flows:\n")
	variants := tcp.VariantNames()
	var used []string
	nflows := 1 + r.IntN(4)
	for k := 0; k < nflows; k++ {
		v := variants[r.IntN(len(variants))]
		used = append(used, v)
		fmt.Fprintf(&b, "  - name: f%d\n    src: N0\n    dst: N%d\n    start: %dms\n", k, hops, r.IntN(1000))
		if r.IntN(5) == 0 {
			fmt.Fprintf(&b, "    stop: %ds\n", 1+r.IntN(5))
		}
		fmt.Fprintf(&b, "    transport: {profile: %s, variant: %s, mss: %s, window: %s, sack: %s, timestamps: true",
			pick(tcp.ProfileNames()...), v, pick("536", "1000", "1448"), pick("0", "8", "32", "128"), pick("true", "false"))
		if slices.Contains([]string{"tdlrp", "ddlrp"}, v) {
			b.WriteString(", ts_echo: latest, ts_tick: 1ms")
		}
		if strings.HasPrefix(v, "vegas") {
			b.WriteString(", rtt_sampling: every_ack")
		}
		if r.IntN(4) == 0 {
			fmt.Fprintf(&b, ", rto: {policy: %s, min: %s}", pick("rfc6298", "adminrto", "ns2"), pick("10ms", "200ms", "1s"))
		}
		b.WriteString("}\n")
		switch r.IntN(4) {
		case 1:
			fmt.Fprintf(&b, "    app: {type: transfer, size: %s}\n", pick("1KB", "100KB", "1MB"))
		case 2:
			b.WriteString("    app: {type: web, objects: 3, object_size: 20KB, think: 500ms}\n")
		}
	}
	if r.IntN(4) == 0 {
		// Half of them stop early: their goodput counts what arrived by the
		// stop, never the queue draining after it.
		stop := ""
		if r.IntN(2) == 0 {
			stop = fmt.Sprintf(", stop: %ds", 1+r.IntN(5))
		}
		fmt.Fprintf(&b, "  - {name: cbr, src: N0, dst: N%d, app: {type: cbr, rate: %s, packet_size: 500B}, start: 0.5s%s}\n", hops, pick("10kbps", "500kbps", "5Mbps"), stop)
	}
	return []byte(b.String()), used
}

// String is the summary line.
func (r *Report) String() string {
	return fmt.Sprintf("%d scenarios run (%d more rejected by the validator), %d events, %d invariant failures, %d stopped by the budget", r.Runs, r.Rejected, r.Events, len(r.Findings), len(r.Slow))
}
