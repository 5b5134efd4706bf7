package imp

import "github.com/arraysem/arraysem/semantics"

// The rules of IMP: the big- and small-step rules of Fig 12, the rules
// of the type checking that §4 calls "trivial and uninteresting" and
// elides (named here, as the paper names none: the two its errors name,
// and one per form for its derivations), and the rules of the
// extensions (Figure "extension"). The code names a rule by these
// values, never by a string literal; Rules lists them all.
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

	// The extensions (issue 14): a sequential loop, an assertion, and a
	// reduction and a scan whose elements are independent, as a kernel's
	// iterations, and whose combine is associative.
	IFor    = semantics.Rule{Name: "I-FOR", Figure: "extension", Doc: "for i <= se do s done runs s for i = 1 … E(se) in turn; the body's declarations and i end at done"}
	IAssert = semantics.Rule{Name: "I-ASSERT", Figure: "extension", Doc: "assert se \"msg\" does nothing when se is not 0, and is stuck with msg when it is"}
	IReduce = semantics.Rule{Name: "I-REDUCE", Figure: "extension", Doc: "reduce x <- ne … sets x to the left fold ((ne ⊕ y1) ⊕ y2) … ⊕ yn of the elements, racefree among elements and combines"}
	IScan   = semantics.Rule{Name: "I-SCAN", Figure: "extension", Doc: "scan m[se] <- ne … writes ne ⊕ y1 ⊕ … ⊕ yi at m[se] after element i, racefree among elements and combines"}

	ImpFor    = semantics.Rule{Name: "IMP-FOR", Figure: "extension", Doc: "a for's bound is an int; its body is a scope with the index"}
	ImpAssert = semantics.Rule{Name: "IMP-ASSERT", Figure: "extension", Doc: "an assert's condition is an int"}
	ImpReduce = semantics.Rule{Name: "IMP-REDUCE", Figure: "extension", Doc: "a reduce's target is a declared int; each part yields an int of its own"}
	ImpScan   = semantics.Rule{Name: "IMP-SCAN", Figure: "extension", Doc: "a scan's target is a block, its offset an int with the index; each part yields an int of its own"}

	ImpScope = semantics.Rule{Name: "IMP-SCOPE", Figure: "§4", Doc: "a variable is declared before its use, in a scope still open"}
	ImpType  = semantics.Rule{Name: "IMP-TYPE", Figure: "§4", Doc: "ints and blocks are not mixed (nor, with floats, ints and floats)"}

	// The judgements of the typing derivation (check --derive), one rule
	// per form: Γ ⊢ s ⊣ Γ' for a statement s, which leaves the scope Γ'
	// (only var changes it), Γ ⊢ se : τ for a scalar expression, and ⊢ P
	// : (τ̄) for a program. Their side conditions are IMP-SCOPE's and
	// IMP-TYPE's, which name the errors.
	ImpProg   = semantics.Rule{Name: "IMP-PROG", Figure: "§4", Doc: "a program's inputs make Γ (an array input its block, sized by int inputs); its statements check in Γ, and its results are declared in the scope they leave"}
	ImpSeq    = semantics.Rule{Name: "IMP-SEQ", Figure: "§4", Doc: "s1; …; sn checks each statement in the scope the ones before it leave"}
	ImpSkip   = semantics.Rule{Name: "IMP-SKIP", Figure: "§4", Doc: "skip (and an empty body) checks in any scope, leaving it as it is"}
	ImpDec    = semantics.Rule{Name: "IMP-DEC", Figure: "§4", Doc: "var x : τ adds x : τ to the scope (in an if's branch or a for's body, not retyping a variable of the scope the body began with)"}
	ImpAssign = semantics.Rule{Name: "IMP-ASSIGN", Figure: "§4", Doc: "x <- se: x is declared with se's type, or x and the variable se are blocks"}
	ImpAlloc  = semantics.Rule{Name: "IMP-ALLOC", Figure: "§4", Doc: "x <- alloc se: se is an int and x a block"}
	ImpRead   = semantics.Rule{Name: "IMP-READ", Figure: "§4", Doc: "x <- m[se]: m is a block, se an int, and x an int or a float"}
	ImpWrite  = semantics.Rule{Name: "IMP-WRITE", Figure: "§4", Doc: "m[se] <- se': m is a block, se an int, and se' an int or a float"}
	ImpIf     = semantics.Rule{Name: "IMP-IF", Figure: "§4", Doc: "if x then s1 else s2 fi: x is an int; each branch is a scope of its own"}
	ImpKernel = semantics.Rule{Name: "IMP-KERNEL", Figure: "§4", Doc: "kernel x <= se do s done: se is an int; the body is a scope of its own, with x an int"}
	ImpOp     = semantics.Rule{Name: "IMP-OP", Figure: "§4", Doc: "an operator's operands have one type, which is its result's (a comparison gives an int)"}

	// Floats (an extension, docs/imp.md "Floats"): float variables and
	// inputs, float constants and functions; blocks hold words, read and
	// written as the variable or value is typed.
	EImpDecFloat = semantics.Rule{Name: "E-IMP-DEC-FLOAT", Figure: "extension", Doc: "var x : float declares x, initially 0.0"}
	ImpFloat     = semantics.Rule{Name: "IMP-FLOAT", Figure: "extension", Doc: "float declarations, inputs, results, constants and functions are an extension: an operator's operands have one type, and % && || take ints"}
)

// Rules is IMP's rule table.
var Rules = semantics.RuleTable{
	EImpDecInt, EImpDecMem, EImpAssignInt, EImpAssignMem, EImpRead, EImpWrite, EImpAlloc, EImpSeq,
	EImpIfTrue, EImpIfFalse, EImpSkip, EImpKernel, ImpScope, ImpType,
	IFor, IAssert, IReduce, IScan, ImpFor, ImpAssert, ImpReduce, ImpScan,
	EImpDecFloat, ImpFloat,
	ImpProg, ImpSeq, ImpSkip, ImpDec, ImpAssign, ImpAlloc, ImpRead, ImpWrite, ImpIf, ImpKernel, ImpOp,
}
