package proofstests

import (
	"fmt"
	"strings"
	"sync"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Fig12Rules are the rules of Fig 12.
var Fig12Rules = ruleNames(imp.EImpDecInt, imp.EImpDecMem, imp.EImpAssignInt, imp.EImpAssignMem, imp.EImpRead,
	imp.EImpWrite, imp.EImpAlloc, imp.EImpSeq, imp.EImpIfTrue, imp.EImpIfFalse, imp.EImpSkip, imp.EImpKernel)

// impSimplifyStats counts what propImpSimplify saw: the IMP programs it
// compared and those Simplify changed.
type impSimplifyStats struct {
	sync.Mutex
	programs, changed int
}

// impSimplifyProp is propImpSimplify counting into st.
func impSimplifyProp(st *impSimplifyStats) func(c *Case) string {
	return func(c *Case) string { return propImpSimplify(c, st) }
}

// propImpSimplify: for each FUNMEM program the registry makes of the
// case (Variants: simplified, memory-expanded in both layouts),
// FunMemToImp's IMP program q and imp.Simplify(q) both type check, and
// under the big-step (the engine and Fig 12's rules) and the small-step
// semantics they give the same results, or the same error (the same
// rule, message and place: Simplify keeps the statements it does not
// remove). Simplify runs as the registry's pass, with the re-check every
// pass's output gets.
func propImpSimplify(c *Case, st *impSimplifyStats) string {
	p, err := c.Parsed()
	if err != nil {
		return "the printed FUN program does not parse: " + err.Error()
	}
	reg := arraycheck.NewRegistry()
	vs, _, _ := Variants(reg, p)
	args := caseArgs(c)
	for _, v := range vs {
		var stages []lang.Stage
		if err := safely("FunMemToImp, Simplify", func() (err error) {
			stages, err = reg.RunPasses(v.Program, []string{imp.FromFunmemPass.Name, imp.SimplifyPass.Name}, lang.Options{})
			return err
		}); err != nil {
			if isPanic(err) || strings.Contains(err.Error(), imp.SimplifyPass.Name) {
				return fmt.Sprintf("%s: %v%s", v.Name, err, showMem(v.Name, v.Prog, c))
			}
			continue // FunMemToImp declines the variant
		}
		q := stages[len(stages)-2].Program.Syntax().(*imp.Program)
		s := stages[len(stages)-1].Program.Syntax().(*imp.Program)
		if err := imp.Check(s, nil); err != nil {
			return fmt.Sprintf("%s: the simplified IMP program does not check: %v\n%s", v.Name, err, imp.Print(s))
		}
		for _, sem := range []string{"big", "rules", "small"} {
			a, b := runImp(q, args, sem), runImp(s, args, sem)
			if a != b {
				return fmt.Sprintf("%s, %s-step: FunMemToImp's program gives %s, the simplified one %s\nFunMemToImp's:\n%s\nsimplified:\n%s",
					v.Name, sem, a, b, joinLines("| ", imp.Print(q)), joinLines("| ", imp.Print(s)))
			}
		}
		st.Lock()
		st.programs++
		if imp.Print(q) != imp.Print(s) {
			st.changed++
		}
		st.Unlock()
	}
	return ""
}

// runImp runs an IMP program on args under sem (big, rules or small)
// and renders the outcome: its results, or its error.
func runImp(p *imp.Program, args map[string]string, sem string) string {
	env, h, err := imp.BindInputs(p, args)
	if err != nil {
		return "input error: " + err.Error()
	}
	var vs []semantics.Array
	switch sem {
	case "big":
		vs, err = imp.Eval(p, env, h, &imp.Options{})
	case "rules":
		vs, _, err = imp.EvalRules(p, env, h, &imp.Options{})
	default:
		vs, _, err = imp.RunSmall(p, env, h, nil)
	}
	if err != nil {
		return "error " + err.Error()
	}
	return fmt.Sprint(vs)
}
