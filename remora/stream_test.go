package remora

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// runStreamed evaluates a checked expression by the big-step without
// counting rules (counting turns streaming off), with streaming on or
// off, and reports what it printed, or the error.
func runStreamed(e Expr, on bool) string {
	v, err := EvalExpr(e, &EvalOptions{Engines: Engines{NoStreams: !on}})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s (%s %v)", v, v.Kind, v.Shape)
}

// streamGroup is producers of one element type, with the operators and
// initial values of the folds over them; %[1]d in a producer is n.
type streamGroup struct {
	elem      string
	ops       []string
	init      string
	producers []string
}

var streamGroups = []streamGroup{
	{"int", []string{"+", "-", "*", "/", "%", "max", "min", "(fn ([a int] [b int]) (- a b))"}, "1", []string{
		"iota{ | [%[1]d]}",
		"(+ 1 iota{ | [%[1]d]})",
		"(* 2 (+ 1 iota{ | [%[1]d]}))",
		"(- iota{ | [%[1]d]} 3)",
		"(* iota{ | [%[1]d]} iota{ | [%[1]d]})",
		"(* 4611686018427387904 (+ 1 iota{ | [%[1]d]}))", // wraps
		"(+ 9223372036854775807 iota{ | [%[1]d]})",       // wraps
		"(/ 100 iota{ | [%[1]d]})",                       // divides by zero first
		"(/ 1 (- 4100 iota{ | [%[1]d]}))",                // by zero in the second chunk
		"(* 2 (/ 1000 (- iota{ | [%[1]d]} 3)))",          // by zero under another map
		"(+ (/ 1000 (+ 1 iota{ | [%[1]d]})) (%% 7 0))",   // a leaf's error after a loop's
		"(%% iota{ | [%[1]d]} 3)",
		"(replicate{int | [%[1]d] []} 7)",
		"(+ (replicate{int | [%[1]d] []} 7) iota{ | [%[1]d]})",
		"(max 3 (min 10 iota{ | [%[1]d]}))",
		"(- 3 (* iota{ | [%[1]d]} iota{ | [%[1]d]}))",                    // a constant minus a node
		"(min (* 3 iota{ | [%[1]d]}) (- 9000 (max iota{ | [%[1]d]} 5)))", // a node and a constant
		"(abs (- 5 iota{ | [%[1]d]}))",
		"(+ (reverse{int | %[1]d []} iota{ | [%[1]d]}) iota{ | [%[1]d]})", // a vector leaf
		"(float->int (*. 1.5 (int->float iota{ | [%[1]d]})))",
	}},
	{"float", []string{"+.", "-.", "*.", "/.", "max.", "(fn ([a float] [b float]) (-. a b))"}, "0.5", []string{
		"(int->float iota{ | [%[1]d]})",
		"(+. 0.1 (int->float iota{ | [%[1]d]}))",
		"(/. 1. (int->float iota{ | [%[1]d]}))", // +inf.0 first
		"(sqrt (int->float (- iota{ | [%[1]d]} 3)))",
		"(*. (replicate{float | [%[1]d] []} 0.3) (int->float (+ 1 iota{ | [%[1]d]})))",
	}},
	{"bool", []string{"and", "or"}, "#t", []string{
		"(< iota{ | [%[1]d]} 3)",
		"(not (= (%% iota{ | [%[1]d]} 5) 4))",
	}},
}

