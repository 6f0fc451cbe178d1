package scenario

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/trace"
	"github.com/tcplab/tcplab/wireless"
)

// PcapSpec is a pcap capture of one link:
//
//	trace:
//	  pcap:
//	    - {link: lossy, file: lossy.pcap}                  # both directions
//	    - {link: bottleneck, direction: forward, file: bn.pcap, events: r, snaplen: 128}
type PcapSpec struct {
	Link      string `yaml:"link"`
	Direction string `yaml:"direction"` // forward, reverse or both (default)
	File      string `yaml:"file"`
	// Events are the link events captured: "-" (default: as transmission
	// starts), "r" (as received, after channel loss), "+" or "d".
	Events  string `yaml:"events"`
	Snaplen int    `yaml:"snaplen"` // bytes kept per packet; 0: all (zero-filled payload)
	origin
}

// NS2Spec is an ns-2 style text trace ("+ - r d" lines) of some or all
// links (both directions).
type NS2Spec struct {
	File  string   `yaml:"file"`
	Links []string `yaml:"links"` // default: every link
	origin
}

// checkPackets checks the pcap and ns-2 sections against the link names.
func (t *TraceSpec) checkPackets(r *reporter, links map[string]bool) {
	// Every output file differs from the others and from the scenario
	// file itself, which a trace would otherwise overwrite.
	files := map[string]string{filepath.Clean(r.file): "the scenario file"}
	file := func(o *origin, path, name string) {
		if name == "" {
			r.at(o.lineOf("file"), joinPath(path, "file"), "missing: the output file")
			return
		}
		if prev, dup := files[filepath.Clean(name)]; dup {
			r.at(o.lineOf("file"), joinPath(path, "file"), "%s is also %s", name, written(prev))
		}
		files[filepath.Clean(name)] = path
	}
	for _, f := range []struct{ name, path string }{{t.Drops, "trace.drops"}, {t.TCP, "trace.tcp"}, {t.Air, "trace.air"}} {
		if f.name == "" {
			continue
		}
		if prev, dup := files[filepath.Clean(f.name)]; dup {
			r.at(0, f.path, "%s is also %s", f.name, written(prev))
		}
		files[filepath.Clean(f.name)] = f.path
	}
	for i := range t.Pcap {
		p := &t.Pcap[i]
		path := p.path
		if path == "" {
			path = fmt.Sprintf("trace.pcap[%d]", i)
		}
		if !links[p.Link] {
			r.at(p.lineOf("link"), joinPath(path, "link"), "no link %q (links: %s)", p.Link, linkList(links))
		}
		switch p.Direction {
		case "", "both", "forward", "reverse":
		default:
			r.at(p.lineOf("direction"), joinPath(path, "direction"), "want forward, reverse or both, got %q", p.Direction)
		}
		for _, c := range p.Events {
			if !strings.ContainsRune("+-rd", c) {
				r.at(p.lineOf("events"), joinPath(path, "events"), "want letters from + - r d, got %q", p.Events)
				break
			}
		}
		if p.Snaplen < 0 || p.Snaplen > 65535 || (p.Snaplen > 0 && p.Snaplen < 64) {
			r.at(p.lineOf("snaplen"), joinPath(path, "snaplen"), "want 0 (whole packets) or 64..65535, got %d", p.Snaplen)
		}
		file(&p.origin, path, p.File)
	}
	if n := t.NS2; n != nil {
		path := "trace.ns2"
		for _, l := range n.Links {
			if !links[l] {
				r.at(n.lineOf("links"), joinPath(path, "links"), "no link %q (links: %s)", l, linkList(links))
			}
		}
		file(&n.origin, path, n.File)
	}
}

// written names what else uses an output path.
func written(by string) string {
	if by == "the scenario file" {
		return by
	}
	return "written by " + by
}

func linkList(links map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(links)), ", ")
}

