package semantics

import (
	"strings"
	"testing"
)

// TestScanStrings checks string literals (assert's message): one token
// with the literal as written, escapes \" and \\ only, ending on its line;
// "--" inside a literal starts no comment, a quote in a comment starts no
// literal; Quote and Unquote are inverses.
func TestScanStrings(t *testing.T) {
	for _, tc := range []struct {
		src, lit, text, err string
	}{
		{src: `assert x "even"`, lit: `"even"`, text: "even"},
		{src: `"a \"b\" \\ c" x`, lit: `"a \"b\" \\ c"`, text: `a "b" \ c`},
		{src: `"-- not a comment"`, lit: `"-- not a comment"`, text: "-- not a comment"},
		{src: `"ünï"`, lit: `"ünï"`, text: "ünï"},
		{src: "-- a \"quote\n\"x\"", lit: `"x"`, text: "x"},
		{src: "\"no end\nx", err: "1:1: string literal not terminated on its line"},
		{src: `"bad \n"`, err: `1:1: unknown escape in a string literal (only \" and \\)`},
		{src: `"ends \`, err: "unknown escape"},
	} {
		toks, err := Scan("f", tc.src, nil)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Scan(%q): error %v, want %q", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Scan(%q): %v", tc.src, err)
		}
		var lit *Token
		for i := range toks {
			if toks[i].Kind == Str {
				lit = &toks[i]
			}
		}
		if lit == nil || lit.Text != tc.lit || Unquote(lit.Text) != tc.text {
			t.Errorf("Scan(%q): literal %v, want %s reading %q", tc.src, lit, tc.lit, tc.text)
			continue
		}
		if q := Quote(tc.text); Unquote(q) != tc.text {
			t.Errorf("Unquote(Quote(%q)) = %q", tc.text, Unquote(q))
		}
	}
}
