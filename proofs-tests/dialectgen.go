package proofstests

import (
	"fmt"
	"math/rand"
	"strings"
)

// The dialect-compiled property's programs: numeric programs of the
// rank-annotated dialect (#lang remora/dynamic) built around the values
// where its exact numbers and the compiled levels' int64 and float64
// part: integers at and past the 64-bit limits (whose products and sums
// overflow), exact zeros beside floats ((* 0 2.5) is exact 0 in Racket),
// signed zeros, infinities, NaN and numbers outside a function's real
// domain. Each expression is a scalar or a vector of dialectLen atoms, so
// that frames always agree.

// dialectLen is the length of the generated vectors.
const dialectLen = 3

// dialectInts are the integer atoms: small ones, and ones whose sums,
// differences and products pass 2^63.
var dialectInts = []string{
	"0", "1", "-1", "2", "3", "-7", "10",
	"3037000499", "3037000500", "-3037000500",
	"4611686018427387904", "-4611686018427387904",
	"1000000000000000000", "9223372036854775807", "-9223372036854775808",
	"9007199254740993",
}

// dialectFloats are the float atoms.
var dialectFloats = []string{
	"0.0", "-0.0", "1.5", "-2.5", "0.1", "4.0", "1e300", "-1e300", "1e-300",
	"+inf.0", "-inf.0", "+nan.0", "9007199254740992.0", "-0.5",
}

// dialectArith are the arithmetic primitives (quotient and remainder
// only over ints),
// dialectUnary the unary functions (the transcendental ones only over
// floats: of an exact integer they are exact at special points, which
// the compile path refuses), dialectAssoc the operators reduce takes (the
// dialect reduces tree-shaped), dialectFold those fold takes.
var (
	dialectArith   = []string{"+", "-", "*", "max", "min", "+", "*", "-"}
	dialectIntOnly = []string{"quotient", "remainder"}
	dialectUnary   = []string{"abs", "int->float", "float->int", "abs"}
	dialectFloatFn = []string{"sqrt", "exp", "ln", "sin", "cos", "sqrt"}
	dialectAssoc   = []string{"+", "*", "max", "min"}
	dialectFold    = []string{"+", "*", "-", "max", "min"}
)

// The kinds of atoms a program mixes.
const (
	dialectIntsOnly = iota
	dialectFloatsOnly
	dialectMixed
)

// dialectCompareAll are the comparisons of any two numbers (= and != of
// floats included).
var dialectCompareAll = []string{"<", "<=", ">", ">=", "=", "!="}

// dialectGen generates one program.
type dialectGen struct {
	r    *rand.Rand
	mode int
}

// GenerateDialect generates a numeric program of the dynamic dialect of
// 1–3 expressions; size (0–MaxGenSize) bounds their nesting.
func GenerateDialect(r *rand.Rand, size int) string {
	g := &dialectGen{r: r, mode: []int{dialectIntsOnly, dialectIntsOnly, dialectIntsOnly, dialectFloatsOnly, dialectFloatsOnly, dialectMixed}[r.Intn(6)]}
	var b strings.Builder
	b.WriteString("#lang remora/dynamic\n")
	for range 1 + r.Intn(3) {
		switch r.Intn(10) {
		case 0:
			// A scan's result is one item longer than its argument, so
			// it is only a whole expression.
			fmt.Fprintf(&b, "(scan %s %s %s)\n", g.pick(dialectFold), g.atom(), g.vector(size/3))
			continue
		case 1:
			// Results whose shapes are known only at run time, and
			// boxes.
			b.WriteString(g.shaped(size / 3))
			b.WriteByte('\n')
			continue
		}
		b.WriteString(g.expr(1 + size/3))
		b.WriteByte('\n')
	}
	return b.String()
}

