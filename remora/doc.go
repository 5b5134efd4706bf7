// Package remora is the typed core of Remora (§4 of "The semantics of rank
// polymorphism", Figs 5–8) with the explicitly typed surface dialect of the
// compiler report (§4.1–4.2 of "Remora Compiler — A Master's Project") and
// the basis library of docs/remora.md.
//
// A file is read by the s-expression reader of package semantics, parsed
// into core terms (syntax.go, parse.go; printed back by print.go, and by
// pretty.go across lines), checked by the type, kind and sort rules of
// Figs 7–8 (check.go), which also elaborates the conveniences and
// annotates every application with its type, and then run by any of three
// semantics that agree:
//
//   - step.go: the small-step semantics of Fig 6 on annotated terms, one
//     rule per step (lift, map, β, δ, collapse, Tβ, Iβ, proj), run as a
//     machine with an explicit evaluation context (semantics.ContextMachine,
//     which the dynamic dialect runs too, given this language's evaluation
//     order in machine.go; a trace's
//     chain, planned as the dialect's is, foldchain.go, is made a link
//     at a time, chain.go, and grows its buffer in
//     place, machine_trace.go) whose focus the
//     REPL marks (focus.go);
//   - fig6.go: the big-step Fig 6's reduction rules derive, as written
//     (EvalRules, `--semantics rules`): a walk over the terms with one
//     function per rule, building its derivation node, cells run one by
//     one; the property engine ≡ rules (fig6_test.go) holds eval.go to it;
//   - eval.go: a big-step evaluator over flat arrays (value.go), which
//     computes frames and replicates cells by index arithmetic instead of
//     building terms, and runs the basis (basis.go) as native loops; its
//     fast paths are the fold family's scalar loop (fold.go), streamed
//     reductions of producers such as iota that never build the array
//     (stream.go) and maps over goroutines (parallel.go).
//
// rules.go is the table of the rules of Figs 6–8, whose values the code
// names rules by. Indices (index.go) and types (types.go) are kept in
// canonical form, so that the type equivalence of §4 (nested and flat
// array types) and the frame-prefix relation of T-APP are decided by
// comparing canonical forms.
//
// The compiler's IR (package remora/ir) is this core tree with three more
// forms, MAP, REP and CASE (case.go), which the checker and every semantics
// run, so every stage of the compile path can be printed, read back and
// run; tree.go gives the passes a term's subterms in evaluation order, and
// source.go prints an elaborated program's values as the dynamic dialect
// does (SourceLines). lang.go makes the typed dialect a lang.Language (CoreLanguage
// makes the IR's), interactive.go gives the REPL its definitions, and
// mutants.go plants the mutants of lift's order and of a scalar fold
// (the engine's alone). The passes out of Remora
// live in packages of their own that import remora: the IR's in
// remora/ir, the lowering to FUN in remora/tofun (package lang states the
// convention).
package remora
