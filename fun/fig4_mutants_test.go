//go:build mutants

package fun_test

import (
	"math/rand"
	"testing"

	"github.com/arraysem/arraysem/fun"
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
		if rules, d := engineMatchesRules(c.Prog, c.Env()); d != "" {
			t.Logf("killed by case %d: %s", i, d)
			// The mutant is in the int fast paths: switched off by the
			// run's option, the engine agrees with the rules again.
			rules.counter, rules.deriv = nil, ""
			if d := sameRun(record(fun.Eval, c.Prog, c.Env(), false, 1, true), rules); d != "" {
				t.Errorf("with NoIntFastPaths the mutant still shows: %s\n%s", d, c)
			}
			return
		}
	}
	t.Error("mutant fun-engine-sub-flipped survives engine ≡ rules on 1000 cases")
}
