package proofstests

import (
	"fmt"
	arraycheck "github.com/arraysem/arraysem/check"
	"maps"
	"math/rand"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// memN is the FUNMEM properties' count of cases.
func memN() int { return max(1, caseCount()/MemDivisor) }

// memCheck is check with the FUNMEM count, on MemGenConfig's cases.
func memCheck(t *testing.T, offset int64, name string, property func(c *Case) string) {
	t.Helper()
	checkWith(t, MemGenConfig(), offset, name, memN(), property)
}

// log logs the known bugs left out, for tests whose checks still hold.
func (b *bugLog) log(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.hits) > 0 {
		t.Logf("variants left out for known bugs: %s", counts(b.hits))
	}
}

// skip ends the test as skipped (a failed test stays failed) when known
// bugs were left out.
func (b *bugLog) skip(t *testing.T) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.hits) == 0 {
		return
	}
	ids := make([]string, 0, len(b.hits))
	for id := range b.hits {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var parts []string
	for _, id := range ids {
		parts = append(parts, fmt.Sprintf("%s (%d times): %s", id, b.hits[id], knownBugs[id]))
	}
	t.Skip("BUG: " + strings.Join(parts, "; BUG: "))
}

func (s *stuckTable) log(t *testing.T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.m))
	for n := range s.m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("stuck in FUN → stuck in the heap semantics of %s:%s", n, lines(s.m[n]))
	}
}

// 1. TransformProgram's output is well typed, valid and race free.
func TestFunmemTransformValid(t *testing.T) {
	t.Parallel()
	table, bugs := &stuckTable{}, &bugLog{}
	memCheck(t, 20, "TransformProgram: well typed, valid, race free", propValid(true, table, bugs))
	table.log(t)
	bugs.skip(t)
}

// 2. So are the outputs of Simplify and MemoryExpand, and their heap-based
// results are FUN's.
func TestFunmemPassesValid(t *testing.T) {
	t.Parallel()
	table, bugs := &stuckTable{}, &bugLog{}
	memCheck(t, 21, "Simplify, MemoryExpand: well typed, valid, race free, FUN's results", propValid(false, table, bugs))
	table.log(t)
	bugs.skip(t)
}

// 3. Heap big-step and small-step agree on every variant.
func TestFunmemHeapBigSmallAgree(t *testing.T) {
	t.Parallel()
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCheck(t, 22, "heap big-step = heap small-step", func(c *Case) string {
		m, msg := newMemCase(arraycheck.NewRegistry(), c, false, bugs)
		if msg != "" {
			return msg
		}
		for _, v := range m.vs {
			b := runHeap(v.Prog, m.args, false, nil)
			s := runHeap(v.Prog, m.args, true, nil)
			if d := sameHeapOutcome(b, s); d != "" {
				return v.Name + ": " + d + showMem(v.Name, v.Prog, c)
			}
		}
		return ""
	})
}

// 4. The value-based semantics (Fig 9, then FUN) agrees with FUN's
// evaluation of p: the same results, or the identical error (position,
// rule and message: the translations keep the positions of p's
// statements, and unmem maps each statement to one statement). Simplify
// renames variables, so after it the message may name others
// (sameStuckRenamed).
func TestFunmemValueSemantics(t *testing.T) {
	t.Parallel()
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCheck(t, 23, "value-based semantics = FUN", func(c *Case) string {
		m, msg := newMemCase(arraycheck.NewRegistry(), c, false, bugs)
		if msg != "" {
			return msg
		}
		for _, v := range m.vs {
			var r *lang.Result
			err := safely("the value-based semantics", func() error {
				l, err := funmem.Language.Adopt(v.Prog.File, v.Prog, lang.LoadOptions{})
				if err != nil {
					return err
				}
				r, err = l.Run(lang.RunOptions{Semantics: "value", Args: m.args})
				return err
			})
			got := outcome{err: err}
			if err == nil {
				got.vals = r.Values
			}
			if d := sameOutcome("FUN big-step of p", m.want, "the value-based semantics", got); d != "" && !sameStuckRenamed(v, m.want.err, err) {
				return v.Name + ": " + d + showMem(v.Name, v.Prog, c)
			}
		}
		return ""
	})
}

