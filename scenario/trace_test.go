package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const traceBase = `
duration: 5s
nodes: [A, B]
links:
  - {name: ab, from: A, to: B, bandwidth: 1Mbps, delay: 10ms}
flows:
  - {name: f, src: A, dst: B, app: bulk}
`

func TestPacketTraceErrorsPointAtTheirLines(t *testing.T) {
	cases := []struct {
		name, trace, want string
	}{
		{"unknown link", "trace:\n  pcap:\n    - {link: nope, file: x.pcap}\n", `:10: trace.pcap[0].link: no link "nope" (links: ab)`},
		{"bad direction", "trace:\n  pcap:\n    - {link: ab, file: x.pcap, direction: up}\n", `:10: trace.pcap[0].direction: want forward, reverse or both`},
		{"bad events", "trace:\n  pcap:\n    - {link: ab, file: x.pcap, events: x}\n", `trace.pcap[0].events: want letters from + - r d`},
		{"missing file", "trace:\n  pcap:\n    - {link: ab}\n", `trace.pcap[0].file: missing`},
		{"same file twice", "trace:\n  tcp: x.out\n  ns2: {file: x.out}\n", `trace.ns2.file: x.out is also written by trace.tcp`},
		{"ns2 unknown link", "trace:\n  ns2: {file: t.tr, links: [ab, zz]}\n", `trace.ns2.links: no link "zz"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("s.yaml", []byte(traceBase+c.trace), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestPacketTracesAreWritten(t *testing.T) {
	dir := t.TempDir()
	pcap, tr := filepath.Join(dir, "ab.pcap"), filepath.Join(dir, "all.tr")
	s, err := Parse("s.yaml", []byte(traceBase), []string{
		"trace.pcap=[{link: ab, direction: forward, file: " + pcap + "}]",
		"trace.ns2={file: " + tr + "}",
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var data, acks int
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 12 {
			t.Fatalf("ns-2 line %q has %d fields, want 12", l, len(f))
		}
		switch f[4] {
		case "tcp":
			data++
		case "ack":
			acks++
		}
	}
	if data == 0 || acks == 0 {
		t.Fatalf("%d data and %d ack lines: both directions should be traced", data, acks)
	}
	st, err := os.Stat(pcap)
	if err != nil {
		t.Fatal(err)
	}
	// Forward only: about one 1000-byte segment per data '-' line in the
	// ns-2 trace's forward direction, so far more than the file header.
	if st.Size() < int64(data/3)*1000 {
		t.Fatalf("pcap is %d bytes for %d data transmissions", st.Size(), data/3)
	}
}
