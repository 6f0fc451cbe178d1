//go:build linux

package kernel

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/realtime"
	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/traffic"
)

// Attach makes the kernel hosts of a built scenario and the programs of
// its kernel flows, and hands the run to the emulation (run.Run then runs
// in real time). Close removes everything, whatever happened.
func Attach(run *scenario.Run) (*Emulation, error) {
	var nodes []*network.Node
	for _, name := range run.Scenario.KernelHosts() {
		nodes = append(nodes, run.Net.Node(name))
	}
	e, err := New(run.Net, nodes)
	if err != nil {
		return nil, err
	}
	if err := e.attach(run); err != nil {
		e.Close()
		return nil, err
	}
	run.Emulate(e)
	e.run = run
	return e, nil
}

func (e *Emulation) attach(run *scenario.Run) error {
	have := congestionControls()
	flows := run.KernelFlows()
	senders := map[*Host]int{}
	for _, k := range flows {
		senders[e.Host(run.Net.Node(k.Src))]++
	}
	for _, k := range flows {
		src, dst := e.Host(run.Net.Node(k.Src)), e.Host(run.Net.Node(k.Dst))
		for _, key := range slices.Sorted(maps.Keys(k.Sysctls)) {
			for _, h := range []*Host{src, dst} {
				if err := h.Set(key, k.Sysctls[key]); err != nil {
					return run.FlowError(k, "transport", "sysctl %s in %s: %v", key, h.Namespace, err)
				}
			}
		}
		i := int32(k.Index)
		if c, ok := k.App.(*traffic.CommandParams); ok {
			cmd, err := e.NewCommand(i, k.Name, src, dst, c.Argv, c.Server, c.Log, k.Start, k.Stop)
			if err != nil {
				return run.FlowError(k, "app", "%v", err)
			}
			run.Attach(k, cmd)
			continue
		}
		if !have[k.CC] {
			return run.FlowError(k, "transport.variant", "this kernel has no congestion control %q (it has %s; a module may add more: modprobe tcp_%s)",
				k.CC, strings.Join(slices.Sorted(maps.Keys(have)), ", "), k.CC)
		}
		var size int64
		if t, ok := k.App.(*traffic.TransferParams); ok {
			size = int64(t.Size)
		}
		b, err := e.NewBulk(i, k.Name, src, dst, k.CC, k.MSS, size, k.Start, k.Stop)
		if err != nil {
			return run.FlowError(k, "app", "%v", err)
		}
		b.only = senders[src] == 1
		run.Attach(k, b)
	}
	return nil
}

// congestionControls are the kernel's available congestion controls.
func congestionControls() map[string]bool {
	b, err := os.ReadFile("/proc/sys/net/ipv4/tcp_available_congestion_control")
	out := map[string]bool{}
	if err != nil {
		return out
	}
	for _, f := range strings.Fields(string(b)) {
		out[f] = true
	}
	return out
}

// Finish implements scenario.Emulator: lateness, each host's device
// counters, and what the run could not do.
func (e *Emulation) Finish(res *scenario.Result) {
	l := e.Clock.Lateness()
	hosts := map[string]HostStats{}
	for _, h := range e.hosts {
		hosts[h.Node.Name] = h.Stats
	}
	res.Emulation = Report{Lateness: l, Hosts: hosts, RemovedLeftovers: e.removed}
	if e.run != nil {
		for _, a := range e.apps {
			e.run.TraceRows(a.traceRows())
		}
	}
	if l.Exceeded {
		res.Warnings = append(res.Warnings, fmt.Sprintf("not real-time: p99 lateness %.0f µs exceeds the bound of %.0f µs (max %.0f µs); kernel flows saw a slower network than the scenario's",
			l.P99us, l.BoundUs, l.MaxUs))
	}
	for _, a := range e.apps {
		if err := a.Err(); err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}
	for _, h := range e.hosts {
		if h.Stats.Foreign > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s sent %d packets to addresses outside the scenario's hosts: dropped at its device", h.Node.Name, h.Stats.Foreign))
		}
	}
}

// Report is the emulation's part of a run's result.
type Report struct {
	Lateness realtime.Lateness    `json:"lateness"`
	Hosts    map[string]HostStats `json:"hosts"`
	// RemovedLeftovers names namespaces of killed runs removed at the
	// start.
	RemovedLeftovers []string `json:"removed_leftovers,omitempty"`
}
