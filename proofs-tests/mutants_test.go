//go:build mutants

package proofstests

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/internal/mutant"
)

// Mutation testing (internal/mutant). Each mutant is a deliberately broken
// variant of a translation or a semantics, switched on by mutant.Set; the
// properties that should notice it run on it, in order, each over a
// bounded number of cases, until one fails: that property kills the
// mutant. With no mutant on, every property holds on the same cases (the
// control row), so a kill is the mutant's doing. A mutant that survives
// every property shows a theorem the suite does not really check, and
// fails the test.

// killer is a property TestMutants runs over n cases; check(k) checks
// case k, "" when the property holds.
type killer struct {
	name  string
	n     int
	check func(k int) string
}

// The case counts: FUN properties are cheap (about 1 ms a case), the
// FUNMEM and IMP ones run the FUNMEM variants (several FUN runs each),
// Remora's re-checks configurations.
const (
	mutFunCases    = 400
	mutMemCases    = 200
	mutRemoraCases = 500
	// The dynamic dialect's engine ≡ rules: a generated numeric program
	// (GenerateDialect) by the rules and by the engine six times, about a
	// millisecond.
	mutDialectCases = 300
)

// mutCase is case k of a property: generated with cfg from its own seed
// (as a campaign's case k is, prove.go), at sizes cycling through
// 0..MaxGenSize.
func mutCase(cfg GenConfig, name string, k int) *Case {
	seed, size := caseSeed(*flagSeed, name, k), k%(MaxGenSize+1)
	c := Generate(rand.New(rand.NewSource(seed)), size, cfg)
	c.Seed, c.Size = seed, size
	return c
}

// funKiller is a property of FUN cases generated with cfg.
func funKiller(cfg GenConfig, name string, n int, prop func(*Case) string) killer {
	return killer{name: name, n: n, check: func(k int) string {
		c := mutCase(cfg, name, k)
		if msg := guarded(func() string { return prop(c) }); msg != "" {
			return fmt.Sprintf("%s\n(case seed %d, size %d)%v", msg, c.Seed, c.Size, c)
		}
		return ""
	}}
}

// theoremKiller is a theorem of Theorems (theorems.go), by name.
func theoremKiller(t *testing.T, name string, n int) killer {
	th, ok := TheoremNamed(name)
	if !ok {
		t.Fatalf("no theorem %q", name)
	}
	if th.Fun != nil {
		return funKiller(th.FunConfig(), name, n, th.Fun)
	}
	return killer{name: name, n: n, check: func(k int) string {
		seed, size := caseSeed(*flagSeed, name, k), k%(MaxGenSize+1)
		cfg := DefaultRemoraGenConfig
		if th.RemoraCfg != nil {
			cfg = th.RemoraCfg()
		}
		c := &RemoraCase{Seed: seed, Size: size, Src: GenerateRemora(rand.New(rand.NewSource(seed)), size, cfg)}
		if msg := guarded(func() string { return th.Remora(c) }); msg != "" {
			return fmt.Sprintf("%s\n(case seed %d, size %d)\n%s", msg, seed, size, c.Src)
		}
		return ""
	}}
}

// examplesKiller: every example of the directories (one file a case)
// gives its golden output under each of its semantics
// (check.RunGoldenFile), so big-step = small-step on them and both are
// right. It sees what the two semantics share: the Remora dynamic
// dialect's frames (appFrames, remora-examples), the helpers FUN's and
// IMP's extension forms share (fun/eval_ext.go, imp/loops.go;
// fun-examples, imp-examples).
func examplesKiller(t *testing.T, name, ext string, dirs ...string) killer {
	return examplesKillerWith(t, func(f string) ([]string, int) { return arraycheck.RunGoldenFile(arraycheck.NewRegistry(), f) }, name, ext, dirs...)
}

// examplesKillerWith is examplesKiller running each file by run
// (arraycheck.RunGoldenFileLevels: at every level it compiles to).
func examplesKillerWith(t *testing.T, run func(file string) ([]string, int), name, ext string, dirs ...string) killer {
	var files []string
	for _, dir := range dirs {
		fs, err := filepath.Glob(filepath.Join(dir, "*"+ext))
		if err != nil || len(fs) == 0 {
			t.Fatalf("no examples in %s: %v", dir, err)
		}
		files = append(files, fs...)
	}
	sort.Strings(files)
	return killer{name: name, n: len(files), check: func(k int) string {
		return guarded(func() string {
			if fails, _ := run(files[k]); len(fails) > 0 {
				return strings.Join(fails, "\n")
			}
			return ""
		})
	}}
}

// mutRun is one mutant's (or the control's) run of its killers.
type mutRun struct {
	killedBy string   // the first property that failed, or ""
	cases    int      // the cases that property ran, the failing one included
	total    int      // the cases of every property run
	survived []string // the properties run before, that held
	msg      string   // the failure
	elapsed  time.Duration
}

