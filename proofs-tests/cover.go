package proofstests

import (
	"fmt"
	"math/rand"
	"runtime/debug"
	"strings"
	"time"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora/ir"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Figure is a figure of a paper and the rules it defines, as the code
// names them (derived forms included).
type Figure struct {
	Name  string
	Rules []string
}

// Figures are the figures whose rules the rule-coverage report covers,
// built from the languages' rule tables (fun.Rules, funmem.Rules,
// imp.Rules, remora.Rules), so that a misspelt rule does not compile.
var Figures = []Figure{
	{"FUN, Fig 3 (types)", ruleNames(fun.TConst, fun.TVar, fun.TOp, fun.TScalar, fun.TIndex, fun.TIf, fun.TTranspose,
		fun.TSlice, fun.TKernel, fun.TResult, fun.TStm, fun.TProg, fun.TIota, fun.TCopy)},
	{"FUN, Fig 4 (big- and small-step)", ruleNames(fun.EIfTrue, fun.EIfFalse, fun.EScalar, fun.EIndex, fun.ESlice,
		fun.ETranspose, fun.EKernel, fun.ELet, fun.EIn, fun.EIota, fun.ECopy)},
	{"FUNMEM, Fig 8 (types)", ruleNames(funmem.TMemScalar, funmem.TMemAlloc, funmem.TMemIndex, funmem.TMemIf,
		funmem.TMemTranspose, funmem.TMemSlice, funmem.TMemKernel, funmem.TMemResult, funmem.TMemStm, funmem.TMemLMAD,
		funmem.TMemInt, funmem.TMemArray, funmem.TMemProg, funmem.TMemIota, funmem.TMemCopy)},
	{"FUNMEM, Fig 10 (heap, big- and small-step)", ruleNames(funmem.EMemAlloc, funmem.EMemSlice, funmem.EMemIndex,
		funmem.EMemTranspose, funmem.EMemKernel, funmem.EMemIfT, funmem.EMemIfF, funmem.EStms, funmem.EMemProg,
		funmem.EMemScalar, funmem.EMemIota, funmem.EMemCopy)},
	{"IMP, Fig 12 (big- and small-step)", ruleNames(imp.EImpDecInt, imp.EImpDecMem, imp.EImpAssignInt,
		imp.EImpAssignMem, imp.EImpRead, imp.EImpWrite, imp.EImpAlloc, imp.EImpSeq, imp.EImpIfTrue,
		imp.EImpIfFalse, imp.EImpSkip, imp.EImpKernel)},
	{"Remora, Fig 6 (small-step, and the big-step's counts)", ruleNames(remora.RuleLift, remora.RuleMap,
		remora.RuleBeta, remora.RuleDelta, remora.RuleCollapse, remora.RuleTBeta, remora.RuleIBeta, remora.RuleProj,
		remora.RuleLiftDim)},
	{"Remora, Fig 7 (types)", ruleNames(remora.RuleTNum, remora.RuleTFloat, remora.RuleTBool, remora.RuleTChar,
		remora.RuleTPrim, remora.RuleTVar, remora.RuleTArray, remora.RuleTAbst, remora.RuleTApp, remora.RuleTTAbst,
		remora.RuleTTApp, remora.RuleTIAbst, remora.RuleTIApp, remora.RuleTPack, remora.RuleTUnpack, remora.RuleTLift,
		remora.RuleTReify, remora.RuleTReshape)},
	{"Remora, Fig 8 (kinds and sorts)", ruleNames(remora.RuleKBase, remora.RuleKVar, remora.RuleKArray,
		remora.RuleKFun, remora.RuleKUniv, remora.RuleKDProd, remora.RuleKDSum, remora.RuleSNat, remora.RuleSVar,
		remora.RuleSShape, remora.RuleSPlus, remora.RuleSAppend)},
	// The extension forms (issue 14; the generator's ExtGenConfig).
	{"FUN, extension (types)", extTypeRules},
	{"FUN, extension (big- and small-step)", extEvalRules},
	{"FUNMEM, extension (types)", ruleNames(funmem.TMemLoop, funmem.TMemReduce, funmem.TMemScan, funmem.TMemFilter, funmem.TMemAssert,
		funmem.TMemRedomap, funmem.TMemScanomap)},
	{"FUNMEM, extension (heap, big- and small-step)", ruleNames(funmem.EMemLoop, funmem.EMemReduce, funmem.EMemScan,
		funmem.EMemFilter, funmem.EMemAssert, funmem.EMemRedomap, funmem.EMemScanomap)},
	{"IMP, extension (big- and small-step)", ruleNames(imp.IFor, imp.IAssert, imp.IReduce, imp.IScan, imp.EImpDecFloat)},
	{"IMP, extension (checks)", ruleNames(imp.ImpFor, imp.ImpAssert, imp.ImpReduce, imp.ImpScan, imp.ImpFloat)},
	// Floats (the generator's genFloat: float scalars, and ints from them).
	{"FUN, floats (types)", ruleNames(fun.TFloat, fun.TCall)},
	// The compile path's IR (issue 15): the Remora programs explicitized,
	// checked and run again.
	{remoraIR, ruleNames(remora.RuleTMap, remora.RuleTRep, remora.RuleMAP, remora.RuleREP)},
}

// remoraIR is the figure of the compiler IR's rules: Explicitize's MAP
// and REP, their typing and their small-step (and big-step counts).
const remoraIR = "Remora, compiler IR (MAP, REP: types, small-step)"

// ruleNames lists the names of rules, where an API wants strings.
func ruleNames(rs ...semantics.Rule) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

// remoraFigures are the indices in Figures of Remora's figures.
const remoraFig6, remoraFig7, remoraFig8 = 5, 6, 7

// Coverage counts, per figure, how often each of its rules was applied.
type Coverage map[string]semantics.Counter

// Zero lists the rules of Figures that no run applied, as "figure: rule".
func (c Coverage) Zero() []string {
	var out []string
	for _, f := range Figures {
		for _, r := range f.Rules {
			if c[f.Name][r] == 0 {
				out = append(out, f.Name+": "+r)
			}
		}
	}
	return out
}

// Cover generates n programs from seed (sizes ramping up as the property
// tests do) and runs each through every level: FUN's checker and both
// semantics; FUNMEM's checker and heap semantics on each translation
// (TransformProgram, Simplify, MemoryExpand in both layouts); IMP's
// semantics on FunMemToImp of each. It also generates n/3 well-typed
// Remora programs and runs the typed checker and both semantics on each.
// It counts the rules each applies. A panic anywhere is an error naming
// the program. progress, if not nil, is told after every program.
func Cover(n int, seed int64, progress func(Progress)) (cov Coverage, err error) {
	start, total := time.Now(), n+max(1, n/3)
	tell := func(what string, done int) {
		if progress != nil {
			progress(Progress{Property: "cover: " + what, Done: done, Total: total, Elapsed: time.Since(start)})
		}
	}
	cov = Coverage{}
	for _, f := range Figures {
		cov[f.Name] = semantics.Counter{}
	}
	funT, funE := cov[Figures[0].Name], cov[Figures[1].Name]
	memT, memE, impE := cov[Figures[2].Name], cov[Figures[3].Name], cov[Figures[4].Name]
	impT := semantics.Counter{} // IMP's checks: only the extensions' rules have a row
	reg := arraycheck.NewRegistry()
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < n; i++ {
		c := Generate(r, i%(MaxGenSize+1), ExtGenConfig)
		func() {
			defer func() {
				if x := recover(); x != nil {
					err = fmt.Errorf("panic on program %d: %v\n%s\n%s", i, x, c, debug.Stack())
				}
			}()
			coverOne(reg, c, funT, funE, memT, memE, impE, impT)
		}()
		if err != nil {
			return cov, err
		}
		tell("FUN, FUNMEM, IMP", i+1)
	}
	// The extension figures' rules are counted with their language's
	// (a checker or a semantics counts every rule it applies).
	for _, x := range []struct {
		fig  string
		from semantics.Counter
	}{{"FUN, extension (types)", funT}, {"FUN, extension (big- and small-step)", funE},
		{"FUNMEM, extension (types)", memT}, {"FUNMEM, extension (heap, big- and small-step)", memE},
		{"IMP, extension (big- and small-step)", impE}, {"IMP, extension (checks)", impT}, {"FUN, floats (types)", funT}} {
		for _, f := range Figures {
			if f.Name == x.fig {
				for _, r := range f.Rules {
					cov[f.Name][r] = x.from[r]
				}
			}
		}
	}
	rr := rand.New(rand.NewSource(seed))
	m := max(1, n/3)
	for i := 0; i < m; i++ {
		src := GenerateRemora(rr, i*MaxGenSize/m, DefaultRemoraGenConfig)
		func() {
			defer func() {
				if x := recover(); x != nil {
					err = fmt.Errorf("panic on Remora program %d: %v\n%s\n%s", i, x, src, debug.Stack())
				}
			}()
			coverRemora(reg, src, cov[Figures[remoraFig6].Name], cov[Figures[remoraFig7].Name], cov[Figures[remoraFig8].Name], cov[remoraIR])
		}()
		if err != nil {
			return cov, err
		}
		tell("Remora", n+i+1)
	}
	return cov, nil
}

// coverRemora checks and runs one Remora program, counting Fig 7's and
// Fig 8's rules (split by their prefix) and Fig 6's; then explicitizes
// it, and checks and runs the IR, counting the IR's rules into ir.
func coverRemora(reg *lang.Registry, src string, steps, types, kinds, irRules semantics.Counter) {
	p, _, err := remora.ParseFile("gen.remora", src)
	if err != nil {
		return
	}
	c := semantics.Counter{}
	if _, err := remora.Check(p, &remora.CheckOptions{Counter: c}); err != nil {
		return
	}
	for r, k := range c {
		if strings.HasPrefix(r, "T-") {
			types[r] += k
		} else {
			kinds[r] += k
		}
	}
	remora.Eval(p, &remora.EvalOptions{Counter: steps})
	for _, e := range p.Exprs {
		remora.RunSmall(e, &semantics.RunOptions{Fuel: 100000, Counter: steps})
	}
	tp, err := remora.Language.Adopt(p.File, p, lang.LoadOptions{})
	if err != nil {
		return
	}
	st, err := reg.RunPasses(tp, []string{ir.ExplicitizePass.Name}, lang.Options{})
	if err != nil {
		return
	}
	q := st[len(st)-1].Program.Syntax().(*remora.Program)
	if _, err := remora.Check(q, &remora.CheckOptions{Counter: irRules}); err != nil {
		return
	}
	remora.Eval(q, &remora.EvalOptions{Counter: irRules})
	for _, e := range q.Exprs {
		remora.RunSmall(e, &semantics.RunOptions{Fuel: 100000, Counter: irRules})
	}
}

func coverOne(reg *lang.Registry, c *Case, funT, funE, memT, memE, impE, impT semantics.Counter) {
	if _, err := fun.Check(c.Prog, &fun.CheckOptions{Counter: funT}); err != nil {
		return
	}
	env := c.Env()
	fun.Eval(c.Prog, env, &fun.EvalOptions{Counter: funE})
	fun.RunSmall(c.Prog, env, &semantics.RunOptions{Counter: funE})
	args := map[string]string{}
	for _, in := range c.Inputs {
		args[in.Name] = in.Value.String()
	}
	// The FUNMEM programs the registry's passes and pipelines make
	// (Variants), each checked and run again here with the counters.
	vars, _, _ := Variants(reg, c.Prog)
	for _, vr := range vars {
		v := vr.Prog
		if _, err := funmem.Check(v, &funmem.CheckOptions{Counter: memT}); err != nil {
			continue
		}
		for _, small := range []bool{false, true} {
			if henv, h, err := funmem.BindInputs(v, args); err == nil {
				opts := &funmem.HeapOptions{Counter: memE}
				if small {
					funmem.RunHeapSmall(v, henv, h, &semantics.RunOptions{Counter: memE})
				} else {
					funmem.EvalHeap(v, henv, h, opts)
				}
			}
		}
		st, err := reg.RunPasses(vr.Program, []string{imp.FromFunmemPass.Name}, lang.Options{})
		if err != nil {
			continue
		}
		ip := st[len(st)-1].Program.Syntax().(*imp.Program)
		if imp.Check(ip, impT) != nil {
			continue
		}
		for _, small := range []bool{false, true} {
			if ienv, h, err := imp.BindInputs(ip, args); err == nil {
				opts := &imp.Options{Counter: impE}
				if small {
					imp.RunSmall(ip, ienv, h, &semantics.RunOptions{Counter: opts.Counter})
				} else {
					imp.Eval(ip, ienv, h, opts)
				}
			}
		}
	}
}
