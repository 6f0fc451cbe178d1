package output

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/examples"
	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/scenario"
)

// The JSON of a run is a contract (docs/json.md): every field any example
// produces is described there, and every field described there exists.
func TestJSONContractIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/json.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z_0-9]+)`").FindAllSubmatch(doc, -1) {
		documented[string(m[1])] = true
	}
	seen := map[string]bool{}
	for _, e := range examples.List() {
		if strings.HasPrefix(e.Name, "sweep-") {
			continue
		}
		data, _ := examples.Read(e.Name)
		s, err := scenario.Parse(e.Name, data, nil)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if len(s.KernelHosts()) > 0 {
			continue // real time, as root: kernel's tests read its fields
		}
		res, err := s.Run()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		var b bytes.Buffer
		if err := WriteResult(&b, JSON, res); err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(b.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		keys(v, seen, "")
	}
	for k := range seen {
		if !documented[k] {
			t.Errorf("field %q appears in a run's JSON but not in docs/json.md", k)
		}
	}
	// The structs' fields are all documented, and the documentation's
	// field tables name only real fields.
	for _, typ := range []reflect.Type{reflect.TypeFor[scenario.Result](), reflect.TypeFor[metrics.Flow]()} {
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !documented[name] {
				t.Errorf("%s.%s (json %q) is not in docs/json.md", typ.Name(), f.Name, name)
			}
		}
	}
	for _, must := range []string{"accuracy", "a_rlwl", "ecn_reductions", "completion_seconds", "channel_error", "wireless", "missed_acks", "agents", "splits", "nmse", "routing", "link_breaks", "broken_link", "queues", "p99_ms"} {
		if !seen[must] {
			t.Errorf("no example produced %q: the check above does not cover it", must)
		}
	}
}

// keys collects every object key in v, except the node and link names
// that key the wireless and agent counters and the queues.
func keys(v any, into map[string]bool, parent string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if parent != "wireless" && parent != "agents" && parent != "queues" {
				into[k] = true
			}
			keys(x, into, k)
		}
	case []any:
		for _, x := range v {
			keys(x, into, parent)
		}
	}
}
