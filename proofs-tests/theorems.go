package proofstests

// Theorem is a property of the papers, stated as a theorem, with where it
// comes from, the test that checks it in CI, and the property itself over
// generated cases (a FUN case or a Remora one). THEOREMS.md lists the same
// entries for readers; arraysem prove runs them as a campaign.
type Theorem struct {
	Name      string // --property NAME
	Statement string
	Source    string
	Test      string // the go test that checks it on the CI budget
	Fun       func(c *Case) string
	Remora    func(c *RemoraCase) string
	RemoraCfg func() RemoraGenConfig // the Remora generator's configuration (nil: the default)
	// Dialect: the Remora cases are GenerateDialect's numeric programs of
	// the dynamic dialect, not GenerateRemora's typed ones.
	Dialect bool
	// Ext: the FUN cases are ExtGenConfig's, with the extension forms
	// (loop, reduce, scan, filter, assert); else DefaultGenConfig's.
	Ext bool
}

// MemExtensions switches the extension forms on in the cases of the
// FUNMEM properties (TransformProgram, Simplify and MemoryExpand handle
// loop, reduce, scan, filter and assert), and ImpExtensions in those of
// the level agreement (fun-funmem-imp).
const (
	MemExtensions = true
	ImpExtensions = true
)

// MemGenConfig is the generator's configuration of the FUNMEM
// properties: ExtGenConfig when MemExtensions is set.
func MemGenConfig() GenConfig {
	if MemExtensions {
		return ExtGenConfig
	}
	return DefaultGenConfig
}

// ImpGenConfig is the generator's configuration of the level agreement:
// ExtGenConfig when ImpExtensions is set.
func ImpGenConfig() GenConfig {
	if ImpExtensions {
		return ExtGenConfig
	}
	return DefaultGenConfig
}

// FunConfig is the configuration of the FUN generator the theorem's cases
// are made with.
func (t Theorem) FunConfig() GenConfig {
	if t.Ext {
		return ExtGenConfig
	}
	return DefaultGenConfig
}

// RemoraConfig is the configuration of the Remora generator the
// theorem's cases are made with (RemoraCfg, or the default).
func (t Theorem) RemoraConfig() RemoraGenConfig {
	if t.RemoraCfg != nil {
		return t.RemoraCfg()
	}
	return DefaultRemoraGenConfig
}

