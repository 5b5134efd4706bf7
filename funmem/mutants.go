package funmem

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("if-support", "funmem/translate.go transformer.support (TransformStm, if)",
		"Support(τ) of an if's array result drops its offset: the pattern's LMAD gets offset 0")
	mutant.Register("expand-stride", "funmem/expand.go expander.expand (GPU layout)",
		"MemoryExpand keeps the strides of the expanded LMAD instead of multiplying them by the kernel's bound y")
	mutant.Register("funmem-scan-row", "funmem/heap_ext.go ext.leave (E-MEM-SCAN)",
		"the scan writes the accumulator after step i to row i-1 (from i = 2), so the last row keeps its zeros")
	mutant.Register("funmem-scan-exclusive", "funmem/heap_ext.go ext.leave (E-MEM-SCAN)",
		"the scan writes the accumulator before step i to row i: an exclusive scan")
	mutant.Register("funmem-filter-past-count", "funmem/heap_ext.go ext.filterFinish (E-MEM-FILTER)",
		"the filter's size counts one row more than it kept (while fewer than n), so the result reads a row past the kept ones")
	mutant.Register("funmem-engine-sub-flipped", "fun/compile_scalar.go arith, sumOfProducts (E-MEM-SCALAR, the engine only)",
		"the compiled heap big-step computes an int a - b on its fast paths as b - a; the rules (fig10.go) and the small-step do not")
	mutant.Register("funmem-loop-stale-support", "funmem/translate_ext.go transformer.loop (TransformStm, loop)",
		"a loop body returns the block of its parameter (the previous iteration's) as its result's support, not the block of the new array")
}
