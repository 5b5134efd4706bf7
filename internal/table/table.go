// Package table prints aligned tables for the command line and the REPL.
package table

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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

// RightAlign pads the cells of the columns cols on the left to the
// width of their column, in display cells, so that Print right-aligns
// them (numbers).
func RightAlign(rows [][]string, cols ...int) {
	for _, c := range cols {
		w := 0
		for _, r := range rows {
			if c < len(r) {
				w = max(w, runewidth.StringWidth(r[c]))
			}
		}
		for _, r := range rows {
			if c < len(r) {
				r[c] = strings.Repeat(" ", w-runewidth.StringWidth(r[c])) + r[c]
			}
		}
	}
}

// MinWrapped is the narrowest PrintFit makes a column while another is
// wider: a column it wraps keeps its longest word whole as long as the
// others can narrow instead.
const MinWrapped = 24

// MinNarrowed is the narrowest PrintFit makes a column when the table
// does not fit with every column at MinWrapped: a wrapped column's words
// longer than it are then broken.
const MinNarrowed = 8

// Mode says how PrintFit narrows a column.
type Mode int

// The modes.
const (
	Wrap Mode = iota // at blanks onto continuation lines, the other columns blank there
	Cut              // cut short, its last cell "…"
	Keep             // as Wrap, but only once no other column can narrow without breaking a word
)

// PrintFit is Print for a screen width columns wide: while the table is
// wider, its widest column is narrowed, and its cells are wrapped or cut
// as modes says (the mode of column i is modes[i]; Wrap where modes has
// none). The cut columns narrow first, to MinWrapped; then the wrapped
// ones, to MinWrapped or their longest word; the cut ones to
// MinNarrowed; the wrapped ones to their longest word; the kept ones
// (Keep) to theirs; and last every column to MinNarrowed, breaking the
// words longer than it: only a width too narrow for every column at
// MinNarrowed leaves a line wider than width. width ≤ 0 is Print.
func PrintFit(w io.Writer, rows [][]string, width int, modes ...Mode) {
	for _, r := range FitRows(rows, width, modes...) {
		for _, l := range r {
			fmt.Fprintln(w, l)
		}
	}
}

// FitRows lays rows out as PrintFit prints them: the lines of each row,
// in order (one line a row where none wraps), for a caller that puts
// lines of its own between them.
func FitRows(rows [][]string, width int, modes ...Mode) [][]string {
	widths := map[int]int{}
	words := map[int]int{} // the longest word of each column
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
			for _, f := range strings.Fields(c) {
				words[i] = max(words[i], runewidth.StringWidth(f))
			}
		}
	}
	mode := func(i int) Mode {
		if i < len(modes) {
			return modes[i]
		}
		return Wrap
	}
	total := func() int {
		t := 0
		for i := 0; i < n; i++ {
			t += widths[i] + 2
		}
		return t - 2
	}
	// narrow narrows the widest of the columns that may go below their
	// width, to no less than floor, until the table fits.
	narrow := func(may func(i int) bool, floor func(i int) int) {
		for width > 0 && total() > width {
			widest := -1
			for i := 0; i < n; i++ {
				if may(i) && widths[i] > floor(i) && (widest < 0 || widths[i] > widths[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				return
			}
			widths[widest] = max(floor(widest), widths[widest]-(total()-width))
		}
	}
	is := func(m Mode) func(int) bool { return func(i int) bool { return mode(i) == m } }
	at := func(n int) func(int) int { return func(int) int { return n } }
	word := func(n int) func(int) int { return func(i int) int { return max(n, words[i]) } }
	narrow(is(Cut), at(MinWrapped))
	narrow(is(Wrap), word(MinWrapped))
	narrow(is(Cut), at(MinNarrowed))
	narrow(is(Wrap), word(MinNarrowed))
	narrow(is(Keep), word(MinNarrowed))
	narrow(func(int) bool { return true }, at(MinNarrowed))
	// The cells as they fit, and the columns as wide as their widest
	// line (a wrapped column may come out narrower than it was allowed).
	fitted := make([][][]string, len(rows))
	used := map[int]int{}
	for k, r := range rows {
		fitted[k] = make([][]string, len(r))
		for i, c := range r {
			switch {
			case runewidth.StringWidth(c) <= widths[i]:
				fitted[k][i] = []string{c}
			case mode(i) == Cut:
				fitted[k][i] = []string{runewidth.Truncate(c, widths[i], "…")}
			default:
				fitted[k][i] = WrapText(c, widths[i])
			}
			for _, l := range fitted[k][i] {
				used[i] = max(used[i], runewidth.StringWidth(l))
			}
		}
	}
	widths = used
	var out [][]string
	for k, r := range rows {
		cells := fitted[k]
		lines := 1
		for i := range r {
			lines = max(lines, len(cells[i]))
		}
		var rl []string
		for l := 0; l < lines; l++ {
			var b strings.Builder
			for i := range r {
				c := ""
				if l < len(cells[i]) {
					c = cells[i][l]
				}
				if i < len(r)-1 {
					b.WriteString(runewidth.FillRight(c, widths[i]+2))
				} else {
					b.WriteString(c)
				}
			}
			rl = append(rl, strings.TrimRight(b.String(), " "))
		}
		out = append(out, rl)
	}
	return out
}

// WrapText breaks s at blanks into lines of at most width display
// cells, a parenthesised group of words on one line where it fits ("file
// (--expand --layout gpu)" breaks before the group); a word longer than
// width is broken across lines.
func WrapText(s string, width int) []string {
	if runewidth.StringWidth(s) <= width || width < 1 {
		return []string{s}
	}
	words := strings.Fields(s)
	var units []string
	for i := 0; i < len(words); i++ {
		u := words[i]
		if strings.HasPrefix(u, "(") && !strings.HasSuffix(u, ")") {
			for j := i + 1; j < len(words); j++ {
				g := strings.Join(words[i:j+1], " ")
				if runewidth.StringWidth(g) > width {
					break
				}
				if strings.HasSuffix(words[j], ")") {
					u, i = g, j
					break
				}
			}
		}
		units = append(units, u)
	}
	var lines []string
	line := ""
	for _, word := range units {
		for runewidth.StringWidth(word) > width {
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			head := runewidth.Truncate(word, width, "")
			if head == "" { // a character wider than width
				_, size := utf8.DecodeRuneInString(word)
				head = word[:size]
			}
			lines = append(lines, head)
			word = word[len(head):]
		}
		if word == "" {
			continue
		}
		if line != "" && runewidth.StringWidth(line)+1+runewidth.StringWidth(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}
