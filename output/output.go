// Package output writes what tcplab's commands print: aligned tables,
// CSV and indented JSON, and the per-flow result of a run in each. Every
// command goes through it, so the three formats look and parse the same
// wherever they appear.
package output

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Format is an output format named on the command line.
type Format string

const (
	Table Format = "table" // aligned columns for people
	JSON  Format = "json"  // indented, the documented contract (docs/json.md)
	CSV   Format = "csv"   // a header and one row per record
)

// ParseFormat checks name against the formats a command offers.
func ParseFormat(name string, allowed ...Format) (Format, error) {
	if slices.Contains(allowed, Format(name)) {
		return Format(name), nil
	}
	names := make([]string, len(allowed))
	for i, f := range allowed {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown --format %q (want %s)", name, strings.Join(names, ", "))
}

// WriteJSON writes v as indented JSON and a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteCSV writes a header and rows.
func WriteCSV(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}

// WriteTable writes a header and rows as columns two spaces apart, each as
// wide as its widest cell; right(j) right-aligns column j (numbers; nil:
// none). The last column is not padded, so lines carry no trailing blanks.
func WriteTable(w io.Writer, header []string, rows [][]string, right func(j int) bool) error {
	all := append([][]string{header}, rows...)
	var width []int
	for _, row := range all {
		for j, cell := range row {
			if j == len(width) {
				width = append(width, 0)
			}
			width[j] = max(width[j], len([]rune(cell)))
		}
	}
	var b strings.Builder
	for _, row := range all {
		for j, cell := range row {
			pad := strings.Repeat(" ", width[j]-len([]rune(cell)))
			if j > 0 {
				b.WriteString("  ")
			}
			switch {
			case right != nil && right(j):
				b.WriteString(pad + cell)
			case j < len(row)-1:
				b.WriteString(cell + pad)
			default:
				b.WriteString(cell)
			}
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
