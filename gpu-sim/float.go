package gpusim

import (
	"math"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/semantics"
)

// IMP's floats as the emitter writes them (cuda/float.go): doubles, the
// prelude's f64_ arithmetic and functions, and the bit casts between a
// double and the int64_t heap word that holds it. gpu-sim computes them
// with Go's float64 and math package, as the interpreter does, so its
// results are the interpreter's bit for bit.

// f64 runs the prelude's float functions (host and device alike); ok is
// false when f is not one of them.
func (t *thread) f64(c *cuda.Call, args []value, want func(int)) (value, bool) {
	fl := func(i int) float64 { return t.asFloat(c.Args[i], args[i]) }
	switch c.Fun {
	case "f64_add", "f64_sub", "f64_mul", "f64_div":
		want(2)
		a, b := fl(0), fl(1)
		var r float64
		switch c.Fun {
		case "f64_add":
			r = a + b
		case "f64_sub":
			r = a - b
		case "f64_mul":
			r = a * b
		case "f64_div":
			r = a / b
		}
		return value{k: kFloat, f: r}, true
	case "f64_sqrt", "f64_exp", "f64_log", "f64_sin", "f64_cos":
		want(1)
		f, _ := semantics.LookupFunc(strings.TrimPrefix(c.Fun, "f64_"))
		r, err := semantics.ApplyFunc(f, semantics.FloatNum(fl(0)))
		if err != nil {
			t.fail(c.Pos, "unsupported", "unsupported construct: %s: %v", c.Fun, err)
		}
		return value{k: kFloat, f: r.Float()}, true
	case "arraysem_f64_bits":
		want(1)
		return value{k: kInt, i: semantics.FloatBits(fl(0))}, true
	case "arraysem_f64_from_bits":
		want(1)
		return value{k: kFloat, f: semantics.FloatFromBits(t.asInt(c.Args[0], args[0]))}, true
	case "arraysem_f64_int_ok":
		want(1)
		x := fl(0)
		return value{k: kInt, i: b2i(x >= -(1<<63) && x < 1<<63)}, true
	case "arraysem_f64_isnan":
		want(1)
		return value{k: kInt, i: b2i(math.IsNaN(fl(0)))}, true
	}
	return value{}, false
}

// compareFloats is a comparison of two doubles: IEEE's, as C++'s (NaN is
// unordered, -0.0 == 0.0).
func (t *thread) compareFloats(e *cuda.Binary, a, b float64) int64 {
	switch e.Op {
	case "==":
		return b2i(a == b)
	case "!=":
		return b2i(a != b)
	case "<":
		return b2i(a < b)
	case "<=":
		return b2i(a <= b)
	case ">":
		return b2i(a > b)
	case ">=":
		return b2i(a >= b)
	}
	t.fail(e.Pos, "unsupported", "unsupported construct: operator %s on doubles", e.Op)
	return 0
}

// truncate is (int64_t)x: C++ leaves it undefined outside int64's range,
// where the emitter's check (arraysem_f64_int_ok) has stopped the program
// first; a file that converts anyway is refused.
func (t *thread) truncate(e *cuda.Cast, x float64) int64 {
	if !(x >= -(1<<63) && x < 1<<63) {
		t.fail(e.Pos, "unsupported", "unsupported construct: (int64_t)%s of %s, outside int64 (undefined behaviour in C++)", cuda.ExprString(e.X), semantics.FormatFloat(x))
	}
	return int64(x)
}

// formatSite is a site's message as the prelude's arraysem_fail prints
// it: %lld is the next number, %f64 the next number as a float's bits
// (printed as values print), %% a %.
func formatSite(format string, a, b int64) string {
	args := []int64{a, b}
	k := 0
	next := func() int64 {
		v := args[min(k, 1)]
		k++
		return v
	}
	var out strings.Builder
	for i := 0; i < len(format); i++ {
		switch {
		case strings.HasPrefix(format[i:], "%%"):
			out.WriteByte('%')
			i++
		case strings.HasPrefix(format[i:], "%lld"):
			out.WriteString(strconv.FormatInt(next(), 10))
			i += 3
		case strings.HasPrefix(format[i:], "%f64"):
			out.WriteString(semantics.FormatFloat(semantics.FloatFromBits(next())))
			i += 3
		default:
			out.WriteByte(format[i])
		}
	}
	return out.String()
}
