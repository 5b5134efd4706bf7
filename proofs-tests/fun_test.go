package proofstests

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

var (
	flagN       = flag.Int("n", 3000, "generated programs per property (the CI count; raise it for a campaign)")
	flagSeed    = flag.Int64("seed", 1, "seed of the property runs (each property adds its own offset)")
	flagWorkers = flag.Int("workers", 1, "gopter workers per property (more than 1: faster campaigns, runs no longer reproducible by -seed; each case still prints its own seed)")
)

// params are the gopter parameters of a property: a fixed seed (the
// -seed flag plus the property's offset), -n tests, sizes ramping from 0
// to MaxGenSize, -workers workers (1 by default, so runs are reproducible).
func params(offset int64) *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(*flagSeed + offset)
	p.MinSuccessfulTests = *flagN
	p.MinSize, p.MaxSize = 0, MaxGenSize
	p.MaxShrinkCount = 400
	p.Workers = max(1, *flagWorkers)
	return p
}

// check runs one property over generated cases. The property returns ""
// when it holds, or what went wrong; gopter then shrinks the case and the
// report shows the message, the shrunk case and the original one (each a
// program with its inputs, see Case.String).
func check(t *testing.T, offset int64, name string, property func(c *Case) string) {
	t.Helper()
	props := gopter.NewProperties(params(offset))
	props.Property(name, prop.ForAll(property, GenCase(DefaultGenConfig)))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property %q failed (seed %d, rerun with -args -seed %d):\n%s", name, *flagSeed+offset, *flagSeed, out.String())
		return
	}
	t.Log(strings.TrimSpace(out.String()))
}

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
	vs, _, err := fun.RunSmall(p, env, 0, counter, nil)
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

func TestCheckerAcceptsGenerated(t *testing.T) { check(t, 0, "fun.Check accepts", propChecks) }

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
	vs, n, err := fun.RunSmall(p, env, 0, nil, func(rule string, cfg fun.Config) {
		steps++
		_ = cfg.String()
	})
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

func TestBigStepSmallStepAgree(t *testing.T) { check(t, 1, "big-step = small-step", propBigSmall) }

// allowedStuck are the stuck states a well-typed program may reach (FUN's
// type system does not track values): an index or slice out of bounds, a
// division by zero, and a negative kernel bound (directly or through iota).
var allowedStuck = map[string]string{
	"E-INDEX":  "out of bounds",
	"E-SLICE":  "out of bounds|is negative",
	"E-SCALAR": "division by zero",
	"E-IOTA":   "negative",
	"E-KERNEL": "negative",
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
	if !errors.As(o.err, &se) || se.Kind != semantics.StuckError {
		return "a well-typed program fails with something other than a stuck state: " + o.err.Error()
	}
	for _, want := range strings.Split(allowedStuck[se.Rule], "|") {
		if want != "" && strings.Contains(se.Msg, want) {
			return ""
		}
	}
	return "a well-typed program gets stuck where the type system should prevent it: " + o.err.Error()
}

