package remora

import (
	"fmt"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// smallSteps runs a one-expression program by the small-step and returns
// its value (or error) and its number of steps.
func smallSteps(t *testing.T, src string) (string, int) {
	t.Helper()
	e, _ := checkedExpr(t, src)
	v, n, err := RunSmall(e, &semantics.RunOptions{Fuel: 10_000_000})
	if err != nil {
		return "error: " + err.Error(), n
	}
	return v.String(), n
}

// The traces of the fold family at n items, written for the typed
// dialect: %[1]d is n, %[2]d is n-1, %[3]d is 2n.
var traceForms = []string{
	"(iscan{int | %[2]d [] []} + iota{ | [%[1]d]})",
	"(iscan{int | %[2]d [] []} - iota{ | [%[1]d]})",
	"(iscan-init{int | %[1]d [] []} - 7 iota{ | [%[1]d]})",
	"(scan-init{int | %[1]d [] []} + 0 iota{ | [%[1]d]})",
	"(trace{int int | %[1]d [] []} - 0 iota{ | [%[1]d]})",
	"(trace-right{int int | %[1]d [] []} - 0 iota{ | [%[1]d]})",
	"(iscan{int | %[2]d [2] []} + (reshape [%[1]d 2] iota{ | [%[3]d]}))",
	"(iscan{int | %[2]d [] []} (fn ([a int] [b int]) (- (* 2 a) b)) iota{ | [%[1]d]})",
}

// TestScanStepsLinear checks that a trace takes a number of small steps
// linear in its length (it took about n²/2 operator applications when
// each prefix was its own chain): doubling n at most doubles the steps,
// up to the steps that do not depend on n.
func TestScanStepsLinear(t *testing.T) {
	for _, form := range traceForms {
		var steps []int
		for _, n := range []int{100, 200, 400} {
			src := fmt.Sprintf(form, n, n-1, 2*n)
			small, s := smallSteps(t, src)
			e, _ := checkedExpr(t, src)
			bv, err := EvalExpr(e, nil)
			if err != nil || small != bv.String() {
				// A run stuck early would take few steps and pass as linear.
				t.Errorf("%s: small-step %s, big-step %v (%v)", src, small, bv, err)
			}
			steps = append(steps, s)
		}
		for i := 1; i < len(steps); i++ {
			if float64(steps[i]) > 2.2*float64(steps[i-1]) {
				t.Errorf("%s: %v steps at n = 100, 200, 400: not linear", form, steps)
				break
			}
		}
	}
}

// TestScanAllocsLinear checks that a step of a scan does not allocate
// more often as the scan grows: the run's allocations, like its steps, at
// most double when n doubles (substituting into the whole rest of the
// chain, or copying it, would make them grow as n²). It counts
// allocations, not bytes: each append copies the trace so far, so the
// bytes do grow as n² (docs/performance.md, "Linear small-step scans").
func TestScanAllocsLinear(t *testing.T) {
	e1, _ := checkedExpr(t, "(iscan{int | 199 [] []} + iota{ | [200]})")
	e2, _ := checkedExpr(t, "(iscan{int | 399 [] []} + iota{ | [400]})")
	run := func(e Expr) func() {
		return func() {
			if _, _, err := RunSmall(e, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	a1 := testing.AllocsPerRun(3, run(e1))
	a2 := testing.AllocsPerRun(3, run(e2))
	if a2 > 2.2*a1 {
		t.Errorf("a scan of 200 allocates %.0f times, of 400 %.0f: not linear", a1, a2)
	}
}

// TestScanBigSmallAgree checks the chain against the big-step on the
// traces of several operators, non-associative ones among them, on empty
// arrays, over @pad rows and with partial operators: the same value or
// the same error.
func TestScanBigSmallAgree(t *testing.T) {
	srcs := []string{
		"(iscan{int | 0 [] []} - [5])",
		"(iscan{int | 3 [] []} - [10 1 2 3])",
		"(iscan{int | 3 [] []} max [1 5 2 7])",
		"(iscan{float | 2 [] []} -. [1.5 2. 3.])",
		"(iscan{int | 2 [] []} (fn ([a int] [b int]) (- (* 10 a) b)) [1 2 3])",
		"(iscan-init{int | 0 [] []} - 3 (frame [0] int))",
		"(iscan-init{int | 3 [] []} - 100 [1 2 3])",
		"(scan-init{int | 0 [] []} + 4 (frame [0] int))",
		"(scan-init{int | 3 [] []} - 100 [1 2 3])",
		"(scan-init{int | 2 [3] []} - [10 20 30] [[1 2 3] [4 5 6]])",
		"(iscan{int | 2 [2] []} - [[1 2] [3 4] [5 6]])",
		"(iscan-init{int | 2 [3] []} - [10 20 30] [[1 2 3] [4 5 6]])",
		"(iscan{int | 1 [] [2]} (fn ([a [int 2]] [b [int 2]]) (- b a)) [[1 2] [3 5]])",
		"(trace{int int | 0 [] []} - 9 (frame [0] int))",
		"(trace{int int | 3 [] []} - 0 [1 2 3])",
		"(trace{int int | 3 [] [2]} (fn ([acc [int 2]] [x int]) (- acc x)) [0 1] [1 2 3])",
		"(trace-right{int int | 0 [] []} - 9 (frame [0] int))",
		"(trace-right{int int | 3 [] []} - 0 [1 2 3])",
		"(trace-right{int int | 2 [] [2]} (fn ([x int] [acc [int 2]]) (- x acc)) [0 10] [1 2])",
		"(trace{int int | 3 [] []} / 100 [5 0 2])",
		"(trace-right{int int | 3 [] []} / 100 [5 0 2])",
		"(iscan{int | 3 [] []} / [100 5 0 2])",
		"(scan-init{int | 2 [] []} + 0 [[1 2] [3 4]])",
	}
	for _, src := range srcs {
		e, ty := checkedExpr(t, src)
		bv, berr := EvalExpr(e, nil)
		sv, _, serr := RunSmall(e, nil)
		big, small := fmt.Sprint(bv), fmt.Sprint(sv)
		if berr != nil || serr != nil {
			big, small = fmt.Sprint(berr), fmt.Sprint(serr)
		}
		if big != small {
			t.Errorf("%s: big-step %s, small-step %s", src, big, small)
		}
		if berr != nil {
			continue
		}
		if err := preserved(e, ty); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
}
