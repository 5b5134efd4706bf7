//go:build mutants

package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
)

// TestExtensionMutants checks, in a build with the tag mutants, that the
// extension forms' unit cases kill each of their mutants: under the
// mutant the heap semantics (big and small, which share the mutation
// points) gives another result, or TransformProgram's output no longer
// type checks.
//
//	go test -tags mutants -run TestExtensionMutants ./funmem/
func TestExtensionMutants(t *testing.T) {
	for _, tc := range []struct {
		mutant string
		c      heapCase
	}{
		{"funmem-scan-row", heapCase{src: foldSrc, args: args("xss", "[[1 2] [3 4]]", "xs", "[3 1]", "z", "0")}},
		{"funmem-scan-exclusive", heapCase{src: foldSrc, args: args("xss", "[[1 2] [3 4]]", "xs", "[3 1]", "z", "0")}},
		{"funmem-filter-past-count", heapCase{src: filterSrc, args: args("xs", "[3 -1 4]", "xss", "[[1 2] [4 5] [7 8]]")}},
	} {
		t.Run(tc.mutant, func(t *testing.T) {
			p := parseChecked(t, tc.c.src)
			big, small := runHeapBoth(t, p, tc.c)
			if big.err != nil || small.err != nil {
				t.Fatalf("without the mutant: %v, %v", big.err, small.err)
			}
			want := resultString(t, big.h, big.vals)
			undo := mutant.Set(tc.mutant)
			defer undo()
			big, small = runHeapBoth(t, p, tc.c)
			if big.err == nil && resultString(t, big.h, big.vals) == want {
				t.Errorf("the mutant survives the big-step: %s", want)
			}
			if small.err == nil && resultString(t, small.h, small.vals) == want {
				t.Errorf("the mutant survives the small-step: %s", want)
			}
		})
	}
	t.Run("funmem-loop-stale-support", func(t *testing.T) {
		src := `input (n : int) (xs : [n]) (t : int)
let (ys : [n]) =
  loop (acc : [n]) = (xs) for i <= t do
    let (rot : [n]) = kernel j <= n do
        let (v : int) = acc[j]
        in (v)
    in (rot)
in (ys)`
		p, err := fun.ParseFile("loop.fun", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check(Transform(p), nil); err != nil {
			t.Fatalf("without the mutant: %v", err)
		}
		undo := mutant.Set("funmem-loop-stale-support")
		defer undo()
		if _, err := Check(Transform(p), nil); err == nil {
			t.Errorf("the mutant survives: TransformProgram's loop type checks")
		}
	})
}
