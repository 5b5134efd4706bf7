package remora

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func ints(shape []int64, xs ...int64) *Value {
	v := NewValue(KInt, shape, len(xs))
	copy(v.I, xs)
	return v
}

func floats(shape []int64, xs ...float64) *Value {
	v := NewValue(KFloat, shape, len(xs))
	copy(v.F, xs)
	return v
}

func bools(shape []int64, xs ...bool) *Value {
	v := NewValue(KBool, shape, len(xs))
	for i, b := range xs {
		v.I[i] = b2i(b)
	}
	return v
}

func sigmaInt() *Sigma {
	return &Sigma{Vars: []string{"d"}, Body: &Arr{Elem: Int, Shape: Shape{{Dim: NatVar("d")}}}}
}

func box(n int64, val *Value, t *Sigma) *Value {
	return AtomScalar(KBox, &Box{Indices: []Index{NatIndex(NatConst(n))}, Val: val, Type: t})
}

// TestValueString checks how values print: ints, floats in Go's shortest
// form with Racket's infinities and NaN, #t and #f, characters, char
// vectors as strings, nested and empty arrays, boxes and functions.
func TestValueString(t *testing.T) {
	for _, tc := range []struct {
		v    *Value
		want string
	}{
		{IntScalar(42), "42"},
		{IntScalar(-7), "-7"},
		{IntScalar(math.MinInt64), "-9223372036854775808"},
		{FloatScalar(1.5), "1.5"},
		{FloatScalar(1), "1.0"},
		{FloatScalar(0.1), "0.1"},
		{FloatScalar(1.0 / 3), "0.3333333333333333"},
		{FloatScalar(100000), "100000.0"},
		{FloatScalar(1e6), "1e+06"},
		{FloatScalar(1234567), "1.234567e+06"},
		{FloatScalar(0.0001), "0.0001"},
		{FloatScalar(0.00001), "1e-05"},
		{FloatScalar(1e300), "1e+300"},
		{FloatScalar(math.Copysign(0, -1)), "-0.0"},
		{FloatScalar(math.Inf(1)), "+inf.0"},
		{FloatScalar(math.Inf(-1)), "-inf.0"},
		{FloatScalar(math.NaN()), "+nan.0"},
		{BoolScalar(true), "#t"},
		{BoolScalar(false), "#f"},
		{CharScalar('a'), `#\a`},
		{CharScalar('λ'), `#\λ`},
		{CharScalar(' '), `#\space`},
		{CharScalar('\n'), `#\newline`},
		{CharScalar('\t'), `#\tab`},
		{CharScalar(0), `#\nul`},
		{CharScalar(0x7f), `#\delete`},
		{CharScalar(1), `#\u0001`},
		{StringValue("hey"), `"hey"`},
		{StringValue(`say "hi"\`), `"say \"hi\"\\"`},
		{StringValue("a\nb\tc"), `"a\nb\tc"`},
		{StringValue("λ→∀"), `"λ→∀"`},
		{Stack([]int64{2}, []int64{2}, KChar, []*Value{StringValue("ab"), StringValue("cd")}), `["ab" "cd"]`},
		{ints([]int64{3}, 1, 2, 3), "[1 2 3]"},
		{ints([]int64{2, 2}, 1, 2, 3, 4), "[[1 2] [3 4]]"},
		{ints([]int64{2, 1, 2}, 1, 2, 3, 4), "[[[1 2]] [[3 4]]]"},
		{floats([]int64{3}, 1, 2.5, math.Inf(1)), "[1.0 2.5 +inf.0]"},
		{bools([]int64{2}, true, false), "[#t #f]"},
		{ints([]int64{0}), "[]"},
		{ints([]int64{2, 0}), "[[] []]"},
		{ints([]int64{0, 2}), "[]"},
		{ints([]int64{2, 2, 0}), "[[[] []] [[] []]]"},
		{NewValue(KChar, []int64{0}, 0), "[]"},
		{box(3, ints([]int64{3}, 1, 2, 3), sigmaInt()), "(box (3) [1 2 3])"},
		{box(0, ints([]int64{0}), sigmaInt()), "(box (0) [])"},
		{Stack([]int64{2}, nil, KBox, []*Value{box(1, ints([]int64{1}, 5), sigmaInt()), box(2, ints([]int64{2}, 6, 7), sigmaInt())}), "[(box (1) [5]) (box (2) [6 7])]"},
		{AtomScalar(KFunc, &Func{Prim: Basis["+"]}), "+"},
		{AtomScalar(KFunc, &Func{Prim: Basis["reduce"], Types: []Type{Int}, Indices: []Index{NatIndex(NatConst(2)), ShapeIndex(nil), ShapeIndex(nil)}}), "reduce{int | 2 [] []}"},
		{AtomScalar(KFunc, &Func{Prim: Basis["iota"], Indices: []Index{ShapeIndex(Dims(2, 3))}}), "iota{ | [2 3]}"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%#v prints %s, want %s", tc.v, got, tc.want)
		}
	}
}

// TestValueTermString checks the term form of values: a float always has a
// point or an exponent, and a box says its type.
func TestValueTermString(t *testing.T) {
	for _, tc := range []struct {
		v    *Value
		want string
	}{
		{IntScalar(42), "42"},
		{FloatScalar(1), "1.0"},
		{FloatScalar(1.5), "1.5"},
		{FloatScalar(math.Copysign(0, -1)), "-0.0"},
		{FloatScalar(1e6), "1e+06"},
		{FloatScalar(math.Inf(1)), "+inf.0"},
		{FloatScalar(math.NaN()), "+nan.0"},
		{floats([]int64{2, 2}, 1, 2, 3, 4.5), "[[1.0 2.0] [3.0 4.5]]"},
		{BoolScalar(true), "#t"},
		{StringValue("hey"), `"hey"`},
		{box(3, ints([]int64{3}, 1, 2, 3), sigmaInt()), "(box (3) (Sigma (d) [int d]) [1 2 3])"},
	} {
		if got := tc.v.TermString(); got != tc.want {
			t.Errorf("%s: TermString %s, want %s", tc.v, got, tc.want)
		}
	}
}

// readBack reads a value's term form and evaluates it.
func readBack(t *testing.T, v *Value) (*Value, error) {
	t.Helper()
	e, err := ParseExpr("term", v.TermString())
	if err != nil {
		return nil, err
	}
	ce, _, _, err := CheckExpr(e, nil)
	if err != nil {
		return nil, err
	}
	return EvalExpr(ce, nil)
}

// TestValueTermRoundTrip checks that TermString reads back, through the
// parser, the checker and the big-step, as the same value printing the
// same.
func TestValueTermRoundTrip(t *testing.T) {
	for _, v := range []*Value{
		IntScalar(0), IntScalar(-7), IntScalar(math.MaxInt64), IntScalar(math.MinInt64),
		FloatScalar(1), FloatScalar(-2.5), FloatScalar(0.1), FloatScalar(1.0 / 3), FloatScalar(1e6),
		FloatScalar(1e-7), FloatScalar(1e300), FloatScalar(math.MaxFloat64), FloatScalar(5e-324),
		FloatScalar(math.Copysign(0, -1)), FloatScalar(math.Inf(1)), FloatScalar(math.Inf(-1)), FloatScalar(math.NaN()),
		BoolScalar(true), BoolScalar(false),
		CharScalar('a'), CharScalar('λ'), CharScalar(' '), CharScalar('\n'), CharScalar('\t'), CharScalar('\r'),
		CharScalar(0), CharScalar(0x7f), CharScalar(1), CharScalar('('), CharScalar(')'), CharScalar('['),
		CharScalar(';'), CharScalar('"'), CharScalar('\\'), CharScalar('|'), CharScalar('#'), CharScalar('{'), CharScalar('u'),
		StringValue("hey"), StringValue(`say "hi"\`), StringValue("a\nb\tc\r"), StringValue("λ→∀"), StringValue("(;[|])"),
		StringValue("\x01"), StringValue("\x01g"),
		ints([]int64{3}, 1, 2, 3), ints([]int64{2, 3}, 1, 2, 3, 4, 5, 6), ints([]int64{1, 1, 1}, 9),
		floats([]int64{3}, 1, 2.5, math.Inf(-1)), bools([]int64{2, 1}, true, false),
		Stack([]int64{2}, []int64{2}, KChar, []*Value{StringValue("ab"), StringValue("cd")}),
		box(3, ints([]int64{3}, 1, 2, 3), sigmaInt()),
		Stack([]int64{2}, nil, KBox, []*Value{box(1, ints([]int64{1}, 5), sigmaInt()), box(2, ints([]int64{2}, 6, 7), sigmaInt())}),
	} {
		t.Run(v.TermString(), func(t *testing.T) {
			w, err := readBack(t, v)
			if err != nil {
				t.Fatalf("%s does not read back: %v", v.TermString(), err)
			}
			if !w.Equal(v) || w.String() != v.String() || w.TermString() != v.TermString() {
				t.Errorf("%s reads back as %s", v.TermString(), w.TermString())
			}
		})
	}
}

// TestValueTermRoundTripBugs pins values whose term form does not read
// back as the same value.
// TestValueTermRoundTripEdges checks TermString's edge cases: a control
// character before a hex digit, empty arrays of every shape, and a box of
// empty contents read back as the same value.
func TestValueTermRoundTripEdges(t *testing.T) {
	for _, v := range []*Value{
		StringValue("\x01ab"),
		StringValue("\x011"),
		StringValue("\U0001F600x\U00010001"),
		ints([]int64{0}),
		NewValue(KChar, []int64{0}, 0),
		box(0, ints([]int64{0}), sigmaInt()),
		floats([]int64{2, 0}),
	} {
		t.Run(v.String(), func(t *testing.T) {
			w, err := readBack(t, v)
			if err == nil && (!w.Equal(v) || w.String() != v.String() || w.TermString() != v.TermString()) {
				err = fmt.Errorf("%s reads back as %s", v.TermString(), w.TermString())
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
}

// TestExprStringLiterals checks ExprString on literal terms: an empty
// array says its shape and atom type, so that it reads back.
func TestExprStringLiterals(t *testing.T) {
	for _, tc := range []struct {
		v    *Value
		want string
	}{
		{ints([]int64{0}), "(frame [0] int)"},
		{floats([]int64{2, 0}), "(frame [2 0] float)"},
		{NewValue(KBool, []int64{0, 3}, 0), "(frame [0 3] bool)"},
		{NewValue(KChar, []int64{0}, 0), "(frame [0] char)"},
		{ints([]int64{2}, 1, 2), "[1 2]"},
		{FloatScalar(2), "2.0"},
	} {
		e := &Lit{V: tc.v}
		got := ExprString(e)
		if got != tc.want {
			t.Errorf("%s: ExprString %s, want %s", tc.v, got, tc.want)
			continue
		}
		back, err := ParseExpr("x", got)
		if err != nil {
			t.Errorf("%s does not parse: %v", got, err)
			continue
		}
		ce, _, _, err := CheckExpr(back, nil)
		if err != nil {
			t.Errorf("%s does not check: %v", got, err)
			continue
		}
		w, err := EvalExpr(ce, nil)
		if err != nil || !w.Equal(tc.v) || !slices.Equal(w.Shape, tc.v.Shape) || (tc.v.Len() > 0 && w.Kind != tc.v.Kind) {
			t.Errorf("%s evaluates to %v (%v), want %s", got, w, err, tc.v)
		}
	}
}

// TestValueEqual checks Value.Equal: shapes and atoms, NaN equal to
// itself, empty arrays of one shape equal whatever their kind.
func TestValueEqual(t *testing.T) {
	nan := FloatScalar(math.NaN())
	for _, tc := range []struct {
		a, b *Value
		eq   bool
	}{
		{IntScalar(1), IntScalar(1), true},
		{IntScalar(1), IntScalar(2), false},
		{IntScalar(1), BoolScalar(true), false},
		{nan, FloatScalar(math.NaN()), true},
		{FloatScalar(0), FloatScalar(math.Copysign(0, -1)), true},
		{ints([]int64{2, 2}, 1, 2, 3, 4), ints([]int64{4}, 1, 2, 3, 4), false},
		{ints([]int64{0}), floats([]int64{0}), true},
		{ints([]int64{0}), ints([]int64{0, 0}), false},
		{box(1, ints([]int64{1}, 5), sigmaInt()), box(1, ints([]int64{1}, 5), sigmaInt()), true},
		{box(1, ints([]int64{1}, 5), sigmaInt()), box(1, ints([]int64{1}, 6), sigmaInt()), false},
		{StringValue("ab"), StringValue("ab"), true},
	} {
		if got := tc.a.Equal(tc.b); got != tc.eq {
			t.Errorf("%s.Equal(%s) = %v, want %v", tc.a, tc.b, got, tc.eq)
		}
	}
}