// shaped is an expression whose shape depends on values (filter, take of
// a computed count, iota of one), or a box, or a frame of boxes.
func (g *dialectGen) shaped(depth int) string {
	v := g.vector(depth)
	switch g.r.Intn(7) {
	case 0:
		return fmt.Sprintf("(filter (%s %s %s) %s)", g.pick(dialectCompareAll), v, g.atom(), v)
	case 1:
		return fmt.Sprintf("(box %s)", g.expr(depth))
	case 2:
		return fmt.Sprintf("((λ ((x 0)) (box (take (remainder x 4) %s))) %s)", v, g.countVector())
	case 3:
		return fmt.Sprintf("(window 2 %s)", v)
	case 4:
		return fmt.Sprintf("(unbox b ((λ ((x 1)) (box (filter (> x 0) x))) [%s %s]) (reverse b))", g.literalVector(), g.literalVector())
	case 5:
		return fmt.Sprintf("(nub %s)", v)
	}
	return fmt.Sprintf("((λ ((n 0)) (iota [n])) %s)", g.count())
}

// count is an int expression that is small (its remainder by 4) but
// known only at run time where it comes from a computation; a negative
// one (a negative remainder) is stuck where it is a size, as the
// dialect is.
func (g *dialectGen) count() string {
	if g.mode == dialectFloatsOnly {
		return fmt.Sprint(g.r.Intn(4))
	}
	return fmt.Sprintf("(remainder %s 4)", g.pick(dialectInts))
}

// countVector is a vector of counts.
func (g *dialectGen) countVector() string {
	xs := make([]string, dialectLen)
	for i := range xs {
		xs[i] = fmt.Sprint(g.r.Intn(5))
	}
	return "[" + strings.Join(xs, " ") + "]"
}

func (g *dialectGen) pick(xs []string) string { return xs[g.r.Intn(len(xs))] }

// atom is a literal number.
func (g *dialectGen) atom() string {
	switch g.mode {
	case dialectFloatsOnly:
		return g.pick(dialectFloats)
	case dialectMixed:
		if g.r.Intn(2) == 0 {
			return g.pick(dialectFloats)
		}
	}
	return g.pick(dialectInts)
}

// literal is a scalar or a vector literal.
func (g *dialectGen) literal() string {
	if g.r.Intn(2) == 0 {
		return g.atom()
	}
	return g.literalVector()
}

func (g *dialectGen) literalVector() string {
	xs := make([]string, dialectLen)
	for i := range xs {
		xs[i] = g.atom()
	}
	return "[" + strings.Join(xs, " ") + "]"
}

// binary is a binary primitive that takes the program's atoms, or
// sometimes a vector of dialectLen of them (MIMD: each cell applies its
// own, which the compile path defunctionalises).
func (g *dialectGen) binary() string {
	if g.r.Intn(8) == 0 {
		fs := make([]string, dialectLen)
		for i := range fs {
			fs[i] = g.primitive()
		}
		return "[" + strings.Join(fs, " ") + "]"
	}
	return g.primitive()
}

// primitive is a binary primitive that takes the program's atoms.
func (g *dialectGen) primitive() string {
	if g.mode == dialectIntsOnly && g.r.Intn(5) == 0 {
		return g.pick(dialectIntOnly)
	}
	return g.pick(dialectArith)
}

// unary is a unary function.
func (g *dialectGen) unary() string {
	if g.mode != dialectIntsOnly && g.r.Intn(2) == 0 {
		return g.pick(dialectFloatFn)
	}
	return g.pick(dialectUnary)
}

