package remora

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation point of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("remora-lift-order", "remora/step.go ReplicateTo (lift)",
		"lift tiles the whole array instead of repeating each cell (the small-step's lift, and what else replicates by ReplicateTo)")
}
