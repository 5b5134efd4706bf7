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
