package output

import (
	"bytes"
	"testing"
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
