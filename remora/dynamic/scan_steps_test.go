package dynamic

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// scanRun runs a one-expression program by the small-step (and, with big,
// the big-step) and returns its value or error and its steps.
func scanRun(t *testing.T, src string, big bool) (string, int) {
	t.Helper()
	p, _, err := ParseFile("scan.remora", src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if big {
		v, err := EvalExpr(p.Exprs[0], nil)
		return valueOrError(v, err), 0
	}
	v, n, err := RunSmall(p.Exprs[0], &semantics.RunOptions{Fuel: 10_000_000})
	return valueOrError(v, err), n
}

// TestScanStepsLinear checks that a trace takes a number of small steps
// linear in its length (about n²/2 operator applications when each prefix
// was its own chain): doubling n at most doubles the steps, up to the
// steps that do not depend on n.
func TestScanStepsLinear(t *testing.T) {
	for _, form := range []string{
		"(iscan + (iota [%d]))",
		"(iscan - (iota [%d]))",
		"(iscan-init - 7 (iota [%d]))",
		"(scan + 0 (iota [%d]))",
		"(trace - 0 (iota [%d]))",
		"(trace-right - 0 (iota [%d]))",
		"(iscan + (iota [%d 2]))",
		"(iscan (λ ((a 0) (b 0)) (- (* 2 a) b)) (iota [%d]))",
	} {
		var steps []int
		for _, n := range []int{100, 200, 400} {
			src := fmt.Sprintf(form, n)
			small, s := scanRun(t, src, false)
			// A run stuck early would take few steps and pass as linear.
			if big, _ := scanRun(t, src, true); small != big || strings.HasPrefix(small, "error") {
				t.Errorf("%s: small-step %s, big-step %s", src, small, big)
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

// TestScanBigSmallAgree checks the chain against the big-step on the
// traces of several operators, non-associative ones among them, on empty
// arrays, over rows, with partial operators, and with operators whose
// accumulators change shape or atom kind, which only the trace's final
// collapse rejects (after every application, as the big-step does).
func TestScanBigSmallAgree(t *testing.T) {
	for _, src := range []string{
		"(iscan - [5])",
		"(iscan - [10 1 2 3])",
		"(iscan max [1 5 2 7])",
		"(iscan - [1.5 2 1/3])",
		"(iscan (λ ((a 0) (b 0)) (- (* 10 a) b)) [1 2 3])",
		"(iscan - (array [0]))",
		"(iscan-init - 3 (array [0]))",
		"(iscan-init - 100 [1 2 3])",
		"(scan + 4 (array [0]))",
		"(scan - 100 [1 2 3])",
		"(scan - [10 20 30] [[1 2 3] [4 5 6]])",
		"(iscan - [[1 2] [3 4] [5 6]])",
		"(iscan (λ ((a 1) (b 1)) (- b a)) [[1 2] [3 5]])",
		"(trace - 9 (array [0]))",
		"(trace - 0 [1 2 3])",
		"(trace (λ ((acc 1) (x 0)) (- acc x)) [0 1] [1 2 3])",
		"(trace-right - 9 (array [0]))",
		"(trace-right - 0 [1 2 3])",
		"(trace-right (λ ((x 0) (acc 1)) (- x acc)) [0 10] [1 2])",
		"(trace quotient 100 [5 0 2])",
		"(trace-right quotient 100 [5 0 2])",
		"(iscan (λ ((a 0) (b 0)) [a b]) [1 2 3])",
		"(iscan (λ ((a 0) (b 0)) [a b]) [1 2 0 4])",
		"(trace-right = 1/3 [7])",
		"(trace (λ ((a all) (b 0)) (quotient 1 b)) 0 [1 0 2])",
		"(trace (λ ((a all) (b 0)) [a b]) 0 [1 2 0])",
		"(scan [+ -] 1 [7])",
	} {
		big, _ := scanRun(t, src, true)
		small, _ := scanRun(t, src, false)
		if big != small {
			t.Errorf("%s: big-step %s, small-step %s", src, big, small)
		}
	}
}
