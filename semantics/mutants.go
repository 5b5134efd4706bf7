package semantics

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("no-race-check", "semantics/race.go Tracker.access",
		"the race tracker never reports a race: racefree (eq 4) always holds")
	mutant.Register("transpose-swap", "semantics/lmad.go LMAD.Transpose",
		"E-MEM-TRANSPOSE's LMAD swaps the sizes of the two dimensions but not their strides")
}
