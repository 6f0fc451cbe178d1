package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tcplab/tcplab/plot"
)

// The scaling curves of the README (Speed): wall time and peak memory of
// whole processes as flows, bottleneck bandwidth, nodes and the window
// grow, tcplab beside ns-2 where ns-2 has the same scenario (the anchors'
// dumbbell-flows.tcl) and finishes in reasonable time. A measurement, not a
// check: it runs only when asked,
//
//	TCPLAB_SCALING=DIR [TCPLAB_ANCHORS=../shared/anchors] go test ./cmd/tcplab -run Scaling -v -timeout 2h
//
// (GNU time at /usr/bin/time measures the memory.)
//
// and writes DIR/scaling-AXIS.{csv,png,svg}.

// scalePoint is one process measured.
type scalePoint struct {
	x         float64
	wall      float64 // seconds
	rssMiB    float64 // peak resident set
	delivered float64 // packets delivered (tcplab only)
}

// measure runs a command and returns its wall time and peak RSS. The RSS
// comes from GNU time around it: a child's own rusage would include the
// test process it was forked from (Linux counts the pages before exec).
func measure(t *testing.T, name string, args ...string) (scalePoint, []byte) {
	t.Helper()
	rssFile := filepath.Join(t.TempDir(), "rss")
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, name}, args...)...)
	t0 := time.Now()
	out, err := cmd.Output()
	wall := time.Since(t0).Seconds()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	b, err := os.ReadFile(rssFile)
	if err != nil {
		t.Fatal(err)
	}
	kib, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		t.Fatalf("peak RSS %q: %v", b, err)
	}
	return scalePoint{wall: wall, rssMiB: kib / 1024}, out
}

