package semantics

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// negNaN is a NaN with the sign bit and a payload, as amd64's 0.0/0.0 gives
// and unlike math.NaN(): a value must not depend on which NaN a platform
// produces.
var negNaN = math.Float64frombits(0xFFF8000000000123)

func TestFormatFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{3, "3.0"},
		{0.5, "0.5"},
		{100, "100.0"},
		{-7, "-7.0"},
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{1e21, "1e+21"},
		{1e20, "1e+20"},
		{1e-7, "1e-07"},
		{1234567, "1.234567e+06"},
		{0.1, "0.1"},
		{2.5e-3, "0.0025"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e+308"},
		{math.NaN(), "NaN"},
		{negNaN, "NaN"},
		{math.Inf(1), "+Inf"},
		{math.Inf(-1), "-Inf"},
	} {
		if got := FormatFloat(tc.f); got != tc.want {
			t.Errorf("FormatFloat(%v) = %q, want %q", tc.f, got, tc.want)
		}
		if got := FloatScalar(tc.f).String(); got != tc.want {
			t.Errorf("FloatScalar(%v).String() = %q, want %q", tc.f, got, tc.want)
		}
		if got := FloatNum(tc.f).String(); got != tc.want {
			t.Errorf("FloatNum(%v).String() = %q, want %q", tc.f, got, tc.want)
		}
	}
	if got := IntNum(-42).String(); got != "-42" {
		t.Errorf("IntNum(-42).String() = %q", got)
	}
}

