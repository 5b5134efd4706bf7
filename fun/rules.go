package fun

import "github.com/arraysem/arraysem/semantics"

// The rules of FUN: the typing rules of Fig 3 and the big- and small-step
// rules of Fig 4, plus those of the derived forms iota and copy (§2) and
// of the extension forms (Figure "extension"),
// which the code applies as rules of their own. The code names a rule by
// these values (a rule's Name where an API wants a string), never by a
// string literal; Rules lists them all.
var (
	TConst     = semantics.Rule{Name: "T-CONST", Figure: "Fig 3", Doc: "a constant k has type int"}
	TVar       = semantics.Rule{Name: "T-VAR", Figure: "Fig 3", Doc: "a variable of a scalar expression is an int in Γ"}
	TOp        = semantics.Rule{Name: "T-OP", Figure: "Fig 3", Doc: "an operator applied to ints is an int; with floats, + - * / on two floats a float, a comparison of two floats an int, and % && || take ints only"}
	TScalar    = semantics.Rule{Name: "T-SCALAR", Figure: "Fig 3", Doc: "a scalar expression used as an expression binds one int"}
	TIndex     = semantics.Rule{Name: "T-INDEX", Figure: "Fig 3", Doc: "x[y1, …, yn] with one int index per dimension is an int"}
	TIf        = semantics.Rule{Name: "T-IF", Figure: "Fig 3", Doc: "both branches of an if on an int give the pattern's types"}
	TTranspose = semantics.Rule{Name: "T-TRANSPOSE", Figure: "Fig 3", Doc: "transpose x swaps the two dimensions of a 2-D array"}
	TSlice     = semantics.Rule{Name: "T-SLICE", Figure: "Fig 3", Doc: "x[o : s, …] has the sizes s, one offset and size per dimension"}
	TKernel    = semantics.Rule{Name: "T-KERNEL", Figure: "Fig 3", Doc: "kernel x <= y do b adds the outer dimension y to each result of b"}
	TResult    = semantics.Rule{Name: "T-RESULT", Figure: "Fig 3", Doc: "in (x, …) gives the types of the result variables"}
	TStm       = semantics.Rule{Name: "T-STM", Figure: "Fig 3", Doc: "let p = e; b: the pattern declares the types of e, in scope in b"}
	TProg      = semantics.Rule{Name: "T-PROG", Figure: "Fig 3", Doc: "a program's body checks with its inputs in Γ"}
	TIota      = semantics.Rule{Name: "T-IOTA", Figure: "§2", Doc: "iota x, derived from a kernel, is a 1-D array of size x"}
	TCopy      = semantics.Rule{Name: "T-COPY", Figure: "§2", Doc: "copy x, derived from nested kernels, has the type of x"}

	EIfTrue    = semantics.Rule{Name: "E-IF-TRUE", Figure: "Fig 4", Doc: "an if whose condition is not 0 runs its then branch"}
	EIfFalse   = semantics.Rule{Name: "E-IF-FALSE", Figure: "Fig 4", Doc: "an if whose condition is 0 runs its else branch"}
	EIf        = semantics.Rule{Name: "E-IF", Figure: "Fig 4", Doc: "an if whose condition is not an int is stuck (neither E-IF-TRUE nor E-IF-FALSE)"}
	EScalar    = semantics.Rule{Name: "E-SCALAR", Figure: "Fig 4", Doc: "a scalar expression evaluates to an int"}
	EIndex     = semantics.Rule{Name: "E-INDEX", Figure: "Fig 4", Doc: "x[y, …] reads the element at in-bounds indices"}
	ESlice     = semantics.Rule{Name: "E-SLICE", Figure: "Fig 4", Doc: "x[o : s, …] is the in-bounds subarray"}
	ETranspose = semantics.Rule{Name: "E-TRANSPOSE", Figure: "Fig 4", Doc: "transpose x swaps the two dimensions of the array value"}
	EKernel    = semantics.Rule{Name: "E-KERNEL", Figure: "Fig 4", Doc: "kernel x <= y do b stacks the results of b for x = 1 … E(y), [v1, …, vm]"}
	ELet       = semantics.Rule{Name: "E-LET", Figure: "Fig 4", Doc: "let p = e; b binds the values of e to p and evaluates b"}
	EIn        = semantics.Rule{Name: "E-IN", Figure: "Fig 4", Doc: "in (x, …) gives the values of the result variables"}
	EIota      = semantics.Rule{Name: "E-IOTA", Figure: "§2", Doc: "iota x is [1, …, E(x)] (FUN counts from 1)"}
	ECopy      = semantics.Rule{Name: "E-COPY", Figure: "§2", Doc: "copy x is a fresh array of the elements of x"}
)

