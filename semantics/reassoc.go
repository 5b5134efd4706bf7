package semantics

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Float re-association. A parallel reduction or scan re-associates its
// operator: on a GPU a sum of n floats is a tree of partial sums, not
// the interpreter's left fold ((x1 + x2) + x3) + …, and float + and * are
// associative only up to rounding, so the two differ in the last bits.
// Every GPU compiler re-associates reductions so; the compiled levels do
// too (FUN's reduce and scan may be re-associated, and Lower gives them
// the float +. and *. of Remora), and the comparisons of the levels
// (side-by-side, test --levels, gpu-check) accept a float result that
// differs from the interpreter's within FloatReassociationBound, saying
// so ("agree (float re-association)") — but only for a run whose program
// re-associates a float fold (fun.ReassociatesFloats,
// imp.ReassociatesFloats); every other run, and every other part of a
// result (ints, booleans, characters, shapes, the printed text around
// the floats), compares exactly. --exact-floats compares floats exactly
// too.

// FloatReassociationBound is the relative difference |a - b| ≤ bound ×
// max(|a|, |b|) within which two floats are taken to differ only by
// re-association. A sum of n floats of one sign folded left to right is
// within (n-1)·2^-53 of the exact sum, relatively, a tree of them within
// about log2(n)·2^-53: for n = 10^6 items the left fold may be off by
// 1.1e-10 (a million 0.1s sum to 100000.00000133288 in order, to
// 100000.00000000003 as a tree: 1.3e-11 apart), for 10^7 by 1.1e-9. The
// bound covers folds of up to about 10^7 items; a sum whose terms cancel
// can differ by more, relatively, and is then reported as a
// disagreement.
const FloatReassociationBound = 1e-9

// FloatReassociationWithin says the bound in words.
const FloatReassociationWithin = "a relative 1e-9"

// CloseFloats reports whether two floats are equal (0.0 and -0.0 alike),
// both NaN, or within FloatReassociationBound of each other.
func CloseFloats(a, b float64) bool {
	if a == b || math.IsNaN(a) && math.IsNaN(b) {
		return true
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsNaN(a) || math.IsNaN(b) {
		return false
	}
	return math.Abs(a-b) <= FloatReassociationBound*math.Max(math.Abs(a), math.Abs(b))
}

// CloseArrays reports whether a and b have one element type and shape,
// equal ints, and floats that are CloseFloats.
func CloseArrays(a, b Array) bool {
	if a.Elem != b.Elem || !SameShape(a.Shape, b.Shape) || len(a.Data) != len(b.Data) {
		return false
	}
	for i := range a.Data {
		if a.Data[i] == b.Data[i] {
			continue
		}
		if a.Elem != FloatElem || !CloseFloats(math.Float64frombits(uint64(a.Data[i])), math.Float64frombits(uint64(b.Data[i]))) {
			return false
		}
	}
	return true
}

// CloseLines reports whether two printed results are the same text but
// for float literals that are CloseFloats: the lines are cut into
// tokens (brackets and parentheses, strings, characters, and what spaces
// separate), which must be equal, or both floats (a literal with a
// fraction or an exponent, or an infinity or NaN, as Go or Racket print
// them) close to each other.
func CloseLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ta, tb := resultTokens(a[i]), resultTokens(b[i])
		if len(ta) != len(tb) {
			return false
		}
		for j := range ta {
			if ta[j] == tb[j] {
				continue
			}
			x, okx := floatToken(ta[j])
			y, oky := floatToken(tb[j])
			if !okx || !oky || !CloseFloats(x, y) {
				return false
			}
		}
	}
	return true
}

// resultTokens cuts a printed result into tokens: each bracket and
// parenthesis, a string "…" (with its escapes), a character #\c, and the
// runs of other characters between spaces.
func resultTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '[' || c == ']' || c == '(' || c == ')':
			out = append(out, s[i:i+1])
			i++
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			out = append(out, s[i:j])
			i = j
		case strings.HasPrefix(s[i:], `#\`):
			// The character itself, then letters (#\space, #\newline).
			j := i + 2
			if j < len(s) {
				_, n := utf8.DecodeRuneInString(s[j:])
				j += n
			}
			for j < len(s) && (s[j] >= 'a' && s[j] <= 'z') {
				j++
			}
			out = append(out, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t[]()", rune(s[j])) {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

// floatToken reads a float literal as the levels print one: Go's (1.5,
// 1e+21, +Inf, NaN) or Racket's (+inf.0, -inf.0, +nan.0). An int (no
// fraction, no exponent) is not one.
func floatToken(t string) (float64, bool) {
	switch t {
	case "+inf.0", "+Inf", "Inf":
		return math.Inf(1), true
	case "-inf.0", "-Inf":
		return math.Inf(-1), true
	case "+nan.0", "-nan.0", "NaN":
		return math.NaN(), true
	}
	if !strings.ContainsAny(t, ".eE") {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	return f, err == nil
}