func TestFloatArrayFormat(t *testing.T) {
	m, err := NestOf(FloatElem, []int64{FloatBits(1), FloatBits(0.5), FloatBits(0), FloatBits(math.Inf(1))}, []int64{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.String(); got != "[[1.0 0.5] [0.0 +Inf]]" {
		t.Errorf("String = %q", got)
	}
	flat := make([]int64, 100)
	for i := range flat {
		flat[i] = FloatBits(float64(i + 1))
	}
	v, _ := NestOf(FloatElem, flat, []int64{100})
	if got := v.Abbrev(3); got != "[1.0 2.0 3.0 … 100.0]" {
		t.Errorf("Abbrev = %q", got)
	}
	if got := (Array{Elem: FloatElem, Shape: []int64{0}}).String(); got != "[]" {
		t.Errorf("empty float array prints %q", got)
	}
}

func TestParseFloatValues(t *testing.T) {
	for _, tc := range []struct{ in, out, err string }{
		{in: "1.5", out: "1.5"},
		{in: "3.0", out: "3.0"},
		{in: "1e3", out: "1000.0"},
		{in: "1E3", out: "1000.0"},
		{in: "-2.5e-3", out: "-0.0025"},
		{in: "+0.5", out: "0.5"},
		{in: "-0.0", out: "-0.0"},
		{in: "1e+21", out: "1e+21"},
		{in: "1e-400", out: "0.0"}, // underflow rounds
		{in: "NaN", out: "NaN"},
		{in: "+Inf", out: "+Inf"},
		{in: "-Inf", out: "-Inf"},
		{in: "Inf", out: "+Inf"},
		{in: "[1.5 2.0]", out: "[1.5 2.0]"},
		{in: "[1.5, 2e0, NaN]", out: "[1.5 2.0 NaN]"},
		{in: "[[1.5 -1.0] [0.25 1e100]]", out: "[[1.5 -1.0] [0.25 1e+100]]"},
		{in: "[1 2.5]", err: "mixes int and float"},
		{in: "[2.5 1]", err: "mixes int and float"},
		{in: "[[1] [2.5]]", err: "mixes int and float"},
		{in: "[[1.5] [2.5 3.5]]", err: "irregular"},
		{in: "1e400", err: `bad float "1e400": value out of range`},
		{in: "-NaN", err: "expected a number"},
		{in: "3.", err: `unexpected "."`},
		{in: ".5", err: "expected a number"},
		{in: "1e", err: `unexpected "e"`},
		{in: "1.5.3", err: `unexpected ".3"`},
	} {
		v, err := ParseValue(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseValue(%q) = %v; want error containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || v.String() != tc.out || v.Elem != FloatElem {
			t.Errorf("ParseValue(%q) = %v (%v), %v; want the float value %s", tc.in, v, v.Elem, err, tc.out)
		}
	}
	for _, in := range []string{"[]", "[[] []]", "42", "[1 2]"} {
		if v := mustValue(t, in); v.Elem != IntElem {
			t.Errorf("ParseValue(%q) has %v elements, want int", in, v.Elem)
		}
	}
}

// TestFloatRoundTrip: printing a float value and reading it back gives an
// Equal value (the shortest form reads back exactly), for special values
// and for random bit patterns.
func TestFloatRoundTrip(t *testing.T) {
	fs := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e21, 1e-7, 5e-324, math.MaxFloat64,
		-math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), negNaN, math.Inf(1), math.Inf(-1), 1 << 53, 1<<53 + 2}
	r := rand.New(rand.NewSource(14))
	for i := 0; i < 2000; i++ {
		fs = append(fs, math.Float64frombits(r.Uint64()))
	}
	for _, f := range fs {
		v := FloatScalar(f)
		w, err := ParseValue(v.String())
		if err != nil || !Equal(v, w) {
			t.Fatalf("%v (bits %#x) prints %s, which reads back as %v, %v", f, math.Float64bits(f), v, w, err)
		}
	}
	flat := make([]int64, 6)
	for i := range flat {
		flat[i] = FloatBits(fs[len(fs)-1-i])
	}
	a, _ := NestOf(FloatElem, flat, []int64{2, 3})
	if b, err := ParseValue(a.String()); err != nil || !Equal(a, b) {
		t.Errorf("%s reads back as %v, %v", a, b, err)
	}
}

func TestScanNumber(t *testing.T) {
	for _, tc := range []struct {
		in      string
		n       int
		isFloat bool
	}{
		{"42", 2, false},
		{"42+x", 2, false},
		{"1.5", 3, true},
		{"3.0)", 3, true},
		{"1e3", 3, true},
		{"2.5e-3 ", 6, true},
		{"2.5E+10", 7, true},
		{"3.", 1, false},
		{"3.x", 1, false},
		{"1e", 1, false},
		{"1e+", 1, false},
		{"1else", 1, false},
		{"x", 0, false},
		{"-1", 0, false}, // the sign is an operator to the scanners
		{"", 0, false},
	} {
		n, f := ScanNumber(tc.in)
		if n != tc.n || f != tc.isFloat {
			t.Errorf("ScanNumber(%q) = %d, %v; want %d, %v", tc.in, n, f, tc.n, tc.isFloat)
		}
	}
}

// TestFloatEqual pins Equal's reading of floats: by bits, any NaN equal to
// any NaN, 0.0 unequal to -0.0, and never an int array equal to a float one.
func TestFloatEqual(t *testing.T) {
	nan1 := Array{Elem: FloatElem, Data: []int64{int64(math.Float64bits(math.NaN()))}}
	nan2 := Array{Elem: FloatElem, Data: []int64{int64(math.Float64bits(negNaN))}}
	for _, tc := range []struct {
		a, b Array
		want bool
		diff string
	}{
		{FloatScalar(1.5), FloatScalar(1.5), true, ""},
		{nan1, nan2, true, ""},
		{FloatScalar(0), FloatScalar(math.Copysign(0, -1)), false, "element (the scalar) differs: 0.0 and -0.0"},
		{Scalar(0), FloatScalar(0), false, "element types differ: int and float"},
		{Scalar(int64(math.Float64bits(2))), FloatScalar(2), false, "element types differ: int and float"},
		{Array{Shape: []int64{0}}, Array{Elem: FloatElem, Shape: []int64{0}}, false, "element types differ: int and float"},
		{mustValue(t, "[1.5 2.5]"), mustValue(t, "[1.5 3.5]"), false, "element [2] differs: 2.5 and 3.5"},
		{mustValue(t, "[1.5 NaN]"), mustValue(t, "[1.5 2.5]"), false, "element [2] differs: NaN and 2.5"},
	} {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%v, %v) = %v", tc.a, tc.b, got)
		}
		if got := FirstDifference(tc.a, tc.b); got != tc.diff {
			t.Errorf("FirstDifference(%v, %v) = %q, want %q", tc.a, tc.b, got, tc.diff)
		}
	}
	if d := Compare(Scalar(1), FloatScalar(1), "big", "small"); d != "element types differ: big int, small float" {
		t.Errorf("Compare = %q", d)
	}
	if d := Compare(mustValue(t, "[1.0 2.0]"), mustValue(t, "[1.0 -2.0]"), "big", "small"); d != "element [2]: big 2.0, small -2.0" {
		t.Errorf("Compare = %q", d)
	}
}

