package remora_test

import (
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// outcome is what a run of a program gave: each value as it prints, or
// the error with its position, rule and message.
type outcome struct {
	vals []*remora.Value
	err  error
}

func (o outcome) String() string {
	if o.err != nil {
		return "error " + o.err.Error()
	}
	return fmt.Sprint(o.vals)
}

// sameOutcome says how b differs from a (the rules'), or "".
func sameOutcome(a, b outcome) string {
	switch {
	case (a.err == nil) != (b.err == nil):
		return fmt.Sprintf("rules %s, engine %s", a, b)
	case a.err != nil:
		var ae, be *semantics.Error
		if !errors.As(a.err, &ae) || !errors.As(b.err, &be) || ae.Pos != be.Pos || ae.Rule != be.Rule || ae.Msg != be.Msg || ae.Kind != be.Kind {
			return fmt.Sprintf("errors differ:\nrules:  %v\nengine: %v", a.err, b.err)
		}
	case len(a.vals) != len(b.vals):
		return fmt.Sprintf("rules give %d values, engine %d", len(a.vals), len(b.vals))
	default:
		for i := range a.vals {
			if a.vals[i].String() != b.vals[i].String() || !a.vals[i].Equal(b.vals[i]) || a.vals[i].Kind != b.vals[i].Kind {
				return fmt.Sprintf("result %d: rules %s, engine %s", i+1, a.vals[i], b.vals[i])
			}
		}
	}
	return ""
}

// engineModes are the engine's runs the property compares with the
// rules': counted (no stream, no λ over a frame, no goroutine: those
// run only where rules are not counted), and plain with every fast path
// on, on four goroutines with every map of two cells spread, and with
// each fast path off in turn.
var engineModes = []struct {
	name    string
	counted bool
	opts    remora.EvalOptions
}{
	{"counted", true, remora.EvalOptions{Jobs: 1}},
	{"counted, no scalar folds", true, remora.EvalOptions{Jobs: 1, Engines: remora.Engines{NoScalarFolds: true}}},
	{"plain", false, remora.EvalOptions{Jobs: 1}},
	{"plain, 4 jobs", false, remora.EvalOptions{Jobs: 4, Engines: remora.Engines{MinParallelCells: 2}}},
	{"plain, no streams", false, remora.EvalOptions{Jobs: 1, Engines: remora.Engines{NoStreams: true}}},
	{"plain, no vector λs", false, remora.EvalOptions{Jobs: 1, Engines: remora.Engines{NoVectorLams: true}}},
	{"plain, no scalar folds", false, remora.EvalOptions{Jobs: 1, Engines: remora.Engines{NoScalarFolds: true}}},
	{"plain, no fast path", false, remora.EvalOptions{Jobs: 1, Engines: remora.Engines{NoStreams: true, NoVectorLams: true, NoScalarFolds: true}}},
}

// engineMatchesRules runs p by the rules as written (EvalRules), with a
// derivation and rule counts, and by the engine (Eval) in each of
// engineModes: the same values, or the same error (position, rule,
// message); and, where the run succeeds, the same rule counts, which are
// the derivation's nodes by rule. It returns the rules' outcome and what
// differs.
func engineMatchesRules(p *remora.Program) (outcome, string) {
	counts := semantics.Counter{}
	vs, d, err := remora.EvalRules(p, &remora.EvalOptions{Derive: true, Counter: counts})
	rules := outcome{vs, err}
	if err == nil {
		if got := derivedRules(d); !maps.Equal(got, counts) {
			return rules, fmt.Sprintf("the derivation's rules %v, the rules counted %v", got, counts)
		}
	}
	plain := semantics.Counter{}
	vs, _, err = remora.EvalRules(p, &remora.EvalOptions{Counter: plain})
	if dd := sameOutcome(rules, outcome{vs, err}); dd != "" {
		return rules, "rules without a derivation: " + dd
	}
	if err == nil && !maps.Equal(plain, counts) {
		return rules, fmt.Sprintf("the rules count %v with a derivation, %v without", counts, plain)
	}
	for _, m := range engineModes {
		o := m.opts
		var c semantics.Counter
		if m.counted {
			c = semantics.Counter{}
			o.Counter = c
		}
		vs, err := remora.Eval(p, &o)
		if dd := sameOutcome(rules, outcome{vs, err}); dd != "" {
			return rules, m.name + ": " + dd
		}
		if m.counted && err == nil && !maps.Equal(c, counts) {
			return rules, fmt.Sprintf("%s: rule counts differ:\nrules:  %v\nengine: %v", m.name, counts, c)
		}
	}
	return rules, ""
}

// derivedRules counts a derivation's nodes by rule (those without one,
// of values and contexts, left out).
func derivedRules(d *semantics.Derivation) semantics.Counter {
	c := semantics.Counter{}
	var walk func(*semantics.Derivation)
	walk = func(d *semantics.Derivation) {
		if d.Rule != "" {
			c.Hit(d.Rule)
		}
		for _, p := range d.Premises {
			walk(p)
		}
	}
	if d != nil {
		walk(d)
	}
	return c
}

// exampleProgram is a checked program of the typed core: an example, or
// a stage of its compilation to the IR.
type exampleProgram struct {
	where string
	p     *remora.Program
}

// examplePrograms are the examples of examples/remora that type check
// (each a golden test: its test block gives its output or error), and
// every stage of the IR (remora-ir: Explicitize, Inline, Simplify) each
// compiles to, which the rules run with MAP, REP and CASE.
func examplePrograms(t *testing.T) []exampleProgram {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "examples", "remora", "*.remora"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	reg := check.NewRegistry()
	var out []exampleProgram
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := check.Load(reg, file, string(src), check.Options{})
		if err != nil {
			continue // an example of a parse or type error
		}
		out = append(out, exampleProgram{filepath.Base(file), l.Syntax().(*remora.Program)})
		stages, err := reg.Compile(l, "remora-ir", lang.Options{})
		if err != nil {
			continue // declined: the example goes wrong where the compile path refuses it
		}
		for _, st := range stages {
			if st.Program.Language().Name() == "remora-ir" {
				out = append(out, exampleProgram{filepath.Base(file) + " (IR after " + st.Name() + ")", st.Program.Syntax().(*remora.Program)})
			}
		}
	}
	return out
}

