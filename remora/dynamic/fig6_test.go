package dynamic_test

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// A program the properties run: an example's, or a golden chunk's.
type program struct {
	where string
	p     *dynamic.Program
}

// programs are the programs of every example (examples/remora-dynamic;
// the dialect has no inputs, so an example is one case) and of every
// chunk of testdata/run.txt, those that parse.
func programs(t *testing.T) []program {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "remora-dynamic", "*.remora"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var out []program
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if p, _, err := dynamic.ParseFile(filepath.Base(file), string(src)); err == nil {
			out = append(out, program{file, p})
		}
	}
	for _, c := range golden.Read(t, filepath.Join("testdata", "run.txt"), ";") {
		if c.OnlyComments() || c.Bug != "" {
			continue
		}
		if p, _, err := dynamic.ParseFile(c.File, c.Src); err == nil {
			out = append(out, program{fmt.Sprintf("%s:%d", c.File, c.Line), p})
		}
	}
	return out
}

// TestEngineMatchesRulesOnExamples is the property engine ≡ rules
// (proofstests.DynamicEngineMatchesRules) over every example and every
// golden chunk: the engine, with each fast path on and off, gives the
// rules' values, errors (position, rule, message) and rule counts.
func TestEngineMatchesRulesOnExamples(t *testing.T) {
	t.Parallel()
	ps := programs(t)
	failed := 0
	golden.HoldsOnCases(t, len(ps), func(i int) string { return ps[i].where }, func(i int) (string, error) {
		rules, d := proofstests.DynamicEngineMatchesRules(ps[i].p, dynamic.EvalOptions{})
		if rules.Err != nil {
			failed++
		}
		return d, nil
	}, 200)
	// The cases must reach errors too (the examples of err_*, the chunks
	// with an error marker).
	if failed < 40 {
		t.Errorf("only %d programs go wrong", failed)
	}
}

// TestEngineMatchesRulesAtBounds is the property at small bounds: out of
// fuel (the rules, and the engine with its fast paths off, spend one
// application per β and δ: the same line at the same application) and
// nested too deeply (the same line at the same call, fast paths on or
// off).
func TestEngineMatchesRulesAtBounds(t *testing.T) {
	t.Parallel()
	ps := programs(t)
	stops := map[string]int{}
	for _, o := range []dynamic.EvalOptions{{Fuel: 1}, {Fuel: 6}, {Fuel: 40}, {Fuel: 300}, {MaxDepth: 2}, {MaxDepth: 5}, {MaxDepth: 12}} {
		for _, p := range ps {
			rules, d := proofstests.DynamicEngineMatchesRules(p.p, o)
			if d != "" {
				t.Errorf("%s at %+v: %s", p.where, o, d)
			}
			if se, ok := rules.Err.(*semantics.Error); ok && se.Kind == semantics.FuelError {
				stops[se.Rule]++
			}
		}
	}
	// Out of fuel in β and in δ, and too deep.
	for _, rule := range []string{"β", "δ", "depth"} {
		if stops[rule] < 10 {
			t.Errorf("only %d runs stop in %s at their bound (%v)", stops[rule], rule, stops)
		}
	}
}

// TestEngineMatchesRules is the property over generated programs: the
// numeric programs of GenerateDialect (folds, scans, reductions and
// lifted arithmetic on exact integers past 64 bits, floats, NaN), and the
// erasures of generated typed programs (λs of every cell rank, lifting,
// boxes), as the remora-dialects theorem makes them.
func TestEngineMatchesRules(t *testing.T) {
	t.Parallel()
	n, m := 600, 300
	if testing.Short() {
		n, m = 150, 80
	}
	r := rand.New(rand.NewSource(6))
	for i := range n {
		src := proofstests.GenerateDialect(r, i%(proofstests.MaxGenSize+1))
		if d := proofstests.PropDynamicEngineRules(src); d != "" {
			t.Fatalf("generated program %d: %s", i, d)
		}
	}
	erased, stuck := 0, 0
	for i := range m {
		c := &proofstests.RemoraCase{Seed: int64(i), Size: i % (proofstests.MaxGenSize + 1)}
		c.Src = proofstests.GenerateRemora(rand.New(rand.NewSource(c.Seed)), c.Size, proofstests.DefaultRemoraGenConfig)
		p, ok, msg := proofstests.ErasedDynamic(c)
		if msg != "" {
			t.Fatalf("typed program %d: %s%s", i, msg, c)
		}
		if !ok {
			continue
		}
		erased++
		rules, d := proofstests.DynamicEngineMatchesRules(p, dynamic.EvalOptions{})
		if d != "" {
			t.Fatalf("erasure of typed program %d: %s\n%s%s", i, d, dynamic.ExprString(p.Exprs[0]), c)
		}
		if rules.Err != nil {
			stuck++
		}
	}
	t.Logf("%d erased programs, %d of them go wrong", erased, stuck)
	if erased < m/4 {
		t.Errorf("only %d of %d typed programs erase", erased, m)
	}
}

// TestRulesMatchSmallStep: on every example and golden chunk, the rules
// as written and the small-step give the same values, or both go wrong
// (where neither stopped at a bound: the small-step's fuel and depth
// count steps and contexts, not applications and evaluations).
func TestRulesMatchSmallStep(t *testing.T) {
	t.Parallel()
	ps := programs(t)
	compared := 0
	for _, p := range ps {
		vs, _, rerr := dynamic.EvalRules(p.p, nil)
		for i, e := range p.p.Exprs {
			small, _, serr := dynamic.RunSmall(e, &semantics.RunOptions{Fuel: 100_000})
			if bounded(serr) || i == len(vs) && bounded(rerr) {
				break
			}
			if i == len(vs) { // the rules went wrong at expression i
				if serr == nil {
					t.Errorf("%s: expression %d: the rules: %v; the small-step gives %s", p.where, i+1, rerr, small)
				}
				break
			}
			compared++
			if serr != nil {
				t.Errorf("%s: expression %d: the rules give %s; the small-step: %v", p.where, i+1, vs[i], serr)
				break
			}
			if vs[i].String() != small.String() {
				t.Errorf("%s: expression %d: the rules give %s, the small-step %s", p.where, i+1, vs[i], small)
			}
		}
	}
	if compared < 400 {
		t.Errorf("only %d expressions compared", compared)
	}
}

// bounded: the run stopped at a bound (fuel, depth).
func bounded(err error) bool {
	se, ok := err.(*semantics.Error)
	return ok && se.Kind == semantics.FuelError
}

// TestRulesDerivations runs testdata/derive.txt: each chunk's program,
// by the rules with its derivation, must print the derivation its "; |"
// lines give, one line each (the text after "; | ", indentation kept).
func TestRulesDerivations(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "derive.txt"), ";", func(c *golden.Chunk) error {
		var want []string
		for _, l := range strings.Split(c.Src, "\n") {
			if rest, ok := strings.CutPrefix(l, "; | "); ok {
				want = append(want, rest)
			}
		}
		if len(want) == 0 {
			return nil // a note
		}
		p, _, err := dynamic.ParseFile(c.File, c.Src)
		if err != nil {
			return err
		}
		_, d, err := dynamic.EvalRules(p, &dynamic.EvalOptions{Derive: true})
		if err != nil {
			return err
		}
		if got := strings.TrimSuffix(d.String(), "\n"); got != strings.Join(want, "\n") {
			return fmt.Errorf("the derivation is\n%s\nwant\n%s", got, strings.Join(want, "\n"))
		}
		return nil
	})
}