// TestStreamAgrees checks streamed reductions against the materialising
// path on every fold of the family, over producers that wrap, divide by
// zero (in the first chunk, a later one, an inner map and a leaf), work
// on floats and booleans, are empty, one atom, or several chunks: the
// same value or the same error. Most of them must actually stream.
func TestStreamAgrees(t *testing.T) {
	before := streamRuns.Load()
	programs := 0
	for _, g := range streamGroups {
		for _, n := range []int{0, 1, 5, streamChunk + 1, 2*streamChunk + 7} {
			for _, op := range g.ops {
				if strings.HasPrefix(op, "(fn") && n > 5 {
					continue // the general path, per item: slow, and not streamed
				}
				for _, prod := range g.producers {
					arr := fmt.Sprintf(prod, n)
					for _, src := range foldPrograms(g.elem, op, g.init, arr, n) {
						e, _ := checkedExpr(t, src)
						streamed, materialised := runStreamed(e, true), runStreamed(e, false)
						if streamed != materialised {
							t.Errorf("%s: streamed %s, materialised %s", src, streamed, materialised)
						}
						programs++
					}
				}
			}
		}
	}
	// Reductions over @pad, and frames that are prefixes of others.
	for _, n := range []int{1, 3, streamChunk/3 + 2} {
		for _, prod := range []string{
			"(+ 1 iota{ | [%[1]d 3]})",
			"(+ iota{ | [%[1]d]} iota{ | [%[1]d 3]})",
			"(* (replicate{int | [%[1]d] [3]} [4 5 6]) (+ 1 iota{ | [%[1]d 3]}))",
			"(- (+ iota{ | [%[1]d]} 1) (replicate{int | [%[1]d 3] []} 2))",
			"(/ 6 (- iota{ | [%[1]d 3]} 2))",
		} {
			arr := fmt.Sprintf(prod, n)
			for _, src := range []string{
				fmt.Sprintf("(reduce-init{int | %d [3] []} + 0 %s)", n, arr),
				fmt.Sprintf("(reduce{int | %d [3] []} * %s)", n-1, arr),
				fmt.Sprintf("(reduce{int | %d [] [3]} (fn ([a [int 3]] [b [int 3]]) (- a b)) %s)", n-1, arr),
				fmt.Sprintf("(reduce-init{int | %d [] []} + 0 (reduce-init{int | %d [3] []} max -5 %s))", 3, n, arr),
			} {
				e, _ := checkedExpr(t, src)
				streamed, materialised := runStreamed(e, true), runStreamed(e, false)
				if streamed != materialised {
					t.Errorf("%s: streamed %s, materialised %s", src, streamed, materialised)
				}
				programs++
			}
		}
	}
	t.Logf("%d of %d reductions streamed", streamRuns.Load()-before, programs)
	if ran := streamRuns.Load() - before; ran < int64(programs)/3 {
		t.Errorf("only %d of %d reductions streamed", ran, programs)
	}
}

// TestStreamOnlyUncounted checks that counting rules turns streaming off,
// so that the counts are the materialising path's.
func TestStreamOnlyUncounted(t *testing.T) {
	e, _ := checkedExpr(t, "(reduce-init{int | 10 [] []} + 0 (+ 1 iota{ | [10]}))")
	before := streamRuns.Load()
	if got := runStreamed(e, true); got != "55 (int [])" {
		t.Fatalf("got %s", got)
	}
	if streamRuns.Load() != before+1 {
		t.Fatalf("the reduction did not stream")
	}
	if _, err := EvalExpr(e, &EvalOptions{Counter: map[string]int{}}); err != nil {
		t.Fatal(err)
	}
	if streamRuns.Load() != before+1 {
		t.Errorf("a counted reduction streamed")
	}
}

// TestStreamMemoryBounded checks that a streamed reduction of 10^6 atoms
// allocates far less than the array it does not build (8 bytes an atom,
// 8 MB, twice over for (+ 1 iota)): the chunk buffers of its nodes, some
// 32 KB each. The bound is bytes allocated, not time, so that the
// machine's load does not matter; 1 byte an atom leaves a wide margin.
func TestStreamMemoryBounded(t *testing.T) {
	const n = 1_000_000
	const bound = n // bytes in all
	for _, src := range []string{
		fmt.Sprintf("(reduce-init{int | %[1]d [] []} + 0 (+ 1 iota{ | [%[1]d]}))", n),
		fmt.Sprintf("(reduce{int | %d [] []} max (* 2 (+ 1 iota{ | [%d]})))", n-1, n),
		fmt.Sprintf("(fold{int int | %[1]d [] []} - 0 (%% iota{ | [%[1]d]} 7))", n),
		fmt.Sprintf("(fold-right{int int | %[1]d [] []} - 0 (+ (replicate{int | [%[1]d] []} 3) iota{ | [%[1]d]}))", n),
		fmt.Sprintf("(reduce-init{float | %[1]d [] []} +. 0. (*. 0.5 (int->float iota{ | [%[1]d]})))", n),
	} {
		e, _ := checkedExpr(t, src)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := EvalExpr(e, nil); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		runtime.ReadMemStats(&after)
		if got := after.TotalAlloc - before.TotalAlloc; got > bound {
			t.Errorf("%s: %d bytes allocated, want at most %d", src, got, bound)
		}
	}
}

