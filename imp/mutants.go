package imp

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants). Those
// of the extensions sit in imp/loops.go, which the big- and small-step
// semantics share, so that the two stay equal under them and only an
// expected output (an example, a unit test's want) kills them.
func init() {
	mutant.Register("imp-copy-order", "imp/translate.go translator.elementwise (COPY, memcpy)",
		"FunMemToImp's element-wise copy reads the source items in reverse order")
	mutant.Register("imp-engine-sub-flipped", "fun/compile_scalar.go arith, sumOfProducts; imp/intfold.go intStep (the engine only)",
		"IMP's engine computes an int a - b on its fast paths (x - k, x - y, sums, a fold's one-operation combine) as b - a; the rules (fig12.go) and the small-step do not")
	mutant.Register("imp-for-off-by-one", "imp/loops.go forIteration (I-FOR)",
		"IMP's for binds its index to 0 … n-1 instead of 1 … n")
	mutant.Register("imp-reduce-skips-neutral", "imp/loops.go foldRun.combined (I-REDUCE)",
		"IMP's reduce starts its fold from the first element instead of ne ⊕ y1 (ne only for no elements)")
	mutant.Register("imp-scan-exclusive", "imp/loops.go foldRun.combined (I-SCAN)",
		"IMP's scan writes the exclusive prefix: after element i, ne ⊕ y1 ⊕ … ⊕ y(i-1), not … ⊕ yi")
}
