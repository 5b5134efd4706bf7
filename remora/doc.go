// Package remora is the typed core of Remora (§4 of "The semantics of rank
// polymorphism", Figs 5–8) with the explicitly typed surface dialect of the
// compiler paper (§4.1–4.2) and the basis library of docs/remora.md.
//
// A file is read by the s-expression reader of package semantics, parsed
// into core terms (parse.go), checked by the type, kind and sort rules of
// Figs 7–8 (check.go), which also elaborates the conveniences and annotates
// every application with its type, and then run by either of two
// semantics that agree:
//
//   - step.go: the small-step semantics of Fig 6 on annotated terms, one
//     rule per step (lift, map, β, δ, collapse, Tβ, Iβ, proj);
//   - eval.go: a big-step evaluator over flat arrays (value.go), which
//     computes frames and replicates cells by index arithmetic instead of
//     building terms, and runs the basis (basis.go) as native loops.
//
// rules.go is the table of the rules of Figs 6–8, whose values the code
// names rules by. Indices (index.go) and types (types.go) are kept in canonical form, so
// that the type equivalence of §4 (nested and flat array types) and the
// frame-prefix relation of T-APP are decided by comparing canonical forms.
// lang.go makes the typed dialect a lang.Language, and interactive.go
// gives the REPL its definitions. Passes out of Remora (its lowering to
// FUN) live in packages of their own that import remora and fun (package
// lang states the convention).
package remora
