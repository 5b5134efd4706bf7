package proofstests

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/semantics"
)

// The FUNMEM properties (§3 and §5 of the funmem-imp-lmad paper, Figs 6-10,
// Def 3.1). Every random well-typed FUN program p of the FUN generator
// (fungen.go), with its inputs, is translated by TransformProgram and the
// passes after it (Variants in memgen.go: q, Simplify(q), MemoryExpand(q)
// in the GPU and CPU layouts, Simplify after those, and the compile path
// Simplify, MemoryExpand, Simplify), and:
//
//  1. q is well typed by Fig 8, and valid and race free (Def 3.1,
//     check.CheckValidity) whenever FUN's big-step evaluation of p
//     succeeds; when it gets stuck, the heap semantics gets stuck too;
//  2. the same for the other variants, whose heap-based results
//     (check.Loaded.Run, "heap") are FUN's results of p;
//  3. heap big-step (funmem.EvalHeap) and heap small-step
//     (funmem.RunHeapSmall) agree: the same values and final heaps, or the
//     identical error;
//  4. the value-based semantics (Run, "value": unmem, then FUN) gives FUN's
//     results of p, or gets stuck in the same rule;
//  5. print∘parse: funmem.ParseFile(funmem.Print(q)) type checks and prints
//     to the same text;
//  6. MemoryExpand expands: over the run, allocations leave kernels;
//  7. mutants (memgen.go: a stride of a fresh array's LMAD set to 0, two
//     fresh arrays in one block) are rejected by a T-MEM rule, or found
//     racy, invalid or stuck by CheckValidity, or stay valid; never a panic;
//  8. every rule of Figs 8 and 10 fires.
//
// Failure reports show the FUN program with its inputs (Case.String), the
// FUNMEM program (with an arraysem run line) and what went wrong. The
// counts follow -n: the gopter properties run -n/memDivisor cases each
// (the FUNMEM variants cost about 8 FUN runs per case), the loops of 6-8
// as many.

// memDivisor scales -n down for the FUNMEM properties.
const memDivisor = 6

func memN() int { return max(1, *flagN/memDivisor) }

// memCheck is check with the FUNMEM count.
func memCheck(t *testing.T, offset int64, name string, property func(c *Case) string) {
	t.Helper()
	saved := *flagN
	*flagN = memN()
	defer func() { *flagN = saved }()
	check(t, offset, name, property)
}

// memCase is a generated case with what the FUNMEM properties need: the
// FUN program parsed back (with positions), its --arg values, FUN's
// big-step outcome, and the FUNMEM variants (with funmem.Check's verdict
// on each, computed when first asked for).
type memCase struct {
	c    *Case
	p    *fun.Program
	args map[string]string
	want outcome
	vs   []Variant
	errs map[string]*error
}

// newMemCase builds the case's variants: all of them, or (transformOnly)
// only TransformProgram's. A pass that panics is a failure, unless the
// panic is a known bug (logged in bugs; the variants it would have made
// are left out).
func newMemCase(c *Case, transformOnly bool, bugs *bugLog) (*memCase, string) {
	p, err := c.Parsed()
	if err != nil {
		return nil, "the printed FUN program does not parse: " + err.Error()
	}
	m := &memCase{c: c, p: p, args: caseArgs(c), want: big(p, c.Env(), nil), errs: map[string]*error{}}
	if transformOnly {
		err = safely("TransformProgram", func() error { m.vs = []Variant{{"TransformProgram", funmem.Transform(p)}}; return nil })
		if err != nil {
			return nil, err.Error()
		}
		return m, ""
	}
	vs, panics := Variants(p)
	for _, pp := range panics {
		id := panicBug(pp)
		if id == "" {
			return nil, pp.Error()
		}
		bugs.hit(id)
	}
	m.vs = vs
	return m, ""
}

// checkErr is funmem.Check's verdict on a variant (a panic as an error).
func (m *memCase) checkErr(v Variant) error {
	if e := m.errs[v.Name]; e != nil {
		return *e
	}
	err := safely("funmem.Check", func() error { _, err := funmem.Check(v.Prog, nil); return err })
	m.errs[v.Name] = &err
	return err
}

