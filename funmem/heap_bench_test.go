package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The heap big-step on the kernels of arraysem bench's funmem-heap rows
// (compiled from FUN by TransformProgram and the simplifier), for
// profiles: go test -run '^$' -bench HeapKernel -cpuprofile cpu.out.

const benchFlat = `input (n : int)
let (xs_mem : mem) = alloc n
let (xs : [n] @ xs_mem -> R(n)) = iota n
let (ys_mem : mem) = alloc n
let (ys : [n] @ ys_mem -> R(n)) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * 2 + i
    in (y)
let (ys_res_mem : mem) = alloc n
let (ys_res : [n] @ ys_res_mem -> R(n)) = copy ys
in (ys_res_mem, ys_res)
`

const benchNested = `input (n : int)
let (xs_mem : mem) = alloc n
let (xs : [n] @ xs_mem -> R(n)) = iota n
let (b_mem : mem) = alloc n * n
let (b : [n][n] @ b_mem -> R(n, n)) =
  kernel i <= n do
    let (r_mem : mem) = alloc n
    let (r : [n] @ r_mem -> R(n)) =
      kernel j <= n do
        let (x : int) = xs[j]
        let (y : int) = x * i + j
        in (y)
    in (r)
let (b_res_mem : mem) = alloc n * n
let (b_res : [n][n] @ b_res_mem -> R(n, n)) = copy b
in (b_res_mem, b_res)
`

// benchRows is the jobs row's kernel: n rows of 100, each made by a
// nested kernel and summed by a reduce.
const benchRows = `input (n : int)
let (m : int) = 100
let (xs_mem : mem) = alloc m
let (xs : [m] @ xs_mem -> R(100)) = iota m
let (ys_mem : mem) = alloc n
let (ys : [n] @ ys_mem -> R(n)) =
  kernel i <= n do
    let (r_mem : mem) = alloc m
    let (r : [m] @ r_mem -> R(100)) =
      kernel j <= m do
        let (x : int) = xs[j]
        let (y : int) = x * i + j
        in (y)
    let (z : int) = 0
    let (s : int) =
      reduce (a : int) (b : int) = z over r do
        let (c : int) = a + b
        in (c)
    in (s)
let (ys_res_mem : mem) = alloc n
let (ys_res : [n] @ ys_res_mem -> R(n)) = copy ys
in (ys_res_mem, ys_res)
`

func benchHeap(b *testing.B, src, n string, trace bool) {
	p, err := ParseFile("bench.funmem", src)
	if err != nil {
		b.Fatal(err)
	}
	opts := &HeapOptions{}
	if trace {
		opts.Trace = func(_ *fun.Stm, _ *semantics.KernelTrace) {}
	}
	for b.Loop() {
		env, h, err := BindInputs(p, map[string]string{"n": n})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := EvalHeap(p, env, h, opts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHeapKernelFlat(b *testing.B)       { benchHeap(b, benchFlat, "1000000", false) }
func BenchmarkHeapKernelNested(b *testing.B)     { benchHeap(b, benchNested, "1000", false) }
func BenchmarkHeapKernelFlatTraced(b *testing.B) { benchHeap(b, benchFlat, "1000000", true) }
func BenchmarkHeapKernelRows(b *testing.B)       { benchHeap(b, benchRows, "10000", false) }