// tcplabPoint runs a scenario with sets and counts what it delivered.
func tcplabPoint(t *testing.T, file string, mss float64, sets ...string) scalePoint {
	args := []string{"run", file, "--format", "json"}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	p, out := measure(t, tcplabBinary(t), args...)
	var res struct {
		Flows []struct {
			Delivered float64 `json:"delivered_bytes"`
		} `json:"flows"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, f := range res.Flows {
		p.delivered += f.Delivered / mss
	}
	return p
}

func TestScalingCurves(t *testing.T) {
	dir := os.Getenv("TCPLAB_SCALING")
	if dir == "" {
		t.Skip("a measurement: set TCPLAB_SCALING=DIR (and TCPLAB_ANCHORS for ns-2)")
	}
	ns2 := ""
	if a := os.Getenv("TCPLAB_ANCHORS"); a != "" {
		if _, err := exec.LookPath("ns"); err == nil {
			ns2 = filepath.Join(a, "ns2", "dumbbell-flows.tcl")
		}
	}
	cbig := "../../examples/c-big.yaml"
	dumbbell := func(n int, bwMbps float64) []string {
		return []string{"duration=20s", fmt.Sprintf("nodes.S{i}.count=%d", n), fmt.Sprintf("nodes.D{i}.count=%d", n),
			fmt.Sprintf("links.in{i}.count=%d", n), fmt.Sprintf("links.out{i}.count=%d", n),
			fmt.Sprintf("flows.f{i}.count=%d", n), fmt.Sprintf("flows.f{i}.start_step=%gs", 1/float64(n)),
			fmt.Sprintf("links.bottleneck.bandwidth=%gMbps", bwMbps)}
	}
	ns2Point := func(n int, bwMbps float64) (scalePoint, bool) {
		if ns2 == "" {
			return scalePoint{}, false
		}
		p, _ := measure(t, "ns", ns2, strconv.Itoa(n), fmt.Sprint(bwMbps), "0.02", "1", "20")
		return p, true
	}
	star, err := os.CreateTemp(t.TempDir(), "star-*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// A star: N leaves on a hub, ten of them sending to a server behind it.
	star.WriteString(`name: star
duration: 10s
nodes: [hub, srv, {name: "leaf{i}", count: 10}]
links:
  - {name: up, from: hub, to: srv, bandwidth: 1Gbps, delay: 5ms}
  - {name: "l{i}", count: 10, from: "leaf{i}", to: hub, bandwidth: 100Mbps, delay: 5ms}
flows:
  - {name: "f{i}", count: 10, src: "leaf{i}", dst: srv, transport: {profile: linux}}
`)
	star.Close()
	type axis struct {
		name, label string
		xs          []float64
		tcplab      func(x float64) scalePoint
		ns2         func(x float64) (scalePoint, bool)
	}
	axes := []axis{
		{"flows", "flows (C-big dumbbell, 20 s)", []float64{10, 100, 1000, 10000},
			func(x float64) scalePoint { return tcplabPoint(t, cbig, 1000, dumbbell(int(x), 100)...) },
			func(x float64) (scalePoint, bool) {
				if x > 1000 {
					return scalePoint{}, false // ns-2 takes minutes and gigabytes here
				}
				return ns2Point(int(x), 100)
			}},
		{"bandwidth", "bottleneck bandwidth, Mbit/s (100 flows, 20 s)", []float64{10, 100, 1000, 10000},
			func(x float64) scalePoint { return tcplabPoint(t, cbig, 1000, dumbbell(100, x)...) },
			func(x float64) (scalePoint, bool) { return ns2Point(100, x) }},
		{"nodes", "leaves of a star (10 flows, 10 s)", []float64{10, 100, 1000, 10000, 100000},
			func(x float64) scalePoint {
				return tcplabPoint(t, star.Name(), 1448, fmt.Sprintf("nodes.leaf{i}.count=%d", int(x)), fmt.Sprintf("links.l{i}.count=%d", int(x)))
			},
			func(float64) (scalePoint, bool) { return scalePoint{}, false }},
		{"window", "window cap, segments (one linux flow, 10 Gbit/s, 50 ms, 0.01% loss, 20 s)", []float64{16, 64, 256, 1024, 4096, 10000},
			func(x float64) scalePoint {
				return tcplabPoint(t, cbig, 1448, "duration=20s", "nodes.S{i}.count=1", "nodes.D{i}.count=1", "links.in{i}.count=1", "links.out{i}.count=1",
					"flows.f{i}.count=1", "links.bottleneck.bandwidth=10Gbps", "links.bottleneck.loss.rate=0.01%",
					"links.in{i}.bandwidth=10Gbps", "links.out{i}.bandwidth=10Gbps",
					fmt.Sprintf("flows.f{i}.transport={profile: linux, window: %d}", int(x)))
			},
			func(float64) (scalePoint, bool) { return scalePoint{}, false }},
	}
	for _, ax := range axes {
		f, err := os.Create(filepath.Join(dir, "scaling-"+ax.name+".csv"))
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		w.Write([]string{ax.name, "tcplab_wall_s", "tcplab_rss_mib", "tcplab_delivered_pkts", "tcplab_delivered_per_s", "ns2_wall_s", "ns2_rss_mib"})
		wallT, wallN := plot.Series{Name: "tcplab"}, plot.Series{Name: "ns-2.35"}
		memT, memN := plot.Series{Name: "tcplab"}, plot.Series{Name: "ns-2.35"}
		for _, x := range ax.xs {
			p := ax.tcplab(x)
			row := []string{fmt.Sprint(x), fmt.Sprintf("%.3f", p.wall), fmt.Sprintf("%.1f", p.rssMiB), fmt.Sprintf("%.0f", p.delivered), fmt.Sprintf("%.0f", p.delivered/p.wall), "", ""}
			wallT.X, wallT.Y = append(wallT.X, x), append(wallT.Y, p.wall)
			memT.X, memT.Y = append(memT.X, x), append(memT.Y, p.rssMiB)
			if q, ok := ax.ns2(x); ok {
				row[5], row[6] = fmt.Sprintf("%.3f", q.wall), fmt.Sprintf("%.1f", q.rssMiB)
				wallN.X, wallN.Y = append(wallN.X, x), append(wallN.Y, q.wall)
				memN.X, memN.Y = append(memN.X, x), append(memN.Y, q.rssMiB)
			}
			w.Write(row)
			t.Logf("%s %g: %v", ax.name, x, row[1:])
		}
		w.Flush()
		f.Close()
		for _, m := range []struct {
			what, ylabel string
			s            []plot.Series
		}{{"wall", "wall time (s)", []plot.Series{wallT, wallN}}, {"memory", "peak RSS (MiB)", []plot.Series{memT, memN}}} {
			var series []plot.Series
			for _, s := range m.s {
				if len(s.X) > 0 {
					series = append(series, s)
				}
			}
			ch := plot.Chart{Title: fmt.Sprintf("Scaling: %s vs %s", m.what, ax.name), XLabel: ax.label, YLabel: m.ylabel,
				Series: series, LogX: true, LogY: true, XTicks: ax.xs,
				Caption: "Whole processes on this 2-core machine, one run per point (`TCPLAB_SCALING=DIR go test ./cmd/tcplab -run Scaling`)."}
			for _, ext := range []string{".png", ".svg"} {
				if err := plot.Line(ch, filepath.Join(dir, "scaling-"+ax.name+"-"+m.what+ext)); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
