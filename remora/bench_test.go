package remora

import (
	"fmt"
	"testing"
)

// The benchmarks report elements per second (the performance
// target): lifted arithmetic over flat frames, with and without
// replication, and reductions, on the big-step evaluator.

func benchProgram(b *testing.B, src string, elems int) {
	b.Helper()
	p, _, err := ParseFile("bench.remora", src)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Check(p, nil); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Eval(p, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(elems)*float64(b.N)/b.Elapsed().Seconds(), "elems/s")
}

// BenchmarkReduceIota is the target at 10^6 and 10^7 elements
// (10^8 takes seconds; run with -benchtime=1x and the N=8 case).
func BenchmarkReduceIota(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchProgram(b, fmt.Sprintf("(reduce-init{int | %d [] []} + 0 iota{ | [%d]})", n, n), n)
		})
	}
}

func BenchmarkLiftedAdd(b *testing.B) {
	const n = 1_000_000
	benchProgram(b, fmt.Sprintf("(+ iota{ | [%d]} iota{ | [%d]})", n, n), n)
}

func BenchmarkLiftedReplicated(b *testing.B) {
	// A [1000] frame against a [1000 1000] frame: each scalar of the
	// vector is replicated along the second axis (Fig 1).
	benchProgram(b, "(* iota{ | [1000]} iota{ | [1000 1000]})", 1_000_000)
}

func BenchmarkFloatMean(b *testing.B) {
	const n = 1_000_000
	benchProgram(b, fmt.Sprintf("(/. (reduce-init{float | %d [] []} +. 0. (int->float iota{ | [%d]})) %d.)", n, n, n), n)
}

func BenchmarkReduceRows(b *testing.B) {
	// Sum the columns of a 1000x1000 matrix: reduce with @pad = [1000].
	benchProgram(b, "(reduce{int | 999 [1000] []} + iota{ | [1000 1000]})", 1_000_000)
}

func BenchmarkLambdaLifted(b *testing.B) {
	// A λ lifted over a frame runs its body once per cell (interpreted).
	const n = 100_000
	benchProgram(b, fmt.Sprintf("((fn ([x int]) (+ (* x x) 1)) iota{ | [%d]})", n), n)
}
