package funmem

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
)

// BenchmarkCheck type checks what the campaigns check most: the
// example programs and expansion chunks, transformed, simplified and
// memory-expanded.
func BenchmarkCheck(b *testing.B) {
	files, chunks := golden.Seeds("../examples/fun/*.fun", "testdata/expand.txt")
	var progs []*fun.Program
	for _, src := range append(files, chunks...) {
		src, _, _ = strings.Cut(src, "-- expanded:")
		p, err := fun.ParseFile("t.fun", src)
		if err != nil {
			continue
		}
		if _, err := fun.Check(p, nil); err != nil || fun.CheckCompileRank(p, "TransformProgram") != nil {
			continue
		}
		q := Transform(p)
		progs = append(progs, q, Simplify(q), MemoryExpand(q, GPU), Simplify(MemoryExpand(q, CPU)))
	}
	if len(progs) == 0 {
		b.Fatal("no programs")
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range progs {
			if _, err := Check(p, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
