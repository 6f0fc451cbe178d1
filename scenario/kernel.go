package scenario

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/traffic"
)

// A kernel host's flows are a real stack's sockets (package kernel runs
// them, under tcplab emulate). The scenario checks what it can before any
// namespace is made: both ends kernel hosts (simulated packets carry
// headers only, so a kernel socket cannot talk to a simulated one), an
// application a socket or a program can be, and only the transport keys a
// kernel socket takes.

// KernelTransportKeys are the transport keys a kernel flow takes: the
// congestion control (TCP_CONGESTION), the segment size (TCP_MAXSEG), the
// options the namespaces' sysctls switch (tcp_sack, tcp_timestamps,
// tcp_ecn) and the window, which sizes the namespaces' socket buffers
// (kernelBuffers).
var KernelTransportKeys = []string{"variant", "mss", "sack", "timestamps", "ecn", "window"}

// kernelBuffers are the tcp_rmem and tcp_wmem a kernel flow's window (in
// segments) asks of both namespaces: a maximum of four times the window's
// bytes, never below Linux's defaults (6 MiB, 4 MiB). Linux charges each
// buffered segment its memory (about twice its payload), advertises a
// share of the receive buffer and keeps every unacknowledged segment in
// the send buffer, so the defaults hold a long fat path's flow below the
// window a simulated flow has: BBR over 100 Mbit/s and 100 ms at 5% loss
// ran at 65 Mbit/s with them, at 79 with room (docs/emulation.md).
func kernelBuffers(window, mss int) (rmem, wmem string) {
	if mss == 0 {
		mss = 1448
	}
	b := 4 * int64(window) * int64(mss)
	return fmt.Sprintf("4096 131072 %d", max(b, 6<<20)), fmt.Sprintf("4096 16384 %d", max(b, 4<<20))
}

// kernelApps are the applications a kernel host runs.
var kernelApps = map[string]bool{"bulk": true, "transfer": true, "command": true}

// checkKernel reports kernel flows the emulator could not run.
func (s *Scenario) checkKernel(r *reporter, nodes map[string]int) {
	kernel := func(name string) bool {
		i, ok := nodes[name]
		return ok && s.Nodes[i].Kernel
	}
	for i := range s.Nodes {
		if n := &s.Nodes[i]; n.Kernel && n.Agent != nil {
			r.at(n.lineOf("agent"), n.field("agent"), "a kernel host's packets are not simulated TCP: an agent cannot act on them")
		}
	}
	for i := range s.Flows {
		f := &s.Flows[i]
		src, dst := kernel(f.Src), kernel(f.Dst)
		if _, ok := nodes[f.Src]; !ok {
			continue
		}
		if _, ok := nodes[f.Dst]; !ok {
			continue
		}
		if f.App.Type == "command" && !src {
			r.at(f.App.line, f.App.path, "a command runs in a kernel host's namespace: %s is simulated (write {name: %s, kernel: true} under nodes)", f.Src, f.Src)
			continue
		}
		switch {
		case src != dst:
			k, o := f.Src, f.Dst
			key := "dst"
			if dst {
				k, o, key = f.Dst, f.Src, "src"
			}
			r.at(f.lineOf(key), f.field(key), "%s is a kernel host and %s is simulated: a real socket and a simulated one share no packets (simulated packets carry headers only); make both kernel hosts", k, o)
			continue
		case !src:
			continue
		}
		if !kernelApps[f.App.Type] {
			r.at(f.App.line, f.App.path, "a kernel host runs bulk, transfer or command, not %s", f.App.Type)
		}
		if f.Coding != nil {
			r.at(f.lineOf("coding"), f.field("coding"), "the coding layer is simulated: it cannot code a kernel host's packets")
		}
		t := &f.Transport
		for _, k := range t.keys {
			if !slices.Contains(KernelTransportKeys, k.key) {
				r.at(k.line, t.field(k.key), "not applied to a kernel socket (it takes %s; the rest is the kernel's own)", strings.Join(KernelTransportKeys, ", "))
			}
		}
	}
}

// KernelFlow is a flow between kernel hosts, for the emulator to open.
type KernelFlow struct {
	Index       int // in the file's order of flows
	Name        string
	Src, Dst    string
	Start, Stop sim.Time
	App         traffic.AppParams
	AppType     string
	// CC is the kernel congestion control (TCP_CONGESTION): the variant
	// as written, newreno read as the kernel's reno (which is NewReno,
	// RFC 6582, with SACK when both ends allow it).
	CC string
	// MSS is TCP_MAXSEG (0: the kernel's, from the device's MTU);
	// Sysctls are the tcp_* settings written (key → value: "0"/"1" for
	// the switches, the buffers' three sizes), applied to both hosts'
	// namespaces.
	MSS     int
	Sysctls map[string]string
	spec    *FlowSpec
}

// kernelFlow stands in a Run's flows for a kernel flow until an emulator
// attaches what runs it.
type kernelFlow struct {
	KernelFlow
	attached interface{ Result(sim.Time) metrics.Flow }
}

