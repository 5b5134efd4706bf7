//go:build mutants

package remora_test

import (
	"testing"

	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/remora"
)

// TestEngineMutantKilled: the property engine ≡ rules kills the mutant
// planted in the engine alone (go test -tags mutants ./remora/), on the
// examples; switched off by the run's option (NoScalarFolds), the engine
// agrees with the rules again.
func TestEngineMutantKilled(t *testing.T) {
	undo := mutant.Set("remora-engine-fold-sub-flipped")
	defer undo()
	for _, ep := range examplePrograms(t) {
		rules, d := engineMatchesRules(ep.p)
		if d == "" {
			continue
		}
		t.Logf("killed by %s: %s", ep.where, d)
		vs, err := remora.Eval(ep.p, &remora.EvalOptions{Engines: remora.Engines{NoScalarFolds: true}})
		if d := sameOutcome(rules, outcome{vs, err}); d != "" {
			t.Errorf("with NoScalarFolds the mutant still shows: %s", d)
		}
		return
	}
	t.Error("mutant remora-engine-fold-sub-flipped survives engine ≡ rules on every example")
}
