package proofstests

import (
	"errors"
	"flag"
	"fmt"
	arraycheck "github.com/arraysem/arraysem/check"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Bounded-exhaustive checking (enum.go): every program of the enumeration
// up to -exhaustive-size, with each of its inputs, goes through the
// per-case properties of the random tests, FUN → FUNMEM → (MemoryExpand)
// → IMP included.

var flagExhaustiveSize = flag.Int("exhaustive-size", DefaultEnumConfig.MaxSize,
	"largest program size of TestExhaustive (statements plus operators; 2 is the CI bound, 3 a campaign of about 300000 cases)")
var flagExhaustiveInner = flag.Int("exhaustive-inner", DefaultEnumConfig.MaxInner,
	"most statements in a kernel's or an if branch's body in TestExhaustive")

// enumKnownBugs are the enumerated cases that show an open bug, keyed by
// enumCaseKey; TestExhaustive leaves them out (and counts them). Each
// value names the bug. (None is open now.)
var enumKnownBugs = map[string]string{}

// enumCaseKey identifies a case: its program's text and its inputs.
func enumCaseKey(c *Case) string { return c.Source() + "\n" + c.ArgList() }

// exhaustiveChecks are the per-case properties TestExhaustive runs, in
// order: FUN's (checker, print∘parse, big-step = small-step, type
// soundness, the reference evaluator, ExpandDerived), FUNMEM validity of
// every variant (Def 3.1, heap-based results = FUN's: propValid's check)
// and FUN ≡ FUNMEM ≡ IMP on every variant and at every level the registry
// reaches (propImp).
var exhaustiveChecks = []struct {
	name string
	prop func(c *Case) string
}{
	{"fun.Check accepts", propChecks},
	{"print∘parse", roundTrip},
	{"big-step = small-step", propBigSmall},
	{"well-typed programs do not go wrong", propProgress},
	{"reference evaluator = fun.Eval", propReference},
	{"ExpandDerived preserves meaning", propExpand},
	{"FUNMEM variants well typed, valid, race free, FUN's results", propValidAll},
	{"FUN ≡ FUNMEM ≡ IMP", propImp},
}

// exhaustiveStuck and exhaustiveBugs collect what propValidAll's checks
// log over a run of TestExhaustive.
var (
	exhaustiveStuck = &stuckTable{}
	exhaustiveBugs  = &bugLog{}
)

// propValidAll is propValid for every variant at once (TransformProgram's
// and the passes after it), building the variants once.
func propValidAll(c *Case) string {
	m, msg := newMemCase(arraycheck.NewRegistry(), c, false, exhaustiveBugs)
	if msg != "" {
		return msg
	}
	for _, v := range m.vs {
		if msg := m.valid(v, exhaustiveStuck); msg != "" {
			return v.Name + ": " + msg + showMem(v.Name, v.Prog, c)
		}
	}
	return ""
}

// exhaustiveFailure is a counterexample: the case's number in the
// enumeration, the property and what went wrong.
type exhaustiveFailure struct {
	index int
	c     *Case
	prop  string
	msg   string
}

// TestExhaustive checks every case of the enumeration up to
// -exhaustive-size, with bodies of at most -exhaustive-inner statements
// (DefaultEnumConfig otherwise; size 1 in a -short run that does not give
// -exhaustive-size), on GOMAXPROCS workers. It
// fails with the first counterexample in enumeration order (smallest
// sizes first), its program and inputs printed, and logs the counts: the
// programs per size, the cases, how FUN's evaluation ends, and the
// features the programs have.
func TestExhaustive(t *testing.T) {
	t.Parallel()
	cfg := DefaultEnumConfig
	cfg.MaxSize, cfg.MaxInner = *flagExhaustiveSize, *flagExhaustiveInner
	if testing.Short() && !flagGiven("exhaustive-size") {
		cfg.MaxSize = min(cfg.MaxSize, 1) // the programs of size 2 take half a minute
	}
	start := time.Now()

	type job struct {
		index int
		c     *Case
	}
	jobs := make(chan job, 64)
	var stop atomic.Bool
	var mu sync.Mutex
	var first *exhaustiveFailure
	outcomes := map[string]int{}
	skipped := map[string]int{}
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if stop.Load() {
					continue
				}
				if bug, ok := enumKnownBugs[enumCaseKey(j.c)]; ok {
					mu.Lock()
					skipped[bug]++
					mu.Unlock()
					continue
				}
				f := exhaustiveCase(j.c)
				mu.Lock()
				if f != nil {
					f.index = j.index
					if first == nil || f.index < first.index {
						first = f
					}
					stop.Store(true)
				} else {
					outcomes[funOutcome(j.c)]++
				}
				mu.Unlock()
			}
		}()
	}

	perSize := map[int]int{}
	features := map[string]bool{}
	lastProgram, index := int64(-1), 0
	programs, cases := Enumerate(cfg, func(c *Case) bool {
		if c.Seed != lastProgram {
			lastProgram = c.Seed
			perSize[c.Size]++
			for f := range Features(c.Prog) {
				features[f] = true
			}
		}
		jobs <- job{index: index, c: c}
		index++
		if index%50000 == 0 {
			t.Logf("%d cases sent (%v)", index, time.Since(start).Round(time.Second))
		}
		return !stop.Load()
	})
	close(jobs)
	wg.Wait()

	if first != nil {
		t.Fatalf("counterexample (program %d of size %d, the first failing case of the enumeration up to size %d): %s: %s%v",
			first.c.Seed, first.c.Size, cfg.MaxSize, first.prop, first.msg, first.c)
	}
	var sizes []string
	for s := 0; s <= cfg.MaxSize; s++ {
		sizes = append(sizes, fmt.Sprintf("size %d: %d", s, perSize[s]))
	}
	t.Logf("enumerated %d programs × %d inputs = %d cases, all through FUN→FUNMEM→expand→IMP (%s; %d workers, %v)",
		programs, len(cfg.Sizes), cases, strings.Join(sizes, ", "), max(1, runtime.GOMAXPROCS(0)), time.Since(start).Round(time.Millisecond))
	t.Logf("FUN's evaluation of the cases:%s", lines(outcomes))
	exhaustiveStuck.log(t)
	exhaustiveBugs.log(t)
	if len(skipped) > 0 {
		t.Logf("cases left out for known bugs:%s", lines(skipped))
	}
	var have, missing []string
	for _, f := range FeatureNames {
		if features[f] {
			have = append(have, f)
		} else {
			missing = append(missing, f)
		}
	}
	t.Logf("features: %s; not in the vocabulary: %s", strings.Join(have, ", "), strings.Join(missing, ", "))
	if cfg.MaxSize >= 2 {
		for _, f := range enumFeatures {
			if !features[f] {
				t.Errorf("no enumerated program has the feature %q", f)
			}
		}
	}
	exhaustiveBugs.skip(t)
}

