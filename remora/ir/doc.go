// Package ir is the Remora compiler's intermediate language and the passes
// that make it (§4.3–4.5 of "Remora Compiler — A Master's Project"): the
// first half of the compile path from typed Remora down to FUN, whose
// second half, Lower, is package remora/tofun.
//
// The IR is the typed core of package remora with three explicit forms,
// which belong to the core tree because its checker and both semantics
// run them: MAP (a function applied cell by cell over a frame), REP (an
// array replicated over a frame) and CASE (a tag's alternative, the
// defunctionalised application of an array of distinct functions).
// Language (lang.go) makes it a level of its own, read from .rir files,
// so every stage's output can be printed, read back and run.
//
//   - explicitize.go: Explicitize (§4.3), every implicit lift of the
//     typed core made an explicit MAP over its frame, with REP of the
//     arguments that need it.
//   - inline.go: Inline (§4.4), monomorphisation and inlining: no type or
//     index abstraction or application is left but a primitive's, every
//     function is inlined to first order; inline_mimd.go compiles arrays
//     of distinct functions (MIMD) to a sum of closures whose cells carry
//     their function's tag, applied by CASE.
//   - simplify.go: Simplify (§4.5), copy propagation, inlining of
//     single-use and trivial bindings, dead code, constant folding,
//     hoisting out of MAPs; CanFail is the judgement that keeps a
//     computation that can go wrong from moving where it would run when
//     the source does not.
//   - mutants.go: the mutation points of Explicitize and Simplify (a
//     REP outside its frame, hoisting past an empty frame), each killed by
//     a test (go test -tags mutants).
//   - pass.go: the three as the registry's passes (ExplicitizePass,
//     InlinePass, SimplifyPass; the pipeline "remora-ir" runs Inline and
//     Simplify after Explicitize).
//
// The golden tests are chunked files in testdata/ (explicitize.txt,
// inline.txt, simplify.txt), each chunk a program and what the pass must
// make of it.
package ir
