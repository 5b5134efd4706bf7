package remora

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants).
// remora-lift-order sits in what the small-step and the rules as written
// share; remora-engine-fold-sub-flipped is in the engine alone (a fast
// path of fold.go), which the property engine ≡ rules kills
// (fig6_mutants_test.go).
func init() {
	mutant.Register("remora-lift-order", "remora/step.go ReplicateTo (lift)",
		"lift tiles the whole array instead of repeating each cell (the small-step's lift, and what else replicates by ReplicateTo)")
	mutant.Register("remora-engine-fold-sub-flipped", "remora/fold.go scalarFold (δ of the fold family, the engine only)",
		"typed Remora's engine computes a - b as b - a in its scalar folds (fold, fold-right, the traces and scans); the rules (fig6.go) and the small-step do not")
}
