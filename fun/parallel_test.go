package fun

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// evalJobs runs src's big-step with the given jobs and renders the
// outcome as runBoth does.
func evalJobs(t *testing.T, src string, args map[string]string, jobs int) string {
	return evalWith(t, src, args, &EvalOptions{Jobs: jobs})
}

// evalSpread is evalJobs with every kernel of two or more iterations (and
// every redomap's map) spread over the goroutines.
func evalSpread(t *testing.T, src string, args map[string]string, jobs int) string {
	return evalWith(t, src, args, &EvalOptions{Jobs: jobs, MinParallelWork: 1})
}

// evalWith runs src's big-step with the options o.
func evalWith(t *testing.T, src string, args map[string]string, o *EvalOptions) string {
	t.Helper()
	p, err := ParseFile("t.fun", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	env, err := BindInputs(p, args)
	if err != nil {
		t.Fatalf("inputs: %v", err)
	}
	vs, _, err := Eval(p, env, o)
	if err != nil {
		return "error: " + err.Error()
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return strings.Join(parts, " | ")
}

// TestParallelKernelsAgree runs every evaluation case (the rules', the
// extension forms', the floats') with kernels on 1, 2, 3 and 8
// goroutines: the results, or the error, are the sequential ones.
func TestParallelKernelsAgree(t *testing.T) {
	var cases []evalCase
	cases = append(cases, evalCases...)
	cases = append(cases, evalExtCases...)
	cases = append(cases, evalFloatCases...)
	for _, tc := range cases {
		want := evalJobs(t, tc.src, tc.args, 1)
		for _, jobs := range []int{2, 3, 8} {
			if got := evalSpread(t, tc.src, tc.args, jobs); got != want {
				t.Errorf("%s with %d jobs:\n got %s\nwant %s\n%s", tc.rule, jobs, got, want, tc.src)
			}
		}
	}
}

// TestParallelFirstError: when several iterations of a parallel kernel
// go wrong, the error is the first one by index, whatever the schedule;
// items that do not stack are reported as the sequential run reports
// them, after an error of a later iteration loses to it.
func TestParallelFirstError(t *testing.T) {
	const n = 5000
	srcs := []string{
		// Division by zero at i = 1234 and, differently worded, at 4000.
		`input (n : int) (k : int)
let (a : [n]) = kernel i <= n do
  let (d : int) = i - k
  let (e : int) = i - 4000
  let (v : int) = 100 / d
  let (w : int) = 100 % e
  in (v)
in (a)`,
		// An index out of bounds from i = k on, in a nested kernel.
		`input (n : int) (k : int)
let (xs : [k]) = iota k
let (two : int) = 2
let (a : [n][two]) = kernel i <= n do
  let (r : [two]) = kernel j <= two do
    let (v : int) = xs[i]
    in (v)
  in (r)
in (a)`,
		// Items of the wrong shape from i = k on (the checker refuses
		// this program; the semantics is stuck at the stack).
		`input (n : int) (k : int)
let (a : [n][k]) = kernel i <= n do
  let (r : [i]) = iota i
  in (r)
in (a)`,
		// Both: an item of the wrong shape first, then a division by
		// zero, which wins (the stack is built after every iteration).
		`input (n : int) (k : int)
let (a : [n]) = kernel i <= n do
  let (d : int) = i - 4999
  let (v : int) = 7 / d
  let (c : int) = i < k
  let (r : int) = if c then in (v) else let (f : float) = 1.5 in (f)
  in (r)
in (a)`,
	}
	for _, src := range srcs {
		for _, k := range []int{1, 1234, 4999} {
			args := map[string]string{"n": fmt.Sprint(n), "k": fmt.Sprint(k)}
			want := evalJobs(t, src, args, 1)
			if !strings.HasPrefix(want, "error: ") {
				t.Fatalf("k = %d: no error: %.80s", k, want)
			}
			for _, jobs := range []int{2, 3, 8} {
				for rep := 0; rep < 3; rep++ {
					if got := evalJobs(t, src, args, jobs); got != want {
						t.Errorf("k = %d, %d jobs:\n got %s\nwant %s\n%s", k, jobs, got, want, src)
					}
				}
			}
		}
	}
}

// TestParallelSmallKernelsSequential: kernels under the default
// MinParallelWork, and runs that count rules or build derivations, use
// one goroutine.
func TestParallelSmallKernelsSequential(t *testing.T) {
	m := newMachine(&EvalOptions{Jobs: 8})
	if w := m.workers(100, 2); w != 1 {
		t.Errorf("100 iterations of 2 statements: %d goroutines, want 1", w)
	}
	if w := m.workers(100_000, 2); w != 8 {
		t.Errorf("10^5 iterations: %d goroutines, want 8", w)
	}
	counted := newMachine(&EvalOptions{Counter: semantics.Counter{}, Jobs: 8, MinParallelWork: 1})
	if w := counted.workers(100_000, 2); w != 1 {
		t.Errorf("a counted run: %d goroutines, want 1", w)
	}
	if w := newMachine(&EvalOptions{Jobs: 1, MinParallelWork: 1}).workers(100_000, 2); w != 1 {
		t.Errorf("jobs 1: %d goroutines, want 1", w)
	}
}
