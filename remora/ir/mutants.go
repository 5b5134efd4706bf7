package ir

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of the IR's passes: Simplify's
// (simplify_mutants_test.go kills it with the golden chunks of
// testdata/simplify.txt) and Explicitize's (proofs-tests' TestMutants).
func init() {
	mutant.Register("explicitize-rep-outside", "remora/ir/explicitize.go grow",
		"Explicitize grows an argument whose frame is a proper prefix by replicating it whole, outside its frame, instead of each cell inside it")
	mutant.Register("simplify-hoist-past-empty", "remora/ir/simplify.go hoistInvariants",
		"hoisting takes a computation that can go wrong out of a loop whose frame may be empty (the hazard of §4.5), so a program that runs no iteration goes wrong")
}
