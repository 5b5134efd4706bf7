package semantics

import (
	"strings"
	"testing"
)

// TestFormatText: a result format's text reads back to itself, and
// malformed texts are refused with the reason.
func TestFormatText(t *testing.T) {
	for _, s := range []string{
		"remora: int",
		"remora: bool char float int",
		"remora: (box 1 int) (box 2 (box 1 float))",
		"remora: (boxes 2 2 (w1 w2+w1+3 4) char)",
		"remora/dynamic untyped: (box 1 bool)",
		"remora:",
	} {
		f, err := ParseFormat(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if got := f.String(); got != s {
			t.Errorf("%q prints back as %q", s, got)
		}
	}
	for s, want := range map[string]string{
		"int":                                  "want SOURCE",
		"remora: rational":                     "want an atom or a box",
		"remora: (box x int)":                  "want a count",
		"remora: (boxes 0 1 () int)":           "rank 0",
		"remora: (boxes 1 1 (w2) int)":         "no witness w2",
		"remora: (boxes 1 1 (w1) (box 1 int))": "boxes of boxes",
		"remora: (box 1 int":                   `want ")"`,
		"remora typed: int":                    "SOURCE [untyped]",
	} {
		if _, err := ParseFormat(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", s, err, want)
		}
	}
}

// TestFormatHeader: the header is the first line of a text, and only
// that line.
func TestFormatHeader(t *testing.T) {
	f, err := ReadFormatHeader("x.fun", FormatHeader("--", &Format{Source: "remora", Items: []FormatItem{{Atom: AtomBool}}})+"let (x : int) = 1\nin (x)\n", "--")
	if err != nil || f == nil || f.String() != "remora: bool" {
		t.Fatalf("the header reads back as %v, %v", f, err)
	}
	if f, err := ReadFormatHeader("x.fun", "-- a comment\n-- arraysem: results as remora: bool\n", "--"); f != nil || err != nil {
		t.Errorf("a header below the first line is read: %v, %v", f, err)
	}
	if _, err := ReadFormatHeader("x.fun", "-- arraysem: results as remora: box\n", "--"); err == nil || !strings.HasPrefix(err.Error(), "x.fun:1:1: ") {
		t.Errorf("a malformed header: %v", err)
	}
}

// TestFormatLines prints a few values, boxes untyped and typed.
func TestFormatLines(t *testing.T) {
	vals := []Array{Scalar(2), {Shape: []int64{2}, Data: []int64{1, 0}}}
	for text, want := range map[string]string{
		"remora: (box 1 bool)":                 "(box (2) [#t #f])",
		"remora/dynamic untyped: (box 1 bool)": "(box [#t #f])",
		"remora: int (boxes 1 0 () int)":       "error",
	} {
		f, err := ParseFormat(text)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := f.Lines(vals)
		got := strings.Join(lines, "|")
		if err != nil {
			got = "error"
		}
		if got != want {
			t.Errorf("%q: %q (%v), want %q", text, got, err, want)
		}
	}
}
