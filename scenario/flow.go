package scenario

import (
	"errors"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/tcplab/tcplab/coding"
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
	"github.com/tcplab/tcplab/traffic"
)

// FlowSpec is one TCP connection or UDP stream with its application.
type FlowSpec struct {
	Name      string    `yaml:"name"` // default "flow<k>", k from 1 in file order
	Src       string    `yaml:"src"`
	Dst       string    `yaml:"dst"`
	Transport Transport `yaml:"transport"`
	App       AppSpec   `yaml:"app"`
	Start     sim.Time  `yaml:"start"`
	// StartStep staggers the copies of a counted entry; count expansion
	// turns it into each copy's Start (expand.go), so a decoded flow that
	// still has one was not counted.
	StartStep sim.Time `yaml:"start_step"`
	Stop      sim.Time `yaml:"stop"` // default: the end of the run
	// Coding, if present, puts TCP-NC's network-coding layer under the
	// flow (package coding).
	Coding *CodingSpec `yaml:"coding"`
	origin
}

// CodingSpec configures a flow's coding layer: {redundancy: 1.064}.
type CodingSpec struct {
	Redundancy float64 `yaml:"redundancy"` // coded packets per packet TCP sends, at least 1
	Window     int     `yaml:"window"`     // most packets coded over; default 256
	origin
}

// check reports settings the coding layer cannot work with, at their
// lines, before the run.
func (c *CodingSpec) check(r *reporter, f *FlowSpec) {
	if !c.has("redundancy") {
		r.at(c.line, c.field("redundancy"), "missing (e.g. 1.064: R ≥ 1/(1−p) masks a loss rate p)")
	} else if !(c.Redundancy >= 1) || c.Redundancy > 100 {
		r.at(c.lineOf("redundancy"), c.field("redundancy"), "%g: want 1 to 100 (below 1 the code cannot carry every packet)", c.Redundancy)
	}
	if c.has("window") && (c.Window < 1 || c.Window > coding.MaxWindow) {
		r.at(c.lineOf("window"), c.field("window"), "%d: want 1 to %d packets", c.Window, coding.MaxWindow)
	}
	if f.Transport.Protocol == "udp" {
		r.at(c.line, c.path, "coding runs under TCP; this flow is UDP")
		return
	}
	// Its acknowledgements count packets seen: no byte ranges, no echo.
	var off []string
	if f.Transport.TCP.Recovery.SACK || f.Transport.TCP.VariantImpl() == "sack" {
		off = append(off, "transport.sack: false")
	}
	if f.Transport.TCP.TS.Enabled {
		off = append(off, "transport.timestamps: false")
	}
	if len(off) > 0 {
		r.at(c.line, c.path, "coding acknowledges packets seen, without SACK blocks or timestamps: set %s", strings.Join(off, " and "))
	}
	if f.App.Type != "" && f.App.Type != "bulk" {
		r.at(c.line, c.path, "coding carries bulk transfers only (full-sized segments), not app type %s", f.App.Type)
	}
}

// Transport is how a flow's packets travel: TCP with a tcp.Config (a
// profile with some fields overridden), or UDP. In YAML it is "tcp",
// "udp", or a mapping of tcp.Config fields, e.g.
// {profile: ns2, variant: reno, window: 32}.
type Transport struct {
	Protocol string // "tcp" or "udp"; "" when not written
	TCP      tcp.Config
	origin
}

