package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tcplab/tcplab/metrics"
	"github.com/tcplab/tcplab/model"
	"github.com/tcplab/tcplab/scenario"
)

func TestWriteTableAlignsColumnsWithoutTrailingBlanks(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		rows   [][]string
		right  func(int) bool
		want   string
	}{
		{"left", []string{"flow", "x"}, [][]string{{"a", "1"}, {"long", "22"}}, nil,
			"flow  x\na     1\nlong  22\n"},
		{"numbers right", []string{"flow", "kbit/s"}, [][]string{{"a", "1.5"}, {"bb", "1234.5"}},
			func(j int) bool { return j == 1 },
			"flow  kbit/s\na        1.5\nbb    1234.5\n"},
		{"wide runes", []string{"µs", "v"}, [][]string{{"x", "1"}}, nil, "µs  v\nx   1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTable(&b, tc.header, tc.rows, tc.right); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}

func TestParseFormatRejectsWhatTheCommandDoesNotOffer(t *testing.T) {
	if f, err := ParseFormat("csv", Table, CSV); err != nil || f != CSV {
		t.Fatalf("csv: %v %v", f, err)
	}
	_, err := ParseFormat("json", Table, CSV)
	if err == nil || err.Error() != `unknown --format "json" (want table, csv)` {
		t.Fatalf("json: %v", err)
	}
}

func TestWriteCSVQuotesCells(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, []string{"a", "b"}, [][]string{{"x,y", `q"`}}); err != nil {
		t.Fatal(err)
	}
	if want := "a,b\n\"x,y\",\"q\"\"\"\n"; b.String() != want {
		t.Errorf("got %q want %q", b.String(), want)
	}
}

func TestHumanWritesValuesWithTheirUnit(t *testing.T) {
	tests := []struct {
		v    float64
		u    model.Unit
		want string
	}{
		{1148393.7, model.BitRate, "1.148 Mbit/s"},
		{999, model.BitRate, "999 bit/s"},
		{2.5e9, model.BitRate, "2.5 Gbit/s"},
		{0.114, model.Time, "114 ms"},
		{2, model.Time, "2 s"},
		{25e-6, model.Time, "25 µs"},
		{0.05, model.Probability, "0.05 (5%)"},
		{1460, model.Size, "1460 B"},
		{32, model.Packets, "32 packets"},
		{3, model.Number, "3"},
	}
	for _, tc := range tests {
		if got := Human(tc.v, tc.u); got != tc.want {
			t.Errorf("Human(%v, %q) = %q, want %q", tc.v, tc.u, got, tc.want)
		}
	}
}

// A run with a UDP source says, under the table, that its throughput is
// the offered load; a run without one says nothing of it.
func TestUDPThroughputIsNamedTheOfferedLoad(t *testing.T) {
	for _, tc := range []struct {
		transport string
		want      bool
	}{{"udp", true}, {"tcp", false}} {
		var b bytes.Buffer
		res := &scenario.Result{Flows: []metrics.Flow{{ID: "f", Transport: tc.transport}}}
		if err := WriteResult(&b, Table, res); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "throughput is the offered load"); got != tc.want {
			t.Errorf("%s: note %v, want %v:\n%s", tc.transport, got, tc.want, b.String())
		}
	}
}
