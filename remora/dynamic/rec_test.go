package dynamic

import (
	"errors"
	"regexp"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestBounds checks the bounds a run can set: the big-step's fuel counts
// its applications, its MaxDepth bounds how deeply evaluations nest, and
// the small-step machine's MaxDepth bounds its evaluation context; each
// stops a recursion that does not end with one FuelError at the
// recursive call, and leaves a recursion that ends alone.
func TestBounds(t *testing.T) {
	parse := func(src string) Expr {
		t.Helper()
		p, _, err := ParseFile("bounds.remora", src)
		if err != nil {
			t.Fatal(err)
		}
		return p.Exprs[0]
	}
	grow := parse("(define (f (n 0)) (+ 1 (f n)))\n(f 1)")
	small := func(e Expr, max, fuel int) error {
		d := &semantics.Driver[*State]{Machine: Contexts(max), Fuel: fuel, Pos: e.At()}
		_, _, err := d.Run(Load(e))
		return err
	}
	big := func(e Expr, o *EvalOptions) error {
		_, err := EvalExpr(e, o)
		return err
	}
	for _, tc := range []struct {
		name string
		err  error
		want string // the error's start, a regular expression
	}{
		// the recursive call (f n), or the application around it
		{"big-step fuel", big(grow, &EvalOptions{Fuel: 7}), `bounds.remora:1:(19|24): β: out of fuel after 7 applications`},
		{"big-step depth", big(grow, &EvalOptions{MaxDepth: 50}), `bounds.remora:1:(19|24): depth: evaluation nested more than 50 deep here`},
		{"big-step default depth", big(grow, nil), `bounds.remora:1:(19|24): depth: evaluation nested more than 10000 deep here`},
		{"small-step depth", small(grow, 50, 0), `bounds.remora:1:24: depth: evaluation nested more than 50 deep here`},
		{"small-step fuel", small(grow, 0, 20), `bounds.remora:1:1: β: out of fuel after 20 steps`},
	} {
		var se *semantics.Error
		if !errors.As(tc.err, &se) || se.Kind != semantics.FuelError || !regexp.MustCompile("^"+tc.want).MatchString(tc.err.Error()) {
			t.Errorf("%s: %v, want a FuelError %s…", tc.name, tc.err, tc.want)
		}
	}
	// A recursion that ends, through an empty frame, within the bounds;
	// and the fuel is the whole program's, not each expression's.
	fact := "(define (fact (n 0)) (* (max 1 n) (reduce * 1 (fact (take (min 1 n) [(- n 1)])))))\n"
	if v, err := EvalExpr(parse(fact+"(fact 20)"), &EvalOptions{Fuel: 1000, MaxDepth: 500}); err != nil || v.String() != "2432902008176640000" {
		t.Errorf("(fact 20) is %v (error %v)", v, err)
	}
	if err := small(parse(fact+"(fact 20)"), 200, 0); err != nil {
		t.Errorf("(fact 20) by small steps: %v", err)
	}
	p, _, err := ParseFile("bounds.remora", fact+"(fact 3)\n(fact 3)")
	if err != nil {
		t.Fatal(err)
	}
	one, _ := EvalExpr(p.Exprs[0], nil)
	n := 0
	for k := 1; n == 0; k++ {
		if _, err := EvalExpr(p.Exprs[0], &EvalOptions{Fuel: k}); err == nil {
			n = k
		}
	}
	if _, err := Eval(p, &EvalOptions{Fuel: 2*n - 1}); err == nil {
		t.Errorf("two runs of (fact 3) (%s, %d applications each) ran on %d applications of fuel", one, n, 2*n-1)
	}
	if _, err := Eval(p, &EvalOptions{Fuel: 2 * n}); err != nil {
		t.Errorf("two runs of (fact 3) (%d applications each) on %d: %v", n, 2*n, err)
	}
}
