package proofstests

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// outcome is the result of a run: values or an error.
type outcome struct {
	vals []semantics.Array
	err  error
}

func (o outcome) String() string {
	if o.err != nil {
		return "error " + o.err.Error()
	}
	parts := make([]string, len(o.vals))
	for i, v := range o.vals {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// sameOutcome compares two runs: equal values, or errors with the same
// text (position, rule and message). It returns "" or the difference.
func sameOutcome(nameA string, a outcome, nameB string, b outcome) string {
	switch {
	case a.err != nil || b.err != nil:
		if a.err == nil || b.err == nil || a.err.Error() != b.err.Error() {
			return fmt.Sprintf("%s gives %s\n%s gives %s", nameA, a, nameB, b)
		}
	case len(a.vals) != len(b.vals):
		return fmt.Sprintf("%s gives %d results, %s gives %d", nameA, len(a.vals), nameB, len(b.vals))
	default:
		for i := range a.vals {
			if d := semantics.FirstDifference(a.vals[i], b.vals[i]); d != "" {
				return fmt.Sprintf("result %d: %s\n%s gives %s\n%s gives %s", i+1, d, nameA, a, nameB, b)
			}
		}
	}
	return ""
}

func big(p *fun.Program, env *fun.Env, counter semantics.Counter) outcome {
	vs, _, err := fun.Eval(p, env, &fun.EvalOptions{Counter: counter})
	return outcome{vs, err}
}

func small(p *fun.Program, env *fun.Env, counter semantics.Counter) outcome {
	vs, _, err := fun.RunSmall(p, env, &semantics.RunOptions{Counter: counter})
	return outcome{vs, err}
}

// (a) The type checker accepts every generated program.
func propChecks(c *Case) string {
	if _, err := fun.Check(c.Prog, nil); err != nil {
		return "fun.Check rejects the program: " + err.Error()
	}
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	if _, err := fun.Check(p, nil); err != nil {
		return "fun.Check rejects the printed and parsed program: " + err.Error()
	}
	return ""
}

// (b) Big-step and small-step agree: the same results, or the same error.
// Along the way: building the derivation (Derive) changes nothing, and
// every small-step configuration renders (Config.String, as arraysem step
// prints it) without panicking.
func propBigSmall(c *Case) string {
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	env := c.Env()
	b := big(p, env, nil)
	steps := 0
	vs, n, err := fun.RunSmall(p, env, &semantics.RunOptions{OnStep: func(rule string, state any) {
		cfg := state.(fun.Config)
		steps++
		_ = cfg.String()
	}})
	if d := sameOutcome("big-step fun.Eval", b, "small-step fun.RunSmall", outcome{vs, err}); d != "" {
		return d
	}
	if n != steps {
		return fmt.Sprintf("fun.RunSmall reports %d steps but made %d", n, steps)
	}
	dvs, deriv, derr := fun.Eval(p, env, &fun.EvalOptions{Derive: true})
	if d := sameOutcome("fun.Eval", b, "fun.Eval with Derive", outcome{dvs, derr}); d != "" {
		return d
	}
	if derr == nil && (deriv == nil || deriv.String() == "") {
		return "fun.Eval with Derive gives no derivation"
	}
	if _, err := fun.Check(p, &fun.CheckOptions{Derive: true}); err != nil {
		return "fun.Check with Derive rejects the program: " + err.Error()
	}
	return ""
}

// allowedStuck are the stuck states a well-typed program may reach (FUN's
// type system does not track values): an index or slice out of bounds, a
// division by zero, int(f) of a NaN or of a float outside int64, and a
// negative kernel bound (directly or through iota).
var allowedStuck = map[string]string{
	fun.EIndex.Name:  "out of bounds",
	fun.ESlice.Name:  "out of bounds|is negative",
	fun.EScalar.Name: "division by zero|has no int value|does not fit in 64 bits", // int(f) of NaN, of a float outside int64
	fun.EIota.Name:   "negative",
	fun.EKernel.Name: "negative",
	// The extensions: a loop's negative bound, as a kernel's; an assertion
	// that fails, or whose condition divides by zero.
	fun.ELoop.Name:   "negative",
	fun.EAssert.Name: "failed|division by zero",
	// A redomap's or scanomap's negative bound, as a kernel's.
	fun.ERedomap.Name:  "negative",
	fun.EScanomap.Name: "negative",
}

// Type soundness: a well-typed program runs to completion or gets stuck
// in one of allowedStuck (never an unbound variable, a rank or shape
// mismatch); and safe cases (no risky choice) run to completion, which
// checks the generator's reasoning about bounds as much as the interpreter.
func propProgress(c *Case) string {
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	o := big(p, c.Env(), nil)
	if o.err == nil {
		return ""
	}
	if c.Safe {
		return "a program generated without risky choices gets stuck: " + o.err.Error()
	}
	var se *semantics.Error
	if !errors.As(o.err, &se) || !se.Kind.Stuck() {
		return "a well-typed program fails with something other than a stuck state: " + o.err.Error()
	}
	for _, want := range strings.Split(allowedStuck[se.Rule], "|") {
		if want != "" && strings.Contains(se.Msg, want) {
			return ""
		}
	}
	return "a well-typed program gets stuck where the type system should prevent it: " + o.err.Error()
}

// Inputs given as the reproduction line of Case.String gives them
// (--arg NAME=VALUE through semantics.ParseValue and fun.BindInputs) bind
// what Case.Env binds. emptyRank2 includes empty arrays of rank 2 or more,
// written [] and completed from their size inputs.
func bindInputs(emptyRank2 bool) func(c *Case) string {
	return func(c *Case) string {
		args := map[string]string{}
		for _, in := range c.Inputs {
			if !emptyRank2 && !writable(in.Value.Shape) {
				return ""
			}
			args[in.Name] = in.Value.String()
		}
		env, err := fun.BindInputs(c.Prog, args)
		if err != nil {
			return "fun.BindInputs refuses the inputs: " + err.Error()
		}
		want := c.Env()
		for _, in := range c.Prog.Inputs {
			a, _ := want.Lookup(in.Name.Name)
			b, ok := env.Lookup(in.Name.Name)
			if !ok || !semantics.Equal(a, b) {
				return fmt.Sprintf("input %s: fun.BindInputs binds %v (shape %v), want %v (shape %v)", in.Name.Name, b, b.Shape, a, a.Shape)
			}
		}
		return ""
	}
}

// writable reports whether the value syntax keeps a shape: a zero extent
// anywhere but in the last dimension loses the dimensions after it
// ([] is [0], [[]] is [1][0]).
func writable(shape []int64) bool {
	for _, k := range shape[:max(0, len(shape)-1)] {
		if k == 0 {
			return false
		}
	}
	return true
}

// (c) print∘parse is the identity on trees (positions aside), and printing
// the parsed tree gives the same text.
func roundTrip(c *Case) string {
	text := fun.Print(c.Prog)
	q, err := fun.ParseFile("gen.fun", text)
	if err != nil {
		return "fun.Print's output does not parse: " + err.Error()
	}
	if d := DiffPrograms(c.Prog, q); d != "" {
		return "ParseFile(Print(p)) differs from p at " + d
	}
	if text2 := fun.Print(q); text2 != text {
		return "printing the parsed program gives other text:\n" + joinLines("| ", text2)
	}
	return ""
}

// (d) ExpandDerived preserves meaning: the expansion has no iota or copy,
// type checks, round-trips through the printer, leaves its argument alone,
// and evaluates (big- and small-step) as the original does. The one
// allowed difference: a negative iota argument is stuck in E-IOTA in the
// original and in E-KERNEL (the kernel iota stands for) in the expansion,
// at the same position.
func propExpand(c *Case) string {
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	before := fun.Print(p)
	x := fun.ExpandDerived(p)
	if fun.Print(p) != before {
		return "ExpandDerived changed its argument"
	}
	shown := "\nexpanded program:\n" + joinLines("| ", fun.Print(x))
	if f := Features(x); f["iota"] || f["copy"] {
		return "the expansion still has derived forms" + shown
	}
	if _, err := fun.Check(x, nil); err != nil {
		return "fun.Check rejects the expansion: " + err.Error() + shown
	}
	if q, err := fun.ParseFile("x.fun", fun.Print(x)); err != nil {
		return "the expansion does not print and parse: " + err.Error() + shown
	} else if d := DiffPrograms(x, q); d != "" {
		return "the expansion does not round-trip: " + d + shown
	}
	env := c.Env()
	orig, exp := big(p, env, nil), big(x, env, nil)
	if d := sameOutcome("big-step of the expansion", exp, "small-step of the expansion", small(x, env, nil)); d != "" {
		return d + shown
	}
	var eo, ee *semantics.Error
	if errors.As(orig.err, &eo) && errors.As(exp.err, &ee) && eo.Rule == fun.EIota.Name {
		if ee.Rule != fun.EKernel.Name || ee.Pos != eo.Pos || ee.Kind != eo.Kind {
			return fmt.Sprintf("the original is stuck in %v\nthe expansion in %v%s", orig.err, exp.err, shown)
		}
		return ""
	}
	if d := sameOutcome("the original", orig, "the expansion", exp); d != "" {
		return d + shown
	}
	return ""
}

// (e) Coverage: over -n generated cases (with the extension forms), every
// rule of Figs 3 and 4 (and the derived forms' and the extension forms'
// rules) fires, the stuck states of E-INDEX, E-SLICE
// and E-SCALAR occur, and every syntactic feature the generator promises
// appears. Counts are logged.
var (
	evalRules  = ruleNames(fun.EIfTrue, fun.EIfFalse, fun.EScalar, fun.EIndex, fun.ESlice, fun.ETranspose, fun.EKernel, fun.ELet, fun.EIn, fun.EIota, fun.ECopy)
	typeRules  = ruleNames(fun.TConst, fun.TVar, fun.TOp, fun.TScalar, fun.TIndex, fun.TIf, fun.TTranspose, fun.TSlice, fun.TKernel, fun.TResult, fun.TStm, fun.TProg, fun.TIota, fun.TCopy)
	stuckRules = ruleNames(fun.EIndex, fun.ESlice, fun.EScalar)
	// The extension forms' rules (Figure "extension"), which the
	// generator makes with GenConfig.Extensions.
	extEvalRules = ruleNames(fun.ELoop, fun.EReduce, fun.EScan, fun.EFilter, fun.EAssert, fun.ERedomap, fun.EScanomap)
	extTypeRules = ruleNames(fun.TLoop, fun.TReduce, fun.TScan, fun.TFilter, fun.TAssert, fun.TRedomap, fun.TScanomap)
)

// numbers matches the variable names and numbers of a message, so that
// messages can be grouped by their shape.
var numbers = regexp.MustCompile(`[a-z_]*-?[0-9]+`)

func counts[M ~map[string]int](m M) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// lines renders counts one per line, for the stuck messages.
func lines(m map[string]int) string {
	keys := slices.Sorted(maps.Keys(m))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n%8d  %s", m[k], k)
	}
	return b.String()
}
