package metrics

import (
	"bytes"
	"strings"
	"testing"
)

// Rows come out as CSV under the documented header, one line each, with
// the values as given (ssthresh's "unlimited" clamped to a finite number).
func TestSeriesWriterWritesHeaderAndRows(t *testing.T) {
	var b bytes.Buffer
	w := NewSeriesWriter(&b)
	w.Write(&Row{Time: 1.5, Flow: "f1", Event: 'a', Ack: 1001, TSecr: 7, Una: 1001, High: 3001,
		Cwnd: 2048, Ssthresh: 1e300, Flight: 2000, RTO: 0.2, SRTT: 0.1})
	w.Write(&Row{Time: 2, Flow: "f1", Event: 's', Seq: 3001, Una: 1001, High: 4001, Cwnd: 2048, Retx: true})
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		strings.TrimSuffix(SeriesHeader, "\n"),
		"1.500000000,f1,a,0,1001,7,1001,3001,2048.0,1000000000000000.0,2000,0.200000,0.100000,false",
		"2.000000000,f1,s,3001,0,0,1001,4001,2048.0,0.0,0,0.000000,0.000000,true",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d lines:\n%s", len(got), b.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
	if n := strings.Count(SeriesHeader, ","); n != strings.Count(got[1], ",") {
		t.Errorf("header has %d commas, rows %d", n, strings.Count(got[1], ","))
	}
}

// Writing a row does not allocate: traces sit on the per-packet path.
func TestSeriesWriterDoesNotAllocatePerRow(t *testing.T) {
	w := NewSeriesWriter(&bytes.Buffer{})
	r := &Row{Time: 1, Flow: "f", Event: 'a', Cwnd: 1000}
	w.Write(r) // size the buffer
	if n := testing.AllocsPerRun(1000, func() { w.Write(r) }); n > 0 {
		t.Fatalf("%.1f allocations per row", n)
	}
}