// Known bugs. The properties found them in funmem (which this package does
// not change); each has a reproducer test (TestBug…) that skips with
// "BUG:" while the bug is there and passes once it is fixed. The
// properties leave out what a known bug breaks, count it, and skip at the
// end with the counts (a test that also failed otherwise stays failed).
// The bugs found earlier and fixed since have regression tests
// (Test…Fixed) at the end of this file.
// (None is open now.)
var knownBugs = map[string]string{}

// panicBug names the known bug a pass's panic is, or "": every panic is a
// failure unless a known bug explains it.
func panicBug(pp *PassPanic) string { return "" }

// bugLog counts the cases of known bugs a test left out.
type bugLog struct {
	mu   sync.Mutex
	hits map[string]int
}

func (b *bugLog) hit(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hits == nil {
		b.hits = map[string]int{}
	}
	b.hits[id]++
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

// caseArgs are the case's inputs as --arg values. A FUNMEM program has the
// same inputs, with a mem input for each array input's block, which is not
// given (funmem.BindInputs makes it).
func caseArgs(c *Case) map[string]string {
	args := map[string]string{}
	for _, in := range c.Inputs {
		args[in.Name] = in.Value.String()
	}
	return args
}

// showMem renders a FUNMEM program for a failure report.
func showMem(name string, p *fun.Program, c *Case) string {
	run := "-- arraysem run q.funmem"
	if len(c.Inputs) > 0 {
		run += " " + c.ArgList()
	}
	return fmt.Sprintf("\nFUNMEM program (%s):\n%s\n%s", name, joinLines("| ", funmem.Print(p)), run)
}

// panicError is a panic recovered by safely.
type panicError struct {
	what  string
	val   any
	stack string
}

func (e *panicError) Error() string { return fmt.Sprintf("%s panics: %v\n%s", e.what, e.val, e.stack) }

// safely runs f, turning a panic into a *panicError.
func safely(what string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{what: what, val: r, stack: string(debug.Stack())}
		}
	}()
	return f()
}

func isPanic(err error) bool {
	var pe *panicError
	return errors.As(err, &pe)
}

// semErr is err as a *semantics.Error, or nil.
func semErr(err error) *semantics.Error {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se
	}
	return nil
}

// memRule is the heap-based rule of Fig 10 for a FUN rule of Fig 4:
// E-INDEX → E-MEM-INDEX, and so on (E-MEM-IOTA and E-MEM-SCALAR for the
// derived form and the elided scalar rule).
func memRule(rule string) string { return "E-MEM-" + strings.TrimPrefix(rule, "E-") }

// stuckTable counts, per variant, how the heap semantics gets stuck when
// FUN's big-step does: "E-INDEX → E-MEM-INDEX (same position)" and so on.
type stuckTable struct {
	mu sync.Mutex
	m  map[string]map[string]int
}

func (s *stuckTable) add(variant, row string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]map[string]int{}
	}
	if s.m[variant] == nil {
		s.m[variant] = map[string]int{}
	}
	s.m[variant][row]++
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

// allowedStuckRules: when FUN's E-RULE gets stuck, the heap semantics is
// stuck in E-MEM-RULE; or, for a kernel or iota of a negative size, in the
// E-MEM-ALLOC of the block TransformProgram allocates just before it
// (alloc ∏ sizes, a negative size when an odd number of them is). After
// MemoryExpand, any FUN rule may turn into an E-MEM-ALLOC of a negative
// size: it hoists a kernel body's allocations to its top and out of the
// kernel, before the statement FUN gets stuck in first (e.g. a slice of a
// negative size, then iota of that size: -seed 11 -n 18000 finds one).
func allowedStuckRules(variant, funRule string, heap *semantics.Error) bool {
	if heap.Rule == memRule(funRule) {
		return true
	}
	negAlloc := heap.Rule == "E-MEM-ALLOC" && strings.Contains(heap.Msg, "negative")
	return negAlloc && (funRule == "E-KERNEL" || funRule == "E-IOTA" || strings.Contains(variant, "MemoryExpand"))
}