// Theorems are the properties arraysem prove runs, in THEOREMS.md's order.
var Theorems = []Theorem{
	{Name: "fun-check", Ext: true, Statement: "every generated FUN program is well typed (Fig 3), and so is its printed and reparsed form",
		Source: "funmem-imp-lmad §2, Fig 3", Test: "TestCheckerAcceptsGenerated", Fun: propChecks},
	{Name: "fun-big-small", Ext: true, Statement: "FUN's big-step and small-step semantics agree: the same results, or the same stuck rule at the same position",
		Source: "funmem-imp-lmad §2, Fig 4", Test: "TestBigStepSmallStepAgree", Fun: propBigSmall},
	{Name: "fun-soundness", Ext: true, Statement: "a well-typed FUN program runs to completion or gets stuck only where Fig 3 cannot rule it out (bounds, division, sizes); a safe one never gets stuck",
		Source: "funmem-imp-lmad §2, Figs 3–4", Test: "TestWellTypedProgramsGoRightOrStuckAllowed", Fun: propProgress},
	{Name: "fun-reference", Ext: true, Statement: "FUN's evaluator agrees with an independent reference evaluator written from Figs 4–5",
		Source: "funmem-imp-lmad §2, Figs 4–5", Test: "TestReferenceEvaluatorAgrees", Fun: propReference},
	{Name: "fun-derived", Ext: true, Statement: "expanding FUN's derived forms (iota, copy) preserves meaning",
		Source: "funmem-imp-lmad §2, Fig 5", Test: "TestExpandDerivedPreservesMeaning", Fun: propExpand},
	{Name: "transform-valid", Ext: MemExtensions, Statement: "TransformProgram preserves validity: its output is well typed (Fig 8), valid (Def 3.1) and race free (eq 4), with FUN's results",
		Source: "funmem-imp-lmad §3.4, Def 3.1, eq 4", Test: "TestFunmemTransformValid", Fun: propValid(true, &stuckTable{}, &bugLog{})},
	{Name: "passes-valid", Ext: MemExtensions, Statement: "Simplify and MemoryExpand (both layouts) preserve validity and race freedom, and FUN's results",
		Source: "funmem-imp-lmad §3.4, §5, Def 3.1, eq 4", Test: "TestFunmemPassesValid", Fun: propValid(false, &stuckTable{}, &bugLog{})},
	{Name: "race-oracle", Ext: MemExtensions, Statement: "the race tracker is right: racefree (eq 4), decided again from the read and write sets of every kernel that finishes, holds for TransformProgram's output and for its mutants (a stride set to 0, two arrays in one block) whenever the heap semantics lets them run",
		Source: "funmem-imp-lmad §3.3, eq 4", Test: "TestMutants (its race-oracle row)", Fun: propRaceOracle},
	{Name: "fun-funmem-imp", Ext: ImpExtensions, Statement: "FunMemToImp preserves results: FUN = FUNMEM (heap) = IMP, plain and memory-expanded, big- and small-step, at every level the registered passes reach (CUDA compiled, not run)",
		Source: "funmem-imp-lmad §4, Figs 11–13", Test: "TestFunFunmemImpAgree", Fun: propImp},
	{Name: "fuse", Ext: true, Statement: "fusion by T2 reduction preserves meaning and does no more work: the fused program is well typed, gives the original's values (or is stuck too), and counts no more operations, words allocated, peak live words or kernel launches",
		Source: "t2-fusion §3, Figs 9–14", Test: "TestFusionPreservesAndSaves", Fun: propFuse},
	{Name: "slice", Ext: true, Statement: "size slicing preserves meaning at a constant cost: the sliced program is well typed, gives the original's values (or is stuck too), allocates no more words and runs at most the pass's reported overhead more operations; after TransformProgram and MemoryExpand no allocation is left in a kernel but those the pass reported keeping",
		Source: "size-slicing §3–4, Figs 10, 15–23", Test: "TestSlicingPreservesAndHoists", Fun: propSlice},
	{Name: "remora-optimised", Statement: "a Remora program compiled to FUN with slicing and fusion agrees with the one compiled without them, and does no more work (its operations within slicing's overhead)",
		Source: "t2-fusion §3, size-slicing §3", Test: "TestRemoraOptimisedAgrees", Remora: propRemoraOptimised},
	{Name: "remora-soundness", Statement: "Remora type soundness (Theorem 1): a well-typed term is a value or steps, and every step preserves its type",
		Source: "remora-rank-polymorphism §4, Theorem 1, Figs 6–8", Test: "TestRemoraTypeSoundness", Remora: propRemoraSoundness, RemoraCfg: remoraConfigForConfigurations},
	{Name: "remora-big-small", Statement: "Remora's big-step (flat arrays) and small-step (Fig 6) semantics agree",
		Source: "remora-rank-polymorphism §4, Fig 6", Test: "TestRemoraBigStepSmallStepAgree", Remora: propRemoraBigSmall},
	{Name: "remora-dialects", Statement: "the rank-annotated untyped dialect (§2) and the typed core agree: a generated typed program and its erasure (types and indices dropped, cell ranks read off the parameter types) give the same value or fail alike, under the typed big-step and the dynamic big- and small-step",
		Source: "remora §2 against §4 (Figs 1–4, 6)", Test: "TestRemoraDialectsAgree",
		Remora: func(c *RemoraCase) string { return PropDialectsAgree(c, NewDialectStats()) }},
	{Name: "remora-levels", Statement: "the Remora compile path preserves results: Remora = Remora IR after Explicitize, Inline and Simplify = FUN = FUNMEM (plain and expanded; heap, value, small) = IMP, every stage re-checked, every FUNMEM program valid and race free (a walk a pass declines is counted, not failed)",
		Source: "remora-compiler-to-cuda §4.3–4.5; remora-rank-polymorphism §5.5", Test: "TestRemoraAtEveryLevel",
		Remora: propRemoraAtLevels},
	{Name: "dialect-compiled", Statement: "no compiled level of a dynamic-dialect program prints a value its interpreter does not: every run at every level the compile path reaches prints the interpreter's lines, stops with the 64-bit overflow error (the dialect's integers are exact), or goes wrong where the interpreter does; where its program re-associates a float fold (a parallel float sum or product), its floats are within a relative 1e-9 of the interpreter's",
		Source: "remora-rank-polymorphism §2; remora-compiler-to-cuda §4", Test: "TestDialectCompiled",
		Remora: propDialectCompiledAt, Dialect: true},
	{Name: "remora-print-parse", Statement: "printing a Remora program and parsing it back gives the same typed term",
		Source: "remora-compiler-to-cuda §4.1 (the typed dialect)", Test: "TestRemoraPrintParse", Remora: propRemoraPrintParse},
	{Name: "remora-print-parse-steps", Statement: "every configuration of Remora's small-step prints to a term that reads back and checks at the same type",
		Source: "remora-rank-polymorphism Fig 6", Test: "TestRemoraPrintParseSteps", Remora: propRemoraPrintParseSteps, RemoraCfg: remoraConfigForConfigurations},
}

// TheoremNamed finds a theorem by its --property name.
func TheoremNamed(name string) (Theorem, bool) {
	for _, t := range Theorems {
		if t.Name == name {
			return t, true
		}
	}
	return Theorem{}, false
}
