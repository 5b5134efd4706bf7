package imp

import "github.com/arraysem/arraysem/internal/mutant"

// The mutation point of this package (proofs-tests' TestMutants).
func init() {
	mutant.Register("imp-copy-order", "imp/translate.go translator.elementwise (COPY, memcpy)",
		"FunMemToImp's element-wise copy reads the source items in reverse order")
}
