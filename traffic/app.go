package traffic

import (
	"github.com/tcplab/tcplab/component"
	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/network"
	"github.com/tcplab/tcplab/sim"
	"github.com/tcplab/tcplab/tcp"
	"github.com/tcplab/tcplab/units"
)

// Apps is the registry of applications, a flow's app "type". An
// application either sends its own datagrams (a Source: cbr, onoff) or
// drives a TCP connection (a Driver: bulk, transfer, web); each registers
// its parameters, a struct whose yaml tags are its keys, filled with its
// defaults, in the file that implements it or here.
var Apps = component.NewRegistry[AppParams]("application")

// AppParams are an application's parameters.
type AppParams interface {
	component.Params
	// Datagrams reports whether the application sends its own UDP
	// datagrams (a Source) rather than over a TCP connection (a Driver).
	Datagrams() bool
}

// Source is an application that is its own sender over UDP.
type Source interface {
	AppParams
	// NewSource makes the sender of flow name, numbered id, from src to
	// dst; its random draws, if any, come from a stream named after the
	// flow.
	NewSource(net *network.Net, id int32, src, dst *network.Node, name string) (*CBR, error)
	// Offered is the rate it sends at, bit/s on the wire, and its packet size.
	Offered() (rate float64, packet int)
}

// Driver is an application that drives a TCP connection.
type Driver interface {
	AppParams
	// Drive sets the application on flow name (after its start and stop
	// are set, before it starts); what it returns, if not nil, adds its
	// own figures to the flow's result.
	Drive(net *network.Net, flow *tcp.Flow, name string) Extra
	// Bytes is what it sends in all, or 0 without a bound.
	Bytes() int64
}

// Extra adds an application's figures to its flow's result.
type Extra interface {
	AddTo(r *metrics.Flow)
}

// BulkParams: app "bulk" (the default), an unlimited transfer (FTP).
type BulkParams struct{}

// TransferParams: app "transfer", a transfer of Size application bytes.
type TransferParams struct {
	Size units.Bytes `yaml:"size" required:"true"`
}

// CBRParams: app "cbr", a constant bit rate over UDP.
type CBRParams struct {
	Rate       units.Bandwidth `yaml:"rate" required:"true"`        // on the wire, headers included
	PacketSize units.Bytes     `yaml:"packet_size" required:"true"` // on the wire, UDP/IP headers included (ns-2's packetSize_)
}

// OnOffParams: app "onoff", a cbr source sending in bursts of mean length
// Burst separated by silences of mean length Idle, both Pareto of tail
// index Shape (1.4: aggregates of many such sources are self-similar with
// H = (3 − shape)/2 = 0.8).
type OnOffParams struct {
	Rate       units.Bandwidth `yaml:"rate" required:"true"`
	PacketSize units.Bytes     `yaml:"packet_size" required:"true"`
	Burst      sim.Time        `yaml:"burst" required:"true"`
	Idle       sim.Time        `yaml:"idle" required:"true"`
	Shape      float64         `yaml:"shape"`
}

// WebParams: app "web", a browsing session (Web): pages of Objects objects,
// sizes Pareto of mean ObjectSize and tail index Shape, think times
// exponential of mean Think.
type WebParams struct {
	Objects    int         `yaml:"objects"`
	ObjectSize units.Bytes `yaml:"object_size"`
	Shape      float64     `yaml:"shape"`
	Think      sim.Time    `yaml:"think"`
}

func init() {
	Apps.Register("bulk", func() AppParams { return &BulkParams{} })
	Apps.Register("transfer", func() AppParams { return &TransferParams{} })
	Apps.Register("cbr", func() AppParams { return &CBRParams{} })
	Apps.Register("onoff", func() AppParams { return &OnOffParams{Shape: 1.4} })
	Apps.Register("web", func() AppParams {
		return &WebParams{Objects: 4, ObjectSize: 10 * 1024, Shape: 1.2, Think: 2 * sim.Second}
	})
}

// Validate implements component.Params.
func (p *BulkParams) Validate() error { return nil }

// Datagrams implements AppParams.
func (p *BulkParams) Datagrams() bool { return false }

// Drive implements Driver.
func (p *BulkParams) Drive(*network.Net, *tcp.Flow, string) Extra { return nil }

// Bytes implements Driver.
func (p *BulkParams) Bytes() int64 { return 0 }

// Validate implements component.Params.
func (p *TransferParams) Validate() error {
	if p.Size == 0 {
		return component.Errors{component.Errorf("size", "transfer size must be positive")}
	}
	return nil
}