// propValid is property 1 (transform: TransformProgram's output) or 2
// (the other variants), leaving out variants that show a known bug: each
// is accepted by funmem.Check and check.LoadFunmem; if FUN's evaluation of
// p succeeds, CheckValidity succeeds (valid, race free) and the heap-based
// results are FUN's; if it gets stuck, CheckValidity reports both
// semantics stuck and the heap-based run is stuck in a corresponding rule
// (recorded in table).
func propValid(transform bool, table *stuckTable, bugs *bugLog) func(c *Case) string {
	return func(c *Case) string {
		m, msg := newMemCase(c, transform, bugs)
		if msg != "" {
			return msg
		}
		for _, v := range m.vs {
			if (v.Name == "TransformProgram") != transform {
				continue
			}
			if msg := m.valid(v, table); msg != "" {
				return v.Name + ": " + msg + showMem(v.Name, v.Prog, c)
			}
		}
		return ""
	}
}

func (m *memCase) valid(v Variant, table *stuckTable) string {
	if err := m.checkErr(v); err != nil {
		return "Fig 8 rejects the program: " + err.Error()
	}
	var l *arraycheck.Loaded
	if err := safely("check.LoadFunmem", func() (err error) { l, err = arraycheck.LoadFunmem(v.Prog, arraycheck.Options{}); return err }); err != nil {
		return "check.LoadFunmem rejects the program: " + err.Error()
	}
	verr := safely("check.CheckValidity", func() error { _, err := arraycheck.CheckValidity(l, m.args); return err })
	var got outcome
	herr := safely("check.Loaded.Run heap", func() error {
		r, err := l.Run(arraycheck.RunOptions{Semantics: "heap", Args: m.args})
		if err == nil {
			got.vals = r.Results
		}
		return err
	})
	got.err = herr
	if isPanic(verr) {
		return verr.Error()
	}
	if isPanic(herr) {
		return herr.Error()
	}
	if m.want.err == nil {
		if verr != nil {
			return "FUN's evaluation of p succeeds, but Def 3.1 fails: " + verr.Error()
		}
		if herr != nil {
			return "FUN's evaluation of p succeeds, but the heap-based run fails: " + herr.Error()
		}
		return sameOutcome("FUN big-step of p", m.want, "heap-based run", got)
	}
	fe := semErr(m.want.err)
	if fe == nil || fe.Kind != semantics.StuckError {
		return "FUN's evaluation fails with something other than a stuck state: " + m.want.err.Error()
	}
	if ve := semErr(verr); ve == nil || ve.Kind != semantics.StuckError {
		return fmt.Sprintf("FUN's evaluation of p is stuck (%v), but CheckValidity gives %v (want both semantics stuck)", m.want.err, verr)
	}
	he := semErr(herr)
	if he == nil || he.Kind != semantics.StuckError {
		return fmt.Sprintf("FUN's evaluation of p is stuck (%v), but the heap-based run gives %v", m.want.err, got)
	}
	row := fe.Rule + " → " + he.Rule
	switch {
	case fe.Pos == he.Pos:
		row += " (same position)"
	case !he.Pos.IsValid():
		row += " (no position)"
	case fe.Pos.Line == he.Pos.Line:
		row += " (same line, other column)"
	default:
		row += " (other line)"
	}
	if !allowedStuckRules(v.Name, fe.Rule, he) {
		return fmt.Sprintf("FUN's evaluation of p is stuck in %v\nthe heap-based run in %v", m.want.err, herr)
	}
	table.add(v.Name, row)
	return ""
}

// 1. TransformProgram's output is well typed, valid and race free.
func TestFunmemTransformValid(t *testing.T) {
	table, bugs := &stuckTable{}, &bugLog{}
	memCheck(t, 20, "TransformProgram: well typed, valid, race free", propValid(true, table, bugs))
	table.log(t)
	bugs.skip(t)
}

// 2. So are the outputs of Simplify and MemoryExpand, and their heap-based
// results are FUN's.
func TestFunmemPassesValid(t *testing.T) {
	table, bugs := &stuckTable{}, &bugLog{}
	memCheck(t, 21, "Simplify, MemoryExpand: well typed, valid, race free, FUN's results", propValid(false, table, bugs))
	table.log(t)
	bugs.skip(t)
}

// heapOutcome is the outcome of a heap-based run: the values and the final
// heap, or an error.
type heapOutcome struct {
	vals []funmem.Value
	heap [][]int64
	err  error
}

func (o heapOutcome) String() string {
	if o.err != nil {
		return "error " + o.err.Error()
	}
	return fmt.Sprintf("%s with heap %v", funmem.ValuesString(o.vals), o.heap)
}

