package repl

import (
	"io"
	"slices"
	"testing"
)

// TestCompletion: tab completes a command, a setting, a language and a
// compile flag with a space after it, ready for the next word; a file
// name and a name of the program without one.
func TestCompletion(t *testing.T) {
	s := NewSession(io.Discard, Options{})
	defer s.stopStepper()
	s.Exec(":load ../examples/fun/fig2.fun")
	c := &completer{s: s}
	for _, tc := range []struct {
		line string
		want string // one of the completions
	}{
		{":ste", "p "},
		{":set fu", "el "},
		{":lang remora/dyn", "amic "},
		{":compile --exp", "and "},
		{":load ../examples/fun/fig", "2.fun"},
		{":load ../examples/f", "un/"},
		{"let (a : int) = xsi", "ze"},
	} {
		var got []string
		cands, _ := c.Do([]rune(tc.line), len([]rune(tc.line)))
		for _, r := range cands {
			got = append(got, string(r))
		}
		if !slices.Contains(got, tc.want) {
			t.Errorf("completing %q: %q, want %q among them", tc.line, got, tc.want)
		}
	}
}
