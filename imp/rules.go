package imp

import "github.com/arraysem/arraysem/semantics"

// The rules of IMP: the big- and small-step rules of Fig 12, and the two
// rules of the type checking that §4 calls "trivial and uninteresting"
// and elides (named here, as the paper names none). The code names a rule
// by these values, never by a string literal; Rules lists them all.
var (
	EImpDecInt    = semantics.Rule{Name: "E-IMP-DEC-INT", Figure: "Fig 12", Doc: "var x : int declares x, initially 0"}
	EImpDecMem    = semantics.Rule{Name: "E-IMP-DEC-MEM", Figure: "Fig 12", Doc: "var m : mem declares a block variable"}
	EImpAssignInt = semantics.Rule{Name: "E-IMP-ASSIGN-INT", Figure: "Fig 12", Doc: "x := se stores the value of se in x"}
	EImpAssignMem = semantics.Rule{Name: "E-IMP-ASSIGN-MEM", Figure: "Fig 12", Doc: "m := m' makes m name the block m' names"}
	EImpRead      = semantics.Rule{Name: "E-IMP-READ", Figure: "Fig 12", Doc: "x := m[se] reads the heap at an in-bounds offset"}
	EImpWrite     = semantics.Rule{Name: "E-IMP-WRITE", Figure: "Fig 12", Doc: "m[se] := se' writes the heap at an in-bounds offset"}
	EImpAlloc     = semantics.Rule{Name: "E-IMP-ALLOC", Figure: "Fig 12", Doc: "m := alloc se adds a fresh block of zeros to the heap"}
	EImpSeq       = semantics.Rule{Name: "E-IMP-SEQ", Figure: "Fig 12", Doc: "s1; s2 runs s1, then s2"}
	EImpIfTrue    = semantics.Rule{Name: "E-IMP-IF-TRUE", Figure: "Fig 12", Doc: "an if whose condition is not 0 runs its then branch"}
	EImpIfFalse   = semantics.Rule{Name: "E-IMP-IF-FALSE", Figure: "Fig 12", Doc: "an if whose condition is 0 runs its else branch"}
	EImpSkip      = semantics.Rule{Name: "E-IMP-SKIP", Figure: "Fig 12", Doc: "skip does nothing"}
	EImpKernel    = semantics.Rule{Name: "E-IMP-KERNEL", Figure: "Fig 12", Doc: "a kernel's threads run on one heap, racefree (eq 4)"}

	ImpScope = semantics.Rule{Name: "IMP-SCOPE", Figure: "§4", Doc: "a variable is declared before its use, in a scope still open"}
	ImpType  = semantics.Rule{Name: "IMP-TYPE", Figure: "§4", Doc: "ints and blocks are not mixed"}
)

// Rules is IMP's rule table.
var Rules = semantics.RuleTable{
	EImpDecInt, EImpDecMem, EImpAssignInt, EImpAssignMem, EImpRead, EImpWrite, EImpAlloc, EImpSeq,
	EImpIfTrue, EImpIfFalse, EImpSkip, EImpKernel, ImpScope, ImpType,
}
