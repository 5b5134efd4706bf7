package fun

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation point of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("slice-off-by-one", "fun/eval.go evalAtomic (E-SLICE)",
		"FUN's slices start one element late, in big- and small-step alike (they share evalAtomic)")
}
