//go:build linux

package kernel

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/tcplab/tcplab/scenario"
)

// Kernel TCP against tcplab's own on the same network. Scenario A of the
// anchors (S --100 Mbit/s, 6 ms-- R1 --2 Mbit/s, 50 ms-- R2 --9 Mbit/s,
// 1 ms, loss p-- D, 50-packet drop-tail queues) and the 4-hop 802.11b
// chain (11 Mbit/s, 200 m spacing, hidden terminals, loss above the last
// hop's MAC), each with the endpoints as kernel hosts, then as simulated
// hosts running the linux profile (newreno for the kernel's reno, cubic,
// bbr). Linux-sized segments (1448 bytes), windows that never bind, 60 s,
// 10 seeds. And BBR's own long path (examples/bbr-longpath.yaml: 100
// Mbit/s, 100 ms, a one-BDP queue, loss on the bottleneck) with bbr only,
// 20 s and 3 seeds a point: each kernel run there carries 9 000 packets a
// second through the emulation, so they run one at a time.
//
// The kernel's runs take real time (three hours of it, six at once: about
// half an hour); they are recorded in testdata/kernel-fidelity.txt by
//
//	TCPLAB_FIDELITY=1 go test ./kernel -run FidelityRecord -v -timeout 3h
//
// and every go test compares tcplab's simulated Linux with that record
// (TestSimulatedLinuxAsRecordedKernel). TCPLAB_FIDELITY_SEEDS and
// TCPLAB_FIDELITY_PARALLEL change the seeds (10) and the emulations at once
// (6; each is light at these rates; a run whose lateness exceeds the bound
// is run again).
const fidelityRecord = "testdata/kernel-fidelity.txt"

// fidelitySeconds and fidelitySeeds are a path's run length and seeds.
func fidelitySeconds(path string) int {
	if path == "longpath" {
		return 20
	}
	return 60
}

func fidelitySeeds(path string) int {
	if path == "longpath" {
		return 3
	}
	return envInt("TCPLAB_FIDELITY_SEEDS", 10)
}

type fidelityPoint struct {
	path, loss, cc string
}

func fidelityPoints() []fidelityPoint {
	var ps []fidelityPoint
	for _, cc := range []string{"reno", "cubic", "bbr"} {
		for _, loss := range []string{"0", "1%", "2%", "5%"} {
			ps = append(ps, fidelityPoint{"A", loss, cc})
		}
		for _, loss := range []string{"0", "2%"} {
			ps = append(ps, fidelityPoint{"chain4", loss, cc})
		}
	}
	for _, loss := range []string{"0", "0.1%", "1%", "5%", "10%"} {
		ps = append(ps, fidelityPoint{"longpath", loss, "bbr"})
	}
	return ps
}

func TestFidelityRecord(t *testing.T) {
	if os.Getenv("TCPLAB_FIDELITY") == "" {
		t.Skip("real-time runs, half an hour: TCPLAB_FIDELITY=1")
	}
	needHosts(t)
	parallel := envInt("TCPLAB_FIDELITY_PARALLEL", 6)
	// Runs already recorded are kept (an interrupted recording goes on
	// where it stopped); remove the file to record afresh.
	have := readFidelity(t)
	out, err := os.OpenFile(fidelityRecord, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if len(have) == 0 {
		uname, _ := exec.Command("uname", "-r").Output()
		fmt.Fprintf(out, "# kernel TCP on tcplab's emulated network (kernel/fidelity_test.go), %s, Linux %s", time.Now().UTC().Format("2006-01-02"), uname)
		fmt.Fprintf(out, "# RESULT path loss cc seed goodput_kbps retrans p99_lateness_us\n")
	}
	type job struct {
		p    fidelityPoint
		seed int
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	worker := func(jobs chan job) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				var r fidelityResult
				var err error
				for try := 0; try < 3; try++ {
					if r, err = fidelityRun(j.p, true, j.seed); err == nil {
						break
					}
				}
				if err != nil {
					t.Error(err)
					continue
				}
				mu.Lock()
				fmt.Fprintf(out, "RESULT path=%s loss=%s cc=%s seed=%d goodput_kbps=%.1f retrans=%d p99_us=%.0f\n",
					j.p.path, j.p.loss, j.p.cc, j.seed, r.goodput, r.retrans, r.p99)
				mu.Unlock()
			}
		}()
	}
	// The light paths run several at once, then the long path alone.
	for _, heavy := range []bool{false, true} {
		jobs, n := make(chan job), parallel
		if heavy {
			n = 1
		}
		for range n {
			worker(jobs)
		}
		for _, p := range fidelityPoints() {
			if (p.path == "longpath") != heavy {
				continue
			}
			for seed := 1; seed <= fidelitySeeds(p.path); seed++ {
				if _, done := have[p][seed]; !done {
					jobs <- job{p, seed}
				}
			}
		}
		close(jobs)
		wg.Wait()
	}
}

