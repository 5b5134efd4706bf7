//go:build mutants

package imp_test

import (
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
)

// TestEngineMutantKilled: the property engine ≡ rules over the examples
// kills the mutant planted in the engine alone (go test -tags mutants
// ./imp/).
func TestEngineMutantKilled(t *testing.T) {
	cases := exampleCases(t)
	undo := mutant.Set("imp-engine-sub-flipped")
	defer undo()
	for _, c := range cases {
		if d, err := engineMatchesRules(c.p, c.args); err == nil && d != "" {
			t.Logf("killed at %s: %s", c.where, d)
			return
		}
	}
	t.Error("mutant imp-engine-sub-flipped survives engine ≡ rules on the examples")
}
