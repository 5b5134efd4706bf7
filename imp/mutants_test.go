//go:build mutants

package imp

import (
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
)

// TestExtensionMutants checks, in a build with the tag mutants, that the
// unit tests of the extensions kill each of their mutants: under the
// mutant some case of the table gives another result (big and small
// alike, as the mutation points are shared).
//
//	go test -tags mutants -run TestExtensionMutants ./imp/
func TestExtensionMutants(t *testing.T) {
	for _, tc := range []struct {
		mutant string
		src    string
		args   map[string]string
		want   string // the result without the mutant
	}{
		{"imp-for-off-by-one", `input n : int; var s : int; for i <= n do s <- s + i done; return s`, args("n=4"), "10"},
		{"imp-reduce-skips-neutral", sumSrc, args("xs=[1 2 3 4]", "z=100"), "110"},
		{"imp-scan-exclusive", scanSrc, args("xs=[1 2 3 4]", "z=0"), "[1 3 6 10]"},
	} {
		t.Run(tc.mutant, func(t *testing.T) {
			p := mustParse(t, tc.src, true)
			if big, small := runBoth(t, p, tc.args); big.results() != tc.want || small.results() != tc.want {
				t.Fatalf("without the mutant: %s and %s, want %s", big.results(), small.results(), tc.want)
			}
			undo := mutant.Set(tc.mutant)
			defer undo()
			big, small := runBoth(t, p, tc.args)
			if big.results() == tc.want || small.results() == tc.want {
				t.Errorf("the mutant survives: big %s, small %s", big.results(), small.results())
			}
			if big.results() != small.results() {
				t.Errorf("big and small differ under the mutant (its point is not shared): %s, %s", big.results(), small.results())
			}
		})
	}
}
