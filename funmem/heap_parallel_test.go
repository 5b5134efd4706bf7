package funmem

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// runJobs runs p's compiled heap semantics with jobs goroutines and no
// records, and counts the kernel starts that ran on goroutines.
func runJobs(t *testing.T, p *fun.Program, args map[string]string, jobs int, window int64) (heapRun, int) {
	t.Helper()
	env, h, err := BindInputs(p, args)
	if err != nil {
		t.Fatalf("inputs: %v", err)
	}
	r := heapRun{h: h}
	n := 0
	// Every kernel, however small, is spread (a work threshold of 1).
	r.vals, r.err = EvalHeap(p, env, h, &HeapOptions{Jobs: jobs, MinParallelWork: 1, ParallelWindow: window, OnParallel: func() { n++ }})
	return r, n
}

// TestParallelHeapKernels runs random FUN kernels of scalar bodies
// (reads of an input at offsets that may fall outside it, divisions that
// may be by zero, comparisons, constants), translated to FUNMEM, under
// the heap semantics on 1 and on 4 goroutines, in one window and in
// windows of 3 iterations: the same values, errors and final heaps.
func TestParallelHeapKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	leaves := []string{"i", "n", "0", "1", "3", "-2"}
	var sexp func(d int) string
	sexp = func(d int) string {
		if d == 0 || rng.IntN(3) == 0 {
			return pick(leaves...)
		}
		return "(" + sexp(d-1) + " " + pick("+", "-", "*", "/", "%", "<", "==") + " " + sexp(d-1) + ")"
	}
	xs := make([]string, 40)
	for i := range xs {
		xs[i] = fmt.Sprint(i%7 - 2)
	}
	args := map[string]string{"n": "40", "xs": "[" + strings.Join(xs, " ") + "]"}
	parallel, failed := 0, 0
	for run := range 800 {
		window := []int64{0, 3}[run%2]
		var b strings.Builder
		b.WriteString("input (n : int) (xs : [n])\nlet (ys : [n]) = kernel i <= n do\n")
		leaves = leaves[:6]
		b.WriteString("  let (v : int) = " + sexp(1) + "\n")
		leaves = append(leaves, "v")
		for k := range 1 + rng.IntN(3) {
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&b, "  let (j%d : int) = %s\n  let (v%d : int) = xs[j%d]\n", k, pick("i", "n - i + 1", "i + 1", "v % n + 1", "i - 1"), k, k)
			} else {
				fmt.Fprintf(&b, "  let (v%d : int) = %s\n", k, sexp(2))
			}
		}
		b.WriteString("  let (r : int) = " + sexp(2) + "\n  in (r)\nin (ys)\n")
		src := b.String()
		fp, err := fun.ParseFile("par.fun", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if _, err := fun.Check(fp, nil); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		p := Simplify(Transform(fp))
		seq, _ := runJobs(t, p, args, 1, window)
		par, k := runJobs(t, p, args, 4, window)
		if fmt.Sprint(seq.err) != fmt.Sprint(par.err) {
			t.Fatalf("errors differ: in order %v, on goroutines %v\n%s", seq.err, par.err, src)
		}
		if a, b := heapDump(seq.h), heapDump(par.h); a != b {
			t.Fatalf("final heaps differ:\nin order      %s\non goroutines %s\n%s", a, b, src)
		}
		if a, b := ValuesString(seq.vals), ValuesString(par.vals); a != b {
			t.Fatalf("values differ: in order %s, on goroutines %s\n%s", a, b, src)
		}
		if k > 0 {
			parallel++
			if par.err != nil {
				failed++
			}
		}
	}
	t.Logf("%d of 800 kernels ran on goroutines, %d of them went wrong", parallel, failed)
	if parallel < 700 || failed < 100 || parallel-failed < 100 {
		t.Errorf("%d of 800 kernels ran on goroutines, %d of them went wrong: too few to test both outcomes", parallel, failed)
	}
}

// TestParallelHeapKernelInterrupt: a kernel on goroutines notices Ctrl-C
// (here as it starts) as the kernel in order does, every
// semantics.PollMask+1 iterations, and stops with the interrupt at the kernel.
func TestParallelHeapKernelInterrupt(t *testing.T) {
	fp, err := fun.ParseFile("par.fun", "input (n : int)\nlet (ys : [n]) = kernel i <= n do\n  let (r : int) = i * 2\n  in (r)\nin (ys)\n")
	if err != nil {
		t.Fatal(err)
	}
	p := Simplify(Transform(fp))
	env, h, err := BindInputs(p, map[string]string{"n": fmt.Sprint(4 * (semantics.PollMask + 1))})
	if err != nil {
		t.Fatal(err)
	}
	defer semantics.ResetInterrupt()
	went := false
	_, err = EvalHeap(p, env, h, &HeapOptions{Jobs: 4, MinParallelWork: 1, OnParallel: func() { went = true; semantics.Interrupt() }})
	var e *semantics.Error
	if !went || !errors.As(err, &e) || e.Kind != semantics.InterruptError || e.Pos.Line != 2 {
		t.Errorf("on goroutines %v, error %v; want the interrupt at the kernel (line 2)", went, err)
	}
}
