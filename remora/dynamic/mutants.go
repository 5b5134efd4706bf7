package dynamic

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation point of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("dynamic-whole-cell", "remora/dynamic/eval.go appFrames",
		"an argument of a rank-all parameter is cut into scalar cells, its whole shape taken for a frame (big- and small-step alike)")
}
