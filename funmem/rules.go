package funmem

import "github.com/arraysem/arraysem/semantics"

// The rules of FUNMEM: the typing rules of Fig 8 and the heap semantics
// of Fig 10, plus those of the derived forms iota and copy and of the
// extension forms (Figure "extension"). Scalar
// expressions are typed by FUN's T-CONST, T-VAR and T-OP, and with floats
// T-FLOAT and T-CALL (fun.Rules). The
// code names a rule by these values, never by a string literal; Rules
// lists them all.
var (
	TMemScalar    = semantics.Rule{Name: "T-MEM-SCALAR", Figure: "Fig 8", Doc: "a scalar expression binds one int or float, of its type"}
	TMemAlloc     = semantics.Rule{Name: "T-MEM-ALLOC", Figure: "Fig 8", Doc: "alloc se, with se an int, binds one mem"}
	TMemIndex     = semantics.Rule{Name: "T-MEM-INDEX", Figure: "Fig 8", Doc: "x[y, …] with one int index per dimension is an element of x's type (int or float)"}
	TMemIf        = semantics.Rule{Name: "T-MEM-IF", Figure: "Fig 8", Doc: "both branches give the pattern's types, memory annotations included"}
	TMemTranspose = semantics.Rule{Name: "T-MEM-TRANSPOSE", Figure: "Fig 8", Doc: "transpose x is in x's block, with x's LMAD transposed"}
	TMemSlice     = semantics.Rule{Name: "T-MEM-SLICE", Figure: "Fig 8", Doc: "a slice is in x's block, with x's LMAD sliced"}
	TMemKernel    = semantics.Rule{Name: "T-MEM-KERNEL", Figure: "Fig 8", Doc: "a kernel's results are written in place into the pattern's blocks"}
	TMemResult    = semantics.Rule{Name: "T-MEM-RESULT", Figure: "Fig 8", Doc: "in (x, …) gives results of the types the pattern binds"}
	TMemStm       = semantics.Rule{Name: "T-MEM-STM", Figure: "Fig 8", Doc: "let p = e; b: the pattern declares the types of e, in scope in b"}
	TMemLMAD      = semantics.Rule{Name: "T-MEM-LMAD", Figure: "Fig 8", Doc: "an LMAD has one (elements : stride) per dimension, of int variables in scope"}
	TMemInt       = semantics.Rule{Name: "T-MEM-INT", Figure: "Fig 8", Doc: "int is a well-formed type"}
	TMemArray     = semantics.Rule{Name: "T-MEM-ARRAY", Figure: "Fig 8", Doc: "[x]… @ m -> L is well formed: m is a mem, L an LMAD of its rank"}
	TMemProg      = semantics.Rule{Name: "T-MEM-PROG", Figure: "Fig 8", Doc: "a program's body checks with its inputs in Γ"}
	TMemIota      = semantics.Rule{Name: "T-MEM-IOTA", Figure: "§3", Doc: "iota x is a fresh 1-D array in the pattern's block"}
	TMemCopy      = semantics.Rule{Name: "T-MEM-COPY", Figure: "§3", Doc: "copy x is a fresh array of x's type in the pattern's block"}

	EMemAlloc     = semantics.Rule{Name: "E-MEM-ALLOC", Figure: "Fig 10", Doc: "alloc n adds a fresh block of n zeros to the heap"}
	EMemSlice     = semantics.Rule{Name: "E-MEM-SLICE", Figure: "Fig 10", Doc: "a slice binds its block and LMAD; no memory is touched"}
	EMemIndex     = semantics.Rule{Name: "E-MEM-INDEX", Figure: "Fig 10", Doc: "x[y, …] reads the heap through x's LMAD"}
	EMemTranspose = semantics.Rule{Name: "E-MEM-TRANSPOSE", Figure: "Fig 10", Doc: "transpose binds its block and transposed LMAD; no memory is touched"}
	EMemKernel    = semantics.Rule{Name: "E-MEM-KERNEL", Figure: "Fig 10", Doc: "a kernel's threads write their results in place, racefree (eq 4)"}
	EMemIfT       = semantics.Rule{Name: "E-MEM-IF-T", Figure: "Fig 10", Doc: "an if whose condition is not 0 runs its then branch"}
	EMemIfF       = semantics.Rule{Name: "E-MEM-IF-F", Figure: "Fig 10", Doc: "an if whose condition is 0 runs its else branch"}
	EStms         = semantics.Rule{Name: "E-STMS", Figure: "Fig 10", Doc: "statements run in order, each binding its pattern"}
	EMemProg      = semantics.Rule{Name: "E-MEM-PROG", Figure: "Fig 10", Doc: "a program runs on a heap holding its inputs"}
	EMemScalar    = semantics.Rule{Name: "E-MEM-SCALAR", Figure: "Fig 10", Doc: "a scalar expression evaluates to an int or a float (FUN's evaluation, IEEE for floats)"}
	EMemIota      = semantics.Rule{Name: "E-MEM-IOTA", Figure: "§3", Doc: "iota x writes 0, …, x-1 through the pattern's LMAD"}
	EMemCopy      = semantics.Rule{Name: "E-MEM-COPY", Figure: "§3", Doc: "copy x writes x's elements through the pattern's LMAD (memcpy, eq 5)"}

	// The extension forms (docs/funmem.md, "Extensions"): not in the
	// paper; check --paper refuses them.
	TMemLoop   = semantics.Rule{Name: "T-MEM-LOOP", Figure: "extension", Doc: "a loop's initial values, its body's results and its pattern have its parameters' types, supporting information included (T-MEM-RESULT's S)"}
	TMemReduce = semantics.Rule{Name: "T-MEM-REDUCE", Figure: "extension", Doc: "reduce's operands, start and result have the type of xs's rows; array operands are support groups"}
	TMemScan   = semantics.Rule{Name: "T-MEM-SCAN", Figure: "extension", Doc: "scan gives a fresh [n]τ in the pattern's block, written row by row"}
	TMemFilter = semantics.Rule{Name: "T-MEM-FILTER", Figure: "extension", Doc: "filter binds its size and a fresh array of that size in the pattern's block"}
	TMemAssert = semantics.Rule{Name: "T-MEM-ASSERT", Figure: "extension", Doc: "assert se, with se an int, binds one int"}

	TMemRedomap  = semantics.Rule{Name: "T-MEM-REDOMAP", Figure: "extension", Doc: "redomap's operands, start, map body's and operator body's results and its result have the operands' shape; array operands are support groups"}
	TMemScanomap = semantics.Rule{Name: "T-MEM-SCANOMAP", Figure: "extension", Doc: "scanomap types as redomap and gives a fresh [n]τ in the pattern's block, written row by row"}

	EMemLoop   = semantics.Rule{Name: "E-MEM-LOOP", Figure: "extension", Doc: "a loop runs its body for i = 1 … E(t) in order, carrying arrays by reference with their support"}
	EMemReduce = semantics.Rule{Name: "E-MEM-REDUCE", Figure: "extension", Doc: "reduce is the left fold of xs's rows, read as a kernel's threads would; a combine writes only blocks it allocates"}
	EMemScan   = semantics.Rule{Name: "E-MEM-SCAN", Figure: "extension", Doc: "scan folds as reduce and writes row i through the pattern's LMAD after step i (traced as element i's)"}
	EMemFilter = semantics.Rule{Name: "E-MEM-FILTER", Figure: "extension", Doc: "filter runs its body per row as a kernel's iterations and writes the kept rows compactly through the pattern's LMAD"}
	EMemAssert = semantics.Rule{Name: "E-MEM-ASSERT", Figure: "extension", Doc: "assert se binds 1 when E(se) is not 0, else is stuck with its message"}

	EMemRedomap  = semantics.Rule{Name: "E-MEM-REDOMAP", Figure: "extension", Doc: "redomap runs element i's map body, as a kernel's thread i (racefree among elements), then its combine, which writes only blocks it allocates, for i = 1 … n"}
	EMemScanomap = semantics.Rule{Name: "E-MEM-SCANOMAP", Figure: "extension", Doc: "scanomap folds as redomap and writes row i through the pattern's LMAD after step i (traced as element i's)"}

	// Validity is Def 3.1: a FUNMEM program is valid when its heap-based
	// results are its value-based ones (CheckValidity decides it).
	Validity = semantics.Rule{Name: "Def 3.1", Figure: "Def 3.1", Doc: "the heap-based semantics gives the value-based semantics' results"}
)

// Rules is FUNMEM's rule table.
var Rules = semantics.RuleTable{
	TMemScalar, TMemAlloc, TMemIndex, TMemIf, TMemTranspose, TMemSlice, TMemKernel, TMemResult, TMemStm,
	TMemLMAD, TMemInt, TMemArray, TMemProg, TMemIota, TMemCopy,
	EMemAlloc, EMemSlice, EMemIndex, EMemTranspose, EMemKernel, EMemIfT, EMemIfF, EStms, EMemProg,
	EMemScalar, EMemIota, EMemCopy, Validity,
	TMemLoop, TMemReduce, TMemScan, TMemFilter, TMemAssert, TMemRedomap, TMemScanomap,
	EMemLoop, EMemReduce, EMemScan, EMemFilter, EMemAssert, EMemRedomap, EMemScanomap,
}
