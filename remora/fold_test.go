package remora

import (
	"fmt"
	"maps"
	"runtime"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// runFold evaluates a checked expression by the big-step, with scalarFold
// on or off, and reports what it printed or the error, and the rules
// counted.
func runFold(e Expr, fast bool) (string, semantics.Counter) {
	c := semantics.Counter{}
	v, err := EvalExpr(e, &EvalOptions{Counter: c, Engines: Engines{NoScalarFolds: !fast}})
	if err != nil {
		return "error: " + err.Error(), c
	}
	return fmt.Sprintf("%s (%s %v)", v, v.Kind, v.Shape), c
}

// foldPrograms are folds of every member of the family over the array
// arr of d items of type elem, with the operator op and the initial value
// init.
func foldPrograms(elem, op, init, arr string, d int) []string {
	var out []string
	for _, f := range []string{"fold", "fold-right", "trace", "trace-right"} {
		out = append(out, fmt.Sprintf("(%s{%s %s | %d [] []} %s %s %s)", f, elem, elem, d, op, init, arr))
	}
	for _, f := range []string{"reduce-init", "scan-init", "iscan-init"} {
		out = append(out, fmt.Sprintf("(%s{%s | %d [] []} %s %s %s)", f, elem, d, op, init, arr))
	}
	if d > 0 {
		for _, f := range []string{"reduce", "iscan"} {
			out = append(out, fmt.Sprintf("(%s{%s | %d [] []} %s %s)", f, elem, d-1, op, arr))
		}
	}
	return out
}

// TestScalarFoldAgrees checks the flat loop for scalar operators against
// the general path it stands for, on every fold of the family, with
// operators that wrap, divide by zero, work on floats and booleans: the
// same value, the same error, the same rules counted; and against the
// small-step semantics.
func TestScalarFoldAgrees(t *testing.T) {
	type group struct {
		elem  string
		ops   []string
		inits []string
		arrs  []string
	}
	for _, g := range []group{
		{"int", []string{"+", "-", "*", "/", "%", "max", "(fn ([a int] [b int]) (- a b))"}, []string{"0", "1", "-3"},
			[]string{"[1 2 3]", "[3 0 2]", "[9223372036854775807 1 2]", "[-5]", "(frame [0] int)"}},
		{"float", []string{"+.", "-.", "*.", "/."}, []string{"0.", "0.5"}, []string{"[1.5 -2. 3.]", "[0. 1. 2.]"}},
		{"bool", []string{"and", "or"}, []string{"#t", "#f"}, []string{"[#t #f #t]", "[#f]"}},
	} {
		for _, op := range g.ops {
			for _, init := range g.inits {
				for _, arr := range g.arrs {
					d := 1
					for _, c := range arr {
						if c == ' ' {
							d++
						}
					}
					if arr[0] == '(' {
						d = 0
					}
					for _, src := range foldPrograms(g.elem, op, init, arr, d) {
						e, _ := checkedExpr(t, src)
						fast, fc := runFold(e, true)
						slow, sc := runFold(e, false)
						if fast != slow {
							t.Errorf("%s: the flat loop gives %s, the general path %s", src, fast, slow)
						}
						if !maps.Equal(fc, sc) {
							t.Errorf("%s: the flat loop counts %v, the general path %v", src, fc, sc)
						}
						v, _, err := RunSmall(e, &semantics.RunOptions{Fuel: 100000})
						small := ""
						if err != nil {
							small = "error: " + err.Error()
						} else {
							small = fmt.Sprintf("%s (%s %v)", v, v.Kind, v.Shape)
						}
						if small != fast {
							t.Errorf("%s: the small-step gives %s, the big-step %s", src, small, fast)
						}
					}
				}
			}
		}
	}
}

// TestFoldMemoryBounded checks that a fold of a scalar primitive over n
// scalars allocates a bounded number of bytes per item: the input (8 a
// number) and a trace (8 an accumulator), not a Value per item and per
// accumulator as the general path does (about 600 bytes an item). The
// measure is the bytes allocated, not the time, so that the machine's
// load does not matter. The flat loop allocates 8 (a fold or a
// reduction) or 16 (a trace or a scan) per item; 100 leaves room for
// small changes and still fails the general path by far.
func TestFoldMemoryBounded(t *testing.T) {
	const n = 100_000
	const bound = 100
	for _, src := range foldPrograms("int", "+", "0", fmt.Sprintf("iota{ | [%d]}", n), n) {
		e, _ := checkedExpr(t, src)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := EvalExpr(e, nil); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		runtime.ReadMemStats(&after)
		if per := float64(after.TotalAlloc-before.TotalAlloc) / n; per > bound {
			t.Errorf("%s: %.0f bytes allocated per item, want at most %d", src, per, bound)
		}
	}
}

// BenchmarkFold runs the fold family over 10^6 scalars with a scalar
// primitive, the flat loop's case.
func BenchmarkFold(b *testing.B) {
	const n = 1_000_000
	arr := fmt.Sprintf("iota{ | [%d]}", n)
	for _, src := range foldPrograms("int", "+", "0", arr, n) {
		b.Run(src[1:strings.IndexByte(src, '{')], func(b *testing.B) {
			p, _, err := ParseFile("bench.remora", src)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Check(p, nil); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Eval(p, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "elems/s")
		})
	}
}
