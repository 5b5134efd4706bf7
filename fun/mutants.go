package fun

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants). Each
// sits in code the big- and small-step semantics share, so that they stay
// equal under it and only a reference (or an expected output) kills it.
func init() {
	mutant.Register("slice-off-by-one", "fun/fig4.go eSlice (E-SLICE)",
		"FUN's slices start one element late, in big- and small-step alike (they share eSlice)")
	mutant.Register("reduce-skips-neutral", "fun/eval_ext.go foldStart (E-REDUCE)",
		"FUN's reduce starts its fold from the first row instead of z ⊕ x1 (z only for no rows)")
	mutant.Register("scan-exclusive", "fun/eval_ext.go scanItem (E-SCAN)",
		"FUN's scan is exclusive: row i is z ⊕ x1 ⊕ … ⊕ x(i-1), not … ⊕ xi")
	mutant.Register("loop-one-short", "fun/eval_ext.go loopStart (E-LOOP)",
		"FUN's loop runs one iteration too few (E(t) - 1 for a bound above 0)")
	mutant.Register("filter-keeps-rejected", "fun/eval_ext.go keepInt (E-FILTER)",
		"FUN's filter keeps the rows its body rejects as well as the others (every row)")
}
