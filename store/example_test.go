package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tcplab/tcplab/experiment"
	"github.com/tcplab/tcplab/store"
)

// Read a result store: the mean and 95% confidence interval of a metric at
// every grid point. The store here comes from a small sweep; `tcplab sweep
// FILE --out results.db` makes one from the command line.
func Example_readStore() {
	dir, _ := os.MkdirTemp("", "store-example")
	defer os.RemoveAll(dir)
	scen := filepath.Join(dir, "lossy.yaml")
	os.WriteFile(scen, []byte(`duration: 60s
nodes: [S, D]
links: [{name: lossy, from: S, to: D, bandwidth: 2Mbps, delay: 50ms, loss: {rate: 1%}}]
flows: [{name: ftp, src: S, dst: D, transport: {profile: ns2}}]
`), 0o644)
	sw, err := experiment.Parse(filepath.Join(dir, "sweep.yaml"), []byte(`scenario: lossy.yaml
grid: [{path: links.lossy.loss.rate, values: [1%, 5%]}]
replications: 4
metrics: [goodput_bps]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	st, err := store.Open(filepath.Join(dir, "results.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	if _, err := experiment.Run(context.Background(), sw, st, experiment.Options{Workers: 1}); err != nil {
		fmt.Println(err)
		return
	}
	sums, err := st.Aggregate("goodput_bps", "ftp")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range sums {
		fmt.Printf("loss %s: %.0f ± %.0f kbit/s over %d runs\n", s.Params[0].Value, s.Mean/1e3, s.CI95/1e3, s.N)
	}
	// Output:
	// loss 1%: 843 ± 101 kbit/s over 4 runs
	// loss 5%: 310 ± 39 kbit/s over 4 runs
}
