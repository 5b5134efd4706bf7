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