// 5. print∘parse: the printed FUNMEM program parses, type checks, and
// prints to the same text.
func TestFunmemPrintParse(t *testing.T) {
	t.Parallel()
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCheck(t, 24, "FUNMEM print∘parse", func(c *Case) string {
		m, msg := newMemCase(arraycheck.NewRegistry(), c, false, bugs)
		if msg != "" {
			return msg
		}
		for _, v := range m.vs {
			if msg := printParse(v.Prog); msg != "" {
				return v.Name + ": " + msg + showMem(v.Name, v.Prog, c)
			}
		}
		return ""
	})
}

// memCases are the cases of the loop tests (6-8): n cases from the
// given seed offset, sizes ramping up as in TestRuleCoverage.
func memCases(t *testing.T, offset int64, n int, bugs *bugLog, f func(m *memCase)) {
	t.Helper()
	r := rand.New(rand.NewSource(*flagSeed + offset))
	for i := range n {
		seed := r.Int63()
		c := Generate(rand.New(rand.NewSource(seed)), i*MaxGenSize/n, MemGenConfig())
		c.Seed = seed
		m, msg := newMemCase(arraycheck.NewRegistry(), c, false, bugs)
		if msg != "" {
			t.Fatalf("%s%v", msg, c)
		}
		f(m)
	}
}

// 6. MemoryExpand really expands: over the run, allocations inside kernel
// bodies leave them (KernelAllocs' depth drops), in both layouts, and what
// is left inside a kernel's body at its top level is an allocation
// MemoryExpand must leave: one whose size depends on the kernel (its index
// or a variable bound in its body), or whose block a nested body returns.
func TestMemoryExpandExpands(t *testing.T) {
	t.Parallel()
	type tally struct{ programs, kernelsBefore, kernelsAfter, allocsBefore, allocsAfter, expansions int }
	tallies := map[string]*tally{}
	var order []string
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCases(t, 25, memN(), bugs, func(m *memCase) {
		byName := map[string]*fun.Program{}
		for _, v := range m.vs {
			byName[v.Name] = v.Prog
		}
		for _, pair := range [][2]string{
			{"TransformProgram", "MemoryExpand GPU"},
			{"TransformProgram", "MemoryExpand CPU"},
			{"Simplify", "Simplify∘MemoryExpand GPU∘Simplify"},
			{"Simplify", "Simplify∘MemoryExpand CPU∘Simplify"},
		} {
			before, after := byName[pair[0]], byName[pair[1]]
			if before == nil || after == nil {
				continue // a pass panicked (a known bug)
			}
			ab, kb, db := KernelAllocs(before)
			aa, ka, da := KernelAllocs(after)
			tl := tallies[pair[1]]
			if tl == nil {
				tl = &tally{}
				tallies[pair[1]] = tl
				order = append(order, pair[1])
			}
			tl.programs++
			tl.kernelsBefore += kb
			tl.kernelsAfter += ka
			tl.allocsBefore += ab
			tl.allocsAfter += aa
			tl.expansions += db - da
			if da > db {
				t.Errorf("%s moves allocations into kernels (depth %d before, %d after)%v%s%s", pair[1], db, da, m.c,
					showMem(pair[0], before, m.c), showMem(pair[1], after, m.c))
			}
			if bad := invariantAllocsLeft(after); len(bad) > 0 {
				t.Errorf("%s leaves kernel-invariant allocations at the top of kernel bodies: %s%v%s", pair[1], strings.Join(bad, ", "), m.c, showMem(pair[1], after, m.c))
			}
		}
	})
	for _, name := range order {
		tl := tallies[name]
		t.Logf("%-36s %d programs: kernels allocating inside %d before, %d after; allocs inside kernels %d before, %d after; %d expansions",
			name, tl.programs, tl.kernelsBefore, tl.kernelsAfter, tl.allocsBefore, tl.allocsAfter, tl.expansions)
		if tl.expansions == 0 {
			t.Errorf("%s expanded no allocation in %d programs (kernels allocating inside before: %d)", name, tl.programs, tl.kernelsBefore)
		}
	}
}