// tcplab's linux profile against the recorded kernel runs: means of the
// seeds, reno and cubic held within 5%, bbr within 10% (issue 33), except
// the points listed in fidelityOpen (printed, not held; docs/emulation.md
// says why).
func TestSimulatedLinuxAsRecordedKernel(t *testing.T) {
	if testing.Short() {
		t.Skip("180 simulated runs of 60 s and 15 of 20 s at 100 Mbit/s")
	}
	rec := readFidelity(t)
	if len(rec) == 0 {
		t.Skip("no record yet: TCPLAB_FIDELITY=1 go test ./kernel -run FidelityRecord")
	}
	var keys []fidelityPoint
	for p := range rec {
		keys = append(keys, p)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.path != b.path {
			return a.path < b.path
		}
		if a.cc != b.cc {
			return a.cc < b.cc
		}
		return lossRate(a.loss) < lossRate(b.loss)
	})
	t.Logf("| path | loss | cc | kernel kbit/s | tcplab linux kbit/s | difference |")
	t.Logf("|---|---|---|---|---|---|")
	for _, p := range keys {
		var k, s []float64
		for seed, g := range rec[p] {
			k = append(k, g)
			r, err := fidelityRun(p, false, seed)
			if err != nil {
				t.Fatal(err)
			}
			s = append(s, r.goodput)
		}
		km, ksd := stat.MeanStdDev(k, nil)
		sm, ssd := stat.MeanStdDev(s, nil)
		d := sm/km - 1
		tol := 0.05
		if p.cc == "bbr" {
			tol = 0.10
		}
		note := ""
		if fidelityOpen[p] {
			note = " (open)"
		}
		t.Logf("| %s | %s | %s | %.0f ± %.0f | %.0f ± %.0f | %+.1f%%%s |", p.path, p.loss, p.cc, km, ksd, sm, ssd, 100*d, note)
		if math.Abs(d) > tol && !fidelityOpen[p] {
			t.Errorf("%s %s %s: tcplab %.0f vs kernel %.0f kbit/s (%+.1f%%, held to %.0f%%)", p.path, p.loss, p.cc, sm, km, 100*d, 100*tol)
		}
	}
}

// fidelityOpen are the points where tcplab's linux profile is known to
// differ from the kernel by more than the tolerance: Reno at 2% and 5% and
// CUBIC at 5% on scenario A, tcplab 6-10% below. Neither side times out
// there any more (RACK, PRR and Linux's RTO in the profile); what is left
// is the receiver: Linux acknowledges sooner than RFC 1122's every second
// segment with a 40 ms timer (at 5%, seed 1: 192 of tcplab's ACKs waited
// the timer, 99 of the kernel's came more than 20 ms after data; one ACK
// per segment brings tcplab's Reno to 3% of the kernel's), and at these
// small windows the ACK clock is the sending rate (docs/emulation.md).
var fidelityOpen = map[fidelityPoint]bool{
	{"A", "2%", "reno"}: true, {"A", "5%", "reno"}: true, {"A", "5%", "cubic"}: true,
}

// readFidelity reads the record: goodput by point and seed.
func readFidelity(t *testing.T) map[fidelityPoint]map[int]float64 {
	f, err := os.Open(fidelityRecord)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[fidelityPoint]map[int]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || fields[0] != "RESULT" {
			continue
		}
		kv := map[string]string{}
		for _, f := range fields[1:] {
			k, v, _ := strings.Cut(f, "=")
			kv[k] = v
		}
		p := fidelityPoint{kv["path"], kv["loss"], kv["cc"]}
		seed, _ := strconv.Atoi(kv["seed"])
		g, err := strconv.ParseFloat(kv["goodput_kbps"], 64)
		if err != nil || seed <= 0 {
			t.Fatalf("%s: bad line %q", fidelityRecord, sc.Text())
		}
		if out[p] == nil {
			out[p] = map[int]float64{}
		}
		out[p][seed] = g
	}
	return out
}

