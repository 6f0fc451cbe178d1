package repro

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"strconv"
	"strings"

	"github.com/tcplab/tcplab/store"
)

// Refutations are cross-checked in an independent simulator where the
// claim's comparators exist there: scripts/crosscheck.sh reruns them in
// ns-2.35 and stores each run's RESULT line under crosscheck/, built in
// so that a reproduction outside a checkout shows them too.

//go:embed crosscheck/*.txt
var crossFS embed.FS

// crossRun is one RESULT line: its key=value fields.
type crossRun map[string]string

// crossRuns reads the RESULT lines of a stored cross-check.
func crossRuns(name string) ([]crossRun, error) {
	b, err := crossFS.ReadFile("crosscheck/" + name)
	if err != nil {
		return nil, err
	}
	var out []crossRun
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != "RESULT" {
			continue
		}
		r := crossRun{}
		for _, kv := range f[1:] {
			if k, v, ok := strings.Cut(kv, "="); ok {
				r[k] = v
			}
		}
		out = append(out, r)
	}
	return out, sc.Err()
}

// crossSummary summarises metric over the runs whose fields match kv.
func crossSummary(runs []crossRun, metric string, kv ...string) store.Summary {
	var xs []float64
next:
	for _, r := range runs {
		for i := 0; i+1 < len(kv); i += 2 {
			if r[kv[i]] != kv[i+1] {
				continue next
			}
		}
		if x, err := strconv.ParseFloat(r[metric], 64); err == nil {
			xs = append(xs, x)
		}
	}
	return store.Summarize(store.Summary{}, xs)
}

// crossVariant pairs a variant's name in tcplab's sweeps with ns-2's.
type crossVariant struct{ tcplab, ns2 string }

// fig11bCrossCheck sets ns-2.35's per-connection goodput beside tcplab's
// for the comparators ns-2 has, at every number of connections, on each
// of the entry's paper claims; the line also says where the two disagree
// beyond their 95% intervals.
func fig11bCrossCheck(sums []store.Summary, out *Outcome) error {
	runs, err := crossRuns("tdlrp-fig11b.txt")
	if err != nil {
		return err
	}
	var parts, apart []string
	for _, v := range []crossVariant{{"newreno", "Newreno"}, {"vegas", "Vegas"}} {
		for _, n := range []string{"1", "2", "4", "6", "8", "10"} {
			ns := crossSummary(runs, "goodput_per_conn_kbps", "var", v.ns2, "flows", n)
			t, ok := find(sums, "flows.f{i}.count", n, "variant", v.tcplab)
			if !ok || ns.N == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%s %s conn. %.1f ± %.1f (tcplab %.1f ± %.1f)", v.ns2, n, ns.Mean, ciOrZero(ns.CI95), t.Mean/1e3, ciOrZero(t.CI95)/1e3))
			if d := t.Mean/1e3 - ns.Mean; d > ciOrZero(ns.CI95)+ciOrZero(t.CI95)/1e3 || -d > ciOrZero(ns.CI95)+ciOrZero(t.CI95)/1e3 {
				apart = append(apart, fmt.Sprintf("%s at %s (%+.1f%%)", v.ns2, n, 100*(t.Mean/1e3/ns.Mean-1)))
			}
		}
	}
	if len(parts) == 0 {
		return nil
	}
	text := "ns-2.35 (scripts/crosscheck.sh, 10 seeds), goodput per connection in kbit/s: " + strings.Join(parts, "; ")
	if len(apart) > 0 {
		text += "; beyond both 95% intervals at " + strings.Join(apart, ", ")
	}
	// Does the verdict stand with ns-2's comparators in place of
	// tcplab's? T-DLRP against each, Welch, Holm-corrected.
	var cmps []comparison
	for _, v := range []crossVariant{{"newreno", "Newreno"}, {"vegas", "Vegas"}} {
		for _, n := range []string{"1", "2", "4", "6", "8", "10"} {
			ns := crossSummary(runs, "goodput_per_conn_kbps", "var", v.ns2, "flows", n)
			t, ok := find(sums, "flows.f{i}.count", n, "variant", "tdlrp")
			if ok && ns.N > 0 {
				cmps = append(cmps, means(v.ns2+" at "+n, scaled(sample(t), 1e-3), sample(ns), 1, " kbit/s"))
			}
		}
	}
	if len(cmps) > 0 {
		v, test := aboveEverywhere(cmps)
		text += fmt.Sprintf("; T-DLRP (tcplab) against ns-2's NewReno and Vegas: %s (%s)", v, test)
	}
	for i := range out.Claims {
		if out.Claims[i].Kind == PaperClaim {
			out.Claims[i].CrossCheck = text
		}
	}
	return nil
}

// tcplabOnly marks every refuted paper claim that no independent
// simulator reran, with the entry's reason.
func tcplabOnly(e *Entry, out *Outcome) {
	why := e.Alone
	if why == "" {
		why = "its comparators do not exist in ns-2.35 or ns-3.37"
	}
	for i := range out.Claims {
		c := &out.Claims[i]
		if c.Kind == PaperClaim && c.Verdict == Refuted && c.CrossCheck == "" {
			c.CrossCheck = "tcplab only: " + why
		}
	}
}

// Why the TCP-NC and ALL-TCP refutations are tcplab's alone.
const (
	tcpncAlone  = "neither ns-2.35 nor ns-3.37 has a network-coding layer, and the claims are the paper's model against its simulation of TCP-NC"
	alltcpAlone = "neither ns-2.35 nor ns-3.37 has ALL-TCP's split agent; only the end-to-end Tahoe side exists in ns-2"
)

// fig34CrossCheck sets ns-2.35's false fast retransmits after the RTT
// decrease beside tcplab's, instant by instant, for each window.
func fig34CrossCheck(sums []store.Summary, out *Outcome) error {
	runs, err := crossRuns("abouzeid-fig3-4.txt")
	if err != nil {
		return err
	}
	const at, win = "links.path.delay_process.steps.1.at", "flows.ftp.transport.window"
	var parts []string
	for _, w := range []string{"26", "13"} {
		var ns, tc []string
		same := 0
		n := 0
		for _, r := range runs {
			if r["w"] != w {
				continue
			}
			n++
			nsFFR := r["false_fast_retransmit"] == "1"
			s, ok := find(sums, win, w, at, r["at"]+"s")
			tcFFR := ok && s.Mean > 0
			if nsFFR {
				ns = append(ns, r["at"])
			}
			if tcFFR {
				tc = append(tc, r["at"])
			}
			if ok && nsFFR == tcFFR {
				same++
			}
		}
		parts = append(parts, fmt.Sprintf("w_m = %s: a false fast retransmit at [%s] in ns-2, [%s] in tcplab: the same at %d of %d instants",
			w, strings.Join(ns, " "), strings.Join(tc, " "), same, n))
	}
	text := "ns-2.35 (scripts/crosscheck.sh; Reno, tcpTick 10 ms, the forward delay set to 92 ms at the instant): " + strings.Join(parts, "; ")
	for i := range out.Claims {
		if out.Claims[i].Kind == PaperClaim {
			out.Claims[i].CrossCheck = text
		}
	}
	return nil
}