// vector is an expression that is always a vector of dialectLen atoms.
func (g *dialectGen) vector(depth int) string {
	if depth > 0 && g.r.Intn(4) == 0 {
		v := g.literalVector()
		switch g.r.Intn(8) {
		case 0:
			return fmt.Sprintf("(take %d (append %s %s))", dialectLen, v, g.vector(depth-1))
		case 1:
			return fmt.Sprintf("(drop %d (append %s %s))", dialectLen, g.vector(depth-1), v)
		case 2:
			return fmt.Sprintf("(rotate (reverse %s) %s)", g.vector(depth-1), g.count())
		case 3:
			// reshape cycles through the kept items (stuck if none).
			return fmt.Sprintf("(reshape [%d] (filter (%s %s %s) %s))", dialectLen, g.pick(dialectCompareAll), v, g.atom(), v)
		case 4:
			// A fold whose accumulator grows: carried in a box.
			return fmt.Sprintf("(fold (λ ((acc 1) (x 0)) (append acc [(%s x 1)])) (array [0]) %s)", g.binary(), g.vector(depth-1))
		case 5:
			return fmt.Sprintf("(unbox b (box %s) (%s b %s))", g.vector(depth-1), g.binary(), g.expr(depth-1))
		case 6:
			// A curried λ, applied later.
			return fmt.Sprintf("(((λ ((x 0)) (λ ((y 0)) (%s x y))) %s) %s)", g.binary(), v, g.expr(depth-1))
		}
		return fmt.Sprintf("(behead (append [%s] %s))", g.atom(), g.vector(depth-1))
	}
	switch g.r.Intn(4) {
	case 0:
		if g.mode == dialectIntsOnly {
			return fmt.Sprintf("(+ %s (iota [%d]))", g.atom(), dialectLen)
		}
	case 1:
		return fmt.Sprintf("(%s %s %s)", g.binary(), g.literalVector(), g.expr(depth-1))
	}
	return g.literalVector()
}

// expr is a scalar or a vector.
func (g *dialectGen) expr(depth int) string {
	if depth <= 0 {
		return g.literal()
	}
	switch g.r.Intn(10) {
	case 8:
		switch g.r.Intn(5) {
		case 0:
			// reduce over a number of items known only at run time, the
			// operator not always associative (the tree).
			return fmt.Sprintf("(reduce %s %s (filter (%s %s %s) %s))", g.pick(dialectFold), g.atom(), g.pick(dialectCompareAll), g.literalVector(), g.atom(), g.vector(depth-1))
		case 1:
			return fmt.Sprintf("((λ ((n 0)) (reduce %s %s (iota [n]))) %s)", g.pick(dialectFold), g.atom(), g.count())
		case 2:
			if g.mode == dialectIntsOnly {
				// Exact division: a rational.
				return fmt.Sprintf("(/ %s %s)", g.expr(depth-1), g.expr(depth-1))
			}
			return fmt.Sprintf("(/ %s %s)", g.expr(depth-1), g.pick(dialectFloats))
		case 3:
			return fmt.Sprintf("(length (filter (%s %s %s) %s))", g.pick(dialectCompareAll), g.literalVector(), g.atom(), g.vector(depth-1))
		}
		return fmt.Sprintf("(tail %s)", g.vector(depth-1))
	case 9:
		// The library's tree reduce of any operator.
		return fmt.Sprintf("(reduce %s %s %s)", g.pick(dialectFold), g.atom(), g.vector(depth-1))
	case 0, 1, 2:
		return fmt.Sprintf("(%s %s %s)", g.binary(), g.expr(depth-1), g.expr(depth-1))
	case 3:
		return fmt.Sprintf("(%s %s)", g.unary(), g.expr(depth-1))
	case 4:
		return fmt.Sprintf("(reduce %s %s %s)", g.pick(dialectAssoc), g.atom(), g.vector(depth-1))
	case 5:
		return fmt.Sprintf("(fold %s %s %s)", g.pick(dialectFold), g.atom(), g.vector(depth-1))
	case 6:
		if g.r.Intn(3) == 0 {
			// §2.1's lerp: exact and float numbers meet in * and +.
			return fmt.Sprintf("((λ ((lo 0) (hi 0) (a 0)) (+ (* lo (- 1 a)) (* hi a))) %s %s %s)", g.expr(depth-1), g.expr(depth-1), g.pick(dialectFloats))
		}
		return fmt.Sprintf("((λ ((x 0) (y 0)) (%s x (%s y x))) %s %s)", g.binary(), g.binary(), g.expr(depth-1), g.expr(depth-1))
	}
	x := g.expr(depth - 1)
	return fmt.Sprintf("(if (%s %s %s) %s %s)", g.pick(dialectCompareAll), x, g.atom(), g.expr(depth-1), x)
}
