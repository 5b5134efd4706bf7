package funmem

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation points of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("if-support", "funmem/translate.go transformer.support (TransformStm, if)",
		"Support(τ) of an if's array result drops its offset: the pattern's LMAD gets offset 0")
	mutant.Register("expand-stride", "funmem/expand.go expander.expand (GPU layout)",
		"MemoryExpand keeps the strides of the expanded LMAD instead of multiplying them by the kernel's bound y")
}