// TestCanonicalNaN: every NaN a float value holds is one word, whichever
// NaN the hardware produced.
func TestCanonicalNaN(t *testing.T) {
	zero := 0.0
	for _, f := range []float64{math.NaN(), negNaN, zero / zero, math.Inf(1) - math.Inf(1)} {
		if FloatBits(f) != canonicalNaN || FloatScalar(f).Data[0] != canonicalNaN || FloatNum(f).Bits != canonicalNaN {
			t.Errorf("NaN %#x is stored as %#x", math.Float64bits(f), FloatBits(f))
		}
	}
	if n := UnaryNum(Neg, FloatNum(math.NaN())); n.Bits != canonicalNaN {
		t.Errorf("-NaN is stored as %#x", n.Bits)
	}
	if !isNaNBits(canonicalNaN) || isNaNBits(FloatBits(math.Inf(1))) || isNaNBits(FloatBits(1)) {
		t.Error("isNaNBits")
	}
	if FloatFromBits(FloatBits(-2.5)) != -2.5 {
		t.Error("FloatFromBits does not invert FloatBits")
	}
}

func TestBinaryFloat(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	negZero := math.Copysign(0, -1)
	fl := func(f float64) Num { return FloatNum(f) }
	for _, tc := range []struct {
		op   Op
		a, b float64
		want Num
		err  string
	}{
		{Add, 1.5, 2.25, fl(3.75), ""},
		{Add, 0.1, 0.2, fl(0.30000000000000004), ""}, // rounds as IEEE does
		{Add, inf, -inf, fl(nan), ""},
		{Sub, 1, 3.5, fl(-2.5), ""},
		{Sub, 0, 0, fl(0), ""},
		{Mul, -2, 0, fl(negZero), ""},
		{Mul, 1e200, 1e200, fl(inf), ""},
		{Div, 1, 4, fl(0.25), ""},
		{Div, 1, 0, fl(inf), ""}, // not an error, unlike ints
		{Div, -1, 0, fl(-inf), ""},
		{Div, 0, 0, fl(nan), ""},
		{Div, 1, negZero, fl(-inf), ""},
		{Eq, 1.5, 1.5, IntNum(1), ""},
		{Eq, 0, negZero, IntNum(1), ""},
		{Eq, nan, nan, IntNum(0), ""}, // IEEE, unlike Equal
		{Ne, nan, nan, IntNum(1), ""},
		{Ne, 1, 2, IntNum(1), ""},
		{Lt, 1, 2, IntNum(1), ""},
		{Lt, nan, 2, IntNum(0), ""},
		{Le, 2, 2, IntNum(1), ""},
		{Le, 3, 2, IntNum(0), ""},
		{Gt, inf, math.MaxFloat64, IntNum(1), ""},
		{Gt, nan, 0, IntNum(0), ""},
		{Ge, 2, 2, IntNum(1), ""},
		{Ge, -inf, 0, IntNum(0), ""},
		{Mod, 5, 2, Num{}, "operator % is not defined on floats"},
		{And, 1, 1, Num{}, "operator && is not defined on floats"},
		{Or, 0, 1, Num{}, "operator || is not defined on floats"},
	} {
		got, err := BinaryFloat(tc.op, tc.a, tc.b)
		if tc.err != "" {
			var fe ErrFloatOp
			if err == nil || err.Error() != tc.err || !errors.As(err, &fe) || fe.Op != tc.op {
				t.Errorf("%v %v %v = %v, %v; want error %q", tc.a, tc.op, tc.b, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v %v %v = %v (%v), %v; want %v (%v)", tc.a, tc.op, tc.b, got, got.Elem, err, tc.want, tc.want.Elem)
		}
		// BinaryNum agrees on float operands.
		if n, err := BinaryNum(tc.op, FloatNum(tc.a), FloatNum(tc.b)); err != nil || n != tc.want {
			t.Errorf("BinaryNum(%v, %v, %v) = %v, %v", tc.op, tc.a, tc.b, n, err)
		}
	}
}

func TestBinaryNumAndUnaryNum(t *testing.T) {
	if n, err := BinaryNum(Add, IntNum(math.MaxInt64), IntNum(1)); err != nil || n != IntNum(math.MinInt64) {
		t.Errorf("int + wraps: %v, %v", n, err)
	}
	if n, err := BinaryNum(Lt, IntNum(1), IntNum(2)); err != nil || n != IntNum(1) {
		t.Errorf("int <: %v, %v", n, err)
	}
	if _, err := BinaryNum(Div, IntNum(1), IntNum(0)); !errors.As(err, new(ErrDivZero)) {
		t.Errorf("int / 0: %v", err)
	}
	_, err := BinaryNum(Add, IntNum(1), FloatNum(1))
	var ee ErrElem
	if !errors.As(err, &ee) || err.Error() != "operator + needs an int operand, not a float" {
		t.Errorf("int + float: %v", err)
	}
	if _, err := BinaryNum(Mul, FloatNum(1), IntNum(1)); err == nil {
		t.Error("float * int succeeded")
	}
	if n := UnaryNum(Neg, FloatNum(0)); n != FloatNum(math.Copysign(0, -1)) || n.String() != "-0.0" {
		t.Errorf("-0.0 = %v", n)
	}
	if n := UnaryNum(Neg, FloatNum(math.Inf(1))); n.Float() != math.Inf(-1) {
		t.Errorf("-Inf = %v", n)
	}
	if n := UnaryNum(Neg, IntNum(math.MinInt64)); n != IntNum(math.MinInt64) {
		t.Errorf("-MinInt64 = %v", n)
	}
}

func TestFuncTable(t *testing.T) {
	want := map[string][2]Elem{
		"sqrt": {FloatElem, FloatElem}, "exp": {FloatElem, FloatElem}, "log": {FloatElem, FloatElem},
		"sin": {FloatElem, FloatElem}, "cos": {FloatElem, FloatElem},
		"float": {IntElem, FloatElem}, "int": {FloatElem, IntElem},
	}
	if len(Funcs()) != len(want) {
		t.Errorf("%d functions, want %d", len(Funcs()), len(want))
	}
	for _, f := range Funcs() {
		w, ok := want[f.String()]
		if !ok {
			t.Errorf("unexpected function %v", f)
			continue
		}
		if f.Arg() != w[0] || f.Result() != w[1] {
			t.Errorf("%v : %v → %v, want %v → %v", f, f.Arg(), f.Result(), w[0], w[1])
		}
		if g, ok := LookupFunc(f.String()); !ok || g != f {
			t.Errorf("LookupFunc(%q) = %v, %v", f.String(), g, ok)
		}
	}
	if _, ok := LookupFunc("tan"); ok {
		t.Error("LookupFunc(tan) succeeded")
	}
	if s := Func(99).String(); s != "Func(99)" {
		t.Errorf("Func(99) = %q", s)
	}
	for name, e := range map[string]Elem{"int": IntElem, "float": FloatElem} {
		if g, ok := LookupElem(name); !ok || g != e || e.String() != name {
			t.Errorf("LookupElem(%q) = %v, %v", name, g, ok)
		}
	}
	if _, ok := LookupElem("bool"); ok {
		t.Error("LookupElem(bool) succeeded")
	}
}

func TestApplyFunc(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	fl := FloatNum
	for _, tc := range []struct {
		f    Func
		x    Num
		want Num
		err  string
	}{
		{Sqrt, fl(4), fl(2), ""},
		{Sqrt, fl(2), fl(math.Sqrt2), ""},
		{Sqrt, fl(-1), fl(nan), ""},
		{Sqrt, fl(math.Copysign(0, -1)), fl(math.Copysign(0, -1)), ""},
		{Sqrt, fl(inf), fl(inf), ""},
		{Exp, fl(0), fl(1), ""},
		{Exp, fl(1), fl(math.E), ""},
		{Exp, fl(-inf), fl(0), ""},
		{Exp, fl(1000), fl(inf), ""},
		{Log, fl(1), fl(0), ""},
		{Log, fl(math.E), fl(1), ""},
		{Log, fl(0), fl(-inf), ""},
		{Log, fl(-1), fl(nan), ""},
		{Sin, fl(0), fl(0), ""},
		{Sin, fl(math.Pi / 2), fl(1), ""},
		{Sin, fl(inf), fl(nan), ""},
		{Cos, fl(0), fl(1), ""},
		{Cos, fl(math.Pi), fl(-1), ""},
		{ToFloat, IntNum(3), fl(3), ""},
		{ToFloat, IntNum(-7), fl(-7), ""},
		{ToFloat, IntNum(1 << 53), fl(1 << 53), ""},
		{ToFloat, IntNum(1<<53 + 1), fl(1 << 53), ""}, // rounds to nearest even
		{ToFloat, IntNum(1<<53 + 3), fl(1<<53 + 4), ""},
		{ToFloat, IntNum(math.MaxInt64), fl(1 << 63), ""},
		{ToFloat, IntNum(math.MinInt64), fl(-(1 << 63)), ""},
		{ToInt, fl(2.9), IntNum(2), ""},
		{ToInt, fl(-2.9), IntNum(-2), ""}, // toward zero
		{ToInt, fl(-0.5), IntNum(0), ""},
		{ToInt, fl(math.Copysign(0, -1)), IntNum(0), ""},
		{ToInt, fl(1e18), IntNum(1e18), ""},
		{ToInt, fl(-(1 << 63)), IntNum(math.MinInt64), ""},
		{ToInt, fl(math.Nextafter(1<<63, 0)), IntNum(1<<63 - 1024), ""},
		{ToInt, fl(1 << 63), Num{}, "integer overflow: int(9.223372036854776e+18) does not fit in 64 bits"},
		{ToInt, fl(math.Nextafter(-(1 << 63), -inf)), Num{}, "integer overflow: int(-9.223372036854778e+18) does not fit in 64 bits"},
		{ToInt, fl(1e300), Num{}, "integer overflow: int(1e+300) does not fit in 64 bits"},
		{ToInt, fl(inf), Num{}, "integer overflow: int(+Inf) does not fit in 64 bits"},
		{ToInt, fl(-inf), Num{}, "integer overflow: int(-Inf) does not fit in 64 bits"},
		{ToInt, fl(nan), Num{}, "int(NaN): NaN has no int value"},
		{ToInt, fl(negNaN), Num{}, "int(NaN): NaN has no int value"},
		{Sqrt, IntNum(4), Num{}, "function sqrt needs a float operand, not an int"},
		{ToFloat, fl(1), Num{}, "function float needs an int operand, not a float"},
		{ToInt, IntNum(1), Num{}, "function int needs a float operand, not an int"},
	} {
		got, err := ApplyFunc(tc.f, tc.x)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%v(%v) = %v, %v; want error %q", tc.f, tc.x, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%v(%v) = %v, %v; want %v", tc.f, tc.x, got, err, tc.want)
		}
	}
	var ce ErrIntConversion
	if _, err := ApplyFunc(ToInt, FloatNum(math.NaN())); !errors.As(err, &ce) || !math.IsNaN(ce.Value) {
		t.Errorf("int(NaN) error %v is not an ErrIntConversion", err)
	}
	var ee ErrElem
	if _, err := ApplyFunc(Cos, IntNum(0)); !errors.As(err, &ee) || ee.Want != FloatElem || ee.Got != IntElem {
		t.Errorf("cos(0) error %v is not an ErrElem", err)
	}
}

