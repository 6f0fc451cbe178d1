package scenario_test

import (
	"fmt"

	"github.com/tcplab/tcplab/scenario"
)

// Load a scenario (here from a string; scenario.Load reads a file), run
// it, and read the per-flow results.
func Example_run() {
	s, err := scenario.Parse("lossy.yaml", []byte(`
duration: 60s
nodes: [S, D]
links:
  - {from: S, to: D, bandwidth: 2Mbps, delay: 50ms, loss: {rate: 1%}}
flows:
  - {name: ftp, src: S, dst: D, transport: {profile: ns2, variant: newreno}}
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := s.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	f := res.Flows[0]
	fmt.Printf("%s: %.0f kbit/s, %d timeouts\n", f.ID, f.GoodputBps/1e3, f.Timeouts)
	// Output: ftp: 788 kbit/s, 3 timeouts
}
