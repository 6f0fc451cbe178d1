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
	if f.Transport.TCP.UsesSACK() {
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

// AppSpec is what the source application sends: Type names one registered
// in traffic.Apps (bulk, the default, transfer, cbr, onoff, web, ...), whose
// parameters the other keys set. In YAML: "bulk", or a mapping with a type
// and its parameters.
type AppSpec struct {
	Type   string            `yaml:"type"`
	Params traffic.AppParams `yaml:"-"`
	part
	origin
}

func (a *AppSpec) decodeNode(d *decoder, n *yaml.Node, path string) {
	if kind, ok := decodeByName(d, n, path, &a.origin, traffic.Apps, &a.Params, &a.part); ok {
		a.Type = kind
		return
	}
	decodePart(d, n, path, reflect.ValueOf(a).Elem(), "type", "bulk", traffic.Apps, &a.Params, &a.part)
}

// Source is the application's sender when it sends its own datagrams.
func (a *AppSpec) Source() (traffic.Source, bool) {
	s, ok := a.Params.(traffic.Source)
	return s, ok
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
	if a.Params == nil {
		a.Params, a.known = traffic.Apps.New(a.Type)
		a.node = &yaml.Node{Kind: yaml.MappingNode, Line: a.line}
	}
	if !checkPart(r, &a.origin, &a.part, a.Params, "application", "unknown application", "type", a.Type,
		traffic.Apps.Names(), nil, []string{"type"}) && !a.known {
		return
	}
	_, udp := a.Source()

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
		r.at(t.line, t.path, "a %s application needs TCP; UDP carries %s only", a.Type, datagramApps())
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

// datagramApps names the applications that send their own datagrams:
// "cbr and onoff".
func datagramApps() string {
	var names []string
	for _, n := range traffic.Apps.Names() {
		if p, _ := traffic.Apps.New(n); p.Datagrams() {
			names = append(names, n)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
