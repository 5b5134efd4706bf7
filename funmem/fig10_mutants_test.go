//go:build mutants

package funmem_test

import (
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
)

// TestEngineMutantKilled: the property engine ≡ rules over the examples
// kills the mutant planted in the engine alone (go test -tags mutants
// ./funmem/).
func TestEngineMutantKilled(t *testing.T) {
	cases := heapExampleCases(t)
	undo := mutant.Set("funmem-engine-sub-flipped")
	defer undo()
	for _, c := range cases {
		if d, err := engineMatchesRules(c.p, c.args); err == nil && d != "" {
			t.Logf("killed at %s: %s", c.where, d)
			return
		}
	}
	t.Error("mutant funmem-engine-sub-flipped survives engine ≡ rules on the examples")
}
