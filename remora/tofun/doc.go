// Package tofun is the last stage of the Remora compile path:
// Lower translates the typed IR that Explicitize, Inline and Simplify
// leave (remora.Program with MAP and REP, §4.3–4.5 of "Remora Compiler —
// A Master's Project") into a FUN program (package fun: first order, in
// A-normal form, sizes as int variables, 1-indexed), which the existing
// levels take on to FUNMEM, IMP and CUDA. Decode reads the FUN program's
// results back as the lines `arraysem run` prints for the Remora program.
//
// # Values
//
// An int is a FUN int, a float a FUN float, a bool the int 0 or 1, a char
// the int of its code point. An array [t n m] is a FUN array [n][m] (of
// floats for t = float) whose sizes are FUN int variables: a constant
// dimension is let-bound once per scope, a Nat (+ k 1) is the sum of the
// FUN variables of its index variables and the constant, and the index
// variables themselves (only unbox and lift bind any after Inline) are the
// int variables holding the box's witnesses or the lifted int. Remora
// counts positions from 0 (iota, index, subvector, rotate, scatter), FUN
// from 1: positions are converted where they meet.
//
// A program's i-th expression, of type [t S], gives one FUN result when t
// is a base type. When it is one box (t a Sigma, S empty) it gives one int
// per witness, then the contents' results (a box in a box recursively).
// A frame of boxes (S not empty), which FUN cannot hold as one array since
// the contents may differ in shape, is a segmented array: one int array
// over the frame per witness, then the flat data, every box's contents in
// row-major order, concatenated (built by a loop carrying the data so far,
// an array of existential size).
//
// A program elaborated from the dynamic dialect (remora.Program's Source)
// prints as that dialect does: its format's source is remora/dynamic
// (boxes print without witnesses), a result that stands for an array of
// a run-time shape (Open) is the format's (open W item), printed as the
// contents alone, and exact rationals (Rational) are the format's rat.
//
// # The translation
//
// Every value the translation makes gets a fresh name (FUN refuses
// shadowing). An array is either manifest, a FUN variable, or a view: an
// index function (§5.5 of "The semantics of rank polymorphism") that
// emits, at each place an atom is read, the statements reading it. REP,
// iota, replicate, reverse, rotate, tail, subvector, index, head, append,
// reshape, a frame of boxes and a MAP argument's cells are views, so
// nothing is copied for them; a view is materialised by nested kernels
// only where FUN needs a variable: a kernel's result, a fold's operand, a
// program result.
//
//   - (MAP [F] ([x τ e] …) body) is nested kernels over F; the innermost
//     body binds each x to its argument's cell at the kernel indices (a
//     scalar cell read at once, a larger one as a view) and materialises
//     body's value. Over the empty frame a MAP is a let. An application
//     whose arguments still have frames (a program that was only checked)
//     is lifted the same way, smaller frames read at a prefix of the
//     position, and so is a λ applied to arguments (a let the checker
//     elaborated).
//   - (REP [F] e) is the view reading e at the position's last indices,
//     and so is the MAP Explicitize makes to grow an argument of a smaller
//     frame, (MAP [F] ([y τ a]) (REP [Q] y)): a view of a that skips the
//     Q indices, never a copy.
//   - Array literals (FUN has none) are nested kernels whose body picks the
//     atom at the row-major position by a balanced tree of ifs (log n
//     deep) over the literal's segments: runs of equal atoms, and for
//     ints, booleans and characters arithmetic progressions, each one
//     expression a + (p - o)·d. Exact for every float; NaN and the
//     infinities, which FUN cannot write, are the divisions that make them.
//   - A frame [e …] lowers its elements in order, then picks among them by
//     a tree of ifs at each position.
//   - (CASE e e0 e1 …), the apply of a defunctionalised array of distinct
//     functions (Inline's MIMD), asserts the tag in range and picks the
//     alternative by a tree of ifs on it, each alternative lowered in its
//     own branch, so that only the selected one runs: in a MAP's kernel
//     each cell runs its own function.
//   - Boxes: (box (ι …) Σ e) is the witnesses' int variables with e;
//     (unbox e (x d …) body) binds d … to the witnesses; (lift [d e] body)
//     binds d to the int e (asserting it is not negative, as Remora is
//     stuck on it). A box chosen at run time (if, or a frame of boxes
//     read at a computed position) is a FUN if whose pattern binds the
//     witnesses, the contents' sizes and the contents, as T-IF binds
//     existential sizes, so that the branches may differ in size. FUN has
//     no arrays of boxes: a frame of boxes is a view that computes each
//     box where it is read, inside the MAP that opens it (so a box read
//     twice is computed twice).
//   - The reduce family folds left in index order (fold-right and
//     trace-right from the right), and its operator need be neither
//     associative nor commutative (ERRATA R8). FUN's reduce and scan are
//     left folds too, but FUN lets their parallel implementations
//     re-associate and combine the start value more than once (the CUDA
//     level does), so Lower gives them only operators it knows to be
//     associative (int + * min max, and, or, max. and min.; a λ that
//     applies one to its two parameters, lifted over their cells or not),
//     started from their neutral element; the initial value is combined
//     once with the result, by associativity, and a trace (scan) combines
//     it with every prefix (suffix, for the right folds: a scan of the
//     reversed items with the operands swapped). The operator on @c cells
//     is lifted over @pad by kernels in the fold's body. Float +. and *.
//     in the reduce and scan family are FUN's reduce and scan too, guarded
//     so that a parallel level's tree stands only within
//     semantics.FloatReassociationBound of the left fold (floatfold.go).
//     Any other operator (-, most λs, and +. and *. in fold and trace,
//     which promise their order) folds in a sequential FUN loop
//     carrying the accumulator (one box may be the accumulator: the loop
//     carries its witnesses, sizes and contents); a trace also carries
//     the accumulators so far, an array of existential size growing by
//     one per item, so it copies quadratically many atoms.
//   - filter is FUN's filter over the positions 1..d, keeping those whose
//     flag is set; the box's witness is the size filter binds and its
//     contents the view reading the items at the kept positions.
//   - scatter asserts every position in range, then each result item is
//     the item of the last position sent there (a loop over the
//     positions), or the zero of the atom type.
//   - Partial primitives are stuck where Remora's δ is: FUN's / and % on
//     0, int() of NaN or out of range, and asserts for index, subvector,
//     scatter and lift. The messages differ from Remora's; that a run goes
//     wrong does not. A frame of boxes made by a MAP is also computed
//     once where it is made, its boxes dropped, so that one that goes
//     wrong does so even if no MAP opens it (Remora computes every cell).
//
// Every FUN statement is placed (its positions) at the Remora construct
// it was made for, so that FUN's errors, and those of the levels below,
// which keep positions, name the Remora source line where Remora's own
// error is.
//
// # What is refused
//
// Lower refuses, with "pos: Lower: cannot compile <construct> to FUN:
// <why>" (a *semantics.Error of kind TypeError, rule "Lower"):
//
//   - function values: a λ, a primitive or an abstraction not in function
//     position, a variable or MAP parameter of function type, a function
//     argument of a λ, a type or index application of anything but a
//     primitive (what Inline removes: FUN is first order);
//   - type variables, and index variables not bound by unbox or lift;
//   - Shape-sorted indices that are not constant shapes of known rank (a
//     shape variable @s, a Shape witness of a box): a FUN type has one
//     int variable per dimension;
//   - arrays of boxes wherever FUN needs them as values (a fold whose
//     accumulator is an array of boxes, or a trace of boxes; scattering
//     boxes; a box of boxes chosen by an if or carried by a fold), and a
//     frame of boxes of boxes as a result;
//   - the primitives FUN cannot compute exactly: tan, arcsin, arccos and
//     arctan (FUN's float functions are sqrt, exp, log, sin and cos), and
//     expt (FUN has no power function).
//
// # Files
//
// lower.go: Lower, the lowerer, its environment and the expressions'
// cases; apply.go: applications, lifted over their frames; prims.go: the
// basis primitives, one entry per name; folds.go: the reduce, scan and
// fold family; floatfold.go: the guarded float folds; case.go: CASE, the
// apply of a defunctionalised array of functions; build.go: the FUN side
// (blocks of statements, fresh names, constructors); decode.go: FormatOf
// and Decode, the results read back; pass.go: Lower as the registry's
// pass (LowerPass).
package tofun
