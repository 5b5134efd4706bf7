package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// BenchmarkCheck type checks what the campaigns check most: the
// example programs and expansion chunks, transformed, simplified and
// memory-expanded.
func BenchmarkCheck(b *testing.B) {
	var progs []*fun.Program
	for _, q := range transformedSeeds(b) {
		progs = append(progs, q, Simplify(q), MemoryExpand(q, GPU), Simplify(MemoryExpand(q, CPU)))
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