// runHeap runs a FUNMEM program on args by the big-step or (small) the
// small-step heap semantics, counting rules in counter. Every small-step
// configuration is rendered (as arraysem step prints it).
func runHeap(p *fun.Program, args map[string]string, small bool, counter semantics.Counter) heapOutcome {
	var o heapOutcome
	err := safely("the heap semantics", func() error {
		env, h, err := funmem.BindInputs(p, args)
		if err != nil {
			return err
		}
		opts := &funmem.HeapOptions{Counter: counter}
		if small {
			o.vals, _, err = funmem.RunHeapSmall(p, env, h, 0, opts, func(_ string, c *funmem.Config) { _ = c.String() })
		} else {
			o.vals, err = funmem.EvalHeap(p, env, h, opts)
		}
		for l := 1; l <= h.Blocks(); l++ {
			o.heap = append(o.heap, append([]int64(nil), h.Block(semantics.Label(l))...))
		}
		return err
	})
	o.err = err
	return o
}

// sameHeapOutcome compares big- and small-step heap runs: the same values
// and heap contents, or the identical error (kind, position, rule and
// message).
func sameHeapOutcome(big, small heapOutcome) string {
	if isPanic(big.err) {
		return big.err.Error()
	}
	if isPanic(small.err) {
		return small.err.Error()
	}
	if big.err != nil || small.err != nil {
		be, se := semErr(big.err), semErr(small.err)
		if big.err == nil || small.err == nil || big.err.Error() != small.err.Error() || (be == nil) != (se == nil) || (be != nil && be.Kind != se.Kind) {
			return fmt.Sprintf("heap big-step gives %v\nheap small-step gives %v", big, small)
		}
		return ""
	}
	if !reflect.DeepEqual(big.vals, small.vals) || !reflect.DeepEqual(big.heap, small.heap) {
		return fmt.Sprintf("heap big-step gives %v\nheap small-step gives %v", big, small)
	}
	return ""
}

