package fun

import (
	"fmt"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// benchProgram maps over a matrix with nested kernels: n*n iterations,
// each reading, computing and writing one element.
const benchProgram = `input (n : int)
let (a : [n]) = iota n
let (b : [n][n]) = kernel i <= n do
  let (r : [n]) = kernel j <= n do
    let (x : int) = a[j]
    let (y : int) = x * i + j
    in (y)
  in (r)
let (c : [n][n]) = transpose b
in (c)`

func benchKernel(b *testing.B, small bool) {
	p, err := ParseFile("bench.fun", benchProgram)
	if err != nil {
		b.Fatal(err)
	}
	const n = 300
	env := (*Env)(nil).Bind("n", semantics.Scalar(n))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if small {
			_, _, err = RunSmall(p, env, nil)
		} else {
			_, _, err = Eval(p, env, nil)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*n)*float64(b.N)/b.Elapsed().Seconds(), "elems/s")
}

// BenchmarkKernelBig measures big-step kernel throughput in elements/s.
func BenchmarkKernelBig(b *testing.B) { benchKernel(b, false) }

// BenchmarkKernelSmall measures small-step kernel throughput in elements/s.
func BenchmarkKernelSmall(b *testing.B) { benchKernel(b, true) }

// flatProgram is the bench table's fun-kernel row (internal/bench): a flat
// kernel of n iterations, each reading, computing and writing one element.
const flatProgram = `input (n : int)
let (xs : [n]) = iota n
let (ys : [n]) = kernel i <= n do
  let (x : int) = xs[i]
  let (y : int) = x * 2 + i
  in (y)
in (ys)`

// BenchmarkKernelFlat measures the big-step of the flat kernel at 10^6
// iterations, in ns per iteration, sequentially (jobs=1) and on two
// goroutines (jobs=2; the speed-up needs two idle cores).
func BenchmarkKernelFlat(b *testing.B) {
	p, err := ParseFile("flat.fun", flatProgram)
	if err != nil {
		b.Fatal(err)
	}
	const n = 1_000_000
	env := (*Env)(nil).Bind("n", semantics.Scalar(n))
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, _, err = Eval(p, env, &EvalOptions{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n)/float64(b.N), "ns/iteration")
		})
	}
}

// rowsProgram is the bench table's jobs row (internal/bench): n rows of
// 100 elements, each computed by a nested kernel and summed.
const rowsProgram = `input (n : int)
let (m : int) = 100
let (xs : [m]) = iota m
let (ys : [n]) = kernel i <= n do
  let (r : [m]) = kernel j <= m do
    let (x : int) = xs[j]
    let (y : int) = x * i + j
    in (y)
  let (z : int) = 0
  let (s : int) = reduce (a : int) (b : int) = z over r do
    let (c : int) = a + b
    in (c)
  in (s)
in (ys)`

// BenchmarkKernelRows measures the big-step of the jobs row's kernel at
// 10^4 rows (10^6 elements), in ns per element, on 1 and 2 goroutines;
// the ratio of the two is the row's speed-up (on two idle cores).
func BenchmarkKernelRows(b *testing.B) {
	p, err := ParseFile("rows.fun", rowsProgram)
	if err != nil {
		b.Fatal(err)
	}
	const n = 10_000
	env := (*Env)(nil).Bind("n", semantics.Scalar(n))
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("jobs=%d", jobs), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, _, err = Eval(p, env, &EvalOptions{Jobs: jobs}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*100)/float64(b.N), "ns/element")
		})
	}
}
