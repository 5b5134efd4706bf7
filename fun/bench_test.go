package fun

import (
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