// TestEngineMatchesRulesOnExamples is the property engine ≡ rules over
// every example of examples/remora and every IR stage it compiles to:
// the engine (eval.go and its fast paths) gives what the rules of Fig 6
// as written (fig6.go) give, with each fast path on and off.
func TestEngineMatchesRulesOnExamples(t *testing.T) {
	t.Parallel()
	progs := examplePrograms(t)
	ir, stuck := 0, 0
	for _, ep := range progs {
		rules, d := engineMatchesRules(ep.p)
		if d != "" {
			t.Errorf("%s: %s", ep.where, d)
		}
		if strings.Contains(ep.where, "IR after") {
			ir++
		}
		if rules.err != nil {
			stuck++
		}
	}
	if len(progs) < 100 || ir < 60 || stuck < 5 {
		t.Errorf("%d programs, %d of them IR stages, %d stuck: too few", len(progs), ir, stuck)
	}
	t.Logf("%d programs (%d IR stages, %d stuck)", len(progs), ir, stuck)
}

// TestRulesMatchSmallStepOnExamples: the rules as written and the
// small-step of Fig 6 (step.go) give every example the same values, or
// are stuck in the same rule.
func TestRulesMatchSmallStepOnExamples(t *testing.T) {
	t.Parallel()
	for _, ep := range examplePrograms(t) {
		for i, e := range ep.p.Exprs {
			rv, _, rerr := remora.EvalRulesExpr(e, nil)
			sv, _, serr := remora.RunSmall(e, &semantics.RunOptions{Fuel: 1_000_000})
			switch {
			case (rerr == nil) != (serr == nil):
				t.Errorf("%s, expression %d: rules %v %v, small-step %v %v", ep.where, i+1, rv, rerr, sv, serr)
			case rerr != nil:
				if ruleOf(rerr) != ruleOf(serr) {
					t.Errorf("%s, expression %d: rules stuck in %v, small-step in %v", ep.where, i+1, rerr, serr)
				}
			case rv.String() != sv.String() || !rv.Equal(sv):
				t.Errorf("%s, expression %d: rules %s, small-step %s", ep.where, i+1, rv, sv)
			}
		}
	}
}

func ruleOf(err error) string {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se.Rule
	}
	return err.Error()
}