// packetTraces are the open pcap and ns-2 writers of a run.
type packetTraces struct {
	files []*os.File
	bufs  []*bufio.Writer
	pcaps []*trace.Pcap
	ns2   *trace.NS2
	air   *trace.Air
}

// linkDirections returns the two directions of the scenario link name, in
// the order Net.Connect made them (forward first).
func linkDirections(net *network.Net, name string) (fwd, rev *network.Link) {
	for _, l := range net.Links {
		if strings.HasPrefix(l.Name, name+"/") {
			if fwd == nil {
				fwd = l
			} else {
				rev = l
			}
		}
	}
	return fwd, rev
}

// attachPacketTraces opens the trace files and hooks the writers on the
// links. Flows tell the writers which direction carries each flow's data.
func attachPacketTraces(s *Scenario, net *network.Net, flows []source, ch *wireless.Channel) (*packetTraces, error) {
	if len(s.Trace.Pcap) == 0 && s.Trace.NS2 == nil && s.Trace.Air == "" {
		return nil, nil
	}
	var info []trace.Flow
	for i, src := range flows {
		f := trace.Flow{Name: s.Flows[i].Name}
		if n := net.Node(s.Flows[i].Src); n != nil {
			f.Src = n.ID
		}
		if t := tcpOf(src); t != nil {
			f.MSS = t.Config().Segments.MSS
		}
		info = append(info, f)
	}
	pt := &packetTraces{}
	create := func(name string) (*bufio.Writer, error) {
		f, err := os.Create(name)
		if err != nil {
			return nil, err
		}
		w := bufio.NewWriterSize(f, 1<<16)
		pt.files = append(pt.files, f)
		pt.bufs = append(pt.bufs, w)
		return w, nil
	}
	for i := range s.Trace.Pcap {
		p := &s.Trace.Pcap[i]
		w, err := create(p.File)
		if err != nil {
			pt.close()
			return nil, fmt.Errorf("trace.pcap: %w", err)
		}
		pc, err := trace.NewPcap(w, info, trace.PcapOptions{Events: p.Events, Snaplen: p.Snaplen})
		if err != nil {
			pt.close()
			return nil, fmt.Errorf("trace.pcap: %w", err)
		}
		pt.pcaps = append(pt.pcaps, pc)
		fwd, rev := linkDirections(net, p.Link)
		for _, d := range directions(p.Direction, fwd, rev) {
			trace.Attach(d, pc)
		}
	}
	if s.Trace.Air != "" && ch != nil {
		w, err := create(s.Trace.Air)
		if err != nil {
			pt.close()
			return nil, fmt.Errorf("trace.air: %w", err)
		}
		if pt.air, err = trace.NewAir(w, info); err != nil {
			pt.close()
			return nil, fmt.Errorf("trace.air: %w", err)
		}
		ch.SetTracer(pt.air)
	}
	if n := s.Trace.NS2; n != nil {
		w, err := create(n.File)
		if err != nil {
			pt.close()
			return nil, fmt.Errorf("trace.ns2: %w", err)
		}
		pt.ns2 = trace.NewNS2(w, info)
		if len(n.Links) == 0 {
			for _, l := range net.Links {
				trace.Attach(l, pt.ns2)
			}
		} else {
			for _, name := range n.Links {
				fwd, rev := linkDirections(net, name)
				trace.Attach(fwd, pt.ns2)
				trace.Attach(rev, pt.ns2)
			}
		}
	}
	return pt, nil
}

// close flushes and closes every trace file, returning the first error.
func (pt *packetTraces) close() error {
	if pt == nil {
		return nil
	}
	var errs []error
	for _, p := range pt.pcaps {
		errs = append(errs, p.Err())
	}
	if pt.air != nil {
		errs = append(errs, pt.air.Err())
	}
	if pt.ns2 != nil {
		errs = append(errs, pt.ns2.Flush())
	}
	for i, f := range pt.files {
		errs = append(errs, pt.bufs[i].Flush(), f.Close())
	}
	return errors.Join(errs...)
}
