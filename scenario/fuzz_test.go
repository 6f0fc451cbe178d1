package scenario

import (
	"os"
	"testing"
)

// FuzzLoad feeds the parser arbitrary files and overrides: it must return
// a scenario or errors, never panic. Seeds are the examples.
func FuzzLoad(f *testing.F) {
	for _, file := range examples(f) {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "links.bottleneck.loss.rate=2%")
	}
	f.Add([]byte("duration: 1s\nnodes: [A]\n"), "nodes.0=B")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		s, err := Parse("fuzz.yaml", data, []string{set})
		if (s == nil) == (err == nil) {
			t.Fatalf("scenario %v with error %v", s != nil, err)
		}
	})
}