func (t *Transport) decodeNode(d *decoder, n *yaml.Node, path string) {
	t.line, t.path = n.Line, path
	if n.Kind == yaml.ScalarNode {
		s, ok := d.scalar(n, path)
		if !ok {
			return
		}
		switch s {
		case "tcp":
			t.Protocol = "tcp"
			t.TCP, _ = tcp.Profile(tcp.DefaultProfile)
		case "udp":
			t.Protocol = "udp"
		default:
			d.at(n.Line, path, "unknown transport %q (want tcp, udp, or a mapping of TCP settings)", s)
		}
		return
	}
	if n.Kind != yaml.MappingNode {
		d.at(n.Line, path, "want tcp, udp, or a mapping of TCP settings, got a %s", kindName(n))
		return
	}
	t.Protocol = "tcp"
	// Fields not written keep the profile's values, so the profile is
	// read first wherever it appears in the mapping.
	name := tcp.DefaultProfile
	if p := mappingValue(n, "profile"); p != nil && p.Kind == yaml.ScalarNode {
		name = p.Value
	}
	cfg, err := tcp.Profile(name)
	if err != nil {
		d.at(mappingValue(n, "profile").Line, joinPath(path, "profile"), "unknown profile %q (have %s)", name, strings.Join(tcp.ProfileNames(), ", "))
		cfg, _ = tcp.Profile(tcp.DefaultProfile)
	}
	t.TCP = cfg
	d.decodeStruct(n, reflect.ValueOf(&t.TCP).Elem(), path)
	t.setOrigin(n, path)
	t.keys = nestedKeys(n, "", t.keys)
}

// nestedKeys appends the lines of keys below the top level as dotted
// paths (rto.min), which the tcp package names in its errors.
func nestedKeys(n *yaml.Node, prefix string, keys []keyLine) []keyLine {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if prefix != "" {
			keys = append(keys, keyLine{prefix + k.Value, v.Line})
		}
		if v.Kind == yaml.MappingNode {
			keys = nestedKeys(v, prefix+k.Value+".", keys)
		}
	}
	return keys
}

// AppSpec is what the source application sends. In YAML: "bulk", or a
// mapping with a type and its parameters.
type AppSpec struct {
	Type       string    `yaml:"type"`        // bulk (default), transfer, cbr
	Size       Bytes     `yaml:"size"`        // transfer: application bytes to send
	Rate       Bandwidth `yaml:"rate"`        // cbr: sending rate on the wire, headers included
	PacketSize Bytes     `yaml:"packet_size"` // cbr: bytes per packet on the wire, UDP/IP headers included (ns-2's packetSize_)
	// web: pages of objects objects (default 4), object sizes Pareto of
	// mean object_size (default 10KB) and shape (default 1.2), think
	// time exponential of mean think (default 2s).
	Objects    int      `yaml:"objects"`
	ObjectSize Bytes    `yaml:"object_size"`
	Shape      float64  `yaml:"shape"`
	Think      sim.Time `yaml:"think"`
	// onoff: a cbr source (rate, packet_size) that sends in bursts of
	// mean length burst separated by silences of mean length idle, both
	// Pareto of tail index shape (default 1.4: aggregates of many such
	// sources are self-similar with H = (3 − shape)/2 = 0.8).
	Burst sim.Time `yaml:"burst"`
	Idle  sim.Time `yaml:"idle"`
	origin
}

var appParams = map[string][]string{
	"bulk":     {},
	"transfer": {"size"},
	"cbr":      {"rate", "packet_size"},
	"onoff":    {"rate", "packet_size", "burst", "idle", "shape"},
	"web":      {"objects", "object_size", "shape", "think"},
}

func (a *AppSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	if n.Kind == yaml.ScalarNode {
		if s, ok := d.scalar(n, path); ok {
			a.Type = s
			a.line, a.path = n.Line, path
		}
		return
	}
	d.decodeStruct(n, reflect.ValueOf(a).Elem(), path)
}

