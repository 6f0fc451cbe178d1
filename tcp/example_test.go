package tcp_test

import (
	"fmt"

	"github.com/tcplab/tcplab/scenario"
	"github.com/tcplab/tcplab/tcp"
)

// aimd is a variant of one's own: Reno's growth, but a loss multiplies
// the window by beta instead of halving it.
type aimd struct {
	tcp.Reno
	beta float64
}

func (v *aimd) Name() string { return "aimd" }

func (v *aimd) OnLoss(s *tcp.State, _ *tcp.LossEvent) tcp.Response {
	s.Ssthresh = s.ReducedWindow(v.beta)
	s.Cwnd = s.Ssthresh
	return tcp.Response{Class: tcp.Congestion}
}

// A new variant is a type embedding Reno and one Register call; scenarios
// then name it and pass its parameters.
func Example_registerVariant() {
	tcp.Register("aimd", "newreno", func(params map[string]float64) (tcp.Variant, error) {
		beta := 0.7
		for k, v := range params {
			if k != "beta" {
				return nil, tcp.ParamError(k, "aimd has no param %q (have [beta])", k)
			}
			if v <= 0 || v >= 1 {
				return nil, tcp.ParamError(k, "must be in (0, 1), got %v", v)
			}
			beta = v
		}
		return &aimd{beta: beta}, nil
	})

	yaml := `
name: aimd-demo
duration: 60s
nodes: [S, R, D]
links:
  - {name: bottleneck, from: S, to: R, bandwidth: 2Mbps, delay: 40ms}
  - {name: lossy, from: R, to: D, bandwidth: 10Mbps, delay: 1ms, loss: {rate: 1%, direction: forward}}
flows:
  - {name: f, src: S, dst: D, app: bulk, transport: {variant: aimd, params: {beta: 0.8}}}
`
	s, err := scenario.Parse("aimd-demo.yaml", []byte(yaml), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	run, err := s.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := run.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	f := res.Flows[0]
	fmt.Println(f.Variant, f.FastRetransmits > 0, f.GoodputBps > 1e6)

	// A typo in a parameter is reported at its field, before anything runs.
	_, err = scenario.Parse("aimd-demo.yaml", []byte(yaml), []string{"flows.f.transport.params.bet=0.5"})
	fmt.Println(err)
	// Output:
	// aimd true true
	// --set flows.f.transport.params.bet=0.5: flows[f].transport.params.bet: aimd has no param "bet" (have [beta])
}