func TestWellTypedProgramsGoRightOrStuckAllowed(t *testing.T) {
	check(t, 2, "well-typed programs do not go wrong", propProgress)
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

func TestBindInputsReproduces(t *testing.T) {
	check(t, 7, "--arg values bind the inputs", bindInputs(false))
}

// TestBindInputsEmptyRank2 is the inputs property including the empty
// arrays the value syntax cannot write. It fails: an input of type [n][m]
// with n = 0 < m can only be written [], which semantics.ParseValue reads
// with shape [0], so fun.BindInputs refuses it (rank 1 for rank 2) and such
// a program cannot be run from the command line at all (likewise [[]] for
// an input of type [n][m][k] with n = 1, m = 0).
func TestBindInputsEmptyRank2(t *testing.T) {
	check(t, 7, "--arg values bind the inputs, empty rank-2 arrays included", bindInputs(true))
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

func TestPrintParseRoundTrip(t *testing.T) {
	check(t, 3, "print∘parse = id", roundTrip)
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
	if errors.As(orig.err, &eo) && errors.As(exp.err, &ee) && eo.Rule == "E-IOTA" {
		if ee.Rule != "E-KERNEL" || ee.Pos != eo.Pos || ee.Kind != eo.Kind {
			return fmt.Sprintf("the original is stuck in %v\nthe expansion in %v%s", orig.err, exp.err, shown)
		}
		return ""
	}
	if d := sameOutcome("the original", orig, "the expansion", exp); d != "" {
		return d + shown
	}
	return ""
}

func TestExpandDerivedPreservesMeaning(t *testing.T) {
	check(t, 4, "ExpandDerived preserves meaning", propExpand)
}

// (e) Coverage: over -n generated cases, every rule of Figs 3 and 4 (and
// the derived forms' rules) fires, the stuck states of E-INDEX, E-SLICE
// and E-SCALAR occur, and every syntactic feature the generator promises
// appears. Counts are logged.
var (
	evalRules  = []string{"E-IF-TRUE", "E-IF-FALSE", "E-SCALAR", "E-INDEX", "E-SLICE", "E-TRANSPOSE", "E-KERNEL", "E-LET", "E-IN", "E-IOTA", "E-COPY"}
	typeRules  = []string{"T-CONST", "T-VAR", "T-OP", "T-SCALAR", "T-INDEX", "T-IF", "T-TRANSPOSE", "T-SLICE", "T-KERNEL", "T-RESULT", "T-STM", "T-PROG", "T-IOTA", "T-COPY"}
	stuckRules = []string{"E-INDEX", "E-SLICE", "E-SCALAR"}
)

func TestRuleCoverage(t *testing.T) {
	typing, bigc, smallc := semantics.Counter{}, semantics.Counter{}, semantics.Counter{}
	stuck, reasons, features := map[string]int{}, map[string]int{}, map[string]int{}
	r := rand.New(rand.NewSource(*flagSeed + 5))
	ok, safe := 0, 0
	for i := range *flagN {
		c := Generate(rand.New(rand.NewSource(r.Int63())), i*MaxGenSize / *flagN, DefaultGenConfig)
		p, err := c.Parsed()
		if err != nil {
			t.Fatalf("the printed program does not parse: %v%v", err, c)
		}
		if _, err := fun.Check(p, &fun.CheckOptions{Counter: typing}); err != nil {
			t.Fatalf("fun.Check rejects the program: %v%v", err, c)
		}
		env := c.Env()
		o := big(p, env, bigc)
		small(p, env, smallc)
		var se *semantics.Error
		switch {
		case o.err == nil:
			ok++
		case errors.As(o.err, &se) && se.Kind == semantics.StuckError:
			stuck[se.Rule]++
			msg, _, _ := strings.Cut(se.Msg, " in ") // E-SCALAR: leave out the expression
			reasons[se.Rule+": "+numbers.ReplaceAllString(msg, "#")]++
		default:
			t.Fatalf("unexpected error %v%v", o.err, c)
		}
		if c.Safe {
			safe++
		}
		for f := range Features(c.Prog) {
			features[f]++
		}
	}
	eval := semantics.Counter{}
	eval.Add(bigc)
	eval.Add(smallc)
	t.Logf("%d programs (%d safe): %d ran to completion, %d got stuck", *flagN, safe, ok, *flagN-ok)
	t.Logf("type rules: %s", counts(typing))
	t.Logf("big-step rules: %s", counts(bigc))
	t.Logf("small-step rules: %s", counts(smallc))
	t.Logf("stuck states: %s", counts(stuck))
	t.Logf("stuck states by message:%s", lines(reasons))
	t.Logf("programs with each feature: %s", counts(features))
	missing := func(what string, names []string, have map[string]int) {
		for _, n := range names {
			if have[n] == 0 {
				t.Errorf("%s %s never occurred in %d programs", what, n, *flagN)
			}
		}
	}
	missing("evaluation rule", evalRules, eval)
	missing("small-step rule", []string{"E-IF-TRUE", "E-IF-FALSE", "E-SCALAR", "E-INDEX", "E-SLICE", "E-TRANSPOSE", "E-KERNEL", "E-IN", "E-IOTA", "E-COPY"}, smallc)
	missing("type rule", typeRules, typing)
	missing("stuck state of", stuckRules, stuck)
	missing("feature", FeatureNames, features)
	if ok < *flagN/3 {
		t.Errorf("only %d of %d programs ran to completion: the generator makes too many risky choices", ok, *flagN)
	}
}

// numbers matches the variable names and numbers of a message, so that
// messages can be grouped by their shape.
var numbers = regexp.MustCompile(`[a-z_]*-?[0-9]+`)

func counts[M ~map[string]int](m M) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// lines renders counts one per line, for the stuck messages.
func lines(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n%8d  %s", m[k], k)
	}
	return b.String()
}

// The generator is deterministic: the same seed and size give the same
// case, so a seed printed with a counterexample regenerates it.
func TestGeneratorDeterministic(t *testing.T) {
	for seed := int64(0); seed < 20; seed++ {
		a := Generate(rand.New(rand.NewSource(seed)), MaxGenSize, DefaultGenConfig)
		b := Generate(rand.New(rand.NewSource(seed)), MaxGenSize, DefaultGenConfig)
		if a.String() != b.String() {
			t.Fatalf("seed %d gives two cases:%v\n%v", seed, a, b)
		}
	}
}

// The shrinker shrinks: on properties made to fail (no program gets stuck
// in E-INDEX, in E-SLICE, in E-SCALAR), gopter's shrunk counterexample is a
// well-typed program, still failing, of at most 40 nodes (typically 10 to
// 30; the originals have 80 to 300). The shrunk programs are logged. The
// seed is fixed (not -seed): the bound is about this seed's cases.
func TestShrinkerShrinks(t *testing.T) {
	stuckIn := func(rule string) func(c *Case) bool {
		return func(c *Case) bool {
			p, err := c.Parsed()
			if err != nil {
				return true
			}
			var se *semantics.Error
			_, _, err = fun.Eval(p, c.Env(), nil)
			return !(errors.As(err, &se) && se.Rule == rule)
		}
	}
	for _, rule := range []string{"E-INDEX", "E-SLICE", "E-SCALAR"} {
		ps := gopter.DefaultTestParametersWithSeed(7)
		ps.MinSuccessfulTests = 2000
		ps.MinSize, ps.MaxSize = 0, MaxGenSize
		ps.MaxShrinkCount = 400
		res := prop.ForAll(stuckIn(rule), GenCase(DefaultGenConfig)).Check(ps)
		if res.Status != gopter.TestFailed || len(res.Args) != 1 {
			t.Fatalf("%s: the deliberately false property did not fail (status %v)", rule, res.Status)
		}
		orig, shrunk := res.Args[0].OrigArg.(*Case), res.Args[0].Arg.(*Case)
		if _, err := fun.Check(shrunk.Prog, nil); err != nil {
			t.Errorf("%s: the shrunk program does not type check: %v%v", rule, err, shrunk)
		}
		if stuckIn(rule)(shrunk) {
			t.Errorf("%s: the shrunk program does not fail the property%v", rule, shrunk)
		}
		mo, ms := MeasureOf(orig), MeasureOf(shrunk)
		if ms.Nodes > 40 || !ms.Less(mo) {
			t.Errorf("%s: shrinking from %d to %d nodes is not enough%v", rule, mo.Nodes, ms.Nodes, shrunk)
		}
		t.Logf("%s: shrunk in %d steps from %d to %d nodes:%v", rule, res.Args[0].Shrinks, mo.Nodes, ms.Nodes, shrunk)
	}
}
