// Package imp implements IMP, the small imperative language with a
// parallel loop of §4 of "Compiling a functional array language with
// non-semantic memory information" (IFL 2022):
//
//   - syntax.go, parse.go, print.go: Fig 11, with inputs and a final
//     return naming the results (blocks with their row-major shapes), so
//     that results print as FUN's do;
//   - rules.go: the table of IMP's rules (Fig 12, and the checker's:
//     the two its errors name, and one per form for its derivations);
//   - check.go: the "trivial and uninteresting" type rules the paper
//     elides: variables declared before use, ints and blocks kept apart;
//     and the extensions' (IMP-FOR …), which paper mode refuses; with
//     CheckOptions.Derive it builds the typing derivation (IMP-PROG,
//     Γ ⊢ s ⊣ Γ' per statement, Γ ⊢ se : τ per expression), and an
//     error carries it down to the judgement that failed;
//   - fig12.go: the big-step semantics of Fig 12 as written (EvalRules,
//     the `rules` semantics): a walk over the syntax, one function or
//     case per rule (E-IMP-SEQ … E-IMP-KERNEL, and the extensions' I-FOR
//     … I-SCAN), a copy of E per iteration, building derivations
//     (Options.Derive); every fast engine is held to
//     it (TestCompiledAgreesWithSmallStep, TestRaceFreePlansAgree,
//     TestEngineMatchesRulesOnExamples); fig12_stats.go counts the cost
//     counters around its rules, as the small-step counts them;
//   - compiled.go: the engine (the `big` semantics), the big-step of Fig 12 (E-IMP-DEC-INT …
//     E-IMP-KERNEL), run on a program compiled as it first runs (a slot
//     per variable, scalar expressions as closures by FUN's compiler,
//     fun/compile_scalar.go, iterations in place; a kernel's, for's or
//     fold's body when it first starts, an if's branch when first taken;
//     code outside every loop, which runs once, and the body of a kernel,
//     for or fold there whose one start has one iteration, leave their
//     expressions to the reference evaluator, as compiled code does where
//     it gives up), with
//     kernels' read/write sets checked for races as in FUNMEM; eval.go its
//     entry point and the error messages both semantics share;
//   - fast paths of the big-step, apart from the rules and each giving
//     their outcome: racefree.go decides when a kernel starts that its
//     iterations cannot race (affine offsets c·i + r, r spread less than
//     |c|) and runs it without a tracker; parallel.go runs such a kernel,
//     when large, on Options.Jobs goroutines, with the sequential result
//     and first error; copykernel.go runs an untracked copy kernel
//     (COPY's) as one loop over the two blocks' words; intfold.go steps
//     a fold whose combine part is one int operation without running its
//     statements; each is switched by an option of the run
//     (Options.NoRaceFreePlans, MinParallelWork, NoCopyKernels,
//     NoIntFolds), which the property engine ≡ rules turns off in turn;
//   - stats.go: the cost counters (semantics.Stats), as both semantics
//     count them;
//   - step.go: a small-step semantics that agrees with the big-step;
//     focus.go: Focus, where a step reduced, for the REPL's mark;
//   - loops.go: the extensions' loops (I-FOR, I-REDUCE, I-SCAN) as the
//     small-step runs them, in the steps and order the big-step follows;
//     syntax.go has their statements, For, Assert, Reduce and Scan;
//   - floats (an extension): the type float of variables, inputs and
//     results ([n]float for a block read back as floats), FUN's float
//     expressions (fun.EvalNum); blocks hold untyped words, and a read
//     takes the word as its target is declared (E-IMP-DEC-FLOAT,
//     IMP-FLOAT);
//   - translate.go: FunMemToImp and COPY (FUNMEM → IMP), FromFunmem;
//     simplify.go: Simplify, the simplifier after it (skips, dead stores
//     to scalars that cannot go wrong, and their declarations removed);
//     pass.go: both as the registry's passes (FromFunmemPass,
//     SimplifyPass);
//   - lang.go: IMP as a lang.Language, for the driver's registry;
//   - reassoc.go: ReassociatesFloats, whether a program's float reduce
//     or scan may run as a tree (the CUDA backend's) within the bound;
//   - mutants.go: registers the package's mutation points (proofs-tests'
//     TestMutants); the points are mutant.On calls in the code they
//     break.
//
// Races. A kernel's iterations run on one heap and must be racefree
// (eq 4). A for's iterations are sequential: no race between them is
// possible, and none is tracked. A reduce's or scan's element parts are
// independent iterations, as a kernel's threads, and its combines may run
// in any order a tree gives, so the elements and the combines are the
// iterations of one race tracker (a scan's write after element i is
// element i's): none may write a location another reads or writes. That
// the combine is associative, with the neutral element neutral, is
// assumed, not checked.
//
// FunMemToImp lives here, in the package of the language it produces, and
// imports FUNMEM: the import graph points from lower levels to higher ones
// (package lang states the convention). Passes out of IMP (the CUDA
// emitter) live in packages of their own.
package imp
