package fun

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants). Each
// but one sits in code the big- and small-step semantics share, so that
// they stay equal under it and only a reference (or an expected output)
// kills it; fun-engine-sub-flipped is in the engine alone (in the int
// fast paths of compile_scalar.go, which FUNMEM's and IMP's engines share
// with their own mutants), which the property engine ≡ rules kills
// (fig4_mutants_test.go).
func init() {
	mutant.Register("slice-off-by-one", "fun/fig4.go eSlice (E-SLICE)",
		"FUN's slices start one element late, in big- and small-step alike (they share eSlice)")
	mutant.Register("fun-engine-sub-flipped", "fun/compile_scalar.go arith, sumOfProducts (E-SCALAR, the engine only)",
		"FUN's engine computes an int a - b on its fast paths as b - a; the rules (fig4.go) and the small-step do not")
	mutant.Register("reduce-skips-neutral", "fun/eval_ext.go foldStart (E-REDUCE)",
		"FUN's reduce starts its fold from the first row instead of z ⊕ x1 (z only for no rows)")
	mutant.Register("scan-exclusive", "fun/eval_ext.go scanItem (E-SCAN)",
		"FUN's scan is exclusive: row i is z ⊕ x1 ⊕ … ⊕ x(i-1), not … ⊕ xi")
	mutant.Register("loop-one-short", "fun/eval_ext.go loopStart (E-LOOP)",
		"FUN's loop runs one iteration too few (E(t) - 1 for a bound above 0)")
	mutant.Register("filter-keeps-rejected", "fun/eval_ext.go keepInt (E-FILTER)",
		"FUN's filter keeps the rows its body rejects as well as the others (every row)")
}