// TestOperationsKeepElem: the functions that move elements carry the
// element type to their results.
func TestOperationsKeepElem(t *testing.T) {
	m := mustValue(t, "[[1.5 2.5 3.5] [4.5 5.5 6.5]]")
	check := func(what string, v Array, err error, want string) {
		t.Helper()
		if err != nil || v.Elem != FloatElem || v.String() != want {
			t.Errorf("%s = %v (%v elements), %v; want the float value %s", what, v, v.Elem, err, want)
		}
	}
	v, err := m.Index([]int64{2})
	check("Index([2])", v, err, "[4.5 5.5 6.5]")
	v, err = m.Index([]int64{1, 3})
	check("Index([1 3])", v, err, "3.5")
	if v.Float() != 3.5 || v.Num() != FloatNum(3.5) {
		t.Errorf("Float() = %v, Num() = %v", v.Float(), v.Num())
	}
	if m.At(4) != FloatNum(5.5) {
		t.Errorf("At(4) = %v", m.At(4))
	}
	v, err = m.Slice([][2]int64{{1, 2}, {2, 2}})
	check("Slice", v, err, "[[2.5 3.5] [5.5 6.5]]")
	v, err = m.Slice([][2]int64{{1, 0}, {1, 3}})
	check("empty Slice", v, err, "[]")
	v, err = m.Transpose()
	check("Transpose", v, err, "[[1.5 4.5] [2.5 5.5] [3.5 6.5]]")
	r1, _ := m.Index([]int64{1})
	r2, _ := m.Index([]int64{2})
	v, err = Stack([]int64{3}, []Array{r2, r1})
	check("Stack", v, err, "[[4.5 5.5 6.5] [1.5 2.5 3.5]]")
	v, err = StackOf(FloatElem, []int64{3}, nil)
	check("StackOf no cells", v, err, "[]")
	if !SameShape(v.Shape, []int64{0, 3}) {
		t.Errorf("StackOf no cells has shape %v", v.Shape)
	}
	if _, err := Stack([]int64{3}, []Array{r1, mustValue(t, "[1 2 3]")}); err == nil || err.Error() != "item 2 has int elements, expected float" {
		t.Errorf("Stack of float and int rows: %v", err)
	}
	if _, err := StackOf(IntElem, nil, []Array{FloatScalar(1)}); err == nil {
		t.Error("StackOf(int) of a float cell succeeded")
	}
	v, err = NestOf(FloatElem, m.Data, []int64{3, 2})
	check("NestOf", v, err, "[[1.5 2.5] [3.5 4.5] [5.5 6.5]]")
	if v, _ := Nest([]int64{1, 2}, []int64{2}); v.Elem != IntElem {
		t.Error("Nest gives a float array")
	}
	if n := FloatNum(2.5).Array(); n.Elem != FloatElem || !n.IsScalar() || n.String() != "2.5" {
		t.Errorf("FloatNum(2.5).Array() = %v", n)
	}
}

func TestTypeString(t *testing.T) {
	for _, tc := range []struct {
		e     Elem
		shape []int64
		want  string
	}{
		{IntElem, nil, "int"},
		{IntElem, []int64{2, 3}, "[2][3]"},
		{FloatElem, nil, "float"},
		{FloatElem, []int64{4}, "[4]float"},
		{FloatElem, []int64{2, 3}, "[2][3]float"},
	} {
		if got := TypeString(tc.e, tc.shape); got != tc.want {
			t.Errorf("TypeString(%v, %v) = %q, want %q", tc.e, tc.shape, got, tc.want)
		}
	}
}
