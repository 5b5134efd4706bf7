package dynamic

import (
	"testing"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// BenchmarkScalarAdd measures what Racket's numbers (number.go) cost the
// dialect's lifted arithmetic on 10^6 ints, against the typed core's
// int64 loop on the same arrays (ERRATA R15):
//
//	typed-int64   remora.ScalarLoop with the typed +, which wraps
//	dynamic-int64 the dialect's + on two int arrays: the machine-word path
//	              with an overflow check
//	dynamic-mixed the same sum with its first atom overflowing: the whole
//	              loop takes the exact path, one result a big integer
//	dynamic-big   every sum overflows: every atom is a big integer
//	dynamic-float + on an int array and a float scalar (the general path
//	              with conversion)
//
// On the 2-core machine this was written on, shared with other work (go
// test -bench ScalarAdd -benchtime 30x -count 2), per 10^6 adds:
// typed-int64 5.8–9.4 ms, dynamic-int64 3.0–4.5 ms (no slower: the
// overflow check costs less than the typed loop's call per atom),
// dynamic-mixed 270 ms, dynamic-big 1.2 s, dynamic-float 35–40 ms. The
// exact path is paid only by programs whose numbers leave int64.
func BenchmarkScalarAdd(b *testing.B) {
	const n = 1_000_000
	xs := remora.NewValue(remora.KInt, []int64{n}, n)
	ys := remora.NewValue(remora.KInt, []int64{n}, n)
	first := remora.NewValue(remora.KInt, []int64{n}, n)
	huge := remora.NewValue(remora.KInt, []int64{n}, n)
	for i := range xs.I {
		xs.I[i], ys.I[i], first.I[i], huge.I[i] = int64(i), int64(2*i), int64(i), 1<<62+int64(i)
	}
	first.I[0], ys.I[0] = 1<<63-1, 1
	frame := []int64{n}
	fs := [][]int64{frame, frame}
	pos := semantics.Pos{File: "bench"}
	plus := Basis["+"]
	run := func(name string, f func() (*remora.Value, error)) {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := f(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "elems/s")
		})
	}
	run("typed-int64", func() (*remora.Value, error) {
		return remora.ScalarLoop(remora.Basis["+"], []*remora.Value{xs, ys}, frame, fs, remora.KInt, pos)
	})
	run("dynamic-int64", func() (*remora.Value, error) {
		return scalarLoop(plus, []*remora.Value{xs, ys}, frame, fs, pos)
	})
	run("dynamic-mixed", func() (*remora.Value, error) {
		return scalarLoop(plus, []*remora.Value{first, ys}, frame, fs, pos)
	})
	run("dynamic-big", func() (*remora.Value, error) {
		return scalarLoop(plus, []*remora.Value{huge, huge}, frame, fs, pos)
	})
	run("dynamic-float", func() (*remora.Value, error) {
		return scalarLoop(plus, []*remora.Value{xs, remora.FloatScalar(0.5)}, frame, [][]int64{frame, nil}, pos)
	})
}

// BenchmarkReduceIota is the dynamic-reduce row's program, (reduce + 0
// (iota [10^6])), by the big-step (the row compares it with the typed
// dialect's reduce-init of a bound iota).
func BenchmarkReduceIota(b *testing.B) {
	p, _, err := ParseFile("bench.remora", "(reduce + 0 (iota [1000000]))")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Eval(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}
