package scenario

import (
	"os"
	"strings"
	"testing"
)

// FuzzLoad feeds the parser arbitrary files and overrides: it must return
// a scenario or errors, never panic. Seeds are the examples, less c-big,
// whose 100-fold expansion slows the fuzzer tenfold without new paths
// (dumbbell-10flows has the same shape).
func FuzzLoad(f *testing.F) {
	for _, file := range examples(f) {
		if strings.HasSuffix(file, "c-big.yaml") {
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "links.bottleneck.loss.rate=2%")
	}
	f.Add([]byte("duration: 1s\nnodes: [A]\n"), "nodes.0=B")
	f.Add([]byte("duration: 1s\nnodes: [{name: \"n{i}\", count: 3}]\nflows: [{src: n1, dst: n2, count: 2, start_step: 1ms}]\n"), "flows[1].app={type: cbr}")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		s, err := Parse("fuzz.yaml", data, []string{set})
		if (s == nil) == (err == nil) {
			t.Fatalf("scenario %v with error %v", s != nil, err)
		}
	})
}
