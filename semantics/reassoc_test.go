package semantics

import (
	"math"
	"testing"
)

func TestCloseFloats(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want bool
	}{
		{1, 1, true},
		{0, math.Copysign(0, -1), true},
		{100, 99.9999999999986, true},                  // 1.4e-14 apart, relatively
		{100000.00000133288, 100000.00000000003, true}, // a million 0.1s, in order and as a tree
		{1, 1 + 2e-9, false},
		{1, 0, false},
		{math.NaN(), math.NaN(), true},
		{math.Inf(1), math.Inf(1), true},
		{math.Inf(1), math.Inf(-1), false},
		{math.Inf(1), math.MaxFloat64, false},
		{math.NaN(), 1, false},
	} {
		if got := CloseFloats(c.a, c.b); got != c.want {
			t.Errorf("CloseFloats(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestCloseLines(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"99.9999999999986", "100.0", true},
		{"[1.5 99.9999999999986]", "[1.5 100.0]", true},
		{"(box (3) [1.0 2.0 3.0000000000001])", "(box (3) [1.0 2.0 3.0])", true},
		{"+nan.0", "+nan.0", true},
		{"+inf.0", "1e+308", false},
		{"[1 2]", "[1 3]", false},             // ints compare exactly
		{"100", "100.0", false},               // an int is no float
		{"[1.0 2.0]", "[1.0 2.0 3.0]", false}, // shapes
		{`"a1.5"`, `"a1.50000000001"`, false}, // strings compare exactly
		{`#\a`, `#\b`, false},
		{"#t", "#f", false},
		{"[[1.0 2.0] [3.0 4.0]]", "[[1.0 2.0] [3.0 4.000000000001]]", true},
	} {
		if got := CloseLines([]string{c.a}, []string{c.b}); got != c.want {
			t.Errorf("CloseLines(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if CloseLines([]string{"1.0"}, []string{"1.0", "2.0"}) {
		t.Error("CloseLines of 1 and 2 lines is true")
	}
}

func TestCloseArrays(t *testing.T) {
	f := func(xs ...float64) Array {
		a := Array{Elem: FloatElem, Shape: []int64{int64(len(xs))}, Data: make([]int64, len(xs))}
		for i, x := range xs {
			a.Data[i] = int64(math.Float64bits(x))
		}
		return a
	}
	if !CloseArrays(f(1, 99.9999999999986), f(1, 100)) {
		t.Error("close floats differ")
	}
	if CloseArrays(f(1, 99), f(1, 100)) {
		t.Error("far floats agree")
	}
	ints := Array{Elem: IntElem, Shape: []int64{1}, Data: []int64{100}}
	ints2 := Array{Elem: IntElem, Shape: []int64{1}, Data: []int64{101}}
	if CloseArrays(ints, ints2) {
		t.Error("different ints agree")
	}
}
