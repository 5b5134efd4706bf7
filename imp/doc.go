// Package imp implements IMP, the small imperative language with a
// parallel loop of §4 of "Compiling a functional array language with
// non-semantic memory information" (IFL 2022):
//
//   - syntax.go, parse.go, print.go: Fig 11, with inputs and a final
//     return naming the results (blocks with their row-major shapes), so
//     that results print as FUN's do;
//   - rules.go: the table of IMP's rules (Fig 12, and the two of the
//     checker);
//   - check.go: the "trivial and uninteresting" type rules the paper
//     elides: variables declared before use, ints and blocks kept apart;
//   - eval.go: the big-step semantics of Fig 12 (E-IMP-DEC-INT …
//     E-IMP-KERNEL), with kernels' read/write sets checked for races as in
//     FUNMEM;
//   - step.go: a small-step semantics that agrees with it;
//   - translate.go: FunMemToImp and COPY (FUNMEM → IMP);
//   - lang.go: IMP as a lang.Language, for the driver's registry.
//
// FunMemToImp lives here, in the package of the language it produces, and
// imports FUNMEM: the import graph points from lower levels to higher ones
// (package lang states the convention). Passes out of IMP (the CUDA
// emitter) live in packages of their own.
package imp
