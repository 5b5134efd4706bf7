// Package table prints aligned tables for the command line and the REPL.
package table

import (
	"fmt"
	"io"
	"strings"

	"github.com/mattn/go-runewidth"
)

// Print prints rows as aligned columns; widths count display cells, so the
// papers' Unicode (ℓ, ⟨⟩, …) lines up.
func Print(w io.Writer, rows [][]string) {
	widths := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i < len(r)-1 {
				b.WriteString(runewidth.FillRight(c, widths[i]+2))
			} else {
				b.WriteString(c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// MinWrapped is the narrowest PrintFit makes a column it wraps.
const MinWrapped = 24

// PrintFit is Print for a screen width columns wide: while the table is
// wider, its widest column is narrowed (to no less than MinWrapped) and
// its cells are wrapped at blanks onto continuation lines, the other
// columns blank there. A word longer than its column stays whole, so a
// table may still be wider than width. width ≤ 0 is Print.
func PrintFit(w io.Writer, rows [][]string, width int) {
	widths := map[int]int{}
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	total := func() int {
		t := 0
		for i := 0; i < n; i++ {
			t += widths[i] + 2
		}
		return t - 2
	}
	if width <= 0 || total() <= width {
		Print(w, rows)
		return
	}
	for total() > width {
		widest := -1
		for i := 0; i < n; i++ {
			if widths[i] > MinWrapped && (widest < 0 || widths[i] > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		widths[widest] = max(MinWrapped, widths[widest]-(total()-width))
	}
	var out [][]string
	for _, r := range rows {
		cells := make([][]string, len(r))
		lines := 1
		for i, c := range r {
			cells[i] = wrapCell(c, widths[i])
			lines = max(lines, len(cells[i]))
		}
		for l := 0; l < lines; l++ {
			line := make([]string, len(r))
			for i := range r {
				if l < len(cells[i]) {
					line[i] = cells[i][l]
				}
			}
			out = append(out, line)
		}
	}
	Print(w, out)
}

// wrapCell breaks s at blanks into lines of at most width display cells.
func wrapCell(s string, width int) []string {
	if runewidth.StringWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && runewidth.StringWidth(line)+1+runewidth.StringWidth(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return append(lines, line)
}