// 7. Mutants of valid programs: each is rejected by a T-MEM rule, or
// caught by CheckValidity as a race, as invalid (or stuck), or stays
// valid; none panics. The table of outcomes is logged; races and invalid
// programs must each occur.
func TestFunmemMutations(t *testing.T) {
	t.Parallel()
	table := map[string]map[string]int{}
	examples := map[string]string{}
	r := rand.New(rand.NewSource(*flagSeed + 26))
	for _, k := range MutationKinds {
		table[k] = map[string]int{}
	}
	bugs := &bugLog{}
	// A -short run's count is too few for a mutant to be caught as
	// invalid; 150 programs are enough.
	programs, variants, n := 0, 0, max(memN(), 150)
	memCases(t, 27, n, bugs, func(m *memCase) {
		if m.want.err != nil {
			return // FUN is stuck: so is every mutant, the value-based semantics being unchanged
		}
		programs++
		// TransformProgram's output and one other variant.
		vs := m.vs[:1]
		if len(m.vs) > 1 {
			vs = append(vs, m.vs[1+r.Intn(len(m.vs)-1)])
		}
		for _, v := range vs {
			variants++
			for _, kind := range MutationKinds {
				var mus []Mutant
				if err := safely("Mutate", func() (err error) { mus, err = Mutate(r, v.Prog, kind, 1); return err }); err != nil {
					t.Fatalf("%s: cannot make a %s mutant: %v%v%s", v.Name, kind, err, m.c, showMem(v.Name, v.Prog, m.c))
				}
				for _, mu := range mus {
					out, msg := classifyMutant(mu, m.args)
					if msg != "" {
						t.Fatalf("%s mutant of %s (%s): %s%v%s%s", kind, v.Name, mu.What, msg, m.c,
							showMem(v.Name, v.Prog, m.c), showMem("mutant", mu.Prog, m.c))
					}
					table[kind][out]++
					if _, ok := examples[kind+out]; !ok && out != outRejected {
						examples[kind+out] = fmt.Sprintf("%s mutant, %s: %s%s", kind, out, mu.What, showMem("mutant of "+v.Name, mu.Prog, m.c))
					}
				}
			}
		}
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-14s", "mutation")
	for _, o := range mutationOutcomes {
		fmt.Fprintf(&b, " %17s", o)
	}
	fmt.Fprintf(&b, " %8s", "total")
	sum := map[string]int{}
	for _, k := range MutationKinds {
		fmt.Fprintf(&b, "\n%-14s", k)
		total := 0
		for _, o := range mutationOutcomes {
			fmt.Fprintf(&b, " %17d", table[k][o])
			sum[o] += table[k][o]
			total += table[k][o]
		}
		fmt.Fprintf(&b, " %8d", total)
	}
	t.Logf("mutants of %d FUNMEM programs (TransformProgram's and one other variant of each of the %d of %d programs FUN runs to completion):\n%s",
		variants, programs, n, b.String())
	for _, k := range slices.Sorted(maps.Keys(examples)) {
		t.Logf("example: %s", examples[k])
	}
	if sum[outRace] == 0 {
		t.Errorf("no mutant was caught as a race")
	}
	if sum[outInvalid] == 0 {
		t.Errorf("no mutant was caught as invalid")
	}
	bugs.log(t)
}

// 8. Rule coverage: over the run, funmem.Check (CheckOptions.Counter) and
// the heap semantics, big- and small-step (HeapOptions.Counter), apply
// every rule of Figs 8 and 10.
func TestFunmemRuleCoverage(t *testing.T) {
	t.Parallel()
	typing, bigc, smallc := semantics.Counter{}, semantics.Counter{}, semantics.Counter{}
	bugs := &bugLog{}
	memCases(t, 28, memN(), bugs, func(m *memCase) {
		for _, v := range m.vs {
			runHeap(v.Prog, m.args, false, bigc)
			runHeap(v.Prog, m.args, true, smallc)
			if err := safely("funmem.Check", func() error { _, err := funmem.Check(v.Prog, &funmem.CheckOptions{Counter: typing}); return err }); err != nil {
				t.Fatalf("%s: %v%v%s", v.Name, err, m.c, showMem(v.Name, v.Prog, m.c))
			}
		}
	})
	t.Logf("type rules: %s", counts(typing))
	t.Logf("heap big-step rules: %s", counts(bigc))
	t.Logf("heap small-step rules: %s", counts(smallc))
	for _, r := range memTypeRules {
		if typing[r] == 0 {
			t.Errorf("type rule %s never applied in %d programs", r, memN())
		}
	}
	for _, r := range memEvalRules {
		if bigc[r] == 0 {
			t.Errorf("heap big-step rule %s never applied in %d programs", r, memN())
		}
		if smallc[r] == 0 {
			t.Errorf("heap small-step rule %s never applied in %d programs", r, memN())
		}
	}
	bugs.log(t)
}

// TestIfPanicFixed: Simplify kept one result when renaming would empty an
// if's pattern, but not when hoisting did, and then indexed the empty
// pattern (an internal error of arraysem compile).
func TestIfPanicFixed(t *testing.T) {
	t.Parallel()
	src := `input (n1 : int) (x3 : int)
let (x5 : int) =
  if x3 then
    let (x10 : int) = n1
    in (x10)
  else
    in (n1)
in (n1)
`
	p, err := fun.ParseFile("bug.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	q := funmem.Transform(p)
	var s *fun.Program
	if err := safely("Simplify", func() error { s = funmem.Simplify(q); return nil }); err != nil {
		t.Fatalf("%v%s", err, showMem("TransformProgram", q, &Case{Prog: p}))
	}
	if msg := printParse(s); msg != "" {
		t.Errorf("%s%s", msg, showMem("Simplify", s, &Case{Prog: p}))
	}
}

// compileSimplified is funmem.Simplify(funmem.Transform(p)) for a FUN
// source text.
func compileSimplified(t *testing.T, src string) (*fun.Program, *fun.Program) {
	t.Helper()
	p, err := fun.ParseFile("bug.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	var q *fun.Program
	if err := safely("Simplify", func() error { q = funmem.Simplify(funmem.Transform(p)); return nil }); err != nil {
		t.Fatal(err)
	}
	return p, q
}

// checks fails the test unless funmem.Check accepts q and q prints and
// parses back.
func checks(t *testing.T, p, q *fun.Program) {
	t.Helper()
	if _, err := funmem.Check(q, nil); err != nil {
		t.Errorf("funmem.Check(Simplify(Transform(p))): %v%s", err, showMem("Simplify", q, &Case{Prog: p}))
	} else if msg := printParse(q); msg != "" {
		t.Errorf("%s%s", msg, showMem("Simplify", q, &Case{Prog: p}))
	}
}

// funmem.Check read T-MEM-PROG's row-major results after the body's scalar
// lets went out of scope, so it rejected an array result whose LMAD is
// row-major only given them, as Simplify makes by propagating constants
// (R(x5) with x5 = 0 became R(0)). Fixed in 242410c.
func TestProgScopeFixed(t *testing.T) {
	t.Parallel()
	p, q := compileSimplified(t, "let (x5 : int) = 0\nlet (a6 : [x5]) = iota x5\nin (a6)\n")
	checks(t, p, q)
	text := "let (x5 : int) = 0\nlet (m : mem) = alloc x5\nlet (a6 : [x5] @ m -> R(0)) = iota x5\nin (m, a6)\n"
	h, err := funmem.ParseFile("bug.funmem", text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := funmem.Check(h, nil); err != nil {
		t.Errorf("funmem.Check of\n%s\n%v", joinLines("| ", text), err)
	}
}

// Simplify removed every result of an if whose branches all return the
// same outer variable and left `let  = if n then in () else in ()`, which
// funmem.Print printed and funmem.ParseFile could not parse. Fixed in
// 99d7038 (for renamed results; TestIfPanicFixed is the hoisted case).
func TestEmptyPatternFixed(t *testing.T) {
	t.Parallel()
	p, q := compileSimplified(t, "input (n : int)\nlet (x : int) = if n then in (n) else in (n)\nin (x)\n")
	checks(t, p, q)
}

// Simplify bound an int result that both branches define alike by a let
// before the if also when it was the size of an array result, whose
// branches' arrays kept their own size variables, so T-MEM-RESULT (sizes
// compared by name) rejected the output. Fixed in 99d7038.
func TestHoistedSizeFixed(t *testing.T) {
	t.Parallel()
	p, q := compileSimplified(t, `input (n : int)
let (k : int) (a : [k]) =
  if n then
    let (x : int) = n
    let (b : [x]) = iota x
    in (x, b)
  else
    let (y : int) = n
    let (c : [y]) = iota y
    in (y, c)
in (a)
`)
	checks(t, p, q)
}

// Simplify hoisted `let (x : int) = 3` of an if's pattern variable x
// before the if, where the branches bind x again (FUN lets a pattern reuse
// a branch's name), so T-MEM-STM rejected the rebinding (or T-MEM-RESULT,
// when the constant was then propagated into a nested if's pattern that
// binds x). Fixed in 99d7038.
func TestCaptureFixed(t *testing.T) {
	t.Parallel()
	p, q := compileSimplified(t, `input (n : int)
let (x : int) (a : [x]) =
  if n then
    let (x : int) = 3
    let (b : [x]) = iota x
    in (x, b)
  else
    let (x : int) = 3
    let (c : [x]) = iota x
    in (x, c)
in (a)
`)
	checks(t, p, q)
}

// Simplify's dead-code pass dropped unused scalar lets that get stuck
// (division by zero), so the simplified program ran where p and
// TransformProgram(p) are stuck in E-SCALAR / E-MEM-SCALAR. Fixed in
// 99d7038.
func TestDeadStuckFixed(t *testing.T) {
	t.Parallel()
	p, q := compileSimplified(t, "input (n : int)\nlet (x : int) = 1 / n\nlet (a : [n]) = iota n\nin (a)\n")
	args := map[string]string{"n": "0"}
	l, err := funmem.Language.Adopt(q.File, q, lang.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Run(lang.RunOptions{Semantics: "heap", Args: args})
	if se := semErr(err); se == nil || se.Rule != "E-MEM-SCALAR" {
		got := outcome{err: err}
		if err == nil {
			got.vals = r.Values
		}
		t.Errorf("FUN is stuck in E-SCALAR (division by zero), the heap-based run of Simplify(Transform(p)) gives %v%s", got,
			showMem("Simplify", q, &Case{Prog: p, Inputs: []Input{{"n", semantics.Scalar(0)}}}))
	}
}

// MemoryExpand expanded only while the first statement of a kernel body
// was an expandable alloc, so an expandable allocation behind one it may
// not expand (here b_mem, returned by the if) stayed in the kernel. Fixed
// in 99d7038.
func TestExpandFirstOnlyFixed(t *testing.T) {
	t.Parallel()
	src := `input (n : int) (c : int)
let (a : [n][n]) =
  kernel i <= n do
    let (b : [n]) = iota n
    let (d : [n]) = if c then in (b) else in (b)
    let (e : [n]) = iota n
    in (e)
in (a)
`
	p, err := fun.ParseFile("bug.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, layout := range []funmem.Layout{funmem.GPU, funmem.CPU} {
		q := funmem.MemoryExpand(funmem.Transform(p), layout)
		if _, err := funmem.Check(q, nil); err != nil {
			t.Fatal(err)
		}
		if bad := invariantAllocsLeft(q); len(bad) > 0 {
			t.Errorf("left in the kernel: %s%s", strings.Join(bad, ", "), showMem("MemoryExpand", q, &Case{Prog: p}))
		}
	}
}

// TestValidReusesVerdicts: valid's reuse of a verdict for a variant that
// is the same tree as one checked before (fun.Equal) changes nothing:
// over generated cases, the messages and the stuck table are those of
// checking every variant anew, and fun.Equal says what reflect.DeepEqual
// says of every two variants.
func TestValidReusesVerdicts(t *testing.T) {
	t.Parallel()
	reused, fresh := &stuckTable{}, &stuckTable{}
	same := 0
	memCases(t, 30, max(1, memN()/4), &bugLog{}, func(m *memCase) {
		for i, v := range m.vs {
			for _, w := range m.vs[i+1:] {
				eq := fun.Equal(v.Prog, w.Prog)
				if eq != reflect.DeepEqual(v.Prog, w.Prog) {
					t.Fatalf("%s and %s: fun.Equal says %v, reflect.DeepEqual the opposite%s", v.Name, w.Name, eq, m.c)
				}
				if eq {
					same++
				}
			}
		}
		f := *m
		f.fresh, f.seen = true, nil
		for _, v := range m.vs {
			if a, b := m.valid(v, reused), f.valid(v, fresh); a != b {
				t.Fatalf("%s: valid says %q reusing verdicts, %q checking anew%s", v.Name, a, b, m.c)
			}
		}
	})
	if !reflect.DeepEqual(reused, fresh) {
		t.Fatalf("the stuck tables differ: %v reusing verdicts, %v checking anew", reused, fresh)
	}
	if same == 0 {
		t.Fatal("no two variants were the same program: the test compares no reuse")
	}
	t.Logf("%d pairs of variants the same program", same)
}

// TestVariantsMemo: the variants VariantsOf makes on a Memo (which
// remembers pass applications, and takes a pass's output that is a
// program checked before as that program) are the programs the
// registry's own walks make, with the same types, and variants that are
// the same program share one tree.
func TestVariantsMemo(t *testing.T) {
	t.Parallel()
	shared := 0
	memCases(t, 31, max(1, memN()/4), &bugLog{}, func(m *memCase) {
		src, err := fun.Language.Adopt(m.p.File, m.p, lang.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		plain, panics, err := variantWalks(arraycheck.NewRegistry(), src)
		if err != nil || len(panics) > 0 || len(plain) != len(m.vs) {
			t.Fatalf("the registry's walks: %v, %v, %d variants, the memo's %d%s", err, panics, len(plain), len(m.vs), m.c)
		}
		for i, v := range m.vs {
			w := plain[i]
			if v.Name != w.Name || !fun.Equal(v.Prog, w.Prog) || v.Program.Type() != w.Program.Type() || v.Program.Syntax() != v.Prog {
				t.Fatalf("%s: the memo's variant is\n%s\nthe registry's (%s)\n%s%s", v.Name, funmem.Print(v.Prog), w.Name, funmem.Print(w.Prog), m.c)
			}
			for _, u := range m.vs[:i] {
				if fun.Equal(u.Prog, v.Prog) {
					if u.Prog != v.Prog {
						t.Fatalf("%s and %s are the same program, two trees%s", u.Name, v.Name, m.c)
					}
					shared++
				}
			}
		}
	})
	if shared == 0 {
		t.Fatal("no two variants were the same program: the test compares no sharing")
	}
	t.Logf("%d pairs of variants share a tree", shared)
}
