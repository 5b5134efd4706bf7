package funmem_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// heapRecord is what a run of a heap big-step did: its results read
// through the final heap, its error, its kernels' traces, its rule counts
// and cost counters.
type heapRecord struct {
	out, err, traces string
	counter          semantics.Counter
	stats            *semantics.Stats
}

type heapEvalFunc func(*fun.Program, *funmem.Env, *semantics.Heap, *funmem.HeapOptions) ([]funmem.Value, error)

// rulesEval is funmem.EvalRules without its derivation.
func rulesEval(p *fun.Program, env *funmem.Env, h *semantics.Heap, o *funmem.HeapOptions) ([]funmem.Value, error) {
	vs, _, err := funmem.EvalRules(p, env, h, o)
	return vs, err
}

func runHeapRecord(eval heapEvalFunc, p *fun.Program, args map[string]string, traced, counted bool, o funmem.HeapOptions) (heapRecord, error) {
	env, h, err := funmem.BindInputs(p, args)
	if err != nil {
		return heapRecord{}, err
	}
	r := heapRecord{stats: &semantics.Stats{Runs: map[semantics.Pos]int64{}}}
	if counted {
		r.counter = semantics.Counter{}
	}
	o.Counter, o.Stats = r.counter, r.stats
	var traces []string
	if traced {
		o.Trace = func(k *fun.Stm, tr *semantics.KernelTrace) {
			traces = append(traces, fmt.Sprintf("%s %v", funmem.KernelName(k), tr.Iters()))
		}
	}
	vs, err := eval(p, env, h, &o)
	if err != nil {
		r.err = err.Error()
	} else {
		var parts []string
		for _, v := range vs {
			if v.Kind == funmem.BlockVal {
				parts = append(parts, v.Block.String())
				continue
			}
			a, err := funmem.Read(h, v)
			if err != nil {
				return r, err
			}
			parts = append(parts, a.String())
		}
		r.out = strings.Join(parts, " ")
	}
	r.traces = strings.Join(traces, "\n")
	return r, nil
}

func sameHeapRun(engine, rules heapRecord) string {
	switch {
	case engine.err != rules.err:
		return fmt.Sprintf("errors differ:\nengine: %s\nrules:  %s", engine.err, rules.err)
	case engine.out != rules.out:
		return fmt.Sprintf("results differ:\nengine: %s\nrules:  %s", engine.out, rules.out)
	case engine.traces != rules.traces:
		return fmt.Sprintf("traces differ:\nengine:\n%s\nrules:\n%s", engine.traces, rules.traces)
	case !maps.Equal(engine.counter, rules.counter):
		return fmt.Sprintf("rule counts differ:\nengine: %v\nrules:  %v", engine.counter, rules.counter)
	}
	a, b := engine.stats, rules.stats
	if a.Ops != b.Ops || a.Allocs != b.Allocs || a.Words != b.Words || a.PeakWords != b.PeakWords || a.Kernels != b.Kernels || !maps.Equal(a.Runs, b.Runs) {
		return fmt.Sprintf("cost counters differ:\nengine: %+v\nrules:  %+v", *a, *b)
	}
	return ""
}

// engineMatchesRules runs p on args by the engine (EvalHeap) with each
// of its fast paths on and off and by the rules as written (EvalRules);
// the error is the inputs'.
func engineMatchesRules(p *fun.Program, args map[string]string) (string, error) {
	for _, mode := range []struct {
		name            string
		traced, counted bool
		off             funmem.HeapOptions
	}{
		{"traced", true, true, funmem.HeapOptions{}},
		{"untraced", false, true, funmem.HeapOptions{}},
		// Without rule counts the scalar folds run as loops, keeping the
		// cost counters.
		{"cost counters only", false, false, funmem.HeapOptions{}},
		{"4 jobs", false, true, funmem.HeapOptions{Jobs: 4, MinParallelWork: 1}},
		{"no scalar folds", false, false, funmem.HeapOptions{NoScalarFolds: true}},
	} {
		engine, err := runHeapRecord(funmem.EvalHeap, p, args, mode.traced, mode.counted, mode.off)
		if err != nil {
			return "", err
		}
		rules, err := runHeapRecord(rulesEval, p, args, mode.traced, mode.counted, funmem.HeapOptions{})
		if err != nil {
			return "", err
		}
		if d := sameHeapRun(engine, rules); d != "" {
			return fmt.Sprintf("%s: %s", mode.name, d), nil
		}
	}
	return "", nil
}

type heapCase struct {
	where string
	p     *fun.Program
	args  map[string]string
}

// heapExampleCases are the cases of the FUNMEM examples (examples/funmem)
// and of the FUN examples compiled to FUNMEM.
func heapExampleCases(t *testing.T) []heapCase {
	cases, err := check.ExampleCases(check.NewRegistry(), "funmem", filepath.Join("..", "examples", "funmem"), filepath.Join("..", "examples", "fun"))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]heapCase, len(cases))
	for i, c := range cases {
		out[i] = heapCase{c.Where, c.Program.Syntax().(*fun.Program), c.Args}
	}
	return out
}

// TestEngineMatchesRulesOnExamples is the property engine ≡ rules for
// the heap semantics of Fig 10, over every case of the FUNMEM examples
// and of the FUN examples compiled to FUNMEM: the same results, errors
// (races included) with their positions and rules, kernel traces, rule
// counts and cost counters, with the engine's fast paths (untracked
// race-free kernels, parallel kernels, scalar folds) on and off. The
// generated programs of proofs-tests hold the tree walker to the
// small-step too (TestFunmemHeapBigSmallAgree).
func TestEngineMatchesRulesOnExamples(t *testing.T) {
	t.Parallel()
	cases := heapExampleCases(t)
	golden.HoldsOnCases(t, len(cases), func(i int) string { return cases[i].where },
		func(i int) (string, error) { return engineMatchesRules(cases[i].p, cases[i].args) }, 150)
}

// TestRulesDerive: run --derive on the rules gives the derivation of
// E-MEM-PROG, whose premises reach every rule the run counts.
func TestRulesDerive(t *testing.T) {
	reg := check.NewRegistry()
	src, err := os.ReadFile("../examples/funmem/reduce.funmem")
	if err != nil {
		t.Fatal(err)
	}
	l, err := check.Load(reg, "reduce.funmem", string(src), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := l.Syntax().(*fun.Program)
	env, h, err := funmem.BindInputs(p, map[string]string{"xss": "[[1 2] [3 4]]", "xs": "[3 1]"})
	if err != nil {
		t.Fatal(err)
	}
	counter := semantics.Counter{}
	_, d, err := funmem.EvalRules(p, env, h, &funmem.HeapOptions{Derive: true, Counter: counter})
	if err != nil || d == nil {
		t.Fatalf("EvalRules: %v, derivation %v", err, d)
	}
	seen := semantics.Counter{}
	var walk func(*semantics.Derivation)
	walk = func(d *semantics.Derivation) {
		seen.Hit(d.Rule)
		for _, p := range d.Premises {
			walk(p)
		}
	}
	walk(d)
	if d.Rule != "E-MEM-PROG" || !maps.Equal(seen, counter) {
		t.Errorf("derivation's rules %v, the run counted %v\n%s", seen, counter, d)
	}
	if !strings.Contains(d.String(), "let (sum : int) = reduce (a : int) (b : int) = zero over xs do … ⇓ (4); H'   [E-MEM-REDUCE]") {
		t.Errorf("no E-MEM-REDUCE conclusion for sum:\n%s", d)
	}
}