// enumFeatures are the features (Features) of the vocabulary, which the
// programs up to size 2 all have between them.
var enumFeatures = []string{"input", "literal zero divisor", "index rank 1", "index rank 2", "slice rank 1",
	"slice rank 2", "transpose", "iota", "copy", "if", "if binding a size with its array", "nested kernel",
	"kernel of ints", "kernel of arrays", "kernel body uses its index", "kernel body uses an outer array",
	"op +", "op -", "op *", "op /", "op <"}

// exhaustiveCase runs exhaustiveChecks on c, returning the first failure
// (a panic is one) or nil.
func exhaustiveCase(c *Case) *exhaustiveFailure {
	for _, chk := range exhaustiveChecks {
		var msg string
		if err := safely(chk.name, func() error { msg = chk.prop(c); return nil }); err != nil {
			msg = err.Error()
		}
		if msg != "" {
			return &exhaustiveFailure{c: c, prop: chk.name, msg: msg}
		}
	}
	return nil
}

// funOutcome is how FUN's big-step evaluation of c ends: "ok", or
// "stuck in RULE".
func funOutcome(c *Case) string {
	_, _, err := fun.Eval(c.Prog, c.Env(), nil)
	var se *semantics.Error
	switch {
	case err == nil:
		return "runs to completion"
	case errors.As(err, &se):
		return "stuck in " + se.Rule
	}
	return "error " + err.Error()
}

