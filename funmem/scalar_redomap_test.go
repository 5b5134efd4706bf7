package funmem

import (
	"fmt"
	"strings"
	"testing"
)

// TestScalarRedomapAgrees runs random redomaps whose map and operator
// bodies compute scalars (divisions that may be by zero, bounds that may
// be negative, operators that are not associative), alone and inside a
// kernel, under the compiled heap semantics with the scalar loop on and
// off (HeapOptions.NoScalarFolds) and under the rules (agreeFolds): the
// same values, errors and final heaps. Most of them must take the loop.
func TestScalarRedomapAgrees(t *testing.T) {
	t.Parallel()
	g := newSrcGen(21, 22)
	pick, sexp := g.pick, g.sexp
	before := scalarRedomapRuns.Load()
	failed := 0
	const programs = 400
	for k := range programs {
		var b strings.Builder
		b.WriteString("input (n : int) (m : int)\n")
		nested := k%3 == 0
		ind := "  "
		if nested {
			b.WriteString("let (ys : [n]) = kernel j <= n do\n")
			ind = "    "
		}
		bound, leaves := "m", []string{"i", "m", "0", "1", "3", "-2"}
		if nested {
			bound, leaves = "j", append(leaves, "j")
		}
		fmt.Fprintf(&b, "%slet (z : int) = %s\n", ind[2:], pick("0", "1", "-7"))
		fmt.Fprintf(&b, "%slet (r : int) =\n%s  redomap (a : int) (b : int) = z for i <= %s do\n", ind[2:], ind[2:], bound)
		fmt.Fprintf(&b, "%s    let (v : int) = %s\n%s    in (v)\n", ind[2:], sexp(leaves, 2), ind[2:])
		fmt.Fprintf(&b, "%s  combine\n%s    let (c : int) = %s\n%s    in (c)\n", ind[2:], ind[2:], sexp([]string{"a", "b", "1", "2"}, 2), ind[2:])
		if nested {
			b.WriteString("    in (r)\nin (ys)\n")
		} else {
			b.WriteString("in (r)\n")
		}
		args := map[string]string{"n": fmt.Sprint(g.rng.IntN(4)), "m": fmt.Sprint(g.rng.IntN(30) - 3)}
		if agreeFolds(t, b.String(), args) {
			failed++
		}
	}
	ran := scalarRedomapRuns.Load() - before
	t.Logf("%d redomaps ran as the loop over %d programs, %d went wrong", ran, programs, failed)
	if ran < programs/2 || failed < programs/10 || programs-failed < programs/4 {
		t.Errorf("%d redomaps ran as the loop, %d of %d programs went wrong: too few to test both outcomes", ran, failed, programs)
	}
}
