package dynamic

import (
	"errors"
	"fmt"
	"maps"
	"runtime"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// foldNames are the dialect's folds with an initial value, and those
// without.
var (
	foldsWithInit = []string{"fold", "fold-right", "trace", "trace-right", "scan", "iscan-init", "reduce"}
	foldsNoInit   = []string{"iscan", "reduce"}
)

// runFold evaluates a one-expression program by the big-step, with
// scalarFold on or off, and reports what it printed or the error, and the
// rules counted.
func runFold(t *testing.T, src string, fast bool) (string, semantics.Counter) {
	return runEngines(t, src, Engines{NoScalarFolds: !fast})
}

// runEngines is runFold with the fast paths e switches off.
func runEngines(t *testing.T, src string, e Engines) (string, semantics.Counter) {
	t.Helper()
	p, _, err := ParseFile("fold.remora", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	c := semantics.Counter{}
	v, err := EvalExpr(p.Exprs[0], &EvalOptions{Counter: c, Engines: e})
	return valueOrError(v, err), c
}

// valueOrError prints a value with its atom kind, or an error.
func valueOrError(v *remora.Value, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s (%s %v)", v, v.Kind, v.Shape)
}

// TestScalarFoldAgrees checks the flat loop for scalar operators against
// the general path it stands for, on every fold of the family, with
// operators that overflow into big integers, make rationals and floats,
// return booleans, or go wrong: the same value (and atom kind), the same
// error, the same rules counted. A sample is checked against the
// small-step semantics too.
func TestScalarFoldAgrees(t *testing.T) {
	ops := []string{"+", "-", "*", "/", "max", "<", "=", "quotient", "expt", "and", "sqrt", "(λ ((a 0) (b 0)) (+ a b))", "[+ -]"}
	arrays := []string{"[1 2 3]", "[3 0 2]", "[1.5 -2 3]", "[9223372036854775807 1 2]", "[1/2 3 -4]", "[#t #f #t]", "[7]", "[[1 2] [3 4]]", "[]", "\"ab\""}
	inits := []string{"0", "1", "2.5", "-9223372036854775808", "1/3", "#f", "#\\a", "[1 2]"}
	n := 0
	check := func(src string) {
		fast, fc := runFold(t, src, true)
		slow, sc := runFold(t, src, false)
		if fast != slow {
			t.Errorf("%s: the flat loop gives %s, the general path %s", src, fast, slow)
		}
		if !maps.Equal(fc, sc) {
			t.Errorf("%s: the flat loop counts %v, the general path %v", src, fc, sc)
		}
		if n++; n%17 == 0 {
			p, _, _ := ParseFile("fold.remora", src)
			v, _, err := RunSmall(p.Exprs[0], &semantics.RunOptions{Fuel: 100000})
			if small := valueOrError(v, err); small != fast {
				t.Errorf("%s: the small-step gives %s, the big-step %s", src, small, fast)
			}
		}
	}
	for _, op := range ops {
		for _, arr := range arrays {
			for _, f := range foldsNoInit {
				check(fmt.Sprintf("(%s %s %s)", f, op, arr))
			}
			for _, f := range foldsWithInit {
				for _, init := range inits {
					check(fmt.Sprintf("(%s %s %s %s)", f, op, init, arr))
				}
			}
		}
	}
}

// foldAllocs is the bytes allocated per item by one big-step run of src,
// an expression over (iota [n]).
func foldAllocs(t *testing.T, src string, n int) float64 {
	t.Helper()
	p, _, err := ParseFile("fold.remora", src)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := EvalExpr(p.Exprs[0], nil); err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// TestFoldMemoryBounded checks that a fold of a scalar primitive over n
// scalars allocates a bounded number of bytes per item: the input (8 a
// number) and a trace (8 an accumulator), not a Value per item and per
// accumulator as the general path does (600 to 850 bytes an item). The
// measure is the bytes allocated, not the time, so that the machine's
// load does not matter. The flat loop allocates 8 (a fold) or 16 (a
// trace) per item, reduce in the dynamic dialect 37; 100 leaves room for
// small changes and still fails the general path by far.
func TestFoldMemoryBounded(t *testing.T) {
	const n = 100_000
	const bound = 100
	for _, e := range []string{"fold + 0", "fold-right + 0", "scan + 0", "iscan +", "iscan-init + 0", "trace + 0", "trace-right + 0", "reduce + 0", "fold + 0.5", "scan max 0"} {
		src := fmt.Sprintf("(%s (iota [%d]))", e, n)
		if e == "reduce + 0" {
			// An odd level of the tree appends an item.
			src = fmt.Sprintf("(%s (iota [%d]))", e, n+1)
		}
		if per := foldAllocs(t, src, n); per > bound {
			t.Errorf("%s: %.0f bytes allocated per item, want at most %d", src, per, bound)
		}
	}
}

// BenchmarkFold runs the fold family over 10^6 scalars with a scalar
// primitive, the flat loop's case.
func BenchmarkFold(b *testing.B) {
	const n = 1_000_000
	for _, e := range []string{"fold + 0", "fold-right + 0", "scan + 0", "iscan +", "trace + 0", "trace-right + 0", "reduce + 0"} {
		b.Run(e, func(b *testing.B) {
			p, _, err := ParseFile("bench.remora", fmt.Sprintf("(%s (iota [%d]))", e, n))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := EvalExpr(p.Exprs[0], nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "elems/s")
		})
	}
}

// TestAppendItemIsCollapse checks the flat append of reduce's odd levels
// against the collapse it stands for, on arrays whose last item has
// their kind and shape and on ones whose item does not.
func TestAppendItemIsCollapse(t *testing.T) {
	for _, tc := range []struct{ arr, item string }{
		{"[1 2]", "3"}, {"[1.5]", "2"}, {"[1/2 3]", "4"}, {"[1 2]", "1/3"}, {"[#t]", "#f"},
		{"[[1 2] [3 4]]", "[5 6]"}, {"[[1 2]]", "[5 6 7]"}, {"[1 2]", "#t"}, {"\"ab\"", "#\\c"},
	} {
		p, _, err := ParseFile("append.remora", tc.arr+" "+tc.item)
		if err != nil {
			t.Fatal(err)
		}
		vs, err := Eval(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		arr, item := vs[0], vs[1]
		got, gerr := appendItem(semantics.Pos{}, arr, item)
		_, cells := arr.Cells(1)
		want, werr := collapse(semantics.Pos{}, []int64{arr.Shape[0] + 1}, append(cells, item))
		if g, w := valueOrError(got, gerr), valueOrError(want, werr); g != w {
			t.Errorf("%s then %s: appendItem gives %s, collapse %s", tc.arr, tc.item, g, w)
		}
	}
}

// TestFlatTreeAgrees checks flatTreeReduce against liftedTreeReduce (and
// the per-pair tree it falls back to) on reduce: vectors of ints and
// floats of sizes around the block (so that the blocks, the items after
// them and the levels above meet in every way), sums that overflow into
// big integers in a block, in the items after the blocks or only at the
// top, float operators, NaN, operators that give another kind or go
// wrong: the same value (and atom kind), the same error, the same rules
// counted. A good part of them must run flat (the others fall back).
func TestFlatTreeAgrees(t *testing.T) {
	run := func(src string, flat bool) (string, semantics.Counter) {
		return runEngines(t, src, Engines{NoFlatTrees: !flat})
	}
	before := flatTreeRuns.Load()
	programs := 0
	check := func(src string) {
		t.Helper()
		fast, fc := run(src, true)
		slow, sc := run(src, false)
		if fast != slow {
			t.Errorf("%s: flat %s, lifted %s", src, fast, slow)
		}
		if !maps.Equal(fc, sc) {
			t.Errorf("%s: flat counts %v, lifted %v", src, fc, sc)
		}
		programs++
	}
	for _, n := range []int{2, 3, 5, 8, treeBlock - 1, treeBlock, treeBlock + 1, 3*treeBlock + 5, 4 * treeBlock} {
		for _, arr := range []string{
			"(iota [%[1]d])",
			"(- (iota [%[1]d]) 7)",
			"(* 2305843009213693952 (iota [%[1]d]))", // overflows in the first block
			"(+ 4611686018427387904 (iota [%[1]d]))", // overflows at the top
			"(exact->inexact (iota [%[1]d]))",
			"(/ 1.0 (- (iota [%[1]d]) 3))",                 // infinities
			"(sqrt (exact->inexact (- (iota [%[1]d]) 2)))", // NaN: sqrt of a negative float
		} {
			arr := fmt.Sprintf(arr, n)
			for _, op := range []string{"+", "-", "*", "max", "min", "/", "<", "quotient", "expt", "+.", "(λ ((a 0) (b 0)) (+ a b))"} {
				if n > treeBlock+1 && op != "+" && op != "*" && op != "max" && op != "+." {
					continue // the per-pair fallbacks are slow
				}
				check(fmt.Sprintf("(reduce %s 0 %s)", op, arr))
			}
		}
	}
	// A big sum overflows only in the items after the last full block.
	check(fmt.Sprintf("(reduce + 0 (append (iota [%d]) [9223372036854775807 9223372036854775807 1]))", 2*treeBlock))
	ran := flatTreeRuns.Load() - before
	t.Logf("%d of %d reductions ran flat", ran, programs)
	if ran < int64(programs)/4 {
		t.Errorf("only %d of %d reductions ran flat", ran, programs)
	}
}

// TestFoldAffordsItsItems: a fold cut into a Value (and the small-step's
// term) per item is stuck in δ past --max-memory before the items are
// made, in the rules as written and the small-step (side-by-side of a
// reduce over iota of 10^8 stopped the whole table at 4.5 GiB), while the
// engine's flat loop, which makes no items, runs it.
func TestFoldAffordsItsItems(t *testing.T) {
	defer semantics.SetMaxMemory(semantics.MaxMemory())
	semantics.SetMaxMemory(1 << 20)
	p, _, err := ParseFile("fold.remora", "(reduce + 0 (iota [100000]))")
	if err != nil {
		t.Fatal(err)
	}
	e := p.Exprs[0]
	if v, err := EvalExpr(e, nil); err != nil || v.String() != "4999950000" {
		t.Errorf("big: %v, %v", v, err)
	}
	_, _, rerr := EvalRulesExpr(e, nil)
	_, _, serr := RunSmall(e, &semantics.RunOptions{})
	for sem, err := range map[string]error{"rules": rerr, "small": serr} {
		var s *semantics.Error
		if !errors.As(err, &s) || s.Rule != remora.RuleDelta.Name || !semantics.PastMaxMemory(err) || !strings.Contains(s.Msg, "the 100000 items of a fold") {
			t.Errorf("%s: want stuck in δ past --max-memory, got %v", sem, err)
		}
	}
}
