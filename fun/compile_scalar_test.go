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

// A frame of test cells, for TestSExpCompilerAgrees: a variable's slot
// holds a scalar, an array (not scalar) or nothing (not bound).
type testCell struct {
	n             semantics.Num
	bound, scalar bool
}

// testVars reads testCells by the slots of names; a name with no slot is
// unbound.
type testVars map[string]int

func (v testVars) Num(x *Ident) func([]testCell) (semantics.Num, bool) {
	s, ok := v[x.Name]
	if !ok {
		return func([]testCell) (semantics.Num, bool) { return semantics.Num{}, false }
	}
	return func(fr []testCell) (semantics.Num, bool) { return fr[s].n, fr[s].bound && fr[s].scalar }
}

func (v testVars) Int(x *Ident) func([]testCell) (int64, bool) {
	num := v.Num(x)
	return func(fr []testCell) (int64, bool) {
		n, ok := num(fr)
		return n.Bits, ok && n.Elem == semantics.IntElem
	}
}

func (v testVars) Ints(f *IntForm, g SExpCode[[]testCell]) SExpCode[[]testCell] {
	x, y, z := v.Int(f.Var(0)), v.Int(f.Var(1)), v.Int(f.Var(2))
	return func(fr []testCell) (semantics.Num, bool) {
		a, ok1 := x(fr)
		b, ok2 := y(fr)
		c, ok3 := z(fr)
		if ok1 && ok2 && ok3 {
			if k, ok := f.Eval(a, b, c); ok {
				return semantics.IntNum(k), true
			}
		}
		return g(fr)
	}
}

// TestSExpCompilerAgrees compiles random scalar expressions (every
// operator, checked ones too, ints and floats mixed, unbound variables,
// arrays, zero divisors, wrapping, built-in calls) with SExpCompiler, with
// and without the int fast paths, reading every variable as a scalar or
// (Ints) as an int, in a loop whose invariant part is hoisted or not, and
// checks each value it gives against EvalNum's (EvalSExp's), and that it
// gives one wherever they do.
func TestSExpCompilerAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	names := []string{"a", "b", "i", "j", "z", "m", "f", "g", "arr", "w", "u"} // u has no slot, w is not bound
	vars := testVars{}
	for s, x := range names[:len(names)-1] {
		vars[x] = s
	}
	ints := []int64{0, 1, -1, 2, 7, -9, 1 << 62, -1 << 63}
	floats := []float64{0, 1.5, -2.25, 0.5}
	// sum is a sum of products (offsets, most of them: the fast paths'
	// shapes), over ints mostly.
	var sum func(d int) SExp
	sum = func(d int) SExp {
		if d == 0 || rng.IntN(3) == 0 {
			if rng.IntN(3) == 0 {
				return &Const{Value: ints[rng.IntN(len(ints))]}
			}
			return Var{&Ident{Name: names[rng.IntN(len(names)-6)]}} // a b i j z
		}
		switch rng.IntN(5) {
		case 0:
			return &UnOp{Op: semantics.Neg, X: sum(d - 1)}
		case 1:
			return &BinOp{Op: semantics.Mul, L: sum(0), R: sum(0)}
		}
		return &BinOp{Op: []semantics.Op{semantics.Add, semantics.Sub, semantics.Mul}[rng.IntN(3)], L: sum(d - 1), R: sum(d - 1)}
	}
	var gen func(d int) SExp
	gen = func(d int) SExp {
		if d == 0 || rng.IntN(4) == 0 {
			switch rng.IntN(6) {
			case 0:
				return &Const{Value: ints[rng.IntN(len(ints))]}
			case 1:
				return &FloatConst{Value: floats[rng.IntN(len(floats))]}
			default:
				return Var{&Ident{Name: names[rng.IntN(len(names))]}}
			}
		}
		switch rng.IntN(8) {
		case 0:
			return &UnOp{Op: semantics.Neg, X: gen(d - 1)}
		case 1:
			return &Call{Func: semantics.Func(rng.IntN(int(semantics.ToInt) + 1)), Arg: gen(d - 1)}
		}
		op := semantics.Op(rng.IntN(int(semantics.DivChecked) + 1))
		if op == semantics.Neg { // unary only: + instead
			op = semantics.Add
		}
		return &BinOp{Op: op, L: gen(d - 1), R: gen(d - 1)}
	}
	frame := func() []testCell {
		fr := make([]testCell, len(vars))
		for x, s := range vars {
			c := testCell{n: semantics.IntNum(ints[rng.IntN(len(ints))]), bound: true, scalar: true}
			switch x {
			case "z":
				c.n = semantics.IntNum(0)
			case "f", "g":
				c.n = semantics.FloatNum(floats[rng.IntN(len(floats))])
			case "arr":
				c.scalar = false
			case "w":
				c.bound = false
			}
			fr[s] = c
		}
		return fr
	}
	lookup := func(fr []testCell) func(*Ident, string) (semantics.Num, error) {
		return func(x *Ident, rule string) (semantics.Num, error) {
			s, ok := vars[x.Name]
			if !ok || !fr[s].bound {
				return semantics.Num{}, unbound(x, rule)
			}
			if !fr[s].scalar {
				return semantics.Num{}, semantics.Stuckf(x.NamePos, rule, "%s is an array", x.Name)
			}
			return fr[s].n, nil
		}
	}
	invariant := map[string]bool{"a": true, "b": true, "f": true}
	var values, refused int
	for n := range 4000 {
		e := gen(1 + rng.IntN(3))
		if n%4 == 1 || n%4 == 2 {
			e = sum(1 + rng.IntN(4))
		}
		var epoch uint64
		c := SExpCompiler[[]testCell]{Vars: vars, Ints: n%3 == 0, NoIntFastPaths: n%5 == 0}
		if n%2 == 0 {
			c.Invariant, c.Epoch = func(x *Ident) bool { return invariant[x.Name] }, &epoch
		}
		code := c.Compile(e)
		fr := frame()
		for range 3 { // starts of the loop: the invariant variables change
			epoch++
			for x := range invariant {
				fr[vars[x]] = frame()[vars[x]]
			}
			for range 3 { // its iterations: the others change
				for x, s := range vars {
					if !invariant[x] {
						fr[s] = frame()[s]
					}
				}
				got, ok := code(fr)
				var want semantics.Num
				var err error
				if c.Ints {
					var k int64
					k, err = EvalSExp(e, func(x *Ident, rule string) (int64, error) {
						v, err := lookup(fr)(x, rule)
						if err == nil && v.Elem != semantics.IntElem {
							return 0, semantics.Stuckf(x.NamePos, rule, "%s is a float", x.Name)
						}
						return v.Bits, err
					}, "R")
					want = semantics.IntNum(k)
					if ok && got.Elem != semantics.IntElem { // a float constant's value: EvalSExp refuses it
						ok = false
					}
				} else {
					want, err = EvalNum(e, lookup(fr), "R")
				}
				switch {
				case ok && err != nil:
					t.Fatalf("%s (%+v): compiled %v, the rules are stuck: %v", PrintSExp(e), c, got, err)
				case ok && got != want:
					t.Fatalf("%s (%+v): compiled %v, the rules %v", PrintSExp(e), c, got, want)
				case !ok && err == nil:
					t.Fatalf("%s (%+v): the compiled code gives up, the rules give %v", PrintSExp(e), c, want)
				case ok:
					values++
				default:
					refused++
				}
			}
		}
	}
	t.Logf("%d values, %d stuck", values, refused)
	if values < 5000 || refused < 5000 {
		t.Errorf("%d values, %d stuck: too few to test both outcomes", values, refused)
	}
}
