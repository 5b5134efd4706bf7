package fun_test

import (
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/semantics"
)

// A run of a program under one big-step, with everything it records.
type recorded struct {
	vals    []semantics.Array
	err     error
	deriv   string
	counter semantics.Counter
	stats   *semantics.Stats
}

type evalFunc func(*fun.Program, *fun.Env, *fun.EvalOptions) ([]semantics.Array, *semantics.Derivation, error)

// record runs p under eval: with a derivation and rule counts when
// derive is set, else plain (the engine's parallel kernels on, jobs
// goroutines, every kernel spread); with cost counters either way; the
// engine's int fast paths on unless slow is set.
func record(eval evalFunc, p *fun.Program, env *fun.Env, derive bool, jobs int, slow bool) recorded {
	r := recorded{stats: &semantics.Stats{Runs: map[semantics.Pos]int64{}}}
	// MinParallelWork 1: on more than one job, every kernel of two
	// iterations or more, and every redomap's map, runs on goroutines.
	o := &fun.EvalOptions{Stats: r.stats, Jobs: jobs, MinParallelWork: 1, NoIntFastPaths: slow}
	if derive {
		r.counter = semantics.Counter{}
		o.Derive, o.Counter = true, r.counter
	}
	vs, d, err := eval(p, env, o)
	r.vals, r.err = vs, err
	if d != nil {
		r.deriv = d.String()
	}
	return r
}

// sameRun says how the engine's run differs from the rules', or "".
// Cost counters are compared for runs that succeed (those of a run that
// goes wrong may depend on --jobs, semantics.Stats).
func sameRun(engine, rules recorded) string {
	switch {
	case (engine.err == nil) != (rules.err == nil):
		return fmt.Sprintf("engine: %v %v\nrules:  %v %v", engine.vals, engine.err, rules.vals, rules.err)
	case engine.err != nil:
		if engine.err.Error() != rules.err.Error() {
			return fmt.Sprintf("errors differ:\nengine: %v\nrules:  %v", engine.err, rules.err)
		}
	default:
		if len(engine.vals) != len(rules.vals) {
			return fmt.Sprintf("engine gives %d values, rules %d", len(engine.vals), len(rules.vals))
		}
		for i := range engine.vals {
			if d := semantics.FirstDifference(engine.vals[i], rules.vals[i]); d != "" {
				return fmt.Sprintf("result %d: %s\nengine: %v\nrules:  %v", i+1, d, engine.vals, rules.vals)
			}
		}
		if s := sameStats(engine.stats, rules.stats); s != "" {
			return s
		}
	}
	if !maps.Equal(engine.counter, rules.counter) {
		return fmt.Sprintf("rule counts differ:\nengine: %v\nrules:  %v", engine.counter, rules.counter)
	}
	if engine.deriv != rules.deriv {
		return fmt.Sprintf("derivations differ:\nengine:\n%s\nrules:\n%s", engine.deriv, rules.deriv)
	}
	return ""
}

func sameStats(a, b *semantics.Stats) string {
	if a.Ops != b.Ops || a.Allocs != b.Allocs || a.Words != b.Words || a.PeakWords != b.PeakWords || a.Kernels != b.Kernels {
		return fmt.Sprintf("cost counters differ:\nengine: ops %d allocs %d words %d peak %d kernels %d\nrules:  ops %d allocs %d words %d peak %d kernels %d",
			a.Ops, a.Allocs, a.Words, a.PeakWords, a.Kernels, b.Ops, b.Allocs, b.Words, b.PeakWords, b.Kernels)
	}
	if !maps.Equal(a.Runs, b.Runs) {
		return fmt.Sprintf("statement runs differ:\nengine: %v\nrules:  %v", a.Runs, b.Runs)
	}
	return ""
}

// engineMatchesRules runs p on env under the engine (fun.Eval) and the
// rules (fun.EvalRules), with derivations and rule counts, and plain on
// one goroutine and on four, with the engine's int fast paths and without
// (each switched by an option of the run); it gives the rules' run and
// what differs.
func engineMatchesRules(p *fun.Program, env *fun.Env) (recorded, string) {
	rules := record(fun.EvalRules, p, env, true, 1, false)
	if d := sameRun(record(fun.Eval, p, env, true, 1, false), rules); d != "" {
		return rules, "with derivations: " + d
	}
	plain := rules
	plain.counter, plain.deriv = nil, ""
	for _, jobs := range []int{1, 4} {
		for _, slow := range []bool{false, true} {
			if d := sameRun(record(fun.Eval, p, env, false, jobs, slow), plain); d != "" {
				return rules, fmt.Sprintf("plain, %d jobs, int fast paths off %v: %s", jobs, slow, d)
			}
		}
	}
	return rules, ""
}

// TestEngineMatchesRules is the property engine ≡ rules over the
// generator's programs (proofs-tests, the extension forms included): the
// engine (closures over slots, flat stacking, fast paths, parallel
// kernels) gives what the rules as written (fig4.go) give: results,
// errors with their positions and rules, derivations, rule counts, cost
// counters and statement runs.
func TestEngineMatchesRules(t *testing.T) {
	t.Parallel()
	n := 1000
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewSource(31))
	stuck := map[string]int{}
	for i := range n {
		c := proofstests.Generate(r, i%(proofstests.MaxGenSize+1), proofstests.ExtGenConfig)
		rules, d := engineMatchesRules(c.Prog, c.Env())
		if d != "" {
			t.Fatalf("case %d: %s\n%s", i, d, c)
		}
		if rules.err != nil {
			stuck[ruleOf(rules.err)]++
		}
	}
	// The generator must reach stuck states too, in several rules.
	if len(stuck) < 3 {
		t.Errorf("stuck only in %v", stuck)
	}
}

// ruleOf is the rule of an error.
func ruleOf(err error) string {
	if se, ok := err.(*semantics.Error); ok {
		return se.Rule
	}
	return err.Error()
}

// TestEngineMatchesRulesOnExamples is the property over every case of
// every FUN example (examples/fun).
func TestEngineMatchesRulesOnExamples(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	cases := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := check.ParseSpec(string(src), "--")
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		p, err := fun.ParseFile(filepath.Base(file), string(src))
		if err != nil {
			continue // an example of a parse error
		}
		if _, err := fun.Check(p, nil); err != nil {
			continue // an example of a type error
		}
		for _, c := range spec.Cases {
			env, err := fun.BindInputs(p, c.Args)
			if err != nil {
				continue // an example of bad inputs
			}
			cases++
			if _, d := engineMatchesRules(p, env); d != "" {
				t.Errorf("%s:%d: %s", file, c.Line, d)
			}
		}
	}
	if cases < 60 {
		t.Errorf("only %d cases run", cases)
	}
	t.Logf("%d cases of %d examples", cases, len(files))
}

// TestRulesDocs: FUN counts from 1 (§2.2), and the rules' docs say so.
func TestRulesDocs(t *testing.T) {
	for _, r := range fun.Rules {
		for _, zero := range []string{"= 0 …", "[0,", "0 … "} {
			if strings.Contains(r.Doc, zero) {
				t.Errorf("%s's doc counts from 0: %q", r.Name, r.Doc)
			}
		}
	}
	if !slices.ContainsFunc(fun.Rules, func(r semantics.Rule) bool { return r.Name == fun.EKernel.Name && strings.Contains(r.Doc, "1 … ") }) {
		t.Errorf("E-KERNEL's doc does not say the iterations are 1 … E(y): %q", fun.EKernel.Doc)
	}
}