// TestStreamFramedAgrees checks reductions of producers under a frame
// (which do not stream: the array is built from the producer), and of
// empty producers, against the materialising path, and that a chain of
// them nested in leaves is evaluated once per level, not twice (which
// took 2^depth time).
func TestStreamFramedAgrees(t *testing.T) {
	for _, src := range []string{
		"(reduce{int | 2 [] []} + (+ 1 iota{ | [4 3]}))",
		"(reduce{int | 2 [] []} / (- iota{ | [4 3]} 4))",
		"(reduce{int | 2 [] []} [+ *] (+ 1 iota{ | [2 3]}))",
		"(fold{int int | 2 [] []} - [1 2] (+ 1 iota{ | [2 2]}))",
		"(reduce-init{int | 0 [] []} + 5 (+ (frame [0] int) iota{ | [0]}))",
		"(reduce{int | 2 [0] []} + (+ 1 iota{ | [3 0]}))",
		"(reduce-init{int | 4 [0] []} + 0 (replicate{int | [4] [0]} (frame [0] int)))",
	} {
		e, _ := checkedExpr(t, src)
		if s, m := runStreamed(e, true), runStreamed(e, false); s != m {
			t.Errorf("%s: streamed %s, materialised %s", src, s, m)
		}
	}
	s := "1"
	for range 40 {
		s = fmt.Sprintf("(reduce-init{int | 2 [] []} + 0 (reduce{int | 2 [] []} + (+ %s iota{ | [2 3]})))", s)
	}
	e, _ := checkedExpr(t, s)
	if got := runStreamed(e, true); strings.HasPrefix(got, "error") {
		t.Fatal(got)
	}
	// The same for an empty producer, which once gave up after
	// evaluating its leaves.
	s = "1"
	for range 40 {
		s = fmt.Sprintf("(reduce-init{int | 0 [] []} + 1 (+ %s iota{ | [0]}))", s)
	}
	e, _ = checkedExpr(t, s)
	if got := runStreamed(e, true); got != "1 (int [])" {
		t.Fatal(got)
	}
}

// TestStreamUnderMaxMemory: a stream allocates nothing, so a --max-memory
// below what its array would take does not refuse it (issue 32: 100MB
// refused the README's streamed 10^8 fold as if it were materialised);
// its bound is the default limit's count, which keeps the work of a fold
// fuel does not count in seconds.
func TestStreamUnderMaxMemory(t *testing.T) {
	defer semantics.SetMaxMemory(semantics.MaxMemory())
	semantics.SetMaxMemory(1 << 20) // 131072 elements
	e, _ := checkedExpr(t, "(reduce-init{int | 1000000 [] []} + 0 iota{ | [1000000]})")
	before := streamRuns.Load()
	if got := runStreamed(e, true); got != "499999500000 (int [])" {
		t.Fatalf("got %s", got)
	}
	if streamRuns.Load() != before+1 {
		t.Fatalf("the reduction did not stream")
	}
	e, _ = checkedExpr(t, "(reduce-init{int | 1000000000 [] []} + 0 iota{ | [1000000000]})")
	if got := runStreamed(e, true); !strings.Contains(got, "exceeds --max-memory 1.0 MiB") {
		t.Fatalf("a stream past the default limit's count: %s", got)
	}
}
