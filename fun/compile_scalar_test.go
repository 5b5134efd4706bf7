package fun

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestIntBinaryAgrees runs random scalar statements, ints and floats
// mixed, with zero divisors, wrapping products, comparisons and
// constants on either side, under the compiled big-step (whose int
// operators over variables and constants take compile_scalar.go's code)
// and the small-step (EvalNum), which must give the same values and the
// same errors.
func TestIntBinaryAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ops := []string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||"}
	intLeaves := []string{"a", "b", "z", "m", "0", "1", "-1", "2", "7", "4611686018427387904"}
	var intExp, floatExp func(d int) string
	floatExp = func(d int) string {
		if d == 0 || rng.IntN(3) == 0 {
			return []string{"f", "g", "0.0", "1.5", "-2.25"}[rng.IntN(5)]
		}
		switch rng.IntN(3) {
		case 0:
			return "-(" + floatExp(d-1) + ")"
		default:
			return "(" + floatExp(d-1) + " " + []string{"+", "-", "*", "/"}[rng.IntN(4)] + " " + floatExp(d-1) + ")"
		}
	}
	intExp = func(d int) string {
		if d == 0 || rng.IntN(4) == 0 {
			return intLeaves[rng.IntN(len(intLeaves))]
		}
		switch rng.IntN(6) {
		case 0:
			return "(" + floatExp(d-1) + " " + []string{"<", "==", ">="}[rng.IntN(3)] + " " + floatExp(d-1) + ")"
		case 1:
			return "-(" + intExp(d-1) + ")"
		default:
			return "(" + intExp(d-1) + " " + ops[rng.IntN(len(ops))] + " " + intExp(d-1) + ")"
		}
	}
	args := map[string]string{"a": "-9", "b": "4", "z": "0", "m": "-9223372036854775808", "f": "2.5", "g": "-0.5"}
	checked, failed := 0, 0
	for range 3000 {
		se := intExp(1 + rng.IntN(3))
		src := fmt.Sprintf("input (a : int) (b : int) (z : int) (m : int) (f : float) (g : float)\nlet (x : int) = %s\nlet (y : int) = x * a + 1\nin (x, y)", se)
		p, err := ParseFile("t.fun", src)
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, src)
		}
		if _, err := Check(p, nil); err != nil {
			continue
		}
		checked++
		big, small := runBoth(t, src, args, nil)
		if big != small {
			t.Fatalf("big-step and small-step disagree on %s:\n  big:   %s\n  small: %s", se, big, small)
		}
		if len(big) > 6 && big[:6] == "error:" {
			failed++
		}
	}
	t.Logf("%d statements checked, %d stuck", checked, failed)
	if checked < 1000 || failed < 50 {
		t.Errorf("%d statements checked, %d stuck: too few to test both outcomes", checked, failed)
	}
}

// TestIntStepAgrees runs reduces and redomaps whose operator body is one
// operation on its parameters, in either order, over ints with zeros
// among them (a division by zero part way), over floats (which the int
// step leaves to the body), plain (where intStep's step
// runs) and with rule counts (where it does not), against the
// small-step: the same values and the same errors.
func TestIntStepAgrees(t *testing.T) {
	args := map[string]string{"n": "6", "xs": "[7 -3 2 0 5 9]", "fs": "[1.5 -2.0 0.5 3.0 0.25 -1.0]", "rs": "[[1 2] [3 4] [5 6] [0 1] [2 2] [9 9]]"}
	head := "input (n : int) (xs : [n]) (fs : [n]float) (m : int) (rs : [n][m])\n"
	var cases int
	for _, op := range []string{"+", "-", "*", "/", "%", "<", "==", "&&", "||"} {
		for _, body := range []string{"a " + op + " b", "b " + op + " a"} {
			for _, form := range []string{
				"let (z : int) = %s\nlet (r : int) =\n  reduce (a : int) (b : int) = z over xs do\n    let (c : int) = %s\n    in (c)\nin (r)",
				"let (z : int) = %s\nlet (r : int) =\n  redomap (a : int) (b : int) = z for i <= n do\n    let (x : int) = xs[i]\n    let (y : int) = x * i - 4\n    in (y)\n  combine\n    let (c : int) = %s\n    in (c)\nin (r)",
				"let (z : int) = %s\nlet (r : [n]) =\n  scanomap (a : int) (b : int) = z for i <= n do\n    let (x : int) = xs[i]\n    in (x)\n  combine\n    let (c : int) = %s\n    in (c)\nin (r)",
			} {
				for _, z := range []string{"1", "0", "100"} {
					src := head + fmt.Sprintf(form, z, body)
					for _, counter := range []semantics.Counter{nil, {}} {
						big, small := runBoth(t, src, args, counter)
						if big != small {
							t.Fatalf("big-step and small-step disagree:\n  big:   %s\n  small: %s\n%s", big, small, src)
						}
						cases++
					}
				}
			}
		}
	}
	// The int step gives up on floats: the body runs.
	for _, src := range []string{
		head + "let (z : float) = 1.0\nlet (r : float) =\n  reduce (a : float) (b : float) = z over fs do\n    let (c : float) = a / b\n    in (c)\nin (r)",
	} {
		big, small := runBoth(t, src, args, nil)
		if big != small || len(big) > 6 && big[:6] == "error:" {
			t.Fatalf("big %s, small %s\n%s", big, small, src)
		}
	}
	t.Logf("%d runs", cases)
}
