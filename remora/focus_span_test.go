package remora

import (
	"testing"

	"github.com/arraysem/arraysem/internal/spantest"
)

// TestFocusSource checks the source spans the focuses of a run's steps
// give: each that has one is one s-expression of the program, and the
// checker's elaboration keeps the spans (a step of a checked program has
// one until substitution builds its redex). The second half checks Focus
// on parsed terms.
func TestFocusSource(t *testing.T) {
	src := "(+ (* 2 [3 4]) (- 10 1))\n(unbox (box (3) (Sigma (n) [int n]) [1 2 3]) (b n) (length{int | n []} b))\n"
	_, spanned := spantest.SExpFocuses(t, Language, "t.remora", src)
	if spanned < 4 { // as many as a run had when this was written
		t.Errorf("%d steps of the checked program have a source span, want 4: the checker's elaboration dropped some", spanned)
	}

	// In a parsed term a primitive is still a variable, not a value.
	src = "(+ (* 2 [3 4]) (- 10 1))\n[((fn ([x int]) x) 5) 1]\n"
	p, _, err := ParseFile("t.remora", src)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"+", "((fn ([x int]) x) 5)"} {
		e := p.Exprs[i]
		f := Focus(e, e)
		text, err := spantest.Text(src, f.From, f.To)
		if err != nil || text != want || f.Redex != want {
			t.Errorf("the redex of %s is %s, spanning %v-%v, %q (%v); want %s", ExprString(e), f.Redex, f.From, f.To, text, err, want)
		}
	}
}
