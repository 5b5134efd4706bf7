// Package funmem implements FUNMEM, FUN with non-semantic memory
// information (§3 and §5 of "Compiling a functional array language with
// non-semantic memory information", IFL 2022):
//
//   - syntax.go, parse.go: Fig 6. FUNMEM shares FUN's abstract syntax; its
//     types carry a memory annotation (the type mem, or an array's block and
//     LMAD), and it adds the expression alloc se;
//   - ast.go: alloc and the memory annotations as nodes fun's tree tools
//     reach into (fun.Extension and its mappers);
//   - rules.go: the table of FUNMEM's rules (Figs 8 and 10);
//   - poly.go: a normal form of scalar expressions, to decide when two
//     LMADs written differently are equal;
//   - check.go: the type rules of Fig 8 (T-MEM-SCALAR … T-MEM-PROG);
//   - unmem.go: Fig 9, and with it the value-based semantics (FUN's);
//   - value.go: the values of Fig 6 (v ::= k | ℓ | (ℓ, L)), environments,
//     and Read, the array a value stands for in a heap;
//   - fig10.go: the heap-based big-step semantics of Fig 10 as written
//     (EvalRules, `--semantics rules`), a tree walker building the
//     derivation; heap.go: what it shares with the other heap semantics,
//     the kernels' and atomic statements' rules with the read/write traces
//     and racefree side condition of eq (4); heapcompile.go: the same
//     rules compiled once per run to closures over slots, each nested
//     body when it first runs (scalar expressions by FUN's compiler,
//     fun/compile_scalar.go, where the code may run more than once; code
//     that runs once leaves them to EvalNum), which EvalHeap
//     runs (`--semantics heap`, the engine; the walker is the reference
//     the tests hold it to, and runs the forms it does not compile);
//   - fast paths of the compiled big-step, each giving the rules'
//     outcome: heaprace.go runs a kernel that cannot race (it writes only
//     its own rows and blocks it allocates) without a tracker of its own;
//     heap_parallel.go runs such a kernel, when large and scalar, on
//     HeapOptions.Jobs goroutines, with the in-order result and first
//     error;
//   - heap_stats.go: the cost counters (semantics.Stats) of the heap
//     semantics, as its three engines count them;
//   - step.go: a small-step heap semantics that agrees with the big-step;
//     focus.go: Focus, where a step reduced, for the REPL's mark;
//   - translate.go: TransformProgram, TransformStms, TransformStm, Support
//     (FUN → FUNMEM), and simplify.go the simplifier the paper defers to,
//     with results.go (a result keeps the block it has, not a copy) and
//     inplace.go (a kernel's rows made where the kernel puts them);
//   - expand.go: MemoryExpand (§5), in the CPU and GPU layouts, and
//     beyond §5's allocations at the top of a kernel's body:
//     expand_size.go (a size that varies affinely with the thread or the
//     iteration, bounded by its largest value), expand_loop.go (a loop's
//     allocations in a kernel, one block reused or two halves by turns),
//     expand_fold.go (an allocating fold in a kernel written as the loop
//     it is in a thread), expand_if.go (a branch's allocations made
//     before the if); kernelalloc.go: AllocsInKernels, the allocations
//     left inside kernels, which it could not hoist (size slicing, in
//     fun/slice, exists to remove more of them);
//   - validity.go: Def 3.1, decided on inputs;
//   - pass.go: TransformProgram, the simplifier and MemoryExpand as the
//     registry's passes, with the options --expand and --layout;
//   - lang.go: FUNMEM as a lang.Language, for the driver's registry;
//   - mutants.go: registers the package's mutation points (proofs-tests'
//     TestMutants); the points are mutant.On calls in the code they
//     break;
//   - the extension forms loop, reduce, scan, filter and assert (not in
//     the paper; Figure "extension", refused by check --paper): groups.go
//     (support groups: array operands bound with their block, offset and
//     strides from the value), translate_ext.go (TransformStm: loops carry
//     arrays with their support as if does, scan and filter make fresh
//     blocks), check_ext.go (T-MEM-LOOP …), heap_ext.go (E-MEM-LOOP …,
//     shared by the big- and small-step; folds' elements traced as a
//     kernel's iterations, combine steps writing only their own blocks);
//   - redomap and scanomap, fusion's fused reduce (scan) of a map, with
//     memory: check_redomap.go (T-MEM-REDOMAP, T-MEM-SCANOMAP),
//     heap_redomap.go (E-MEM-REDOMAP, E-MEM-SCANOMAP: a map body run as
//     a kernel's thread, then its combine) and heapcompile_redomap.go;
//   - floats (an extension, docs/funmem.md "Floats"): types keep FUN's
//     element type (float, [n]float @ m -> L) through every pass; the
//     checker types scalar expressions with FUN's rules (fun.TypeOfSExp);
//     blocks stay untyped words, and a Value carries its element type, so
//     reads make floats of float arrays' words and scalar statements
//     evaluate with fun.EvalNum.
//
// TransformProgram (FUN → FUNMEM) lives here, in the package of the
// language it produces, and imports FUN, which FUNMEM extends: the import
// graph points from lower levels to higher ones (package lang states the
// convention), so FUN never imports FUNMEM.
package funmem
