package fun

import "github.com/arraysem/arraysem/semantics"

// MaxCompileRank bounds the rank of the arrays the compile path takes
// below FUN (FUN → FUNMEM → IMP → CUDA). Each level of a nest of kernels
// copies its rank-r result into its parent's block with r nested loops
// whose index has r terms, so a program of rank r compiles to code of
// size r³: a 623-byte rank-300 literal of the dynamic dialect took 505 s
// and 1.45 GB to compile and gave 321 MB of CUDA. The interpreters have
// no such bound (the readers nest up to semantics.MaxDepth).
const MaxCompileRank = 32

// CheckCompileRank refuses, as an error of rule (the pass that refuses)
// at the binding, a program that binds an array of rank above
// MaxCompileRank.
func CheckCompileRank(p *Program, rule string) error {
	var deep *Param
	Inspect(p, func(n Node) bool {
		if deep != nil {
			return false
		}
		switch n := n.(type) {
		case *Param:
			if n.Type.Rank() > MaxCompileRank {
				deep = n
			}
		case *Ident, *ScalarExp, *IndexExp, *SliceExp, *TransposeExp, *IotaExp, *CopyExp, *AssertExp:
			return false // no binding inside: not worth walking
		}
		return true
	})
	if deep == nil {
		return nil
	}
	pos := deep.Pos()
	if !pos.IsValid() {
		pos = deep.Name.NamePos
	}
	if !pos.IsValid() {
		pos = semantics.Pos{File: p.File}
	}
	if pos.File == "" {
		pos.File = p.File
	}
	return semantics.Errorf(pos, semantics.TypeError, rule, "%s is an array of rank %d: the compile path takes arrays of rank up to %d (the code it writes grows with the cube of the rank)", deep.Name.Name, deep.Type.Rank(), MaxCompileRank)
}
