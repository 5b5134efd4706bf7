// Package dynamic is Remora's rank-annotated untyped dialect: the
// programming model of §2 of "The semantics of rank polymorphism"
// (docs/papers.md), as the paper writes its examples
// and as the dialect's Racket implementation reads them (#lang
// remora/dynamic).
//
// Every value is an array of atoms (numbers, booleans, characters,
// functions, boxes). A λ gives each parameter a cell rank, a natural
// number or all:
//
//	(define (fact (n 0)) (reduce * 1 (+ 1 (iota [n]))))
//	(fact [3 4 5])                                   ; [6 24 120]
//
// Application splits each argument into a frame of cells of the rank the
// function expects, brings the frames into agreement by replicating cells
// (every frame must be a prefix of the largest), applies the function to
// each cell and collapses the results (Figs 1–4). The function position is
// an array too: an array of functions applies cellwise (Fig 2), and every
// function in it must expect the same ranks. The major-axis operators
// (reduce, fold, scan, append, rotate, …) have cell rank all, so their
// frame is always scalar.
//
// There are no types, so what the typed core rules out statically is a
// run-time error here, with the rule it arose in: frames that do not agree
// (lift, naming both frames), result cells of different shapes (collapse),
// a primitive outside its domain (δ).
//
// A file runs as the dialect's Racket implementation runs it: its basis
// library with the cell ranks it declares, its reader forms (#A, #r, alit,
// vec, rerank, apply/shape) and Racket's numbers (exact integers of any
// size, exact rationals, floats). docs/remora-dynamic.md is the users'
// reference; ERRATA R15–R17 say where the dialect and the typed core part.
//
// Files follow the concern: syntax.go (terms), parse.go, print.go,
// value.go (function atoms), number.go (Racket's numeric tower on flat
// arrays), scalar.go (the scalar primitives, their arities and δ-loop),
// basis.go (the major-axis primitives and folds with their ranks),
// library.go (the rest of the library's basis: take, window, nub, base,
// pairs, lookup, compose, …), fig6.go (the big-step's rules as written:
// §2's rules, Fig 6's on untyped terms, one function per rule, building
// derivations; `run --semantics rules`), eval.go (the big-step's engine,
// held to fig6.go by the property engine ≡ rules), step.go (small-step:
// lift, map, β, δ, collapse, the rules Fig 6 refines with types),
// machine.go (the small-step as a machine with an explicit evaluation
// context), focus.go (where a step reduced, for the REPL's mark), rules.go
// (the rule table), fold.go (the folds on scalar operators without a
// term per step), rec.go (recursive definitions: the library's define is
// Racket's, and a group of functions that refer to each other unrolls by
// β), the elaboration into the typed core (check --infer, and the compile
// path's pass Elaborate, pass.go): infer.go (the pass, frames, let,
// unbox), infer_types.go (what it knows of an expression), infer_apply.go
// (application, specialisation, curried λs), infer_mimd.go (arrays of
// functions: one function per cell), infer_scope.go (shapes known only
// at run time: lift, unbox, boxes, collapse), infer_scalar.go and
// infer_rational.go (numbers), infer_major.go (the major-axis primitives
// and the library's basis), infer_fold.go (the reduce and scan family),
// infer_pos.go (the dialect's positions on the typed terms), lang.go (the
// dialect as a lang.Language, with the REPL's definitions), mutants.go
// (the package's mutation points).
//
// Where passes live (package lang states the convention): the two
// dialects are one level. This one imports the typed core (package
// remora), whose flat values and δ-rules it shares, and keeps beside it
// its elaboration into the typed core (infer.go); the typed core never
// imports this package, so the import graph points one way. A pass from
// this dialect down to FUN would live in a package of its own.
package dynamic
