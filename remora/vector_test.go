package remora

import (
	"fmt"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// runVectorised evaluates a checked expression by the big-step without
// counting rules, with vectorised λ bodies on or off, and reports what it
// printed, or the error.
func runVectorised(e Expr, on bool) string {
	v, err := EvalExpr(e, &EvalOptions{Engines: Engines{NoVectorLams: !on}})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s (%s %v)", v, v.Kind, v.Shape)
}

// TestVectorLamAgrees checks λs applied over frames, run vectorised
// (the body once over the frame) and cell by cell: the same value or the
// same error (rule, message, position), also where the vectorised order
// would meet another error first; and, at the small sizes, the same as
// the small-step. Most of them must actually run vectorised.
func TestVectorLamAgrees(t *testing.T) {
	before := vectorRuns.Load()
	programs := 0
	for _, n := range []int{1, 4, streamChunk + 3} {
		for _, src := range []string{
			"((fn ([x int]) (+ (* x x) 1)) iota{ | [%[1]d]})",
			"((fn ([x int]) x) iota{ | [%[1]d]})",
			"((fn ([x int]) 7) iota{ | [%[1]d]})",
			"((fn ([x int]) (* x 4611686018427387904)) iota{ | [%[1]d]})",
			"((fn ([x int]) (/ 10 (- x 3))) iota{ | [%[1]d]})",
			// Cell 1 divides by zero in the second division, cell 2 in
			// the first: cell by cell, the second one's error comes first.
			"((fn ([x int]) (+ (/ 1 (- x 2)) (/ 1 (- x 1)))) iota{ | [%[1]d]})",
			"((fn ([x int]) (%% x 0)) iota{ | [%[1]d]})",
			"((fn ([x int] [y int]) (- x (* 2 y))) iota{ | [%[1]d]} iota{ | [%[1]d 3]})",
			"((fn ([x int] [y int]) (- x y)) iota{ | [%[1]d 2]} 5)",
			"((fn ([x float]) (sqrt (+. x 1.))) (int->float iota{ | [%[1]d]}))",
			"((fn ([x float]) (/. 1. (-. x 2.))) (int->float iota{ | [%[1]d]}))",
			"((fn ([x int]) (float->int (*. 1e300 (int->float x)))) iota{ | [%[1]d]})",
			"((fn ([x int]) (and (< x 3) (not (= x 0)))) iota{ | [%[1]d]})",
			"((fn ([x int]) (max 2 (min x (abs (- 5 x))))) iota{ | [%[1]d]})",
			"(let [k 3] ((fn ([x int]) (* k (+ x k))) iota{ | [%[1]d]}))",
			"(let [x 3] ((fn ([x int]) (* x x)) iota{ | [%[1]d]}))",
			// The compiler IR's MAP runs its body as such a λ would.
			"(MAP [%[1]d] ([x int iota{ | [%[1]d]}]) (+ (* x x) 1))",
			"(MAP [%[1]d 2] ([x int iota{ | [%[1]d 2]}] [y int (+ 1 iota{ | [%[1]d 2]})]) (/ y (- x 2)))",
			"(MAP [%[1]d] () 7)",
			"(MAP [2 %[1]d] ([v [int 2] iota{ | [2 %[1]d 2]}]) (+ v 1))",
			// Not vectorised: a free vector, a λ in the body, a non-scalar
			// parameter, an array of λs, if.
			"(let [v [1 2]] ((fn ([x int]) (+ x v)) iota{ | [%[1]d]}))",
			"((fn ([x int]) ((fn ([y int]) (* y 2)) x)) iota{ | [%[1]d]})",
			"((fn ([v [int 2]]) (+ v 1)) iota{ | [%[1]d 2]})",
			"([(fn ([x int]) (+ x 1)) (fn ([x int]) (- x 1))] iota{ | [2 %[1]d]})",
			"((fn ([x int]) (if{int | } (< x 2) x (- 0 x))) iota{ | [%[1]d]})",
		} {
			src := fmt.Sprintf(src, n)
			e, _ := checkedExpr(t, src)
			vec, cells := runVectorised(e, true), runVectorised(e, false)
			if vec != cells {
				t.Errorf("%s: vectorised %s, cell by cell %s", src, vec, cells)
			}
			if n < 10 {
				small, _, err := RunSmall(e, &semantics.RunOptions{})
				got := ""
				if err != nil {
					got = "error: " + err.Error()
				} else {
					got = fmt.Sprintf("%s (%s %v)", small, small.Kind, small.Shape)
				}
				if got != vec {
					t.Errorf("%s: big-step %s, small-step %s", src, vec, got)
				}
			}
			programs++
		}
	}
	ran := vectorRuns.Load() - before
	t.Logf("%d of %d applications vectorised", ran, programs)
	if ran < int64(programs)/3 {
		t.Errorf("only %d of %d applications vectorised", ran, programs)
	}
	// Counting rules turns it off, so that the counts are the per-cell
	// path's.
	e, _ := checkedExpr(t, "((fn ([x int]) (+ x 1)) iota{ | [3]})")
	before = vectorRuns.Load()
	if _, err := EvalExpr(e, &EvalOptions{Counter: map[string]int{}}); err != nil {
		t.Fatal(err)
	}
	if vectorRuns.Load() != before {
		t.Errorf("a counted application ran vectorised")
	}
}
