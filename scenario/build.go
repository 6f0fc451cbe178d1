package scenario

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/tcplab/tcplab/agent"
	"github.com/tcplab/tcplab/coding"
	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/routing"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
	"github.com/tcplab/tcplab/traffic"
	"github.com/tcplab/tcplab/wireless"
)

// Run is a built scenario: the network with its flows attached, ready to
// run once.
type Run struct {
	Scenario *Scenario
	Net      *network.Net
	flows    []source
	drops    *dropTrace
	series   *seriesTrace
	packets  *packetTraces
	wifi     *wireless.Channel
	routing  *routing.Stats // nil: static routes
	agents   []agent.Agent
	ends     [][2]*network.Node // each flow's source and destination, in file order
	emulator Emulator           // drives a run with kernel hosts (Emulate)
	// Warnings are problems that do not stop the run.
	Warnings []string
}

// source is what a flow's sender offers the runner; tcp.Flow and
// traffic.CBR both fit.
type source interface {
	Result(now sim.Time) metrics.Flow
}

// Build makes the network in file order (nodes, links, then flows, so
// packet and port numbers never depend on anything but the file), with
// every random stream named after its component. Errors from the packages
// below (a TCP setting they reject) are reported at the flow's line.
func (s *Scenario) Build() (*Run, error) {
	r := &reporter{file: s.File, sets: s.sets}
	net := network.New(s.Seed)
	nodes := make(map[string]*network.Node, len(s.Nodes))
	for _, n := range s.Nodes {
		nodes[n.Name] = net.AddNode(n.Name)
	}
	for i := range s.Links {
		buildLink(net, &s.Links[i], nodes)
	}
	run := &Run{Scenario: s, Net: net}
	if s.Wireless != nil {
		ch, err := buildWireless(net, s.Wireless, nodes)
		if err != nil {
			r.at(s.Wireless.line, "wireless", "%v", err)
			return nil, r.err()
		}
		run.wifi = ch
		var radios []*network.Node
		for _, rd := range ch.Radios() {
			radios = append(radios, rd.Node)
		}
		run.routing = buildRouting(s, radios)
	}
	net.ComputeRoutes()

	run.ends = make([][2]*network.Node, len(s.Flows))
	kernel := s.kernelSet()
	for i := range s.Flows {
		f := &s.Flows[i]
		run.ends[i] = [2]*network.Node{nodes[f.Src], nodes[f.Dst]}
		if kernel[f.Src] {
			run.flows = append(run.flows, newKernelFlow(i, f))
			continue
		}
		src, err := buildFlow(net, int32(i), f, nodes[f.Src], nodes[f.Dst])
		if err != nil {
			r.at(f.lineOf("transport"), f.field("transport"), "%v", err)
			continue
		}
		run.flows = append(run.flows, src)
	}
	if len(r.errs) == 0 {
		agents, warnings, err := buildAgents(s, net, nodes, run.TCPFlows())
		if err != nil {
			r.at(s.lineOf("nodes"), "nodes", "%v", err)
		}
		run.agents, run.Warnings = agents, append(append([]string(nil), s.warnings...), warnings...)
	}
	if s.Trace.Drops != "" && len(r.errs) == 0 {
		t, err := newDropTrace(s.Trace.Drops, s, net)
		if err != nil {
			r.at(s.Trace.lineOf("drops"), "trace.drops", "%v", err)
		} else {
			run.drops = t
			net.OnDrop(t.record)
		}
	}
	if s.Trace.TCP != "" && len(r.errs) == 0 {
		t, err := newSeriesTrace(s.Trace.TCP, run.flows)
		if err != nil {
			r.at(s.Trace.lineOf("tcp"), "trace.tcp", "%v", err)
		} else {
			run.series = t
		}
	}
	if len(r.errs) == 0 {
		t, err := attachPacketTraces(s, net, run.flows, run.wifi)
		if err != nil {
			r.at(s.Trace.line, "trace", "%v", err)
		}
		run.packets = t
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	return run, nil
}

// directions lists the link directions a spec applies to.
func directions(dir string, ab, ba *network.Link) []*network.Link {
	switch dir {
	case "forward":
		return []*network.Link{ab}
	case "reverse":
		return []*network.Link{ba}
	}
	return []*network.Link{ab, ba}
}

func buildLink(net *network.Net, l *LinkSpec, nodes map[string]*network.Node) {
	cfg := network.LinkConfig{Bandwidth: float64(l.Bandwidth), Delay: l.Delay, Cost: l.Cost}
	// Queues need the direction's name for their random stream, known
	// only once Connect has named the two directions.
	ab, ba := net.Connect(l.Name, nodes[l.From], nodes[l.To], cfg, func() network.Queue { return nil })
	for _, d := range []*network.Link{ab, ba} {
		d.SetQueue(newQueue(net, &l.Queue, d.Name, d.Bandwidth))
	}
	// Each model draws from its own stream, named by link direction and
	// its place in the list, so adding a model leaves the others' draws
	// unchanged.
	for k := range l.Loss {
		spec := &l.Loss[k]
		for _, d := range directions(spec.Direction, ab, ba) {
			name := "errors/" + d.Name
			if k > 0 {
				name += "#" + strconv.Itoa(k+1)
			}
			m := newErrorModel(net, spec, name)
			switch old := d.ErrorModel().(type) {
			case nil:
				d.SetErrorModel(m)
			case network.Chain:
				d.SetErrorModel(append(old, m))
			default:
				d.SetErrorModel(network.Chain{old, m})
			}
		}
	}
	if p := l.DelayProcess; p != nil {
		for _, d := range directions(p.Direction, ab, ba) {
			d.SetDelayProcess(p.Params.NewDelayProcess(net, l.Delay, "delay/"+d.Name))
		}
	}
}

// newQueue makes the queue in front of a transmitter named name sending
// at bandwidth bit/s (a link direction, or a radio).
func newQueue(net *network.Net, q *QueueSpec, name string, bandwidth float64) network.Queue {
	return q.Params.NewQueue(net, name, bandwidth)
}

// newErrorModel makes s's model drawing from stream, applied to the
// packets s names.
func newErrorModel(net *network.Net, s *LossSpec, stream string) network.ErrorModel {
	m := s.Params.NewErrorModel(net, stream)
	switch s.Packets {
	case "data":
		return &network.Filter{Kind: network.DataOnly, Inner: m}
	case "acks":
		return &network.Filter{Kind: network.AcksOnly, Inner: m}
	}
	return m
}

func buildFlow(net *network.Net, id int32, f *FlowSpec, src, dst *network.Node) (source, error) {
	if app, ok := f.App.Source(); ok {
		c, err := app.NewSource(net, id, src, dst, f.Name)
		if err != nil {
			return nil, err
		}
		c.Start(f.Start)
		c.StopAt(f.Stop)
		return named{c, f.Name, f.App.Type}, nil
	}
	t, err := tcp.NewFlow(net, id, f.Name, f.Transport.TCP, src, dst)
	if err != nil {
		return nil, err
	}
	t.Start(f.Start)
	t.StopAt(f.Stop)
	extra := f.App.Params.(traffic.Driver).Drive(net, t, f.Name)
	if f.Coding != nil {
		l, err := coding.Attach(net, t, coding.Config{Redundancy: f.Coding.Redundancy, Window: f.Coding.Window})
		if err != nil {
			return nil, err
		}
		return codedFlow{t, l}, nil
	}
	if extra != nil {
		return extendedFlow{t, extra}, nil
	}
	return t, nil
}

// tcpOf is the TCP connection behind a source, or nil (CBR).
func tcpOf(src source) *tcp.Flow {
	switch f := src.(type) {
	case *tcp.Flow:
		return f
	case extendedFlow:
		return f.Flow
	case codedFlow:
		return f.Flow
	}
	return nil
}

// codedFlow is a TCP flow over the coding layer; its result adds the
// layer's counters.
type codedFlow struct {
	*tcp.Flow
	layer *coding.Layer
}

func (c codedFlow) Result(now sim.Time) metrics.Flow {
	r := c.Flow.Result(now)
	st := c.layer.Stats
	r.Coding = map[string]float64{
		"coded_sent": float64(st.CodedSent), "innovative": float64(st.Innovative),
		"non_innovative": float64(st.NonInnovative), "delivered": float64(st.Delivered),
		"mismatched": float64(st.Mismatched), "max_window": float64(st.MaxWindow),
		"seen": float64(st.Seen), "span_overflows": float64(st.SpanOverflows), "cwnd_mean": st.CwndMean,
		"decode_delay_mean": st.DecodeDelayMean, "decode_delay_max": st.DecodeDelayMax,
	}
	return r
}

// extendedFlow is a TCP flow whose application adds figures of its own to
// the result (a browsing session's pages).
type extendedFlow struct {
	*tcp.Flow
	extra traffic.Extra
}

func (e extendedFlow) Result(now sim.Time) metrics.Flow {
	r := e.Flow.Result(now)
	e.extra.AddTo(&r)
	return r
}

// TCPFlows lists the run's TCP connections in file order, for callers that
// observe them (tcp.Flow.SetProbe) before Run.
func (r *Run) TCPFlows() []*tcp.Flow {
	var fs []*tcp.Flow
	for _, src := range r.flows {
		if f := tcpOf(src); f != nil {
			fs = append(fs, f)
		}
	}
	return fs
}

// named fills in the identity a traffic source leaves to its caller.
type named struct {
	src     source
	id      string
	variant string
}

func (n named) Result(now sim.Time) metrics.Flow {
	r := n.src.Result(now)
	r.ID, r.Variant = n.id, n.variant
	return r
}

// Run runs the built scenario to its end and summarises it.
func (r *Run) Run() (*Result, error) {
	s := r.Scenario
	if r.emulator == nil {
		if err := r.kernelNeeded(); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	interrupted := false
	if r.emulator != nil {
		var err error
		if interrupted, err = r.emulator.Run(s.Duration); err != nil {
			return nil, err
		}
	} else {
		r.Net.Run(s.Duration)
	}
	wall := time.Since(t0)
	now := r.Net.Now()
	res := &Result{
		Scenario:    s.Name,
		Seed:        s.Seed,
		Events:      r.Net.Sched.Events(),
		SimSeconds:  now.Seconds(),
		WallSeconds: wall.Seconds(),
		Flows:       make([]metrics.Flow, len(r.flows)),
		Drops:       map[string]int64{},
	}
	for i, f := range r.flows {
		res.Flows[i] = f.Result(now)
	}
	for _, c := range network.DropCauses() {
		// A routing protocol's causes are listed only where one runs.
		if n := r.Net.Drops[c]; n > 0 || !c.Routing() || r.routing != nil {
			res.Drops[c.String()] = n
		}
	}
	for _, l := range r.Net.Links {
		if q := l.QueueDelay(); q.Queued > 0 {
			if res.Queues == nil {
				res.Queues = map[string]network.QueueStats{}
			}
			res.Queues[l.Name] = q
		}
	}
	if r.routing != nil {
		r.routing.Finish()
		res.Routing = r.routing
	}
	if r.wifi != nil {
		res.Wireless = map[string]wireless.Stats{}
		for _, rd := range r.wifi.Radios() {
			res.Wireless[rd.Node.Name] = rd.Stats
		}
	}
	if len(r.agents) > 0 {
		res.Agents = map[string]any{}
		for _, a := range r.agents {
			res.Agents[a.Node().Name] = a.Counters()
		}
	}
	res.Warnings = r.Warnings
	if r.emulator != nil {
		r.emulator.Finish(res)
		if interrupted {
			res.Warnings = append(res.Warnings, fmt.Sprintf("interrupted at %.3f s of %v: the figures are the run's so far", now.Seconds(), s.Duration))
		}
	}
	if r.drops != nil {
		if err := r.drops.close(); err != nil {
			return res, err
		}
	}
	if r.series != nil {
		if err := r.series.close(); err != nil {
			return res, err
		}
	}
	if err := r.packets.close(); err != nil {
		return res, err
	}
	return res, nil
}

// Run builds and runs the scenario.
func (s *Scenario) Run() (*Result, error) {
	run, err := s.Build()
	if err != nil {
		return nil, err
	}
	return run.Run()
}

// dropTrace writes one CSV row per dropped packet.
type dropTrace struct {
	net   *network.Net
	f     *os.File
	w     *bufio.Writer
	flows []string
}

func newDropTrace(path string, s *Scenario, net *network.Net) (*dropTrace, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	t := &dropTrace{net: net, f: f, w: bufio.NewWriter(f)}
	for _, fl := range s.Flows {
		t.flows = append(t.flows, fl.Name)
	}
	t.w.WriteString("time_s,link,flow,cause,size,retx,fast_retx\n")
	return t, nil
}

func (t *dropTrace) record(p *network.Packet, cause network.DropCause, on *network.Link) {
	link, flow := "", ""
	if on != nil {
		link = on.Name
	}
	if i := int(p.Flow); i >= 0 && i < len(t.flows) {
		flow = t.flows[i]
	}
	fmt.Fprintf(t.w, "%.9f,%s,%s,%s,%d,%t,%t\n", t.net.Now().Seconds(), link, flow, cause, p.Size, p.Retx, p.FastRetx)
}

func (t *dropTrace) close() error {
	err := t.w.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// seriesTrace writes the TCP time series of every TCP flow to one CSV.
type seriesTrace struct {
	f *os.File
	w *metrics.SeriesWriter
}

func newSeriesTrace(path string, flows []source) (*seriesTrace, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	t := &seriesTrace{f: f, w: metrics.NewSeriesWriter(f)}
	for _, src := range flows {
		fl := tcpOf(src)
		if fl == nil {
			continue
		}
		row := &metrics.Row{Flow: fl.Name} // one reused row per flow
		fl.SetProbe(func(s *tcp.Sample) {
			*row = metrics.Row{
				Time: s.Time.Seconds(), Flow: row.Flow, Event: s.Event,
				Seq: s.Seq, Ack: s.Ack, TSecr: s.TSecr, Una: s.Una, High: s.High,
				Cwnd: s.Cwnd, Ssthresh: s.Ssthresh, Flight: s.Flight,
				RTO: s.RTO.Seconds(), SRTT: s.SRTT.Seconds(), Retx: s.Retx,
			}
			t.w.Write(row)
		})
	}
	return t, nil
}

func (t *seriesTrace) close() error {
	err := t.w.Flush()
	if cerr := t.f.Close(); err == nil {
		err = cerr
	}
	return err
}
