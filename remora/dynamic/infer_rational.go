package dynamic

import (
	"math/big"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Racket's exact rationals ((/ 7 2) is 7/2, 3/5 is a literal). An array
// of them (the dialect's KNum atoms) elaborates to an int array with one
// more axis, of 2: each rational's numerator and positive denominator,
// in lowest terms (ity.String, ity.cix). Their arithmetic is typed
// functions of such pairs, with the checked int operators (an exact
// integer past 64 bits stops with "integer overflow", as the dialect's
// do not) and Euclid's gcd (gcdFn) to bring results to lowest terms;
// the result format prints them n or n/d (semantics.AtomRat). The
// elaboration takes the kind of a division of exact numbers to be
// rational whatever its value ((/ 6 3) is 2, printed 2 either way), and
// refuses a rational where an int is wanted (a shape, a count).

// The typed functions of rationals, on [int 2] cells: the numerator and
// the denominator of a, of b.
const (
	ratA = "(index{int | [2] [] 1} a [0])"
	ratB = "(index{int | [2] [] 1} a [1])"
	ratC = "(index{int | [2] [] 1} b [0])"
	ratD = "(index{int | [2] [] 1} b [1])"
	// ratNorm is n/d (d > 0) in lowest terms.
	ratNorm = "(fn ([n int] [d int]) ((fn ([g int]) [(/! n g) (/! d g)]) (" + gcdFn + " n d)))"
	// ratOfInt is n/1.
	ratOfInt = "(fn ([n int]) [n 1])"
	// ratToFloat is the float nearest a: the quotient of the two as
	// floats, which is that float where both are floats exactly (below
	// 2^53, checked: (*! m 1024) overflows past it).
	ratToFloat = "(fn ([a [int 2]]) ((fn ([m int]) (/. (int->float " + ratA + ") (int->float " + ratB + "))) (*! (max (abs! " + ratA + ") " + ratB + ") 1024)))"
)

// ratBinary are the typed functions of two rationals, by the dialect's
// name.
var ratBinary = map[string]string{
	"+": "(fn ([a [int 2]] [b [int 2]]) (" + ratNorm + " (+! (*! " + ratA + " " + ratD + ") (*! " + ratC + " " + ratB + ")) (*! " + ratB + " " + ratD + ")))",
	"-": "(fn ([a [int 2]] [b [int 2]]) (" + ratNorm + " (-! (*! " + ratA + " " + ratD + ") (*! " + ratC + " " + ratB + ")) (*! " + ratB + " " + ratD + ")))",
	"*": "(fn ([a [int 2]] [b [int 2]]) (" + ratNorm + " (*! " + ratA + " " + ratC + ") (*! " + ratB + " " + ratD + ")))",
	// Division by 0 is stuck (/! 1 c), as the dialect's is; the sign
	// goes to the numerator.
	"/": "(fn ([a [int 2]] [b [int 2]]) ((fn ([s int]) (" + ratNorm + " (*! (*! " + ratA + " " + ratD + ") s) (*! (*! " + ratB + " " + ratC + ") s))) (+! (if{int | } (< " + ratC + " 0) -1 1) (*! 0 (/! 1 " + ratC + ")))))",
}

// ratCompare is a comparison of two rationals: of the cross products,
// the denominators being positive.
func ratCompare(op string) string {
	cmp := "(" + op + " (*! " + ratA + " " + ratD + ") (*! " + ratC + " " + ratB + "))"
	if op == "!=" {
		cmp = "(not (= (*! " + ratA + " " + ratD + ") (*! " + ratC + " " + ratB + ")))"
	}
	return "(fn ([a [int 2]] [b [int 2]]) " + cmp + ")"
}

// ratLiteral writes an exact number as pairs. A numerator or denominator
// past int64 (an integer past 64 bits is an exact number too) is written
// as its computation by checked arithmetic, which stops with the
// overflow error where the program computes it, as the dialect's own
// arithmetic past 64 bits does at the compiled levels.
func ratLiteral(v *remora.Value) (string, bool) {
	if v.Len() == 0 {
		return "(frame " + shapeString(append(append([]int64{}, v.Shape...), 2)) + " int)", true
	}
	terms := make([]string, v.Len())
	for i := range terms {
		r := numAt(v, i).rat()
		terms[i] = "[" + bigTerm(r.Num()) + " " + bigTerm(r.Denom()) + "]"
	}
	return nest(v.Shape, terms), true
}

// bigTerm writes an integer as a term: itself within int64, else
// q·2^62 + r with checked operators (which overflow), q written so in
// turn. Only the innermost applications up to the first that overflows
// are written: the program stops there whatever surrounds it, and a
// number of 10^10000 would otherwise nest 500 deep, past what the typed
// reader takes (semantics.MaxDepth).
func bigTerm(n *big.Int) string {
	if n.IsInt64() {
		return n.String()
	}
	var limbs []int64 // the base-2^62 digits, least significant first
	for q := new(big.Int).Set(n); !q.IsInt64(); {
		var r big.Int
		q.QuoRem(q, big.NewInt(1<<62), &r)
		limbs = append(limbs, r.Int64())
		if q.IsInt64() {
			limbs = append(limbs, q.Int64())
		}
	}
	top := len(limbs) - 1
	term, val := itoa64(limbs[top]), limbs[top]
	for i := top - 1; i >= 0; i-- {
		term = "(+! (*! " + term + " 4611686018427387904) " + itoa64(limbs[i]) + ")"
		p, ok := mulInt(val, 1<<62)
		if !ok {
			break
		}
		if val, ok = addInt(p, limbs[i]); !ok {
			break
		}
	}
	return term
}

// toRat converts an int array to rationals.
func toRat(a *aval) string {
	if a.typ.elem == remora.KInt {
		return "(" + ratOfInt + " " + a.term + ")"
	}
	return a.term
}

// ratScalar elaborates a scalar primitive one of whose arguments is an
// exact rational, or the division of exact integers (whose result is
// one); nil when it is neither.
func (el *elaborator) ratScalar(pos semantics.Pos, fn *aval, args []*aval, big []remora.Nat) *aval {
	name := fn.funs[0].prim.Name
	hasRat, hasFloat, allExact := false, false, true
	for _, a := range args {
		switch a.typ.elem {
		case remora.KNum:
			hasRat = true
		case remora.KFloat:
			hasFloat, allExact = true, false
		case remora.KInt:
		default:
			allExact = false
		}
	}
	divides := (name == "/" || name == "inv") && allExact
	if !hasRat && !divides {
		return nil
	}
	if len(fn.funs) != 1 || len(fn.fshape) > 0 {
		el.fail(pos, "an array of primitives applied to exact rationals")
	}
	if v := el.foldKnown(pos, fn, args); v != nil {
		return v
	}
	rat := ity{elem: remora.KNum, shape: big}
	apply := func(f string, ret ity, terms ...string) *aval {
		return typedArray("("+f+" "+strings.Join(terms, " ")+")", ret, nil)
	}
	if hasFloat {
		// Racket makes the exact number a float first; an exact 0 keeps
		// its laws (the identity of +, the zero of *), as an exact
		// integer's do.
		if len(args) != 2 || !comparison[name] && name != "+" && name != "-" && name != "max" && name != "min" {
			el.fail(pos, "(%s …) of an exact rational and a float: the dialect's exact zero of * and / would show; convert the rational with exact->inexact", name)
		}
		if comparison[name] {
			el.fail(pos, "(%s r x) compares the exact rational r with the float x exactly (Racket's comparison), which the compiled program does not: convert r with exact->inexact", name)
		}
		fl := make([]string, 2)
		for i, a := range args {
			switch {
			case a.typ.elem == remora.KFloat:
				fl[i] = a.term
			case (name == "+" || name == "-" && i == 0) && !a.nonzero:
				// -0.0 for an exact 0: the identity of +.
				fl[i] = "((fn ([a [int 2]]) (if{float | } (= " + ratA + " 0) -0. (" + ratToFloat + " a))) " + a.term + ")"
			default:
				fl[i] = "(" + ratToFloat + " " + a.term + ")"
			}
		}
		op := map[string]string{"+": "+.", "-": "-.", "max": floatMaxMin(true), "min": floatMaxMin(false)}[name]
		return apply(op, ity{elem: remora.KFloat, shape: big}, fl...)
	}
	for _, a := range args {
		if a.typ.elem != remora.KInt && a.typ.elem != remora.KNum {
			el.fail(pos, "%s takes numbers, got %s atoms: it would stop in δ", name, a.typ.elem)
		}
	}
	terms := make([]string, len(args))
	for i, a := range args {
		terms[i] = toRat(a)
	}
	switch {
	case len(args) == 2 && ratBinary[name] != "":
		return apply(ratBinary[name], rat, terms...)
	case len(args) == 2 && comparison[name]:
		return apply(ratCompare(name), ity{elem: remora.KBool, shape: big}, terms...)
	case len(args) == 2 && (name == "max" || name == "min"):
		// The first of equals, as the dialect's max and min keep.
		op := "<"
		if name == "min" {
			op = ">"
		}
		return apply("(fn ([a [int 2]] [b [int 2]]) (if{int | } ("+ratCompare(op)+" a b) b a))", rat, terms...)
	case len(args) == 1:
		switch name {
		case "-", "neg":
			return apply("(fn ([a [int 2]]) [(-! 0 "+ratA+") "+ratB+"])", rat, terms...)
		case "abs":
			return apply("(fn ([a [int 2]]) [(abs! "+ratA+") "+ratB+"])", rat, terms...)
		case "/", "inv":
			return apply("(fn ([b [int 2]]) ("+ratBinary["/"]+" [1 1] b))", rat, terms...)
		case "add1", "sub1":
			op := map[string]string{"add1": "+", "sub1": "-"}[name]
			return apply("(fn ([a [int 2]]) ("+ratBinary[op]+" a [1 1]))", rat, terms...)
		case "sqr":
			return apply("(fn ([a [int 2]]) ("+ratBinary["*"]+" a a))", rat, terms...)
		case "exact->inexact", "int->float":
			return apply(ratToFloat, ity{elem: remora.KFloat, shape: big}, terms...)
		case "id":
			return args[0]
		}
	}
	el.fail(pos, "%s of exact rationals is not elaborated (their arithmetic, comparisons, exact->inexact, folds and printing are)", name)
	return nil
}