type fidelityResult struct {
	goodput float64 // kbit/s
	retrans int64
	p99     float64 // µs, kernel runs
}

// fidelityRun runs one point, with kernel hosts or simulated Linux ends.
func fidelityRun(p fidelityPoint, kernel bool, seed int) (fidelityResult, error) {
	src := fidelityScenario(p, kernel, seed)
	s, err := scenario.Parse(p.path+".yaml", []byte(src), nil)
	if err != nil {
		return fidelityResult{}, err
	}
	run, err := s.Build()
	if err != nil {
		return fidelityResult{}, err
	}
	if !kernel {
		res, err := run.Run()
		if err != nil {
			return fidelityResult{}, err
		}
		f := res.Flows[0]
		return fidelityResult{goodput: f.GoodputBps / 1e3, retrans: f.RetransmittedPackets}, nil
	}
	e, err := Attach(run)
	if err != nil {
		return fidelityResult{}, err
	}
	defer e.Close()
	res, err := run.Run()
	if err != nil {
		return fidelityResult{}, err
	}
	l := res.Emulation.(Report).Lateness
	if l.Exceeded {
		return fidelityResult{}, fmt.Errorf("%+v seed %d: not real-time (%+v)", p, seed, l)
	}
	f := res.Flows[0]
	return fidelityResult{goodput: f.GoodputBps / 1e3, retrans: f.RetransmittedPackets, p99: l.P99us}, nil
}

func fidelityScenario(p fidelityPoint, kernel bool, seed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "duration: %ds\nseed: %d\n", fidelitySeconds(p.path), seed)
	transport := fmt.Sprintf("{variant: %s}", p.cc)
	if !kernel {
		v := p.cc
		if v == "reno" {
			v = "newreno"
		}
		transport = fmt.Sprintf("{profile: linux, variant: %s}", v)
	}
	k := strconv.FormatBool(kernel)
	switch p.path {
	case "A":
		fmt.Fprintf(&b, `nodes: [{name: S, kernel: %[1]s}, R1, R2, {name: D, kernel: %[1]s}]
links:
  - {name: access, from: S, to: R1, bandwidth: 100Mbps, delay: 6ms}
  - {name: bottleneck, from: R1, to: R2, bandwidth: 2Mbps, delay: 50ms}
  - {name: lossy, from: R2, to: D, bandwidth: 9Mbps, delay: 1ms, loss: {rate: %[2]s, direction: forward}}
flows:
  - {name: ftp, src: S, dst: D, transport: %[3]s}
`, k, p.loss, transport)
	case "chain4":
		fmt.Fprintf(&b, `nodes: [{name: n1, kernel: %[1]s}, n2, n3, n4, {name: n5, kernel: %[1]s}]
wireless:
  rate: 11Mbps
  propagation: range
  decode_range: 250m
  line: {nodes: "n{i}", count: 5, spacing: 200m}
  loss: [{node: n5, at: mac, rate: %[2]s}]
flows:
  - {name: ftp, src: n1, dst: n5, transport: %[3]s}
`, k, p.loss, transport)
	case "longpath":
		// examples/bbr-longpath.yaml; the window (never binding) sizes a
		// kernel host's socket buffers so that they do not bind either.
		fmt.Fprintf(&b, `nodes: [{name: S, kernel: %[1]s}, R1, R2, {name: D, kernel: %[1]s}]
links:
  - {name: access, from: S, to: R1, bandwidth: 1Gbps, delay: 0.5ms}
  - {name: bottleneck, from: R1, to: R2, bandwidth: 100Mbps, delay: 49ms, queue: {limit: 833}, loss: {rate: %[2]s, direction: forward}}
  - {name: egress, from: R2, to: D, bandwidth: 1Gbps, delay: 0.5ms}
flows:
  - {name: ftp, src: S, dst: D, transport: %[3]s}
`, k, p.loss, strings.Replace(transport, "}", ", window: 20000}", 1))
	}
	return b.String()
}

// lossRate reads a point's loss ("0", "0.1%") as a fraction, for sorting.
func lossRate(s string) float64 {
	v, _ := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	return v
}

func envInt(key string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(key)); err == nil && n > 0 {
		return n
	}
	return def
}
