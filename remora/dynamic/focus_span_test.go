package dynamic

import (
	"testing"

	"github.com/arraysem/arraysem/internal/spantest"
)

// TestFocusSource checks the source spans the focuses of a run's steps
// give: each is one s-expression of the program, and a redex that is
// still the term parsed there prints as that term (one whose arguments a
// step reduced keeps its span: (+ [6 8] 9) spans (+ (* 2 [3 4]) (- 10 1))).
// A substitution keeps the spans of the terms of a body it rebuilds, so
// the redexes in a λ's or a let's body have theirs too (printed with the
// values substituted, so not as their text). The counts are those of a
// run when this was written: fewer spanned steps would mean spans lost.
func TestFocusSource(t *testing.T) {
	for _, c := range []struct {
		src           string
		spanned, same int
	}{
		{"(+ (* 2 [3 4]) (- 10 1))\n(unbox b (box (- 3 1)) (+ b 1))\n", 7, 3},
		{"(define (f (x 0)) (+ x 1))\n(f (* 2 [3 4]))\n", 5, 1},
	} {
		fs, spanned := spantest.SExpFocuses(t, Language, "t.remora", c.src)
		same := 0
		for _, f := range fs {
			if !f.From.IsValid() {
				continue
			}
			text, _ := spantest.Text(c.src, f.From, f.To)
			if e, err := ParseExpr("t.remora", text, nil); err == nil && ExprString(e) == f.Redex {
				same++
			}
		}
		if spanned < c.spanned || same < c.same {
			t.Errorf("%q: of %d steps, %d have a source span (want %d), %d of them the redex's text (want %d)", c.src, len(fs), spanned, c.spanned, same, c.same)
		}
	}
}
