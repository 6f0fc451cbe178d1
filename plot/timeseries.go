package plot

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// TimeSeries is a set of per-flow series over time.
type TimeSeries struct {
	Chart
	Points bool // draw markers only (sequence plots), not lines
}

// Draw writes the chart to path (.png or .svg).
func (ts TimeSeries) Draw(path string) error {
	p := newPlot(ts.Chart)
	m := &marks{}
	for i, s := range ts.Series {
		pts := make(plotter.XYs, len(s.X))
		for k := range s.X {
			pts[k] = plotter.XY{X: s.X[k], Y: s.Y[k]}
		}
		col := seriesColor(i)
		if ts.Points {
			for _, q := range pts {
				m.point(q.X, q.Y)
			}
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			sc.Color = col
			sc.Shape = plotutil.Shape(i)
			sc.Radius = vg.Points(1.2)
			p.Add(sc)
			p.Legend.Add(s.Name, sc)
			continue
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		m.line(pts)
		l.Color = col
		l.Width = vg.Points(1)
		p.Add(l)
		p.Legend.Add(s.Name, l)
	}
	return save(p, ts.Chart, m, path)
}

// FromSeriesCSV reads a TCP time-series CSV (a scenario's trace.tcp file:
// time_s, flow, event, ... columns) and takes column y per flow over time.
// event, if not empty, keeps only rows of that event letter ("s" for
// segments sent, "a" for ACKs). Columns ending in _bytes are drawn in
// kbytes.
func FromSeriesCSV(r io.Reader, y, event string) (TimeSeries, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return TimeSeries{}, fmt.Errorf("reading header: %w", err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, need := range []string{"time_s", "flow", y} {
		if _, ok := col[need]; !ok {
			return TimeSeries{}, fmt.Errorf("no column %q (have: %s)", need, strings.Join(header, ", "))
		}
	}
	ev, hasEvent := col["event"]
	scale, unit := 1.0, ""
	if strings.HasSuffix(y, "_bytes") {
		scale, unit = 1e-3, " (kbytes)"
	} else if strings.HasSuffix(y, "_s") {
		unit = " (s)"
	} else if y == "seq" || y == "ack" || y == "una" || y == "high" {
		scale, unit = 1e-3, " (kbytes)"
	}
	byFlow := map[string]*Series{}
	var order []string
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return TimeSeries{}, err
		}
		if event != "" && hasEvent && rec[ev] != event {
			continue
		}
		t, err1 := strconv.ParseFloat(rec[col["time_s"]], 64)
		v, err2 := strconv.ParseFloat(rec[col[y]], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		f := rec[col["flow"]]
		s := byFlow[f]
		if s == nil {
			s = &Series{Name: f}
			byFlow[f] = s
			order = append(order, f)
		}
		s.X = append(s.X, t)
		s.Y = append(s.Y, v*scale)
	}
	ts := TimeSeries{Chart: Chart{XLabel: "time (s)", YLabel: strings.TrimSuffix(strings.TrimSuffix(y, "_bytes"), "_s") + unit}}
	for _, f := range order {
		ts.Series = append(ts.Series, *byFlow[f])
	}
	if len(ts.Series) == 0 {
		return ts, fmt.Errorf("no rows with a %s value", y)
	}
	ts.Points = y == "seq" || y == "ack"
	return ts, nil
}

// SeqFromPcap reads a pcap file and returns, per TCP connection direction
// carrying data, the relative sequence number (kbytes from the first one
// seen) of every data segment over time: a tcptrace-style time-sequence
// graph.
func SeqFromPcap(path string) (TimeSeries, error) {
	f, err := os.Open(path)
	if err != nil {
		return TimeSeries{}, err
	}
	defer f.Close()
	r, err := pcapgo.NewReader(f)
	if err != nil {
		return TimeSeries{}, err
	}
	type dir struct {
		s    *Series
		base uint32
	}
	dirs := map[string]*dir{}
	var t0 float64
	first := true
	for {
		data, ci, err := r.ReadPacketData()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return TimeSeries{}, err
		}
		pkt := gopacket.NewPacket(data, r.LinkType(), gopacket.DecodeOptions{Lazy: true, NoCopy: true})
		ip, _ := pkt.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
		tcp, _ := pkt.Layer(layers.LayerTypeTCP).(*layers.TCP)
		if ip == nil || tcp == nil {
			continue
		}
		// Payload length from the IP header, as the capture may be cut.
		plen := int(ip.Length) - int(ip.IHL)*4 - int(tcp.DataOffset)*4
		if plen <= 0 {
			continue
		}
		t := float64(ci.Timestamp.UnixNano()) / 1e9
		if first {
			t0, first = t, false
		}
		key := fmt.Sprintf("%s:%d>%s:%d", ip.SrcIP, tcp.SrcPort, ip.DstIP, tcp.DstPort)
		d := dirs[key]
		if d == nil {
			d = &dir{s: &Series{Name: key}, base: tcp.Seq}
			dirs[key] = d
		}
		d.s.X = append(d.s.X, t-t0)
		d.s.Y = append(d.s.Y, float64(tcp.Seq-d.base)/1e3)
	}
	keys := slices.Sorted(maps.Keys(dirs))
	ts := TimeSeries{Chart: Chart{XLabel: "time since first segment (s)", YLabel: "relative sequence number (kbytes)"}, Points: true}
	for _, k := range keys {
		ts.Series = append(ts.Series, *dirs[k].s)
	}
	if len(ts.Series) == 0 {
		return ts, fmt.Errorf("%s: no TCP data segments", path)
	}
	return ts, nil
}
