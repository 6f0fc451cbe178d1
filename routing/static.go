package routing

import "github.com/tcplab/tcplab/network"

// StaticParams: shortest paths computed once from the topology (package
// network), ns-2's static routing. No control packets; a link that fails
// is never routed around.
type StaticParams struct{}

// Validate implements component.Params.
func (*StaticParams) Validate() error { return nil }

// NewRouter implements Params: nil, the network's own tables.
func (*StaticParams) NewRouter(*network.Node, *Stats) network.Router { return nil }

// OnDemand implements Params.
func (*StaticParams) OnDemand() bool { return false }

func init() { Protocols.Register("static", func() Params { return &StaticParams{} }) }
