//go:build mutants

package fun_test

import (
	"math/rand"
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

// TestEngineMutantKilled: the property engine ≡ rules kills the mutant
// planted in the engine alone (go test -tags mutants ./fun/).
func TestEngineMutantKilled(t *testing.T) {
	undo := mutant.Set("fun-engine-sub-flipped")
	defer undo()
	r := rand.New(rand.NewSource(31))
	for i := range 1000 {
		c := proofstests.Generate(r, i%(proofstests.MaxGenSize+1), proofstests.ExtGenConfig)
		if _, d := engineMatchesRules(c.Prog, c.Env()); d != "" {
			t.Logf("killed by case %d: %s", i, d)
			return
		}
	}
	t.Error("mutant fun-engine-sub-flipped survives engine ≡ rules on 1000 cases")
}
