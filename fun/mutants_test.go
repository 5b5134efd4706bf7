//go:build mutants

package fun

import (
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
)

// TestExtMutantsKilled checks that the eval cases of the extension forms
// kill each of their mutants (go test -tags mutants ./fun/): with the
// mutant on, some case's result differs from the one expected.
func TestExtMutantsKilled(t *testing.T) {
	for _, name := range []string{"reduce-skips-neutral", "scan-exclusive", "loop-one-short", "filter-keeps-rejected"} {
		undo := mutant.Set(name)
		killed := false
		for _, tc := range evalExtCases {
			if tc.err != "" {
				continue
			}
			big, small := runBoth(t, tc.src, tc.args, nil)
			if big != tc.want || small != tc.want {
				killed = true
				break
			}
		}
		undo()
		if !killed {
			t.Errorf("mutant %s survives the extension eval cases", name)
		}
	}
}