func runKillers(ks []killer) mutRun {
	start := time.Now()
	var r mutRun
	for _, k := range ks {
		for i := 0; i < k.n; i++ {
			r.total++
			if msg := k.check(i); msg != "" {
				r.killedBy, r.cases, r.msg = k.name, i+1, msg
				r.elapsed = time.Since(start)
				return r
			}
		}
		r.survived = append(r.survived, fmt.Sprintf("%s (%d)", k.name, k.n))
	}
	r.elapsed = time.Since(start)
	return r
}

// TestMutants runs, for every registered mutant, the properties that should
// kill it, and prints the table of mutants and their killers (go test -v
// -tags mutants -run Mutants: the switch exists only under the tag, see
// internal/mutant). It is not parallel, so that no other test runs while
// a mutant is on. It fails if a mutant survives, or if a property fails with
// no mutant on.
func TestMutants(t *testing.T) {
	if len(mutant.All) == 0 {
		t.Fatal("no mutants registered")
	}
	fk := func(name string, n int) killer { return theoremKiller(t, name, n) }
	all := map[string]killer{}
	for _, k := range []killer{
		fk("fun-big-small", mutFunCases),
		fk("fun-reference", mutFunCases),
		fk("transform-valid", mutMemCases),
		fk("passes-valid", mutMemCases),
		fk("fun-funmem-imp", mutMemCases),
		funKiller(MemGenConfig(), "race-oracle", mutMemCases, propRaceOracle),
		fk("remora-big-small", mutRemoraCases),
		fk("remora-levels", mutRemoraCases/4), // each case walks ~30 levels
		examplesKiller(t, "remora-examples", ".remora", "../examples/remora-dynamic", "../examples/remora"),
		examplesKillerWith(t, func(f string) ([]string, int) { return arraycheck.RunGoldenFileLevels(arraycheck.NewRegistry(), f) }, "remora-examples-levels", ".remora", "../examples/remora"),
		examplesKiller(t, "fun-examples", ".fun", "../examples/fun"),
		{name: "dynamic-engine-rules", n: mutDialectCases, check: func(k int) string {
			seed, size := caseSeed(*flagSeed, "dynamic-engine-rules", k), k%(MaxGenSize+1)
			return guarded(func() string { return PropDynamicEngineRules(GenerateDialect(rand.New(rand.NewSource(seed)), size)) })
		}},
		examplesKiller(t, "imp-examples", ".imp", "../examples/imp"),
		fk("fuse", mutFunCases),
		{name: "fuse-pipelines", n: fusionCases, check: func(k int) string {
			c := fusionCase(k)
			if msg := guarded(func() string { return propFuse(c) }); msg != "" {
				return fmt.Sprintf("%s\n(case seed %d, size %d)%v", msg, c.Seed, c.Size, c)
			}
			return ""
		}},
	} {
		all[k.name] = k
	}
	impExt := []string{"imp-examples"}
	if ImpExtensions {
		impExt = []string{"fun-funmem-imp", "imp-examples"}
	}
	// The properties that should kill each mutant, in the order they run.
	// Some come first although they cannot kill it, to show it: big- and
	// small-step share slicing, and the validity properties see no races.
	plan := map[string][]string{
		"no-race-check":      {"passes-valid", "race-oracle"},
		"transpose-swap":     {"transform-valid", "passes-valid"},
		"slice-off-by-one":   {"fun-big-small", "fun-reference"},
		"if-support":         {"transform-valid", "fun-funmem-imp"},
		"expand-stride":      {"passes-valid", "fun-funmem-imp"},
		"imp-copy-order":     {"fun-funmem-imp"},
		"remora-lift-order":  {"remora-big-small", "remora-examples"},
		"dynamic-whole-cell": {"remora-big-small", "remora-examples"},

		// Typed Remora's engine alone (remora/fold.go): its rules
		// (fig6.go) and small-step compute a - b right.
		"remora-engine-fold-sub-flipped": {"remora-big-small", "remora-examples"},
		// The dynamic dialect's engine alone (remora/dynamic/fold.go):
		// its rules (fig6.go) and small-step fold right.
		"dynamic-engine-fold-flipped": {"dynamic-engine-rules"},
		// The compile path's passes: only the level agreement runs them.
		"explicitize-rep-outside":   {"remora-big-small", "remora-levels"},
		"simplify-hoist-past-empty": {"remora-big-small", "remora-levels", "remora-examples-levels"},
		// FUN's extension forms: big- and small-step share the helpers
		// of fun/eval_ext.go, so fun-big-small survives each; the
		// reference evaluator (on cases with the extension forms) kills
		// them, the examples' golden outputs too.
		"reduce-skips-neutral":  {"fun-big-small", "fun-reference", "fun-examples"},
		"scan-exclusive":        {"fun-big-small", "fun-reference", "fun-examples"},
		"loop-one-short":        {"fun-big-small", "fun-reference", "fun-examples"},
		"filter-keeps-rejected": {"fun-big-small", "fun-reference", "fun-examples"},
		// FUNMEM's extension forms (funmem/heap_ext.go,
		// funmem/translate_ext.go): the FUNMEM properties, on cases with
		// the extension forms (MemExtensions).
		"funmem-scan-row":           {"transform-valid", "passes-valid"},
		"funmem-scan-exclusive":     {"transform-valid", "passes-valid"},
		"funmem-filter-past-count":  {"transform-valid", "passes-valid"},
		"funmem-loop-stale-support": {"transform-valid", "passes-valid"},
		// The heap semantics' engine alone (funmem/heapcompile.go): its
		// rules (fig10.go) and small-step compute a - b right.
		"funmem-engine-sub-flipped": {"transform-valid", "fun-funmem-imp"},
		// IMP's extension statements (imp/loops.go, shared by IMP's two
		// semantics): the level agreement, once its cases have the
		// extension forms, and the examples of examples/imp, whose golden
		// outputs pin for, reduce and scan.
		"imp-for-off-by-one":       impExt,
		"imp-reduce-skips-neutral": impExt,
		"imp-scan-exclusive":       impExt,
		// Fusion in Fig 9's forbidden cases computes the same values
		// with more work: only the cost counters see it, the
		// duplicated-work counter above all (fun-big-small survives:
		// the passes run on neither of its semantics). The general
		// generator's programs rarely have a producer with consumers;
		// GenerateFusion's pipelines mostly do.
		"fuse-case3": {"fun-big-small", "fuse", "fuse-pipelines"},
		"fuse-case4": {"fun-big-small", "fuse", "fuse-pipelines"},
		"fuse-case5": {"fun-big-small", "fuse", "fuse-pipelines"},
	}
	order := []string{"fun-big-small", "fun-reference", "transform-valid", "passes-valid", "fun-funmem-imp",
		"race-oracle", "remora-big-small", "remora-levels", "remora-examples", "remora-examples-levels", "fun-examples", "imp-examples", "dynamic-engine-rules", "fuse", "fuse-pipelines"}
	killers := func(names []string) []killer {
		out := make([]killer, len(names))
		for i, n := range names {
			out[i] = all[n]
		}
		return out
	}

	control := runKillers(killers(order))
	if control.killedBy != "" {
		t.Errorf("with no mutant on, %s fails (case %d):\n%s", control.killedBy, control.cases, control.msg)
	}
	runs := make([]mutRun, len(mutant.All))
	for i, mu := range mutant.All {
		names, ok := plan[mu.Name]
		if !ok {
			names = order // a mutant without a plan faces every property
		}
		undo := mutant.Set(mu.Name)
		runs[i] = runKillers(killers(names))
		undo()
		if runs[i].killedBy == "" {
			t.Errorf("mutant %s (%s: %s) survives %s", mu.Name, mu.Where, mu.Breaks, strings.Join(runs[i].survived, ", "))
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "%-24s | %-60s | %-20s | %-8s | %-8s | %s\n", "mutant", "where", "killed by", "cases", "time", "survived before (cases)")
	fmt.Fprintf(&b, "%s\n", strings.Repeat("-", 150))
	for i, mu := range mutant.All {
		r := runs[i]
		killed, cases := r.killedBy, fmt.Sprintf("%d", r.cases)
		if killed == "" {
			killed, cases = "SURVIVES", "-"
		}
		fmt.Fprintf(&b, "%-24s | %-60s | %-20s | %-8s | %-8v | %s\n", mu.Name, mu.Where, killed, cases,
			r.elapsed.Round(time.Millisecond), strings.Join(r.survived, ", "))
	}
	held := "every property holds"
	if control.killedBy != "" {
		held = "FAILS: " + control.killedBy
	}
	fmt.Fprintf(&b, "%-24s | %-60s | %-20s | %-8s | %-8v | %s", "(none: control)", "", held, fmt.Sprint(control.total),
		control.elapsed.Round(time.Millisecond), strings.Join(control.survived, ", "))
	t.Logf("mutants (-seed %d):\n%s", *flagSeed, b.String())
	for i, mu := range mutant.All {
		if r := runs[i]; r.killedBy != "" {
			msg := r.msg
			if rs := []rune(msg); len(rs) > 600 {
				msg = string(rs[:600]) + " …"
			}
			t.Logf("%s (%s) is killed by %s at its case %d:\n%s", mu.Name, mu.Breaks, r.killedBy, r.cases, msg)
		}
	}
}