// 3. Heap big-step and small-step agree on every variant.
func TestFunmemHeapBigSmallAgree(t *testing.T) {
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCheck(t, 22, "heap big-step = heap small-step", func(c *Case) string {
		m, msg := newMemCase(c, false, bugs)
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
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCheck(t, 23, "value-based semantics = FUN", func(c *Case) string {
		m, msg := newMemCase(c, false, bugs)
		if msg != "" {
			return msg
		}
		for _, v := range m.vs {
			var r *arraycheck.Run
			err := safely("the value-based semantics", func() error {
				l, err := arraycheck.LoadFunmem(v.Prog, arraycheck.Options{})
				if err != nil {
					return err
				}
				r, err = l.Run(arraycheck.RunOptions{Semantics: "value", Args: m.args})
				return err
			})
			got := outcome{err: err}
			if err == nil {
				got.vals = r.Results
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
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCheck(t, 24, "FUNMEM print∘parse", func(c *Case) string {
		m, msg := newMemCase(c, false, bugs)
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

// sameStuckRenamed reports whether, for a variant Simplify made, two stuck
// states are the same up to the names of variables in the message: the
// same position, kind and rule, and messages equal once names and numbers
// are blanked ("x10 % 0" and "n1 % 0" where Simplify renamed x10 to n1).
func sameStuckRenamed(v Variant, a, b error) bool {
	ea, eb := semErr(a), semErr(b)
	return strings.Contains(v.Name, "Simplify") && ea != nil && eb != nil && ea.Kind == semantics.StuckError &&
		ea.Pos == eb.Pos && ea.Kind == eb.Kind && ea.Rule == eb.Rule &&
		numbers.ReplaceAllString(ea.Msg, "#") == numbers.ReplaceAllString(eb.Msg, "#")
}

func printParse(p *fun.Program) string {
	text := funmem.Print(p)
	var q *fun.Program
	if err := safely("funmem.ParseFile", func() (err error) { q, err = funmem.ParseFile("q.funmem", text); return err }); err != nil {
		return "funmem.Print's output does not parse: " + err.Error()
	}
	if err := safely("funmem.Check", func() error { _, err := funmem.Check(q, nil); return err }); err != nil {
		return "the printed and parsed program does not type check: " + err.Error()
	}
	if text2 := funmem.Print(q); text2 != text {
		return "printing the parsed program gives other text:\n" + joinLines("| ", text2)
	}
	return ""
}

// memCases are the cases of the loop tests (6-8): memN cases from the
// given seed offset, sizes ramping up as in TestRuleCoverage.
func memCases(t *testing.T, offset int64, bugs *bugLog, f func(m *memCase)) {
	t.Helper()
	r := rand.New(rand.NewSource(*flagSeed + offset))
	n := memN()
	for i := range n {
		seed := r.Int63()
		c := Generate(rand.New(rand.NewSource(seed)), i*MaxGenSize/n, DefaultGenConfig)
		c.Seed = seed
		m, msg := newMemCase(c, false, bugs)
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
	type tally struct{ programs, kernelsBefore, kernelsAfter, allocsBefore, allocsAfter, expansions int }
	tallies := map[string]*tally{}
	var order []string
	bugs := &bugLog{}
	defer bugs.skip(t)
	memCases(t, 25, bugs, func(m *memCase) {
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

// invariantAllocsLeft lists the allocations at the top level of a kernel
// body whose size uses only variables bound outside the kernel and whose
// block no nested body returns: MemoryExpand should have expanded them.
func invariantAllocsLeft(p *fun.Program) []string {
	var bad []string
	funmem.WalkStms(p.Body, func(s *fun.Stm) {
		k, ok := s.Exp.(*fun.KernelExp)
		if !ok {
			return
		}
		local := map[string]bool{k.Var.Name: true}
		returned := map[string]bool{}
		for _, st := range k.Body.Stms {
			for _, q := range st.Pat {
				local[q.Name.Name] = true
			}
			switch e := st.Exp.(type) {
			case *fun.IfExp:
				markResults(e.Then, returned)
				markResults(e.Else, returned)
			case *fun.KernelExp:
				markResults(e.Body, returned)
			}
		}
	next:
		for _, st := range k.Body.Stms {
			a, ok := st.Exp.(*funmem.AllocExp)
			if !ok || returned[st.Pat[0].Name.Name] {
				continue
			}
			for _, x := range fun.FreeVars(a.Size, nil) {
				if local[x.Name] {
					continue next
				}
			}
			bad = append(bad, fmt.Sprintf("let %s = alloc %s in kernel %s <= %s", st.Pat[0].Name.Name, fun.PrintSExp(a.Size), k.Var.Name, k.Bound.Name))
		}
	})
	return bad
}

func markResults(b *fun.Body, m map[string]bool) {
	for _, x := range b.Result {
		m[x.Name] = true
	}
	for _, s := range b.Stms {
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			markResults(e.Then, m)
			markResults(e.Else, m)
		case *fun.KernelExp:
			markResults(e.Body, m)
		}
	}
}

// Outcomes of a mutant.
const (
	outRejected = "rejected (T-MEM)"
	outRace     = "race"
	outInvalid  = "invalid"
	outStuck    = "stuck"
	outValid    = "valid"
)

var mutationOutcomes = []string{outRejected, outRace, outInvalid, outStuck, outValid}

// classifyMutant checks one mutant: funmem.Check accepts it or rejects it
// by a T-MEM rule; if it accepts, CheckValidity returns nil or an error of
// kind RaceError, MismatchError or StuckError naming an E-MEM rule or
// Def 3.1; and heap big-step and small-step agree on it. It returns the
// outcome, and what went wrong ("" when nothing did).
func classifyMutant(mu Mutant, args map[string]string) (string, string) {
	err := safely("funmem.Check", func() error { _, err := funmem.Check(mu.Prog, nil); return err })
	if isPanic(err) {
		return "", err.Error()
	}
	if err != nil {
		if se := semErr(err); se == nil || se.Kind != semantics.TypeError || !strings.HasPrefix(se.Rule, "T-MEM-") {
			return "", "funmem.Check rejects the mutant with an error that names no T-MEM rule: " + err.Error()
		}
		return outRejected, ""
	}
	var l *arraycheck.Loaded
	if err := safely("check.LoadFunmem", func() (err error) { l, err = arraycheck.LoadFunmem(mu.Prog, arraycheck.Options{}); return err }); err != nil {
		return "", "funmem.Check accepts the mutant, check.LoadFunmem does not: " + err.Error()
	}
	verr := safely("check.CheckValidity", func() error { _, err := arraycheck.CheckValidity(l, args); return err })
	if isPanic(verr) {
		return "", verr.Error()
	}
	if d := sameHeapOutcome(runHeap(mu.Prog, args, false, nil), runHeap(mu.Prog, args, true, nil)); d != "" {
		return "", d
	}
	if verr == nil {
		return outValid, ""
	}
	se := semErr(verr)
	if se == nil {
		return "", "CheckValidity fails with an error that is not a *semantics.Error: " + verr.Error()
	}
	if !strings.HasPrefix(se.Rule, "E-MEM-") && se.Rule != "Def 3.1" {
		return "", "CheckValidity's error names no E-MEM rule nor Def 3.1: " + verr.Error()
	}
	switch se.Kind {
	case semantics.RaceError:
		return outRace, ""
	case semantics.MismatchError:
		return outInvalid, ""
	case semantics.StuckError:
		return outStuck, ""
	}
	return "", fmt.Sprintf("CheckValidity fails with an error of kind %v: %v", se.Kind, verr)
}

// 7. Mutants of valid programs: each is rejected by a T-MEM rule, or
// caught by CheckValidity as a race, as invalid (or stuck), or stays
// valid; none panics. The table of outcomes is logged; races and invalid
// programs must each occur.
func TestFunmemMutations(t *testing.T) {
	table := map[string]map[string]int{}
	examples := map[string]string{}
	r := rand.New(rand.NewSource(*flagSeed + 26))
	for _, k := range MutationKinds {
		table[k] = map[string]int{}
	}
	bugs := &bugLog{}
	programs, variants := 0, 0
	memCases(t, 27, bugs, func(m *memCase) {
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
		variants, programs, memN(), b.String())
	keys := make([]string, 0, len(examples))
	for k := range examples {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
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

// The rules of Figs 8 and 10 that property 8 requires.
var (
	memTypeRules = []string{"T-MEM-SCALAR", "T-MEM-ALLOC", "T-MEM-INDEX", "T-MEM-IF", "T-MEM-TRANSPOSE", "T-MEM-SLICE",
		"T-MEM-KERNEL", "T-MEM-RESULT", "T-MEM-STM", "T-MEM-LMAD", "T-MEM-ARRAY", "T-MEM-PROG"}
	memEvalRules = []string{"E-MEM-ALLOC", "E-MEM-SLICE", "E-MEM-INDEX", "E-MEM-TRANSPOSE", "E-MEM-KERNEL",
		"E-MEM-IF-T", "E-MEM-IF-F", "E-STMS", "E-MEM-PROG"}
)

// 8. Rule coverage: over the run, funmem.Check (CheckOptions.Counter) and
// the heap semantics, big- and small-step (HeapOptions.Counter), apply
// every rule of Figs 8 and 10.
func TestFunmemRuleCoverage(t *testing.T) {
	typing, bigc, smallc := semantics.Counter{}, semantics.Counter{}, semantics.Counter{}
	bugs := &bugLog{}
	memCases(t, 28, bugs, func(m *memCase) {
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

// The reproducers of knownBugs: each skips with "BUG:" while the bug is
// there, and passes once it is fixed.

// TestIfPanicFixed: Simplify kept one result when renaming would empty an
// if's pattern, but not when hoisting did, and then indexed the empty
// pattern (an internal error of arraysem compile).
func TestIfPanicFixed(t *testing.T) {
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

// The bugs found and fixed since (242410c, 99d7038): regression tests.

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
	p, q := compileSimplified(t, "input (n : int)\nlet (x : int) = if n then in (n) else in (n)\nin (x)\n")
	checks(t, p, q)
}

// Simplify bound an int result that both branches define alike by a let
// before the if also when it was the size of an array result, whose
// branches' arrays kept their own size variables, so T-MEM-RESULT (sizes
// compared by name) rejected the output. Fixed in 99d7038.
func TestHoistedSizeFixed(t *testing.T) {
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
	p, q := compileSimplified(t, "input (n : int)\nlet (x : int) = 1 / n\nlet (a : [n]) = iota n\nin (a)\n")
	args := map[string]string{"n": "0"}
	l, err := arraycheck.LoadFunmem(q, arraycheck.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := l.Run(arraycheck.RunOptions{Semantics: "heap", Args: args})
	if se := semErr(err); se == nil || se.Rule != "E-MEM-SCALAR" {
		got := outcome{err: err}
		if err == nil {
			got.vals = r.Results
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
