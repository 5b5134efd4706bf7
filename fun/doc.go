// Package fun implements FUN, the size-dependently typed first-order array
// language of §2 of "Compiling a functional array language with non-semantic
// memory information" (Munksgaard, Oancea, Henriksen; IFL 2022):
//
//   - syntax.go: the abstract syntax of Fig 1, with positions, and the
//     extension forms' nodes (LoopExp, ReduceExp, ScanExp, FilterExp,
//     AssertExp, RedomapExp);
//   - scan.go, parse.go, parse_ext.go, print.go: the concrete syntax of
//     docs/fun.md (semantics.Scan reads assert's string literals)
//     and a printer whose output parses back to the same tree;
//   - rules.go: the table of FUN's rules (Figs 3 and 4), whose values the
//     code names rules by;
//   - check.go: the type rules of Fig 3 (T-CONST … T-PROG), with the
//     typing environment Γ it shares with FUNMEM's checker (scope.go,
//     over names.go's NameSet, a set of names found by a hash table);
//     check_ext.go: the extension forms' (T-LOOP … T-ASSERT); typeof.go:
//     TypeOfSExp, the scalar rules as FUNMEM's checker uses them;
//   - fig4.go: the big-step semantics of Fig 4 as written (EvalRules,
//     the `rules` semantics): a walk over the syntax, one function per
//     rule (E-IF-TRUE … E-IN, the derived E-IOTA and E-COPY), building
//     derivations; fig4_ext.go the extension forms' (E-LOOP …
//     E-SCANOMAP); fig4_stats.go counts their costs around them. The
//     engine is held to them (TestEngineMatchesRules);
//   - eval.go: Eval, the engine's entry (the `big` semantics), with the
//     rules' starts and checks that the engine, the small-step and the
//     rules share, and evalAtomic, which applies the rules without
//     premises (fig4.go's) for all three; eval_ext.go: the extension
//     forms' starts and checks (E-LOOP … E-ASSERT); env.go: the
//     environment E, a persistent
//     list, so that the small-step keeps old configurations to step back
//     to; inputs.go: BindInputs, the --arg values of the inputs;
//   - compile.go, compile_ext.go: the big-step run as closures over
//     slots, one per rule, compiled once per run, each body when it
//     first runs (a branch never taken is never compiled; code that
//     runs once leaves its scalar expressions to EvalNum);
//     compile_scalar.go: the scalar expressions compiled, for this engine and FUNMEM's and
//     IMP's alike (SExpCompiler, over each engine's frame), their int
//     fast paths leaving all else to the general code and the rules'
//     errors to EvalNum (EvalOptions.NoIntFastPaths switches them off);
//     stack.go: kernels
//     stacked into one flat buffer; parallel.go: large kernels'
//     iterations on several goroutines (EvalOptions.Jobs, MinParallelWork);
//   - step.go: a small-step semantics faithful to Fig 4; step_ext.go: the
//     extension forms' iterations as frames; focus.go: Focus, where a step
//     reduced, for the REPL's mark;
//   - eval_stats.go: the cost counters (semantics.Stats), defined, and
//     counted by the compiled big-step; step_stats.go: the small-step's
//     count of them, from each step's configurations, so that the rules'
//     code stays as Fig 4 has it;
//   - redomap and scanomap, the fused reduce (scan) of a map that fusion
//     makes: check_redomap.go (T-REDOMAP, T-SCANOMAP), eval_redomap.go
//     (E-REDOMAP, E-SCANOMAP), compile_redomap.go, parallel_redomap.go
//     (map bodies on several goroutines, folded in order) and
//     step_redomap.go (an element's map and operator bodies as two
//     frames);
//   - float.go: the floats extension's scalar expressions, FloatConst and
//     Call (sqrt exp log sin cos float int); Type.Elem makes float and
//     [n]…float; EvalNum (eval.go) evaluates int and float expressions
//     over semantics.Num, and EvalSExp is its int-only form;
//   - derived.go: the derived forms iota and copy of §2 (CopyKernel,
//     copy's kernel, for the passes that make one);
//   - walk.go: the tree tools of every pass over FUN trees (Inspect,
//     Rewrite, MapProgram and the copies, Substitute, constructors,
//     FormName and Binders), which reach into the nodes of extending
//     languages (FUNMEM) through Extension, ExpMapper and TypeMapper;
//     equal.go: Equal, two programs the same node for node and position
//     for position (what reflect.DeepEqual says, faster);
//   - lang.go: FUN as a lang.Language, for the driver's registry;
//   - reassoc.go: ReassociatesFloats, whether a program has a float fold
//     a parallel level may re-associate (within the stated bound);
//   - rank.go: MaxCompileRank, the rank of the arrays the compile path
//     below FUN takes, and CheckCompileRank, which the passes into and
//     below FUNMEM (Lower, TransformProgram, FunMemToImp) apply;
//   - mutants.go: registers the package's mutation points (proofs-tests'
//     TestMutants), in code the big- and small-step share, so only a
//     reference or an expected output kills them.
//
// Passes live in the package of the language they produce, or in a
// package of their own, and import the language they read (package lang
// states the convention): FUN imports no other language, and passes into
// FUN live outside this package: Remora's lowering in remora/tofun, size
// slicing in fun/slice, fusion in fun/fuse.
//
// Extensions beyond the paper, refused by the checker's Paper mode: input
// declarations (program parameters), scalar program results, the
// forms loop, reduce, scan, filter, assert, redomap and scanomap, and
// floats (docs/fun.md). Program
// result sizes are variables in every mode: T-PROG as printed asks for
// constants, which no FUN type can have (ERRATA.md, E4).
package fun
