// Package compare sets tcplab beside the ns-2.35 and ns-3.37 reference runs
// of the shared anchors (scenarios A dumbbell-lossy, B chain-4hop, C
// dumbbell-10flows): the same scenarios through tcplab's ns2 and ns3
// profiles, goodput and timeouts side by side, and the relative difference.
package compare

import (
	"bufio"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// anchorsRaw is the anchors' results/raw.txt: one RESULT line per ns-2 or
// ns-3 run (10 seeds per point), recorded on 2 December 2026.
//
//go:embed anchors.txt
var anchorsRaw string

// Run is one recorded reference run.
type Run struct {
	Sim, Scen, Var string
	P              float64
	Seed           int
	GoodputKbps    float64
	RTOs           float64
	Wall           float64 // seconds, /usr/bin/time
}

// Anchors parses RESULT lines (the embedded recording, or the output of a
// rerun of the anchors' scripts).
func Anchors(text string) ([]Run, error) {
	var runs []Run
	sc := bufio.NewScanner(strings.NewReader(text))
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || f[0] != "RESULT" {
			continue
		}
		kv := map[string]string{}
		for _, w := range f[1:] {
			if k, v, ok := strings.Cut(w, "="); ok {
				kv[k] = v
			}
		}
		r := Run{Sim: kv["sim"], Scen: kv["scen"], Var: kv["var"]}
		var err error
		num := func(k string) float64 {
			if err != nil || kv[k] == "" {
				return 0
			}
			var v float64
			v, err = strconv.ParseFloat(kv[k], 64)
			return v
		}
		r.P, r.GoodputKbps, r.RTOs, r.Wall = num("p"), num("goodput_kbps"), num("rtos"), num("wall")
		r.Seed = int(num("seed"))
		if err != nil {
			return nil, fmt.Errorf("anchors line %d: %v", line, err)
		}
		runs = append(runs, r)
	}
	return runs, sc.Err()
}

// Recorded returns the embedded reference runs.
func Recorded() []Run {
	runs, err := Anchors(anchorsRaw)
	if err != nil {
		panic(err) // the embedded file is part of the build
	}
	return runs
}

// Stat is a mean and sample standard deviation over seeds.
type Stat struct {
	N          int
	Mean, SD   float64
	RTOs, Wall float64 // means
}

func summarize(xs, rtos, walls []float64) Stat {
	s := Stat{N: len(xs)}
	if s.N == 0 {
		return s
	}
	for i, x := range xs {
		s.Mean += x
		s.RTOs += rtos[i]
		s.Wall += walls[i]
	}
	n := float64(s.N)
	s.Mean /= n
	s.RTOs /= n
	s.Wall /= n
	if s.N > 1 {
		var ss float64
		for _, x := range xs {
			ss += (x - s.Mean) * (x - s.Mean)
		}
		s.SD = math.Sqrt(ss / (n - 1))
	}
	return s
}

// Lookup summarises the reference runs of one point.
func Lookup(runs []Run, sim, scen, variant string, p float64) Stat {
	var xs, rt, wl []float64
	for _, r := range runs {
		if r.Sim == sim && r.Scen == scen && r.Var == variant && math.Abs(r.P-p) < 1e-9 {
			xs = append(xs, r.GoodputKbps)
			rt = append(rt, r.RTOs)
			wl = append(wl, r.Wall)
		}
	}
	return summarize(xs, rt, wl)
}
