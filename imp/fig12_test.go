package imp_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// impRun is a run of an IMP program under one big-step, with what it
// records and leaves.
type impRun struct {
	res     []semantics.Array
	err     error
	env     imp.Env
	h       *semantics.Heap
	counter semantics.Counter
	traces  []string
	stats   *semantics.Stats
}

// runImp runs p under eval, traced or not (untraced, the engine runs the
// kernels its plans prove race free without a tracker), recording rule
// counts and cost counters, or plain (no records: the engine's kernels
// that may go on 4 goroutines, every one of two iterations or more).
func runImp(eval func(*imp.Program, imp.Env, *semantics.Heap, *imp.Options) ([]semantics.Array, error), p *imp.Program, args map[string]string, traced, plain, costsOnly bool, off *imp.Options) (impRun, error) {
	env, h, err := imp.BindInputs(p, args)
	if err != nil {
		return impRun{}, err
	}
	r := impRun{env: env, h: h}
	o := &imp.Options{Jobs: 4, MinParallelWork: 1, NoRaceFreePlans: off.NoRaceFreePlans, NoCopyKernels: off.NoCopyKernels}
	if !plain {
		r.counter, r.stats = semantics.Counter{}, &semantics.Stats{}
		o = &imp.Options{Counter: r.counter, Stats: r.stats, Jobs: 1}
		if costsOnly { // cost counters without rule counts: the int folds run
			r.counter, o.Counter = nil, nil
		}
	}
	if traced {
		o.Trace = func(s imp.Stmt, tr *semantics.KernelTrace) {
			var b strings.Builder
			b.WriteString(imp.TraceName(s))
			for i, a := range tr.Iters() {
				fmt.Fprintf(&b, "; %d: %s", i+1, a.Sets())
			}
			r.traces = append(r.traces, b.String())
		}
	}
	r.res, r.err = eval(p, env, h, o)
	return r, nil
}

// sameImpRun says how the engine's run differs from the rules', or "".
func sameImpRun(engine, rules impRun) string {
	if a, b := fmt.Sprint(engine.err), fmt.Sprint(rules.err); a != b {
		return fmt.Sprintf("errors differ:\nengine: %s\nrules:  %s", a, b)
	}
	if a, b := fmt.Sprint(engine.res), fmt.Sprint(rules.res); a != b {
		return fmt.Sprintf("results differ:\nengine: %s\nrules:  %s", a, b)
	}
	if a, b := fmt.Sprint(engine.env), fmt.Sprint(rules.env); a != b { // fmt sorts a map's keys
		return fmt.Sprintf("final environments differ:\nengine: %s\nrules:  %s", a, b)
	}
	if a, b := heapString(engine.h), heapString(rules.h); a != b {
		return fmt.Sprintf("final heaps differ:\nengine: %s\nrules:  %s", a, b)
	}
	if !maps.Equal(engine.counter, rules.counter) {
		return fmt.Sprintf("rule counts differ:\nengine: %v\nrules:  %v", engine.counter, rules.counter)
	}
	if engine.stats == nil {
		return ""
	}
	if a, b := statsLine(engine.stats), statsLine(rules.stats); engine.err == nil && a != b {
		return fmt.Sprintf("cost counters differ:\nengine: %s\nrules:  %s", a, b)
	}
	if !slices.Equal(engine.traces, rules.traces) {
		return fmt.Sprintf("traces differ:\nengine: %s\nrules:  %s", strings.Join(engine.traces, "\n"), strings.Join(rules.traces, "\n"))
	}
	return ""
}

func statsLine(s *semantics.Stats) string {
	return fmt.Sprintf("ops %d allocs %d words %d peak %d kernels %d", s.Ops, s.Allocs, s.Words, s.PeakWords, s.Kernels)
}

// evalRules is imp.EvalRules as imp.Eval is called, with a derivation
// built (and dropped) when the run records rules: building it changes
// nothing.
func evalRules(p *imp.Program, env imp.Env, h *semantics.Heap, o *imp.Options) ([]semantics.Array, error) {
	o.Derive = o.Counter != nil
	vs, d, err := imp.EvalRules(p, env, h, o)
	if err == nil && o.Derive && d == nil {
		return nil, fmt.Errorf("no derivation")
	}
	return vs, err
}

func heapString(h *semantics.Heap) string {
	var b strings.Builder
	for l := 1; l <= h.Blocks(); l++ {
		fmt.Fprintf(&b, "%v=%v ", semantics.Label(l), h.Block(semantics.Label(l)))
	}
	return b.String()
}

// engineMatchesRules runs p on args under the engine (imp.Eval) and the
// rules (imp.EvalRules), traced and untraced, and plain, the last with
// the engine's fast paths each on and off (an option of the run), and
// says what differs.
func engineMatchesRules(p *imp.Program, args map[string]string) (string, error) {
	for _, mode := range []struct {
		traced, plain, costs bool
		off                  imp.Options
	}{
		{true, false, false, imp.Options{}},
		{false, false, false, imp.Options{}},
		{false, false, true, imp.Options{}},
		{false, true, false, imp.Options{}},
		{false, true, false, imp.Options{NoCopyKernels: true}},
		{false, true, false, imp.Options{NoRaceFreePlans: true}},
		{false, true, false, imp.Options{NoIntFolds: true}},
	} {
		engine, err := runImp(imp.Eval, p, args, mode.traced, mode.plain, mode.costs, &mode.off)
		if err != nil {
			return "", err
		}
		rules, _ := runImp(evalRules, p, args, mode.traced, mode.plain, mode.costs, &imp.Options{})
		if d := sameImpRun(engine, rules); d != "" {
			return fmt.Sprintf("traced %v, plain %v, costs only %v, fast paths off %+v: %s", mode.traced, mode.plain, mode.costs, mode.off, d), nil
		}
	}
	return "", nil
}

// exampleCase is a case of an example, at IMP.
type exampleCase struct {
	where string
	p     *imp.Program
	args  map[string]string
}

// exampleCases are the cases of the IMP examples (examples/imp) and of
// the FUN examples compiled to IMP (examples/fun, through FUNMEM).
func exampleCases(t *testing.T) []exampleCase {
	cases, err := check.ExampleCases(check.NewRegistry(), "imp", filepath.Join("..", "examples", "imp"), filepath.Join("..", "examples", "fun"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]exampleCase, len(cases))
	for i, c := range cases {
		out[i] = exampleCase{c.Where, c.Program.Syntax().(*imp.Program), c.Args}
	}
	return out
}

// TestEngineMatchesRulesOnExamples is the property engine ≡ rules over
// every case of the IMP examples (examples/imp) and of the FUN examples
// compiled to IMP (examples/fun, through FUNMEM): the same results,
// errors (races included) with their positions and rules, final heaps and
// environments, traces, rule counts and cost counters.
// TestCompiledAgreesWithSmallStep and TestRaceFreePlansAgree check the
// same over generated programs.
func TestEngineMatchesRulesOnExamples(t *testing.T) {
	t.Parallel()
	cases := exampleCases(t)
	golden.HoldsOnCases(t, len(cases), func(i int) string { return cases[i].where },
		func(i int) (string, error) { return engineMatchesRules(cases[i].p, cases[i].args) }, 150)
}
