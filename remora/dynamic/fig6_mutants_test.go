//go:build mutants

package dynamic_test

import (
	"math/rand"
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/remora/dynamic"
)

// TestEngineMutantKilled: the property engine ≡ rules kills the mutant
// planted in the engine alone (go test -tags mutants ./remora/dynamic/),
// on the examples and on the generated programs, and with the fast path
// it sits in switched off (Engines.NoScalarFolds) the engine agrees with
// the rules again.
func TestEngineMutantKilled(t *testing.T) {
	undo := mutant.Set("dynamic-engine-fold-flipped")
	defer undo()
	killed := func(p *dynamic.Program, where string) bool {
		rules, d := proofstests.DynamicEngineMatchesRules(p, dynamic.EvalOptions{})
		if d == "" {
			return false
		}
		t.Logf("killed by %s: %s", where, d)
		slow := proofstests.RunDynamicEngine(p, dynamic.EvalOptions{Engines: dynamic.Engines{NoScalarFolds: true}})
		if d := proofstests.SameDynamicRun(rules, slow); d != "" {
			t.Errorf("with NoScalarFolds the mutant still shows in %s: %s", where, d)
		}
		return true
	}
	onExamples := false
	for _, p := range programs(t) {
		if killed(p.p, p.where) {
			onExamples = true
			break
		}
	}
	if !onExamples {
		t.Error("mutant dynamic-engine-fold-flipped survives engine ≡ rules on the examples and golden chunks")
	}
	r := rand.New(rand.NewSource(6))
	for i := range 600 {
		src := proofstests.GenerateDialect(r, i%(proofstests.MaxGenSize+1))
		p, _, err := dynamic.ParseFile("gen.remora", src)
		if err != nil {
			t.Fatal(err)
		}
		if killed(p, "generated program:\n"+src) {
			return
		}
	}
	t.Error("mutant dynamic-engine-fold-flipped survives engine ≡ rules on 600 generated programs")
}
