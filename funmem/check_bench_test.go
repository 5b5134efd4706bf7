package funmem

import (
	"testing"
)

// BenchmarkCheck type checks what the campaigns check most: the
// example programs and expansion chunks, transformed, simplified and
// memory-expanded.
func BenchmarkCheck(b *testing.B) {
	progs := seedVariants(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range progs {
			if _, err := Check(p, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
