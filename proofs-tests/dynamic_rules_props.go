package proofstests

import (
	"fmt"
	"maps"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// The property engine ≡ rules of the rank-annotated dialect: its engine
// (dynamic.Eval, with its fast paths) gives what its rules as written
// (dynamic.EvalRules, remora/dynamic/fig6.go) give. remora/dynamic's
// fig6_test.go holds it on the examples, the golden chunks and the
// generated programs; the mutation table (mutants_test.go,
// dynamic-engine-rules) on the generated programs.

// DynamicEngineConfigs are the engine's runs the property compares with
// the rules: every fast path on, each one off, all off.
var DynamicEngineConfigs = []dynamic.Engines{
	{},
	{NoScalarFolds: true},
	{NoFlatTrees: true},
	{NoScalarLoops: true},
	{NoLiftedTrees: true},
	{NoScalarFolds: true, NoFlatTrees: true, NoScalarLoops: true, NoLiftedTrees: true},
}

// DynamicRun is a run of a program of the dialect by one of its
// big-steps: what it printed of each value (with atom kind and shape, so
// that [] of ints and [] of floats differ), its error and the rules it
// counted.
type DynamicRun struct {
	Values  []string
	Err     error
	Counter semantics.Counter
}

// RunDynamicRules runs p by the rules as written, with the options o
// (Counter is set here).
func RunDynamicRules(p *dynamic.Program, o dynamic.EvalOptions) DynamicRun {
	o.Counter = semantics.Counter{}
	vs, _, err := dynamic.EvalRules(p, &o)
	return DynamicRun{Values: dynamicValues(vs), Err: err, Counter: o.Counter}
}

// RunDynamicEngine runs p by the engine, with the options o (Counter is
// set here).
func RunDynamicEngine(p *dynamic.Program, o dynamic.EvalOptions) DynamicRun {
	o.Counter = semantics.Counter{}
	vs, err := dynamic.Eval(p, &o)
	return DynamicRun{Values: dynamicValues(vs), Err: err, Counter: o.Counter}
}

func dynamicValues(vs []*remora.Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprintf("%s (%s %v)", v, v.Kind, v.Shape)
	}
	return out
}

// SameDynamicRun says how run b differs from run a (values, error with
// its position, rule and message, rules counted), or "".
func SameDynamicRun(a, b DynamicRun) string {
	switch {
	case (a.Err == nil) != (b.Err == nil), a.Err != nil && a.Err.Error() != b.Err.Error():
		return fmt.Sprintf("errors differ:\n  %v\n  %v", a.Err, b.Err)
	case strings.Join(a.Values, "\n") != strings.Join(b.Values, "\n"):
		return fmt.Sprintf("values differ:\n  %s\n  %s", strings.Join(a.Values, "; "), strings.Join(b.Values, "; "))
	case !maps.Equal(a.Counter, b.Counter):
		return fmt.Sprintf("rule counts differ:\n  %v\n  %v", a.Counter, b.Counter)
	}
	return ""
}

// DynamicEngineMatchesRules is the property on one program, at the
// options o (Fuel, MaxDepth): the engine in each of
// DynamicEngineConfigs gives the rules' values, error and rule counts.
// It gives the rules' run and what differs ("" for nothing).
//
// The engine's fast paths spend less fuel than the rules, never more
// (dynamic.EvalOptions.Fuel), so a run of the rules that stops at its
// fuel is compared with the engine's general path alone, all fast paths
// off, which spends it as the rules do.
func DynamicEngineMatchesRules(p *dynamic.Program, o dynamic.EvalOptions) (DynamicRun, string) {
	rules := RunDynamicRules(p, o)
	configs := DynamicEngineConfigs
	if isOutOfFuel(rules.Err) {
		configs = configs[len(configs)-1:]
	}
	for _, e := range configs {
		o.Engines = e
		engine := RunDynamicEngine(p, o)
		if d := SameDynamicRun(rules, engine); d != "" {
			return rules, fmt.Sprintf("engine %+v against the rules (first the rules):\n%s", e, d)
		}
	}
	return rules, ""
}

// isOutOfFuel: the run stopped at its fuel (not at its depth bound,
// which both semantics meet alike).
func isOutOfFuel(err error) bool {
	return isFuelError(err) && strings.Contains(err.Error(), "out of fuel")
}

// PropDynamicEngineRules is the property on a generated program of the
// dialect (GenerateDialect's), at the default bounds.
func PropDynamicEngineRules(src string) string {
	p, _, err := dynamic.ParseFile("gen.remora", src)
	if err != nil {
		return fmt.Sprintf("GENERATOR BUG: the program does not parse: %v\n%s", err, src)
	}
	if _, d := DynamicEngineMatchesRules(p, dynamic.EvalOptions{}); d != "" {
		return d + "\n" + src
	}
	return ""
}

// ErasedDynamic is the erasure of a generated typed program (the
// remora-dialects theorem's programs: λs of every rank, lifting, boxes,
// folds) as a program of the dialect; false when it does not erase.
func ErasedDynamic(c *RemoraCase) (*dynamic.Program, bool, string) {
	_, e, _, msg := remoraProgram(c)
	if msg != "" {
		return nil, false, msg
	}
	src, err := EraseRemora(e, nil)
	if err != nil {
		if EraseReason(err) == "" {
			return nil, false, "ERASURE BUG: " + err.Error()
		}
		return nil, false, ""
	}
	de, err := dynamic.ParseExpr("erased.remora", src, nil)
	if err != nil {
		return nil, false, fmt.Sprintf("ERASURE BUG: the erasure does not parse: %v\n%s", err, src)
	}
	return &dynamic.Program{File: "erased.remora", Exprs: []dynamic.Expr{de}}, true, ""
}
