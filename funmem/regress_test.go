package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// Regression tests of bugs found while writing the golden tests, fixed
// since.

// T-MEM-PROG's premise • ⊢ p̄ ← b checks the results with the body's
// statements in Γ (T-MEM-STM, then T-MEM-RESULT at the in), so an LMAD
// that is R(k) given let (k : int) = … is row-major there. The checker
// used to check the results' layout after the body's scope was closed,
// refusing R(n, 2) for [n][two] (two = 2), which T-MEM-LMAD accepts; the
// simplifier writes such LMADs, so `arraysem compile
// examples/fun/iota_copy.fun --to funmem` (and sum_max.fun) failed with
// "Simplify produced a program Fig 8 rejects: T-MEM-PROG: result c_res has
// index function R(2, n)".
func TestProgLayoutInBodyScope(t *testing.T) {
	t.Run("by hand", func(t *testing.T) {
		p, err := ParseFile("reg.funmem", "input (n : int)\nlet (two : int) = 2\nlet (b : mem) = alloc n * two\n"+
			"let (xss : [n][two] @ b -> R(n, 2)) = kernel i <= n do\n  let (r : mem) = alloc two\n  let (row : [two] @ r -> R(two)) = iota two\n  in (row)\n"+
			"in (b, xss)")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check(p, nil); err != nil {
			t.Errorf("R(n, 2) is R(n, two) in the body's scope: %v", err)
		}
	})
	t.Run("compile", func(t *testing.T) {
		src := "input (n : int)\nlet (two : int) = 2\nlet (xss : [n][two]) = kernel i <= n do\n  let (r : [two]) = iota two\n  in (r)\nin (xss)"
		f, err := fun.ParseFile("reg.fun", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fun.Check(f, nil); err != nil {
			t.Fatal(err)
		}
		q := Transform(f)
		if _, err := Check(q, nil); err != nil {
			t.Fatalf("TransformProgram's output is rejected: %v\n%s", err, Print(q))
		}
		s := Simplify(q)
		if _, err := Check(s, nil); err != nil {
			t.Errorf("the simplifier's output is rejected: %v\n%s", err, Print(s))
		}
	})
}

// The fixed conventions: `arraysem compile … --to funmem` prints the program "in a
// syntax that parses back". FUN allows mem and alloc as names, which are
// FUNMEM keywords; TransformProgram used to keep them, so `input (mem :
// int) let (xs : [mem]) = iota mem in (xs)` compiled to a FUNMEM program
// starting `input (mem : int)`, refused with "expected a variable, found
// "mem"".
func TestTransformKeywordNames(t *testing.T) {
	for _, src := range []string{
		"input (mem : int)\nlet (xs : [mem]) = iota mem\nin (xs)",
		"input (n : int)\nlet (alloc : [n]) = iota n\nin (alloc)",
	} {
		f, err := fun.ParseFile("reg.fun", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fun.Check(f, nil); err != nil {
			t.Fatal(err)
		}
		q := Simplify(Transform(f))
		text := Print(q)
		r, err := ParseFile("reg.funmem", text)
		if err != nil {
			t.Errorf("%q compiles to a program that does not parse back: %v\n%s", src, err, text)
			continue
		}
		if _, err := Check(r, nil); err != nil {
			t.Errorf("%q: the reparsed program is rejected: %v\n%s", src, err, text)
		}
	}
}
