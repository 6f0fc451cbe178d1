package main

import "strings"

// writeAligned writes rows as columns two spaces apart, each as wide as its
// widest cell; right(j) right-aligns column j (numbers). The last column is
// not padded, so lines carry no trailing blanks.
func writeAligned(b *strings.Builder, rows [][]string, right func(j int) bool) {
	var width []int
	for _, row := range rows {
		for j, cell := range row {
			if j == len(width) {
				width = append(width, 0)
			}
			width[j] = max(width[j], len([]rune(cell)))
		}
	}
	for _, row := range rows {
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
}
