package remora

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation point of Simplify (remora/simplify_mutants_test.go kills
// it with the golden chunks of testdata/simplify.txt).
func init() {
	mutant.Register("simplify-hoist-past-empty", "remora/simplify.go hoistInvariants",
		"hoisting takes a computation that can go wrong out of a loop whose frame may be empty (the hazard of §4.5), so a program that runs no iteration goes wrong")
}
