// Package lang makes languages and passes values, so that the driver is a
// graph rather than a switch on language names.
//
// A Language (lang.go) is a name, the file extensions it reads, a loader
// (parse and check), a checker for syntax trees made by passes, and a
// printer; a loaded Program runs under its semantics by name with one
// RunOptions struct, and starts a Stepper (stepper.go) that the REPL
// steps one transition at a time; focus.go has PathFocus and Marker, with
// which a substitution machine (Remora's) tells the stepper where a step
// reduced, so the REPL marks the redex without diffing printed terms. A
// Pass (pass.go) is a translation between two languages or a
// transformation within one; the compile options it reads it declares
// itself (options.go: Option, and Options, a walk's settings), so the
// command's flags come from the passes registered. A Registry
// (registry.go) holds both: Compile walks the shortest path of
// translations between two levels, running at each level the
// transformations that the options enable, and re-checks every stage with
// the target language's checker, naming the pass that broke a program;
// Levels lists the walks side-by-side runs.
//
// The convention for where passes live keeps the import graph pointing one
// way, from lower levels to higher ones: a pass lives in its target
// language's package, or in a package of its own, and imports the
// language it reads; no language imports a language below it. So
// funmem.Transform (FUN → FUNMEM) is in funmem, imp.FromFunmem (FUNMEM →
// IMP) in imp, and later passes (Remora → FUN, fusion, CUDA) in packages
// of their own that import what they read and what they make. This package
// imports only semantics, so every language package can provide its
// Language. A package declares its passes as Pass values (in its own
// pass.go), and check.NewRegistry (check/registry.go) registers them,
// with the languages, in the arraysem command's registry.
package lang