// fastPathPrograms reach each of the engine's fast paths with more cells
// than the examples have: streamed reductions (several chunks, a δ
// error in the second), scalar folds, λ bodies over whole frames, maps
// spread over goroutines (with a cell going wrong), and the fold family
// with @pad.
var fastPathPrograms = []string{
	"(reduce-init{int | 9000 [] []} + 0 (* 2 (+ 1 iota{ | [9000]})))",
	"(reduce{int | 8999 [] []} - (+ 1 iota{ | [9000]}))",
	"(reduce-init{int | 9000 [] []} + 0 (/ 1 (- 4100 iota{ | [9000]})))",
	"(reduce-init{float | 5000 [] []} +. 0.5 (/. 1. (int->float iota{ | [5000]})))",
	"(reduce-init{int | 3 [4] []} * 1 (+ 1 iota{ | [3 4]}))",
	"(reduce{int | 2 [2 2] []} max (- 5 iota{ | [3 2 2]}))",
	"(fold{int int | 3000 [] []} - 7 iota{ | [3000]})",
	"(fold-right{int int | 3000 [] []} - 7 iota{ | [3000]})",
	"(trace{int int | 200 [] []} - 0 iota{ | [200]})",
	"(trace-right{float float | 100 [] []} -. 0. (int->float iota{ | [100]}))",
	"(iscan{int | 99 [] []} - iota{ | [100]})",
	"(scan-init{int | 100 [] []} (fn ([a int] [b int]) (- a b)) 3 iota{ | [100]})",
	"((fn ([x int]) (* (+ x 1) (- x 2))) iota{ | [3000]})",
	"((fn ([x int] [y [int 3]]) (+ x y)) iota{ | [2000]} [1 2 3])",
	"((fn ([x int]) (/ 10 (- x 1500))) iota{ | [2000]})",
	"((fn ([x [int 2]]) (reverse{int | 2 []} x)) (reshape [1500 2] iota{ | [3000]}))",
	"(index{int | [3] [] 1} [10 20 30] (reshape [1200 1] (% iota{ | [1200]} 3)))",
	"(index{int | [3] [] 1} [10 20 30] (reshape [1200 1] (- 2 iota{ | [1200]})))",
	"([+ - *] [[1 2] [3 4] [5 6]] 2)",
	"(if{int | } (< iota{ | [2000]} 1000) iota{ | [2000]} 0)",
}

// TestEngineMatchesRulesOnFastPaths is the property on fastPathPrograms.
func TestEngineMatchesRulesOnFastPaths(t *testing.T) {
	t.Parallel()
	for _, src := range fastPathPrograms {
		p, _, err := remora.ParseFile("fast.remora", src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if _, d := engineMatchesRules(p); d != "" {
			t.Errorf("%s: %s", src, d)
		}
	}
}

// TestEngineMatchesRules is the property over the generator's programs
// (proofs-tests, remoragen.go): lifted scalar primitives, λs and arrays
// of functions, the fold family, boxes, the partial primitives.
func TestEngineMatchesRules(t *testing.T) {
	t.Parallel()
	n := 600
	if testing.Short() {
		n = 150
	}
	r := rand.New(rand.NewSource(31))
	stuck := 0
	for i := range n {
		src := proofstests.GenerateRemora(r, i%(proofstests.MaxGenSize+1), proofstests.DefaultRemoraGenConfig)
		p, _, err := remora.ParseFile("gen.remora", src)
		if err != nil {
			t.Fatalf("case %d does not parse: %v\n%s", i, err, src)
		}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatalf("case %d does not check: %v\n%s", i, err, src)
		}
		rules, d := engineMatchesRules(p)
		if d != "" {
			t.Fatalf("case %d: %s\n%s", i, d, src)
		}
		if rules.err != nil {
			stuck++
		}
	}
	if stuck == 0 {
		t.Errorf("no generated program is stuck")
	}
	t.Logf("%d programs, %d stuck", n, stuck)
}

// TestRulesFuel: the rules spend a map's cells and a fold's applications
// (EvalOptions.Fuel), and stop past it at the map or δ, with a fuel
// error; the engine counts none.
func TestRulesFuel(t *testing.T) {
	for _, tc := range []struct {
		src  string
		fuel int
		rule string
	}{
		{"(+ 1 iota{ | [1000]})", 999, "map"},
		{"(reduce{int | 999 [] []} + iota{ | [1000]})", 998, "δ"},
		{"(MAP [1000] () 1)", 999, "MAP"},
	} {
		p, _, err := remora.ParseFile("fuel.remora", tc.src)
		if err == nil {
			_, err = remora.Check(p, nil)
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		_, _, err = remora.EvalRules(p, &remora.EvalOptions{Fuel: tc.fuel})
		var se *semantics.Error
		if !errors.As(err, &se) || se.Kind != semantics.FuelError || se.Rule != tc.rule {
			t.Errorf("%s with fuel %d: want out of fuel in %s, got %v", tc.src, tc.fuel, tc.rule, err)
		}
		if _, _, err := remora.EvalRules(p, &remora.EvalOptions{Fuel: tc.fuel + 1}); err != nil {
			t.Errorf("%s with fuel %d: %v", tc.src, tc.fuel+1, err)
		}
	}
}
