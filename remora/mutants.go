package remora

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation point of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("remora-lift-order", "remora/step.go ReplicateTo (lift)",
		"lift tiles the whole array instead of repeating each cell (the small-step's lift, and what else replicates by ReplicateTo)")
	mutant.Register("explicitize-rep-outside", "remora/explicitize.go grow",
		"Explicitize grows an argument whose frame is a proper prefix by replicating it whole, outside its frame, instead of each cell inside it")
}