// The rules of the extension forms (docs/fun.md, "Extensions"), which the
// checker's Paper mode refuses.
var (
	TLoop   = semantics.Rule{Name: "T-LOOP", Figure: "extension", Doc: "loop (y : τ) … = (x, …) for i <= t do b: the initial values and b's results have the parameters' types under S, and the pattern their types renamed"}
	TReduce = semantics.Rule{Name: "T-REDUCE", Figure: "extension", Doc: "reduce (a : τ) (b : τ) = z over xs do b, with xs : [n]τ, z : τ and b giving a τ, is a τ"}
	TScan   = semantics.Rule{Name: "T-SCAN", Figure: "extension", Doc: "scan (a : τ) (b : τ) = z over xs do b, with xs : [n]τ, z : τ and b giving a τ, is an [n]τ"}
	TFilter = semantics.Rule{Name: "T-FILTER", Figure: "extension", Doc: "filter (x : τ) over xs do b, with xs : [n]τ and b giving an int, binds a size k and an array [k]τ"}
	TAssert = semantics.Rule{Name: "T-ASSERT", Figure: "extension", Doc: "assert se \"message\" with se : int is an int"}

	TRedomap  = semantics.Rule{Name: "T-REDOMAP", Figure: "extension", Doc: "redomap (a : τ) (b : τ) = z for i <= n do m combine o, with n : int, z : τ, m giving a τ under i : int and o a τ under a, b : τ, is a τ"}
	TScanomap = semantics.Rule{Name: "T-SCANOMAP", Figure: "extension", Doc: "scanomap (a : τ) (b : τ) = z for i <= n do m combine o, typed as redomap, is an [n]τ"}

	ELoop   = semantics.Rule{Name: "E-LOOP", Figure: "extension", Doc: "loop runs its body for i = 1 … E(t) in order, each iteration's results the next values of the parameters; zero iterations give the initial values, a negative bound is stuck"}
	EReduce = semantics.Rule{Name: "E-REDUCE", Figure: "extension", Doc: "reduce is the left fold ((z ⊕ x1) ⊕ x2) … ⊕ xn of the rows of xs, z for no rows"}
	EScan   = semantics.Rule{Name: "E-SCAN", Figure: "extension", Doc: "scan is the inclusive left scan: row i is z ⊕ x1 ⊕ … ⊕ xi"}
	EFilter = semantics.Rule{Name: "E-FILTER", Figure: "extension", Doc: "filter keeps, in order, the rows of xs for which the body gives an int other than 0, and their number"}
	EAssert = semantics.Rule{Name: "E-ASSERT", Figure: "extension", Doc: "assert se is 1 when se is not 0, and stuck with its message when it is 0"}

	ERedomap  = semantics.Rule{Name: "E-REDOMAP", Figure: "extension", Doc: "redomap is the left fold ((z ⊕ f(1)) ⊕ f(2)) … ⊕ f(n), f(i) the map body's value for i, each f(i) computed just before it is combined; z for n = 0, a negative n is stuck"}
	EScanomap = semantics.Rule{Name: "E-SCANOMAP", Figure: "extension", Doc: "scanomap is the inclusive left scan of the f(i): row i is z ⊕ f(1) ⊕ … ⊕ f(i), in the order of E-REDOMAP"}
)

// The rules of the floats extension (docs/fun.md, "Floats"): the typing
// of float constants and of the built-in functions. Their evaluation is
// E-SCALAR's conventional evaluation (IEEE float64; int(se) of a NaN or
// of a value outside int64 is stuck in E-SCALAR).
var (
	TFloat = semantics.Rule{Name: "T-FLOAT", Figure: "extension", Doc: "a float constant (1.5, 3.0, 1e3) has type float"}
	TCall  = semantics.Rule{Name: "T-CALL", Figure: "extension", Doc: "f(se) has f's result type when se has its argument type: sqrt exp log sin cos float → float, float: int → float, int: float → int"}
)

// Rules is FUN's rule table.
var Rules = semantics.RuleTable{
	TConst, TVar, TOp, TScalar, TIndex, TIf, TTranspose, TSlice, TKernel, TResult, TStm, TProg, TIota, TCopy,
	EIfTrue, EIfFalse, EIf, EScalar, EIndex, ESlice, ETranspose, EKernel, ELet, EIn, EIota, ECopy,
	TLoop, TReduce, TScan, TFilter, TAssert, TRedomap, TScanomap,
	ELoop, EReduce, EScan, EFilter, EAssert, ERedomap, EScanomap,
	TFloat, TCall,
}
