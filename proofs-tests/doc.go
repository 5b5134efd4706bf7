// Package proofstests is the property-based test suite of arraysem, built
// on github.com/leanovate/gopter. It covers FUN (§2 of the funmem-imp-lmad
// paper, Figs 1-5) and FUNMEM (§3 and §5, Figs 6-10, Def 3.1; see FUNMEM
// below), the levels below them down to IMP and CUDA, Remora's typed core
// and its dialects, and the optimising passes (see Levels, Remora and the
// optimising passes).
//
// # The generator
//
// fungen.go has one generator, Generate (wrapped for gopter as GenCase in
// gopter_test.go, and in proofs-tests/internal/propcheck for the packages
// beside this one, so that the arraysem command, which runs campaigns, links
// neither gopter nor testing), of random well-typed FUN programs with values for their input
// declarations: scalar statements over every operator (+ - * / % == != <
// <= > >= && || and unary minus, negative constants, now and then a zero
// divisor), full indexing, slices of every dimension, transpose, iota,
// copy, nested kernels that use their index and outer arrays and produce
// ints or arrays, ifs with plain patterns, and ifs whose pattern binds a
// size together with an array of that size, the branches returning arrays
// of different sizes (Fig 2). It is type-directed: it keeps the variables
// in scope with their FUN types and writes only expressions whose typing
// rule's premises hold. It also tracks an interval for every int's value,
// so it chooses in-bounds indices and slices, non-zero divisors and small
// kernel bounds on purpose. Half the cases are safe (they cannot get
// stuck); the others sometimes choose what may get stuck in E-INDEX,
// E-SLICE, E-SCALAR (division by zero), E-IOTA or E-KERNEL (a negative
// bound or item size). Sizes stay in 0..5 and ranks in 1..3.
//
// With GenConfig.Extensions (ExtGenConfig; fungen_ext.go) it also makes
// the extension forms of docs/fun.md: loops carrying ints, arrays of a
// fixed type and sizes with arrays of that size (an existential size that
// changes per iteration, kept in 0..5; bounds 0..4), reduce and scan with
// +, *, max or min on ints or element-wise over array rows (a kernel over
// the row: vector addition) or with a random operator body, from a start
// that is seldom neutral; filter by a comparison of the row or of one of
// its elements, the pattern binding the size; and assert, true in a safe
// choice, perhaps false (E-ASSERT) in a risky one, with messages that
// need quoting. A carried value's interval is ivTop (the generator does
// not follow it through the iterations); a fold's is the join of its
// accumulators'. Off, the generator draws exactly the programs it drew
// before the extensions, seed for seed. The FUN properties, the coverage
// report and the FUNMEM properties (MemGenConfig, MemExtensions) use
// ExtGenConfig, and so does the level agreement FUN ≡ FUNMEM ≡ IMP
// (ImpGenConfig, ImpExtensions), CUDA included.
// With the extensions the generator also makes float scalars
// (fungen_float.go): float(x), float constants, + - * /, sqrt exp log sin
// cos, and ints from them by a comparison or by int(f) in a tracked
// range (a risky choice: of any float, perhaps stuck in E-SCALAR); floats
// stay out of the block's variables, so every other form sees ints.
//
// Shrinks (gopter's ShrinkCase) is the generator's shrinker: edits that keep a program well
// typed by construction. It drops unused statements, inputs and results,
// hoists if branches and unwraps kernels into the enclosing body, simplifies
// scalar expressions and moves input values towards 0. Each step strictly
// decreases Measure. A counterexample is reported as its program
// (fun.Print), its inputs (with an arraysem run line) and the seed and size
// that regenerate it, next to the original before shrinking.
//
// ast.go has the tree utilities they share beyond package fun's (walk.go:
// copies, walks, renaming): DiffPrograms (a structural comparison that
// ignores positions), Measure and Features.
//
// # Running them
//
// go test ./proofs-tests/... runs the CI counts (-n 3000 programs per FUN
// property, fewer for FUNMEM and Remora, TestExhaustive to size 2);
// go test -short runs a tenth of them (300 programs unless -n is given,
// TestExhaustive to size 1), keeping the counts of the tests that need
// them to see rare events (the coverage report, the invalid mutant).
// Independent properties run in parallel (t.Parallel), each with its own
// statistics. The tests of the Remora theorems (remora-soundness …
// dialect-compiled) and of the levels and passes below FUN
// (fun-funmem-imp, fuse, slice), two fifths of the CPU time, are in the
// packages proofs-tests/remora and proofs-tests/levels, which take the
// same flags (through proofs-tests/internal/propcheck), so that go test
// runs them beside this package's. TestMutants runs only with -tags mutants
// (see Mutants); TestMutantsRun (in the package proofs-tests/mutation,
// so that it runs beside this package's properties) runs it in a child
// go test from a plain, not -short, go test.
// rules_test.go checks every rule name written in text (golden markers,
// the examples' comments, the coverage figures) against the languages'
// rule tables.
//
// # The properties (fun_props.go, refeval_props.go; fun_test.go, refeval_test.go)
//
//   - (a) fun.Check accepts every generated program (and its printed and
//     reparsed form).
//   - (b) Big-step (fun.Eval) and small-step (fun.RunSmall) semantics agree:
//     the same results, or the identical error (position, rule, message).
//     Building derivations changes nothing, and every small-step
//     configuration renders.
//   - An independent reference evaluator (refeval_props.go, written from
//     Figs 4 and 5 and sharing no code with fun or semantics) agrees with
//     fun.Eval: the same results, or stuck in the same rule. It catches the
//     mistakes (b) cannot see in the rules both semantics share.
//   - Type soundness: a well-typed program runs to completion or gets stuck
//     only in the states the type system cannot rule out, and safe cases
//     never get stuck.
//   - (c) print∘parse is the identity on trees, positions aside (DiffPrograms,
//     a structural walk, and the printed texts), the constant
//     math.MinInt64 included (it prints as -9223372036854775808).
//   - (d) fun.ExpandDerived preserves meaning: the expansion has no derived
//     forms, type checks, round-trips and evaluates as the original (a
//     negative iota is stuck in E-KERNEL instead of E-IOTA).
//   - The --arg lines of a report reproduce the inputs through
//     fun.BindInputs, empty arrays of rank 2 or more included (their inner
//     sizes come from the size inputs).
//   - (e) Rule coverage: every rule of Figs 3 and 4 (T-CONST … T-PROG,
//     E-IF-TRUE … E-IN, with T-IOTA, T-COPY, E-IOTA, E-COPY) and of the
//     extension forms (T-LOOP … T-ASSERT, E-LOOP … E-ASSERT) fires, the
//     stuck states of E-INDEX, E-SLICE and E-SCALAR occur, and every
//     syntactic feature the generator promises appears (FeatureNames,
//     ExtFeatureNames); the counts are logged.
//
// These FUN properties run on ExtGenConfig's cases; the reference
// evaluator runs loop, reduce, scan, filter and assert from docs/fun.md's
// prose (refLoop, refFold, refFilter), sharing nothing with
// fun/eval_ext.go. Type soundness allows E-LOOP (a negative bound) and
// E-ASSERT (a failed assertion, or a division by zero in its condition)
// besides the paper's stuck states.
//
// Two more tests check the generator itself: it is deterministic, and its
// shrinker turns deliberately failing cases into programs of a few
// statements.
//
// # Running
//
// Every property runs with a fixed seed and a bounded count, so CI runs
// are reproducible (-n 3000 by default):
//
//	go test ./proofs-tests/...
//
// A long campaign raises the count (per property) and varies the seed. A
// case costs about 2 ms per property, so -n 100000 takes about half an
// hour on one core: lift go test's default 10-minute limit with -timeout,
// and spread the work with -workers (the three packages of properties
// take the same flags; proofs-tests/mutation takes none):
//
//	go test ./proofs-tests ./proofs-tests/remora ./proofs-tests/levels -timeout 0 -args -n 100000
//	go test ./proofs-tests ./proofs-tests/remora -timeout 0 -args -n 100000 -seed 42 -workers 4
//	go test ./proofs-tests -v -run Coverage -args -n 20000   # the counts
//
// A failure prints the seed to rerun with (with one worker), and every
// case prints the seed and size that regenerate it (Generate). The -n flag
// also sets the number of programs of the coverage test.
//
// # FUNMEM (funmem_props.go, funmem_test.go, memgen.go)
//
// The FUNMEM properties reuse the FUN generator: each generated program p
// is translated by TransformProgram, and Variants (memgen.go) adds
// Simplify(q), MemoryExpand(q) in the GPU and CPU layouts, Simplify after
// each, and the compile path Simplify, MemoryExpand, Simplify. For every
// variant: Fig 8 accepts it; Def 3.1 holds (funmem.CheckValidity: valid,
// race free) and its heap-based results are FUN's whenever FUN's
// evaluation of p succeeds, and when FUN gets stuck the heap semantics gets
// stuck in the corresponding E-MEM rule (a table of the pairs is logged);
// heap big-step and small-step agree (values and final heaps, or the
// identical error); the value-based semantics gives FUN's results; and
// print∘parse gives the same text. TestMemoryExpandExpands counts the
// allocations MemoryExpand moves out of kernels; TestFunmemMutations breaks
// valid programs (Mutate: a stride of a fresh array's LMAD set to 0, two
// fresh arrays in one block) and tabulates how each mutant is caught
// (rejected by a T-MEM rule, race, invalid, stuck, or still valid);
// TestFunmemRuleCoverage requires every rule of Figs 8 and 10 to fire.
//
// They run -n/6 cases each (500 by default). Open bugs they found in
// funmem are listed in knownBugs, each with a reproducer test (TestBug…)
// that skips with "BUG:" while it is there; the properties leave out what
// a known bug breaks, count it, and skip with "BUG:" at the end. Bugs
// fixed since keep regression tests (Test…Fixed).
//
// # Levels, Remora and the optimising passes
//
// The other properties (theorems.go lists them all) have files of their
// own. Their tests are in proofs-tests/levels (fun-funmem-imp, fuse,
// slice) and proofs-tests/remora (the Remora ones), which reach them
// through Theorems, or, where a test reports what the property saw,
// through LevelsProp, PropRemoraLevels, PropDialectsAgree and
// PropDialectCompiled with their statistics (LevelStats, DialectStats,
// CompiledStats):
//
//   - levels_props.go: fun-funmem-imp, the level agreement. A FUN program
//     walks the arraysem command's registry (check.NewRegistry) to every
//     level it reaches, each stage re-checked; each level is printed, read
//     back and run under each of its semantics, and agrees with FUN's
//     big-step, so a newly registered pass is covered without an edit
//     here. imp_props.go has the rules of Fig 12 its test requires to
//     fire;
//   - optimise_props.go: fuse and slice, fusion and size slicing keep the
//     program's meaning and do no more work (the cost counters), on the
//     generated programs and on the pipelines of fusegen.go
//     (GenerateFusion: maps, reduces and scans over one size, consumers on
//     two paths, inside a loop, used twice: Fig 9's cases, which the
//     general generator rarely makes); and remora-optimised;
//   - remoragen.go: GenerateRemora, type-directed random programs of the
//     typed Remora dialect, written as source text so that the reader and
//     parser are exercised too; remora_props.go: type soundness (Theorem
//     1), big-step = small-step, and print∘parse of programs and of every
//     small-step configuration;
//   - erase.go: EraseRemora, a checked typed term erased to the
//     rank-annotated dialect's source; remora_dynamic_props.go:
//     remora-dialects, a typed program and its erasure agree under the
//     typed big-step and the dynamic big- and small-step;
//   - remora_levels_props.go: remora-levels, a Remora program compiled
//     through every level the registry reaches, every run agreeing with
//     Remora's big-step and every FUNMEM level valid and race free;
//   - dialectgen.go: GenerateDialect, numeric programs of #lang
//     remora/dynamic around the values where exact numbers part from
//     int64 and float64; dialect_compiled_props.go: dialect-compiled, no
//     compiled level prints a value the interpreter does not (it prints
//     the same lines, stops with the 64-bit overflow error, or goes wrong
//     too);
//   - dynamic_rules_props.go: the dynamic dialect's engine ≡ rules
//     (DynamicEngineMatchesRules): its engine, with each fast path on and
//     off, gives its rules' (remora/dynamic/fig6.go) values, errors and
//     rule counts, on GenerateDialect's programs and the erasures
//     (ErasedDynamic); remora/dynamic's fig6_test.go runs it there, on
//     the examples and on the golden chunks, and the mutation table as
//     dynamic-engine-rules.
//
// cover.go is the rule-coverage report of arraysem cover (Figures, built
// from the languages' rule tables, and Cover); gc.go raises the
// collector's target while a campaign runs (GOGC 1600 with a soft memory
// limit of 256 MiB, unless the user set GOGC or GOMEMLIMIT), since a
// campaign allocates much and keeps little.
//
// # Bounded-exhaustive checking (enum.go, enum_test.go)
//
// Beside random sampling, the small-scope hypothesis: EnumeratePrograms
// lists every well-typed FUN program up to a size over a small vocabulary,
// and TestExhaustive runs each, with n = 0, 1 and 2 (xs the first n of 2,
// -1), through the per-case properties above: fun.Check, print∘parse,
// big-step = small-step, type soundness, the reference evaluator,
// ExpandDerived, FUNMEM validity of every variant (propValid's check) and
// FUN ≡ FUNMEM ≡ IMP at every registered level (propImp). The programs
// have the inputs (n : int) (xs : [n]); a statement is a constant 0, 1 or
// 2, an operator + - * / < on in-scope ints and those constants, an index
// or a slice with in-scope ints, transpose, iota, copy, a kernel over an
// in-scope bound whose body has at most one statement, an if returning one
// value, or Fig 2's if returning a size with an array of that size; the
// results are one or two variables in scope, and no statement is dead. The
// size is the number of statements (nested ones included) plus the number
// of operators. Names follow a counter, so each program comes once; every
// one type checks (TestEnumerateWellTyped), and the count for size 1 is
// derived by hand (TestEnumerateSize1: 43, and 3 of size 0).
//
// The CI bound is size 2: 1575 programs × 3 inputs = 4725 cases, 8 seconds
// on two idle cores (15 on busy ones). A campaign raises it (size 3:
// 100154 programs, 300462 cases, about 35 minutes on two busy cores), and
// -exhaustive-inner the statements a kernel's or a branch's body may have
// (2: 4367 more programs of size 3):
//
//	go test ./proofs-tests -run Exhaustive -v -timeout 0 -args -exhaustive-size 3
//
// A counterexample is the first failing case in enumeration order (the
// smallest size first), printed with its program and inputs; open bugs it
// finds go in enumKnownBugs, whose cases are left out and counted.
//
// # Mutants (mutants_test.go, internal/mutant)
//
// Mutation testing checks the checks: a mutant is a deliberately broken
// variant of a translation or a semantics, one small change at a mutation
// point marked by mutant.On(name) in the implementation and registered by
// mutant.Register in its package (the switch exists only in builds with
// the tag mutants, so arraysem cannot turn one on; with none on, every
// point takes its correct branch). TestMutants (go test -tags mutants
// -run Mutants; not parallel, so no other test sees a mutant) switches
// each on in turn (mutant.Set) and runs the properties that should notice
// it, in order, each over a bounded number of cases (400 FUN, 200 FUNMEM
// and IMP, 500 Remora; case k generated from its own seed, as in a
// campaign), until one fails: that property kills the mutant. The same
// properties on the same cases, with no mutant on, all hold (the control
// row). The mutants:
//
//   - expand-stride (funmem/expand.go): MemoryExpand's GPU layout keeps the
//     strides instead of multiplying them by the kernel's bound, so
//     threads' arrays overlap: passes-valid (a race, Def 3.1);
//   - slice-off-by-one (fun/fig4.go): FUN's slices start one element late;
//     big- and small-step share the rule (eSlice) and agree, so
//     fun-big-small survives it: fun-reference, the independent evaluator;
//   - if-support (funmem/translate.go): Support drops an if's array offset:
//     transform-valid (T-MEM-RESULT rejects the translation);
//   - no-race-check (semantics/race.go): the tracker never reports a race.
//     The validity properties only see race-free programs and survive it;
//     race-oracle kills it: it decides eq 4 again from the traces of
//     the kernels that finish in the memgen.go mutants of TransformProgram's
//     output (a stride set to 0, shared blocks), about one in seven racy;
//   - transpose-swap (semantics/lmad.go): E-MEM-TRANSPOSE swaps the sizes
//     but not the strides: transform-valid (Def 3.1 mismatch);
//   - imp-copy-order (imp/translate.go): FunMemToImp's element-wise copy
//     reads the source in reverse: fun-funmem-imp;
//   - remora-lift-order (remora/step.go): lift tiles the whole array
//     instead of repeating each cell: remora-big-small;
//   - dynamic-whole-cell (remora/dynamic/eval.go): an argument of a rank-all
//     parameter is cut into scalar cells. The generated programs are typed
//     Remora (remora-big-small survives it), and the dialect's big- and
//     small-step share appFrames: remora-examples kills it, every example
//     of examples/remora and examples/remora-dynamic giving its golden
//     output under each semantics (check.RunGoldenFile).
//   - explicitize-rep-outside (remora/ir/explicitize.go) and
//     simplify-hoist-past-empty (remora/ir/simplify.go): Explicitize
//     replicates an argument whose frame is a proper prefix whole,
//     outside its frame; Simplify hoists what can go wrong out of a loop
//     whose frame may be empty. Only the compile path runs these passes
//     (remora-big-small survives them): remora-levels kills the first,
//     remora-examples-levels the second (the examples' golden outputs at
//     every level, check.RunGoldenFileLevels: an empty loop's in
//     examples/remora/compile_empty_loop.remora);
//   - reduce-skips-neutral, scan-exclusive, loop-one-short and
//     filter-keeps-rejected (fun/eval_ext.go): FUN's reduce folds from the
//     first row instead of z ⊕ x1, its scan is exclusive, its loop runs one
//     iteration too few, its filter keeps every row. Big- and small-step
//     share the helpers (fun-big-small survives them): fun-reference, on
//     ExtGenConfig's cases, kills them; fun-examples (the golden outputs of
//     examples/fun) would too;
//   - funmem-scan-row, funmem-scan-exclusive, funmem-filter-past-count
//     (funmem/heap_ext.go) and funmem-loop-stale-support
//     (funmem/translate_ext.go): transform-valid, on cases with the
//     extension forms;
//   - imp-for-off-by-one, imp-reduce-skips-neutral and imp-scan-exclusive
//     (imp/loops.go, shared by IMP's two semantics): imp-examples, the
//     golden outputs of examples/imp under both IMP semantics, and
//     fun-funmem-imp on generated programs with the extension forms.
//   - fun-engine-sub-flipped, funmem-engine-sub-flipped and
//     imp-engine-sub-flipped (fun/compile_scalar.go, the scalar compiler
//     the three engines share, each asking for its own mutant): a - b
//     computed as b - a by an engine alone, on its int fast paths, not by
//     its rules as written nor its small-step:
//     fun-big-small and fun-funmem-imp (and, in their packages, the
//     property engine ≡ rules: TestEngineMutantKilled);
//     remora-engine-fold-sub-flipped (remora/fold.go): the same in typed
//     Remora's scalar folds: remora-big-small or remora-examples (the
//     golden outputs of folds_nonassoc.remora), and in package remora
//     engine ≡ rules.
//   - dynamic-engine-fold-flipped (remora/dynamic/fold.go): the dynamic
//     dialect's engine applies a fold's scalar operator to its arguments
//     swapped on its flat loop; its rules as written (fig6.go) and its
//     small-step do not: dynamic-engine-rules, the property engine ≡
//     rules (DynamicEngineMatchesRules) on GenerateDialect's programs
//     (and, in remora/dynamic, TestEngineMutantKilled on the examples).
//   - fuse-case3, fuse-case4 and fuse-case5 (fun/fuse): fusion fuses
//     in a case of Fig 9 of "A T2 Graph-Reduction Approach To Fusion" it
//     must refuse: into a consumer inside a loop or another SOAC's body
//     (3), into two consumers on one control path (4), into its consumers
//     while keeping the producer for another use (5). The values stay
//     the same, so only the cost counters see it: fuse (on generated
//     programs) and fuse-pipelines (on GenerateFusion's pipelines), whose
//     fused programs must count no more operations than the originals and
//     run no statement more often (the duplicated-work counter).
//
// The table of mutants, their killers and the cases it took is printed
// by
//
//	go test -tags mutants ./proofs-tests -v -run '^TestMutants$'
//
// and the test fails if a mutant survives (about 45 seconds on two busy
// cores). A new mutant without an entry in TestMutants' plan faces every
// property.
//
// # Theorems and campaigns (theorems.go, prove.go, THEOREMS.md)
//
// The properties live in package code (*_props.go) so that the command
// can run them: Theorems lists each with its statement, its source in the
// papers and its CI test, and arraysem prove runs them as a campaign
// (Prove, ProveFor): case k of a property is generated from its own seed
// (caseSeed of the campaign seed, the property and k), so --shard i/n runs
// the cases with k mod n = i-1 on any machine and MergeReports joins the
// shards' JSON reports into the report of one run, each checked against
// its shard's plan (CheckResult); FUN counterexamples are
// shrunk with Shrinks. THEOREMS.md states every theorem with its test
// and the counts of the last campaign. TestProveGolden pins what the
// campaigns of the FUNMEM and level properties find on a fixed seed
// (testdata/prove.golden: their verdicts, what their cases checked, and
// the counterexamples of registries with a pass that breaks programs),
// so that making them faster cannot change an outcome unseen.
package proofstests
