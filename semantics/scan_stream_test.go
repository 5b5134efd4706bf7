package semantics

import (
	"reflect"
	"testing"
)

// TestScanStreamReuses checks that a stream scanned into the tokens an
// earlier one released holds what Scan gives, whatever the earlier
// stream held (longer, shorter, failed), and that Release empties it.
func TestScanStreamReuses(t *testing.T) {
	ops := []string{"<=", "<-", "&&"}
	srcs := []string{
		"kernel i <= n do var t : int; t <- xs[i - 1]; ys[i - 1] <- t * 2 done",
		"x",
		"",
		"a && b -- a comment\n(c <= 1.5e3) \"s\" 9223372036854775808",
		"f(x, y) @ m\n\n  ≤ ≠ ·",
		"\x80 bad",
		"let y = x + 1 in (y * y)",
	}
	for round := 0; round < 3; round++ {
		for _, src := range srcs {
			want, wantErr := Scan("f", src, ops)
			s, err := ScanStream("f", src, ops)
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("ScanStream(%q): error %v, Scan's %v", src, err, wantErr)
			}
			if err != nil {
				continue
			}
			if !reflect.DeepEqual(s.Toks, want) {
				t.Fatalf("ScanStream(%q) = %v, Scan gives %v", src, s.Toks, want)
			}
			toks := s.Toks
			s.Release()
			if s.Toks != nil {
				t.Fatalf("Release left the stream's tokens")
			}
			for i, tok := range toks {
				if tok != (Token{}) {
					t.Fatalf("Release left token %d: %v", i, tok)
				}
			}
		}
	}
}