// TestEnumerateSize1 checks that the enumeration is complete for size 1
// against a count by hand. Size 0 is the programs with no statement: their
// results are (n), (xs) or (n, xs): 3. A program of size 1 is one
// statement of size 1 in the scope n : int, xs : [n] (I = {n}, A = {xs}):
//
//	let x = k, k in {0, 1, 2}                    3
//	xs[n]                                        1
//	xs[n : n]                                    1
//	transpose (no array of rank 2)               0
//	iota n                                       1
//	copy xs                                      1
//	kernel i <= n do in (r), r in {n, xs, i}     3
//	if n then in (r) else in (r'), r, r' both n
//	  or both xs (the only ones of their types)  2
//	if n then in (n, xs) else in (n, xs),
//	  binding (m : int) (a : [m])                1
//	(an operator costs 1 more: size 2)          --
//	                                            13
//
// The results must use the statement (no dead code): for the 12 that bind
// one variable v, (v), (n, v), (xs, v): 36; for the if binding m and a, the
// 7 sets of one or two of n, xs, m, a with m or a in them. 36 + 7 = 43.
func TestEnumerateSize1(t *testing.T) {
	t.Parallel()
	cfg := DefaultEnumConfig
	cfg.MaxSize = 1
	perSize := map[int]int{}
	kinds := map[string]int{}
	n := EnumeratePrograms(cfg, func(p *fun.Program, size int) bool {
		perSize[size]++
		if len(p.Body.Stms) == 1 {
			kinds[fmt.Sprintf("%T", p.Body.Stms[0].Exp)]++
		}
		return true
	})
	if n != 46 || perSize[0] != 3 || perSize[1] != 43 {
		t.Errorf("enumerated %d programs up to size 1 (%v), want 46 (3 of size 0, 43 of size 1)", n, perSize)
	}
	want := map[string]int{"*fun.ScalarExp": 9, "*fun.IndexExp": 3, "*fun.SliceExp": 3, "*fun.IotaExp": 3,
		"*fun.CopyExp": 3, "*fun.KernelExp": 9, "*fun.IfExp": 6 + 7}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("programs of size 1 by expression: %v, want %v", kinds, want)
	}
}

// TestEnumerateWellTyped: every program of the CI bound passes fun.Check
// (a rejected one is an enumerator bug), no two are the same, and
// Enumerate pairs each with every input.
func TestEnumerateWellTyped(t *testing.T) {
	t.Parallel()
	cfg := DefaultEnumConfig
	seen := map[string]int{}
	n := EnumeratePrograms(cfg, func(p *fun.Program, size int) bool {
		if _, err := fun.Check(p, nil); err != nil {
			t.Fatalf("fun.Check rejects enumerated program %d (size %d): %v\n%s", len(seen), size, err, fun.Print(p))
		}
		text := fun.Print(p)
		if j, dup := seen[text]; dup {
			t.Fatalf("programs %d and %d are the same:\n%s", j, len(seen), text)
		}
		seen[text] = len(seen)
		return true
	})
	programs, cases := Enumerate(cfg, func(c *Case) bool {
		if c.Size > cfg.MaxSize || c.Env() == nil {
			t.Fatalf("case %v: size above the bound or no inputs", c)
		}
		return true
	})
	if programs != n || cases != n*len(cfg.Sizes) {
		t.Errorf("Enumerate gives %d programs and %d cases, EnumeratePrograms %d programs (× %d inputs)", programs, cases, n, len(cfg.Sizes))
	}
	t.Logf("%d programs up to size %d, all well typed and distinct", n, cfg.MaxSize)
}