// check fills defaults and checks the flow's own fields; checks that need
// the rest of the scenario (nodes, duration) are in validate.go.
func (f *FlowSpec) checkApp(r *reporter) {
	a := &f.App
	if a.path == "" {
		a.path, a.line = f.field("app"), f.line
	}
	if a.Type == "" {
		a.Type = "bulk"
	}
	params, ok := appParams[a.Type]
	if !ok {
		r.at(a.lineOf("type"), a.field("type"), "unknown application %q (have bulk, cbr, onoff, transfer, web)", a.Type)
		return
	}
	required := params
	switch a.Type {
	case "web":
		required = nil // every web parameter has a default
		a.checkWeb(r)
	case "onoff":
		required = params[:4]
		a.checkOnOff(r)
	}
	checkParams(r, &a.origin, "application", a.Type, params, required, []string{"type"})
	if a.Type == "transfer" && a.has("size") && a.Size == 0 {
		r.at(a.lineOf("size"), a.field("size"), "transfer size must be positive")
	}
	udp := a.Type == "cbr" || a.Type == "onoff"
	if udp && a.has("packet_size") && a.PacketSize <= traffic.UDPHeader {
		r.at(a.lineOf("packet_size"), a.field("packet_size"), "packet size %dB leaves no payload after the %dB UDP/IP header", a.PacketSize, traffic.UDPHeader)
	}
	if udp && a.PacketSize > 65507 {
		r.at(a.lineOf("packet_size"), a.field("packet_size"), "packet size %d exceeds a UDP datagram (65507 bytes)", a.PacketSize)
	}

	t := &f.Transport
	if t.path == "" {
		t.path, t.line = f.field("transport"), f.line
	}
	switch {
	case t.Protocol == "" && udp:
		t.Protocol = "udp"
	case t.Protocol == "":
		t.Protocol = "tcp"
		t.TCP, _ = tcp.Profile(tcp.DefaultProfile)
	case t.Protocol == "udp" && !udp:
		r.at(t.line, t.path, "a %s application needs TCP; UDP carries cbr and onoff only", a.Type)
	case t.Protocol == "tcp" && udp:
		r.at(t.line, t.path, "%s runs over UDP; write \"transport: udp\" or leave transport out", a.Type)
	}
	if t.Protocol == "tcp" {
		checkTCP(r, t)
	}
}

// checkTCP checks a TCP configuration with tcp.Config.Validate, pointing
// each of its field errors ("rto.min: must be positive") at the line that
// set the field, or at the transport (or profile) when the value came from
// the profile.
func checkTCP(r *reporter, t *Transport) {
	err := t.TCP.Validate()
	if err == nil {
		return
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for _, e := range errs {
		var fe *component.FieldError
		if !errors.As(e, &fe) {
			r.at(t.line, t.path, "%v", e)
			continue
		}
		line := t.line
		if l, set := t.keyLineOf(fe.Field); set {
			line = l
		} else if l, set := t.keyLineOf("params"); set && strings.HasPrefix(fe.Field, "params.") {
			line = l
		} else if l, set := t.keyLineOf("profile"); set {
			line = l
		}
		r.at(line, t.field(fe.Field), "%s", fe.Msg)
	}
}

// checkWeb fills a web application's defaults and checks its values.
func (a *AppSpec) checkWeb(r *reporter) {
	if !a.has("objects") {
		a.Objects = 4
	}
	if !a.has("object_size") {
		a.ObjectSize = 10 * 1024
	}
	if !a.has("shape") {
		a.Shape = 1.2
	}
	if !a.has("think") {
		a.Think = 2 * sim.Second
	}
	if a.Objects < 1 || a.Objects > 1000 {
		r.at(a.lineOf("objects"), a.field("objects"), "objects per page must be 1 to 1000, got %d", a.Objects)
	}
	if a.ObjectSize < 1 {
		r.at(a.lineOf("object_size"), a.field("object_size"), "object size must be positive")
	}
	if !(a.Shape > 1) || a.Shape > 100 {
		r.at(a.lineOf("shape"), a.field("shape"), "Pareto shape must be in (1, 100] (a finite mean), got %g", a.Shape)
	}
	if a.Think < 0 {
		r.at(a.lineOf("think"), a.field("think"), "think time must not be negative")
	}
}

// checkOnOff fills the on/off source's shape and checks its periods.
func (a *AppSpec) checkOnOff(r *reporter) {
	if !a.has("shape") {
		a.Shape = 1.4
	}
	if !(a.Shape > 1) || a.Shape > 100 {
		r.at(a.lineOf("shape"), a.field("shape"), "Pareto shape must be in (1, 100] (a finite mean), got %g", a.Shape)
	}
	for _, k := range []struct {
		key string
		v   sim.Time
	}{{"burst", a.Burst}, {"idle", a.Idle}} {
		if a.has(k.key) && k.v <= 0 {
			r.at(a.lineOf(k.key), a.field(k.key), "mean %s period must be positive", k.key)
		}
	}
}
