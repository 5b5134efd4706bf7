package dynamic

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants).
// dynamic-whole-cell sits in the frames every semantics shares, so that
// only an expected output kills it; dynamic-engine-fold-flipped is in the
// engine alone, which the property engine ≡ rules kills
// (fig6_mutants_test.go).
func init() {
	mutant.Register("dynamic-whole-cell", "remora/dynamic/eval.go appFrames",
		"an argument of a rank-all parameter is cut into scalar cells, its whole shape taken for a frame (big- and small-step alike)")
	mutant.Register("dynamic-engine-fold-flipped", "remora/dynamic/fold.go scalarFold (δ, the engine only)",
		"the dynamic dialect's engine applies a fold's scalar operator to its arguments swapped on its flat loop ((op x acc) for a left fold); the rules (fig6.go) and the small-step do not")
}
