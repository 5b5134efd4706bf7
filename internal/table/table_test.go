package table

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

// TestPrintFit: a table wider than the screen has its widest column
// wrapped at blanks to fit, the other columns blank on the continuation
// lines; a table that fits prints as Print prints it.
func TestPrintFit(t *testing.T) {
	rows := [][]string{
		{"property", "theorem", "source"},
		{"fun-check", "every generated FUN program is well typed (Fig 3), and so is its printed and reparsed form", "FUN paper Fig 3"},
		{"ok", "short", "x"},
	}
	var b bytes.Buffer
	PrintFit(&b, rows, 60)
	want := `property   theorem                         source
fun-check  every generated FUN program is  FUN paper Fig 3
           well typed (Fig 3), and so is
           its printed and reparsed form
ok         short                           x
`
	if b.String() != want {
		t.Errorf("PrintFit(60):\n%s\nwant:\n%s", b.String(), want)
	}
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if runewidth.StringWidth(l) > 60 {
			t.Errorf("line wider than 60: %q", l)
		}
	}
	var plain, fit bytes.Buffer
	Print(&plain, rows)
	PrintFit(&fit, rows, 500)
	if plain.String() != fit.String() {
		t.Errorf("PrintFit of a table that fits differs from Print:\n%s", fit.String())
	}
}

// TestPrintFitModes: a cut column ends in "…" and narrows first, to
// MinWrapped before a wrapped one wraps, and below it before a wrapped
// one breaks its words; when nothing else fits, words are broken and
// every line fits; a wrapped column keeps its longest word whole while
// other columns can narrow instead.
func TestPrintFitModes(t *testing.T) {
	rows := [][]string{
		{"file", "input", "verdict"},
		{"examples/fun/a_rather_long_name.fun (--expand --layout gpu)", "xs=[1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20]", "ok"},
	}
	for _, width := range []int{100, 72, 60, 50, 30} {
		var b bytes.Buffer
		PrintFit(&b, rows, width, Wrap, Cut)
		out := b.String()
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if runewidth.StringWidth(l) > width {
				t.Errorf("width %d: line %q is %d wide:\n%s", width, l, runewidth.StringWidth(l), out)
			}
		}
		if width == 100 && (!strings.Contains(out, "examples/fun/a_rather_long_name.fun (--expand --layout gpu)") || !strings.Contains(out, "…")) {
			t.Errorf("width 100: the file's column wrapped, or the input not cut:\n%s", out)
		}
		if width == 72 && (!strings.Contains(out, "examples/fun/a_rather_long_name.fun ") || !strings.Contains(out, "…")) {
			t.Errorf("width 72: the file's name broken, or the input not cut:\n%s", out)
		}
		if width == 30 && !strings.Contains(out, "examples/") || strings.Contains(out, "examples/fun/a_rather_long_name.fun") && width < 50 {
			t.Errorf("width %d: the file's name is to be broken across lines:\n%s", width, out)
		}
	}
	var plain, fit bytes.Buffer
	Print(&plain, rows)
	PrintFit(&fit, rows, 0, Wrap, Cut)
	if plain.String() != fit.String() {
		t.Errorf("PrintFit with no width differs from Print:\n%s", fit.String())
	}
	if got := FitRows(rows, 60, Wrap, Cut); len(got) != 2 || len(got[1]) != 2 {
		t.Errorf("FitRows: the second row in two lines expected: %q", got)
	}
}

// TestWrapText: blanks break lines, a parenthesised group stays on one
// line where it fits, and a word longer than the width is broken into
// pieces of the width, counted in display cells.
func TestWrapText(t *testing.T) {
	for _, tc := range []struct {
		s     string
		width int
		want  string
	}{
		{"short", 10, "short"},
		{"a b c d e f", 3, "a b|c d|e f"},
		{"abcdefghij xy", 4, "abcd|efgh|ij|xy"},
		{"xy abcdefghij", 4, "xy|abcd|efgh|ij"},
		{"ℓℓℓℓℓ", 2, "ℓℓ|ℓℓ|ℓ"},
		{"a.fun (--expand --layout gpu)", 24, "a.fun|(--expand --layout gpu)"},
		{"a.fun (--expand --layout gpu)", 30, "a.fun (--expand --layout gpu)"},
		{"a.fun (--expand --layout gpu)", 22, "a.fun (--expand|--layout gpu)"},
		{"漢字漢字", 3, "漢|字|漢|字"},
	} {
		if got := strings.Join(WrapText(tc.s, tc.width), "|"); got != tc.want {
			t.Errorf("WrapText(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}
