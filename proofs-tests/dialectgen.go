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
// only over ints), dialectCompare the comparisons (an if's condition),
// dialectUnary the unary functions (the transcendental ones only over
// floats: of an exact integer they are exact at special points, which
// the compile path refuses), dialectAssoc the operators reduce takes (the
// dialect reduces tree-shaped), dialectFold those fold takes.
var (
	dialectArith   = []string{"+", "-", "*", "max", "min", "+", "*", "-"}
	dialectIntOnly = []string{"quotient", "remainder"}
	dialectCompare = []string{"<", "<=", ">", ">=", "="}
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
		if r.Intn(5) == 0 {
			// A scan's result is one item longer than its argument, so
			// it is only a whole expression.
			fmt.Fprintf(&b, "(scan %s %s %s)\n", g.pick(dialectFold), g.atom(), g.vector(size/3))
			continue
		}
		b.WriteString(g.expr(1 + size/3))
		b.WriteByte('\n')
	}
	return b.String()
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
	switch g.r.Intn(8) {
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
	return fmt.Sprintf("(if (%s %s %s) %s %s)", g.pick(dialectCompare), x, g.atom(), g.expr(depth-1), x)
}
