package proofstests

import (
	"bytes"
	"errors"
	"flag"
	"math/rand"
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

// shortN is the number of generated programs per property of a -short
// run that does not give -n: a tenth of the CI count, so that go test
// -short ./... stays well under a minute on two cores.
const shortN = 300

// caseCount is the number of generated programs per property: -n, or
// shortN in a -short run that does not give -n.
func caseCount() int {
	if testing.Short() && !flagGiven("n") {
		return min(*flagN, shortN)
	}
	return *flagN
}

// flagGiven reports whether the flag name was set on the command line.
func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// params are the gopter parameters of a property: a fixed seed (the
// -seed flag plus the property's offset), n tests, sizes ramping from 0
// to MaxGenSize, -workers workers (1 by default, so runs are reproducible).
func params(offset int64, n int) *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(*flagSeed + offset)
	p.MinSuccessfulTests = n
	p.MinSize, p.MaxSize = 0, MaxGenSize
	p.MaxShrinkCount = 400
	p.Workers = max(1, *flagWorkers)
	return p
}

// checkExt runs one property over caseCount() generated cases of
// ExtGenConfig: the extension forms (loop, reduce, scan, filter, assert)
// among the paper's. The property returns "" when it holds, or what went
// wrong; gopter then shrinks the case and the report shows the message,
// the shrunk case and the original one (each a program with its inputs,
// see Case.String).
func checkExt(t *testing.T, offset int64, name string, property func(c *Case) string) {
	t.Helper()
	checkWith(t, ExtGenConfig, offset, name, caseCount(), property)
}

// checkWith is check over n cases the generator makes with cfg.
func checkWith(t *testing.T, cfg GenConfig, offset int64, name string, n int, property func(c *Case) string) {
	t.Helper()
	props := gopter.NewProperties(params(offset, n))
	props.Property(name, prop.ForAll(property, GenCase(cfg)))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property %q failed (seed %d, rerun with -args -seed %d):\n%s", name, *flagSeed+offset, *flagSeed, out.String())
		return
	}
	t.Log(strings.TrimSpace(out.String()))
}

func TestCheckerAcceptsGenerated(t *testing.T) {
	t.Parallel()
	checkExt(t, 0, "fun.Check accepts", propChecks)
}

func TestBigStepSmallStepAgree(t *testing.T) {
	t.Parallel()
	checkExt(t, 1, "big-step = small-step", propBigSmall)
}

func TestWellTypedProgramsGoRightOrStuckAllowed(t *testing.T) {
	t.Parallel()
	checkExt(t, 2, "well-typed programs do not go wrong", propProgress)
}

func TestBindInputsReproduces(t *testing.T) {
	t.Parallel()
	checkExt(t, 7, "--arg values bind the inputs", bindInputs(false))
}

// TestBindInputsEmptyRank2 is the inputs property including the empty
// arrays the value syntax cannot write. It fails: an input of type [n][m]
// with n = 0 < m can only be written [], which semantics.ParseValue reads
// with shape [0], so fun.BindInputs refuses it (rank 1 for rank 2) and such
// a program cannot be run from the command line at all (likewise [[]] for
// an input of type [n][m][k] with n = 1, m = 0).
func TestBindInputsEmptyRank2(t *testing.T) {
	t.Parallel()
	checkExt(t, 7, "--arg values bind the inputs, empty rank-2 arrays included", bindInputs(true))
}

func TestPrintParseRoundTrip(t *testing.T) {
	t.Parallel()
	checkExt(t, 3, "print∘parse = id", roundTrip)
}

func TestExpandDerivedPreservesMeaning(t *testing.T) {
	t.Parallel()
	checkExt(t, 4, "ExpandDerived preserves meaning", propExpand)
}

func TestRuleCoverage(t *testing.T) {
	t.Parallel()
	typing, bigc, smallc := semantics.Counter{}, semantics.Counter{}, semantics.Counter{}
	stuck, reasons, features := map[string]int{}, map[string]int{}, map[string]int{}
	r := rand.New(rand.NewSource(*flagSeed + 5))
	ok, safe, n := 0, 0, caseCount()
	for i := range n {
		c := Generate(rand.New(rand.NewSource(r.Int63())), i*MaxGenSize/n, ExtGenConfig)
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
		case errors.As(o.err, &se) && se.Kind.Stuck():
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
	t.Logf("%d programs (%d safe): %d ran to completion, %d got stuck", n, safe, ok, n-ok)
	t.Logf("type rules: %s", counts(typing))
	t.Logf("big-step rules: %s", counts(bigc))
	t.Logf("small-step rules: %s", counts(smallc))
	t.Logf("stuck states: %s", counts(stuck))
	t.Logf("stuck states by message:%s", lines(reasons))
	t.Logf("programs with each feature: %s", counts(features))
	missing := func(what string, names []string, have map[string]int) {
		for _, name := range names {
			if have[name] == 0 {
				t.Errorf("%s %s never occurred in %d programs", what, name, n)
			}
		}
	}
	missing("evaluation rule", append(evalRules, extEvalRules...), eval)
	missing("small-step rule", append(ruleNames(fun.EIfTrue, fun.EIfFalse, fun.EScalar, fun.EIndex, fun.ESlice, fun.ETranspose,
		fun.EKernel, fun.EIn, fun.EIota, fun.ECopy), extEvalRules...), smallc)
	missing("type rule", append(typeRules, extTypeRules...), typing)
	missing("stuck state of", stuckRules, stuck)
	missing("feature", append(FeatureNames, ExtFeatureNames...), features)
	if ok < n/3 {
		t.Errorf("only %d of %d programs ran to completion: the generator makes too many risky choices", ok, n)
	}
}

// The generator is deterministic: the same seed and size give the same
// case, so a seed printed with a counterexample regenerates it.
func TestGeneratorDeterministic(t *testing.T) {
	t.Parallel()
	for seed := int64(0); seed < 20; seed++ {
		for _, cfg := range []GenConfig{DefaultGenConfig, ExtGenConfig} {
			a := Generate(rand.New(rand.NewSource(seed)), MaxGenSize, cfg)
			b := Generate(rand.New(rand.NewSource(seed)), MaxGenSize, cfg)
			if a.String() != b.String() {
				t.Fatalf("seed %d gives two cases:%v\n%v", seed, a, b)
			}
		}
	}
}

// The shrinker shrinks: on properties made to fail (no program gets stuck
// in E-INDEX, in E-SLICE, in E-SCALAR), gopter's shrunk counterexample is a
// well-typed program, still failing, of at most 40 nodes (typically 10 to
// 30; the originals have 80 to 300). The shrunk programs are logged. The
// seed is fixed (not -seed): the bound is about this seed's cases.
func TestShrinkerShrinks(t *testing.T) {
	t.Parallel()
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