// Datagrams implements AppParams.
func (p *TransferParams) Datagrams() bool { return false }

// Drive implements Driver.
func (p *TransferParams) Drive(_ *network.Net, flow *tcp.Flow, _ string) Extra {
	flow.SetLimit(int64(p.Size))
	return nil
}

// Bytes implements Driver.
func (p *TransferParams) Bytes() int64 { return int64(p.Size) }

// checkPacket reports a datagram size with no payload or beyond UDP's.
func checkPacket(size units.Bytes) *component.FieldError {
	switch {
	case size <= UDPHeader:
		return component.Errorf("packet_size", "packet size %dB leaves no payload after the %dB UDP/IP header", size, UDPHeader)
	case size > 65507:
		return component.Errorf("packet_size", "packet size %d exceeds a UDP datagram (65507 bytes)", size)
	}
	return nil
}

// Validate implements component.Params.
func (p *CBRParams) Validate() error {
	if e := checkPacket(p.PacketSize); e != nil {
		return component.Errors{e}
	}
	return nil
}

// Datagrams implements AppParams.
func (p *CBRParams) Datagrams() bool { return true }

// NewSource implements Source.
func (p *CBRParams) NewSource(net *network.Net, id int32, src, dst *network.Node, _ string) (*CBR, error) {
	return NewCBR(net, id, src, dst, float64(p.Rate), int(p.PacketSize)), nil
}

// Offered implements Source.
func (p *CBRParams) Offered() (float64, int) { return float64(p.Rate), int(p.PacketSize) }

// Validate implements component.Params.
func (p *OnOffParams) Validate() error {
	var es component.Errors
	if !(p.Shape > 1) || p.Shape > 100 {
		es = append(es, component.Errorf("shape", "Pareto shape must be in (1, 100] (a finite mean), got %g", p.Shape))
	}
	if p.Burst <= 0 {
		es = append(es, component.Errorf("burst", "mean burst period must be positive"))
	}
	if p.Idle <= 0 {
		es = append(es, component.Errorf("idle", "mean idle period must be positive"))
	}
	if e := checkPacket(p.PacketSize); e != nil {
		es = append(es, e)
	}
	return es.Err()
}

// Datagrams implements AppParams.
func (p *OnOffParams) Datagrams() bool { return true }

// NewSource implements Source: the periods draw from the stream
// "onoff/"+name.
func (p *OnOffParams) NewSource(net *network.Net, id int32, src, dst *network.Node, name string) (*CBR, error) {
	c := NewCBR(net, id, src, dst, float64(p.Rate), int(p.PacketSize))
	return c, c.SetOnOff(p.Burst, p.Idle, p.Shape, net.Stream("onoff/"+name))
}

// Offered implements Source: its peak rate.
func (p *OnOffParams) Offered() (float64, int) { return float64(p.Rate), int(p.PacketSize) }

// Validate implements component.Params.
func (p *WebParams) Validate() error {
	var es component.Errors
	if p.Objects < 1 || p.Objects > 1000 {
		es = append(es, component.Errorf("objects", "objects per page must be 1 to 1000, got %d", p.Objects))
	}
	if p.ObjectSize < 1 {
		es = append(es, component.Errorf("object_size", "object size must be positive"))
	}
	if !(p.Shape > 1) || p.Shape > 100 {
		es = append(es, component.Errorf("shape", "Pareto shape must be in (1, 100] (a finite mean), got %g", p.Shape))
	}
	if p.Think < 0 {
		es = append(es, component.Errorf("think", "think time must not be negative"))
	}
	return es.Err()
}

// Datagrams implements AppParams.
func (p *WebParams) Datagrams() bool { return false }

// Drive implements Driver: the session draws from the stream "web/"+name.
func (p *WebParams) Drive(net *network.Net, flow *tcp.Flow, name string) Extra {
	return NewWeb(net, flow, WebConfig{Objects: p.Objects, ObjectSize: float64(p.ObjectSize), Shape: p.Shape, Think: p.Think},
		net.Stream("web/"+name))
}

// Bytes implements Driver.
func (p *WebParams) Bytes() int64 { return 0 }

// AddTo implements Extra: the pages and their mean response time.
func (w *Web) AddTo(r *metrics.Flow) {
	var mean sim.Time
	r.Pages, mean = w.Pages()
	r.PageSecondsMean = mean.Seconds()
}