func (k *kernelFlow) Result(now sim.Time) metrics.Flow {
	if k.attached == nil {
		return metrics.Flow{ID: k.Name, Variant: k.CC, Transport: "tcp", Src: k.Src, Dst: k.Dst, Stack: "kernel"}
	}
	return k.attached.Result(now)
}

func newKernelFlow(i int, f *FlowSpec) *kernelFlow {
	k := &kernelFlow{KernelFlow: KernelFlow{Index: i, Name: f.Name, Src: f.Src, Dst: f.Dst, Start: f.Start, Stop: f.Stop,
		App: f.App.Params, AppType: f.App.Type, CC: "cubic", spec: f}}
	t := &f.Transport
	if t.has("variant") {
		k.CC = t.TCP.Variant
		if k.CC == "newreno" {
			k.CC = "reno"
		}
	}
	if t.has("mss") {
		k.MSS = t.TCP.Segments.MSS
	}
	on := map[bool]string{true: "1", false: "0"}
	for key, v := range map[string]bool{"sack": t.TCP.Recovery.SACK, "timestamps": t.TCP.TS.Enabled, "ecn": t.TCP.ECN} {
		if t.has(key) {
			if k.Sysctls == nil {
				k.Sysctls = map[string]string{}
			}
			k.Sysctls["ipv4/tcp_"+key] = on[v]
		}
	}
	if t.has("window") {
		if k.Sysctls == nil {
			k.Sysctls = map[string]string{}
		}
		k.Sysctls["ipv4/tcp_rmem"], k.Sysctls["ipv4/tcp_wmem"] = kernelBuffers(t.TCP.Segments.Window, k.MSS)
	}
	return k
}

// Emulator runs a scenario's kernel hosts in real time beside the
// simulation (package kernel): the run is its to drive.
type Emulator interface {
	// Run runs the simulation until end against the wall clock; it
	// reports whether it was interrupted (Ctrl-C).
	Run(end sim.Time) (interrupted bool, err error)
	// Finish adds the emulation's figures to the result.
	Finish(res *Result)
}

// ErrNeedsEmulation: the scenario has kernel hosts and was asked to
// simulate only.
var ErrNeedsEmulation = errors.New("kernel hosts run only under tcplab emulate")

// KernelHosts lists the kernel hosts' names, in file order.
func (s *Scenario) KernelHosts() []string {
	var out []string
	for _, n := range s.Nodes {
		if n.Kernel {
			out = append(out, n.Name)
		}
	}
	return out
}

// KernelFlows lists the run's kernel flows in file order.
func (r *Run) KernelFlows() []*KernelFlow {
	var out []*KernelFlow
	for _, f := range r.flows {
		if k, ok := f.(*kernelFlow); ok {
			out = append(out, &k.KernelFlow)
		}
	}
	return out
}

// Attach makes src report kernel flow k's result.
func (r *Run) Attach(k *KernelFlow, src interface{ Result(sim.Time) metrics.Flow }) {
	r.flows[k.Index].(*kernelFlow).attached = src
}

// TraceRows appends rows to the run's TCP time series (trace.tcp), if it
// has one: a kernel flow's sampled TCP_INFO, written by the emulator once
// the run is over (after the simulated flows' rows).
func (r *Run) TraceRows(rows []metrics.Row) {
	if r.series == nil {
		return
	}
	for i := range rows {
		r.series.w.Write(&rows[i])
	}
}

// Emulate makes e drive the run (Run then runs in real time).
func (r *Run) Emulate(e Emulator) { r.emulator = e }

// FlowError is a problem with kernel flow k found by the emulator (a
// congestion control the kernel lacks), located at field key of the flow.
func (r *Run) FlowError(k *KernelFlow, key, format string, args ...any) error {
	rep := &reporter{file: r.Scenario.File, sets: r.Scenario.sets}
	f := k.spec
	line, path := f.lineOf(key), f.field(key)
	if key == "transport.variant" {
		line, path = f.Transport.lineOf("variant"), f.Transport.field("variant")
	}
	rep.at(line, path, format, args...)
	return rep.err()
}

// kernelNeeded is the error of a run with kernel hosts and no emulator,
// at the first kernel host's line.
func (r *Run) kernelNeeded() error {
	s := r.Scenario
	rep := &reporter{file: s.File, sets: s.sets}
	var names []string
	for i := range s.Nodes {
		if n := &s.Nodes[i]; n.Kernel {
			names = append(names, n.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	for i := range s.Nodes {
		if n := &s.Nodes[i]; n.Kernel {
			rep.at(n.lineOf("kernel"), n.field("kernel"), "%v (this scenario's: %s)", ErrNeedsEmulation, strings.Join(names, ", "))
			break
		}
	}
	return rep.err()
}

// kernelSet is the kernel hosts by name (nil when there are none: the
// common case costs nothing).
func (s *Scenario) kernelSet() map[string]bool {
	var set map[string]bool
	for i := range s.Nodes {
		if s.Nodes[i].Kernel {
			if set == nil {
				set = map[string]bool{}
			}
			set[s.Nodes[i].Name] = true
		}
	}
	return set
}
