package proofstests

import (
	"errors"
	"fmt"
	arraycheck "github.com/arraysem/arraysem/check"
	"math/rand"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// MemDivisor scales go test's -n down for the FUNMEM properties and the
// level agreement (500 of the CI count's 3000).
const MemDivisor = 6

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
	// seen are the verdicts of valid on the programs checked so far:
	// variants are often the same program (MemoryExpand in both layouts
	// of a program with no allocation in a kernel, Simplify of a program
	// it leaves as it is), and such a variant is checked once.
	seen []verdict
	// fresh checks every variant anew, whatever was checked before (the
	// plain code TestValidReusesVerdicts compares seen's use with).
	fresh bool
}

// verdict is what valid found for a program: its failure, or whether
// its heap-based run agreed with FUN or got stuck (in stuck; row of the
// stuck table). Whether the stuck rule is allowed depends on the
// variant's name too (allowedStuckRules), so valid asks for each variant.
type verdict struct {
	prog   *fun.Program
	msg    string
	agreed bool
	row    string
	stuck  *semantics.Error
	herr   error
}

// newMemCase builds the case's variants: all of them, or (transformOnly)
// only TransformProgram's. A pass that panics is a failure, unless the
// panic is a known bug (logged in bugs; the variants it would have made
// are left out).
func newMemCase(reg *lang.Registry, c *Case, transformOnly bool, bugs *bugLog) (*memCase, string) {
	p, err := c.Parsed()
	if err != nil {
		return nil, "the printed FUN program does not parse: " + err.Error()
	}
	m := &memCase{c: c, p: p, args: caseArgs(c), want: big(p, c.Env(), nil), errs: map[string]*error{}}
	if transformOnly {
		src, err := fun.Language.Adopt(p.File, p, lang.LoadOptions{})
		if err != nil {
			return nil, "the generated FUN program does not check: " + err.Error()
		}
		st, err := reg.RunPasses(src, []string{funmem.TransformPass.Name}, lang.Options{})
		if err != nil {
			return nil, err.Error()
		}
		q := st[len(st)-1].Program
		m.vs = []Variant{{Name: funmem.TransformPass.Name, Prog: q.Syntax().(*fun.Program), Program: q}}
		return m, ""
	}
	vs, msg := variantsOf(reg, p, bugs)
	if msg != "" {
		return nil, msg
	}
	m.vs = vs
	return m, ""
}

// variantsOf is Variants(p), a pass's panic a failure unless a known bug
// explains it (counted in bugs).
func variantsOf(reg *lang.Registry, p *fun.Program, bugs *bugLog) ([]Variant, string) {
	vs, panics, err := Variants(reg, p)
	return knownVariants(vs, panics, err, bugs)
}

// knownVariants is what Variants made, a pass's panic a failure unless a
// known bug explains it (counted in bugs).
func knownVariants(vs []Variant, panics []*PassPanic, err error, bugs *bugLog) ([]Variant, string) {
	for _, pp := range panics {
		id := panicBug(pp)
		if id == "" {
			return nil, pp.Error()
		}
		bugs.hit(id)
	}
	if err != nil {
		return nil, "a pass's output is not a FUNMEM program its checker takes: " + err.Error()
	}
	return vs, ""
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
	if err == nil {
		return false // without the target errors.As would need (on the heap)
	}
	var pe *panicError
	return errors.As(err, &pe)
}

// semErr is err as a *semantics.Error, or nil.
func semErr(err error) *semantics.Error {
	if err == nil {
		return nil
	}
	var se *semantics.Error
	if errors.As(err, &se) {
		return se
	}
	return nil
}

// memRule is the heap-based rule of Fig 10 for a FUN rule of Fig 4:
// E-INDEX → E-MEM-INDEX, and so on (E-MEM-IOTA, E-MEM-COPY and
// E-MEM-SCALAR for the derived forms and the elided scalar rule). FUN's
// other rules have no counterpart of their own ("").
func memRule(rule string) string { return memRules[rule] }

var memRules = map[string]string{
	fun.EIndex.Name:     funmem.EMemIndex.Name,
	fun.ESlice.Name:     funmem.EMemSlice.Name,
	fun.ETranspose.Name: funmem.EMemTranspose.Name,
	fun.EKernel.Name:    funmem.EMemKernel.Name,
	fun.EScalar.Name:    funmem.EMemScalar.Name,
	fun.EIota.Name:      funmem.EMemIota.Name,
	fun.ECopy.Name:      funmem.EMemCopy.Name,
	// The extension forms.
	fun.ELoop.Name:     funmem.EMemLoop.Name,
	fun.EReduce.Name:   funmem.EMemReduce.Name,
	fun.EScan.Name:     funmem.EMemScan.Name,
	fun.EFilter.Name:   funmem.EMemFilter.Name,
	fun.EAssert.Name:   funmem.EMemAssert.Name,
	fun.ERedomap.Name:  funmem.EMemRedomap.Name,
	fun.EScanomap.Name: funmem.EMemScanomap.Name,
}

// stuckTable counts, per variant, how the heap semantics gets stuck when
// FUN's big-step does: "E-INDEX → E-MEM-INDEX (same position)" and so on;
// and (agree) how often its heap-based results were FUN's.
type stuckTable struct {
	mu    sync.Mutex
	m     map[string]map[string]int
	agree map[string]int
}

// agreed counts a variant whose heap-based run gave FUN's results.
func (s *stuckTable) agreed(variant string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agree == nil {
		s.agree = map[string]int{}
	}
	s.agree[variant]++
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

// allowedStuckRules: when FUN's E-RULE gets stuck, the heap semantics is
// stuck in E-MEM-RULE; or, for a kernel, iota or scanomap of a negative
// size, in the E-MEM-ALLOC of the block TransformProgram allocates just
// before it (alloc ∏ sizes, a negative size when an odd number of them
// is). After MemoryExpand, any FUN rule may turn into an E-MEM-ALLOC of a
// negative size: it hoists a kernel body's allocations to its top and out
// of the kernel, before the statement FUN gets stuck in first (e.g. a
// slice of a negative size, then iota of that size: -seed 11 -n 18000
// finds one).
func allowedStuckRules(variant, funRule string, heap *semantics.Error) bool {
	if r := memRule(funRule); r != "" && heap.Rule == r {
		return true
	}
	negAlloc := heap.Rule == funmem.EMemAlloc.Name && strings.Contains(heap.Msg, "negative")
	return negAlloc && (funRule == fun.EKernel.Name || funRule == fun.EIota.Name || funRule == fun.EScanomap.Name || strings.Contains(variant, "MemoryExpand"))
}

// propValid is property 1 (transform: TransformProgram's output) or 2
// (the other variants), leaving out variants that show a known bug: each
// is accepted by funmem.Check and funmem.Language.Adopt; if FUN's evaluation of
// p succeeds, CheckValidity succeeds (valid, race free) and the heap-based
// results are FUN's; if it gets stuck, CheckValidity reports both
// semantics stuck and the heap-based run is stuck in a corresponding rule
// (recorded in table).
func propValid(transform bool, table *stuckTable, bugs *bugLog) func(c *Case) string {
	return propValidOn(arraycheck.NewRegistry(), transform, table, bugs)
}

// propValidOn is propValid over the registry reg (a test's, with a pass
// of its own).
func propValidOn(reg *lang.Registry, transform bool, table *stuckTable, bugs *bugLog) func(c *Case) string {
	return func(c *Case) string {
		m, msg := newMemCase(reg, c, transform, bugs)
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

// valid checks a variant (propValid's checks), recording in table how
// its heap-based run agreed with FUN or got stuck. A variant that is the
// same tree as one checked before (fun.Equal: the same
// statements, types and positions) has its verdict: every check is a
// function of the tree and the case's inputs.
func (m *memCase) valid(v Variant, table *stuckTable) string {
	var d verdict
	found := false
	for _, o := range m.seen {
		if m.fresh {
			break
		}
		if o.prog == v.Prog || fun.Equal(o.prog, v.Prog) {
			d, found = o, true
			break
		}
	}
	if !found {
		d = m.check(v)
		d.prog = v.Prog
		m.seen = append(m.seen, d)
	}
	switch {
	case d.msg != "":
		return d.msg
	case d.agreed:
		table.agreed(v.Name)
	case !allowedStuckRules(v.Name, semErr(m.want.err).Rule, d.stuck):
		return fmt.Sprintf("FUN's evaluation of p is stuck in %v\nthe heap-based run in %v", m.want.err, d.herr)
	default:
		table.add(v.Name, d.row)
	}
	return ""
}

// check is valid's verdict on a variant, checked.
func (m *memCase) check(v Variant) verdict {
	fail := func(msg string) verdict { return verdict{msg: msg} }
	// Adopt runs Fig 8's checker (funmem.Check with the default options)
	// before it accepts a program, so Check is asked on its own only when
	// Adopt rejects, to say which of the two rejects: a program is checked
	// once, not twice, and the failures read as before.
	l := v.Program // the registry's walk checked it
	if err := safely("funmem.Language.Adopt", func() (err error) {
		if l == nil {
			l, err = funmem.Language.Adopt(v.Prog.File, v.Prog, lang.LoadOptions{})
		}
		return err
	}); err != nil {
		if err := m.checkErr(v); err != nil {
			return fail("Fig 8 rejects the program: " + err.Error())
		}
		return fail("funmem.Language.Adopt rejects the program: " + err.Error())
	}
	// CheckValidityRun gives CheckValidity's verdict and the heap-based
	// run's outcome from one run of the heap engine; if it panics, the
	// two run apart, so that the failure names the one that panics.
	var verr, herr error
	var got outcome
	if safely("funmem.CheckValidityRun", func() error {
		vr := funmem.CheckValidityRun(l, m.args)
		verr, herr = vr.Err, vr.RunErr
		if herr == nil {
			got.vals = vr.Result.Values
		}
		return nil
	}) != nil {
		verr = safely("funmem.CheckValidity", func() error { _, err := funmem.CheckValidity(v.Prog, m.args); return err })
		herr = safely("the heap semantics (lang.Program.Run)", func() error {
			r, err := l.Run(lang.RunOptions{Semantics: "heap", Args: m.args})
			if err == nil {
				got.vals = r.Values
			}
			return err
		})
	}
	got.err = herr
	if isPanic(verr) {
		return fail(verr.Error())
	}
	if isPanic(herr) {
		return fail(herr.Error())
	}
	if m.want.err == nil {
		if verr != nil {
			return fail("FUN's evaluation of p succeeds, but Def 3.1 fails: " + verr.Error())
		}
		if herr != nil {
			return fail("FUN's evaluation of p succeeds, but the heap-based run fails: " + herr.Error())
		}
		if msg := sameOutcome("FUN big-step of p", m.want, "heap-based run", got); msg != "" {
			return fail(msg)
		}
		return verdict{agreed: true}
	}
	fe := semErr(m.want.err)
	if fe == nil || !fe.Kind.Stuck() {
		return fail("FUN's evaluation fails with something other than a stuck state: " + m.want.err.Error())
	}
	if ve := semErr(verr); ve == nil || !ve.Kind.Stuck() {
		return fail(fmt.Sprintf("FUN's evaluation of p is stuck (%v), but CheckValidity gives %v (want both semantics stuck)", m.want.err, verr))
	}
	he := semErr(herr)
	if he == nil || !he.Kind.Stuck() {
		return fail(fmt.Sprintf("FUN's evaluation of p is stuck (%v), but the heap-based run gives %v", m.want.err, got))
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
	return verdict{row: row, stuck: he, herr: herr}
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
			o.vals, _, err = funmem.RunHeapSmall(p, env, h, &semantics.RunOptions{Counter: counter, OnStep: func(_ string, c any) { _ = c.(*funmem.Config).String() }})
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

// sameStuckRenamed reports whether, for a variant Simplify made, two stuck
// states are the same up to the names of variables in the message: the
// same position, kind and rule, and messages equal once names and numbers
// are blanked ("x10 % 0" and "n1 % 0" where Simplify renamed x10 to n1).
func sameStuckRenamed(v Variant, a, b error) bool {
	ea, eb := semErr(a), semErr(b)
	return strings.Contains(v.Name, "Simplify") && ea != nil && eb != nil && ea.Kind.Stuck() &&
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

// invariantAllocsLeft lists the allocations at the top level of a kernel
// body whose size uses only variables bound outside the kernel and whose
// block no nested body returns: MemoryExpand should have expanded them.
func invariantAllocsLeft(p *fun.Program) []string {
	var bad []string
	fun.Stms(p.Body, func(s *fun.Stm) {
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
			markNested(st.Exp, returned)
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
		markNested(s.Exp, m)
	}
}

// markNested marks what the bodies nested in e return. A loop also
// returns its initial values (after no iteration), and a reduce its start,
// so those count as returned too.
func markNested(e fun.Exp, m map[string]bool) {
	switch e := e.(type) {
	case *fun.IfExp:
		markResults(e.Then, m)
		markResults(e.Else, m)
	case *fun.KernelExp:
		markResults(e.Body, m)
	case *fun.LoopExp:
		for _, x := range e.Init {
			m[x.Name] = true
		}
		markResults(e.Body, m)
	case *fun.ReduceExp:
		m[e.Ne.Name] = true
		markResults(e.Body, m)
	case *fun.ScanExp:
		markResults(e.Body, m)
	case *fun.FilterExp:
		markResults(e.Body, m)
	case *fun.RedomapExp:
		if !e.Scan {
			m[e.Ne.Name] = true
		}
		markResults(e.Map, m)
		markResults(e.Op, m)
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
	if err := safely("funmem.Language.Adopt", func() (err error) {
		_, err = funmem.Language.Adopt(mu.Prog.File, mu.Prog, lang.LoadOptions{})
		return err
	}); err != nil {
		return "", "funmem.Check accepts the mutant, funmem.Language.Adopt does not: " + err.Error()
	}
	verr := safely("funmem.CheckValidity", func() error { _, err := funmem.CheckValidity(mu.Prog, args); return err })
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
	if !strings.HasPrefix(se.Rule, "E-MEM-") && se.Rule != funmem.Validity.Name {
		return "", "CheckValidity's error names no E-MEM rule nor Def 3.1: " + verr.Error()
	}
	switch se.Kind {
	case semantics.RaceError:
		return outRace, ""
	case semantics.MismatchError:
		return outInvalid, ""
	case semantics.StuckError, semantics.OverflowError:
		return outStuck, ""
	}
	return "", fmt.Sprintf("CheckValidity fails with an error of kind %v: %v", se.Kind, verr)
}

// The rules of Figs 8 and 10 that property 8 requires.
var (
	memTypeRules = ruleNames(funmem.TMemScalar, funmem.TMemAlloc, funmem.TMemIndex, funmem.TMemIf, funmem.TMemTranspose, funmem.TMemSlice,
		funmem.TMemKernel, funmem.TMemResult, funmem.TMemStm, funmem.TMemLMAD, funmem.TMemArray, funmem.TMemProg)
	memEvalRules = ruleNames(funmem.EMemAlloc, funmem.EMemSlice, funmem.EMemIndex, funmem.EMemTranspose, funmem.EMemKernel,
		funmem.EMemIfT, funmem.EMemIfF, funmem.EStms, funmem.EMemProg)
)

// propRaceOracle: the race tracker lets no racy kernel finish. For the
// FUNMEM output of TransformProgram and its mutants (memgen.go: a stride
// set to 0, two fresh arrays in one block; about one in seven races), the
// heap semantics runs with traces, and racefree (eq 4) is decided again,
// independently, from the read and write sets of every kernel that
// finished: a location written by one iteration must be touched by no
// other. (The validity properties see only race-free programs, so they
// cannot tell a tracker that never reports a race from a correct one.)
func propRaceOracle(c *Case) string {
	m, msg := newMemCase(arraycheck.NewRegistry(), c, true, &bugLog{})
	if msg != "" {
		return msg
	}
	if m.want.err != nil {
		return "" // FUN is stuck: so are the mutants, mostly before any race
	}
	r := rand.New(rand.NewSource(c.Seed))
	v := m.vs[0]
	progs := []Mutant{{What: "no mutation", Prog: v.Prog}}
	for _, kind := range MutationKinds {
		var mus []Mutant
		if err := safely("Mutate", func() (err error) { mus, err = Mutate(r, v.Prog, kind, 2); return err }); err != nil {
			return err.Error()
		}
		progs = append(progs, mus...)
	}
	for _, mu := range progs {
		var missed string
		err := safely("the heap semantics", func() error {
			env, h, err := funmem.BindInputs(mu.Prog, m.args)
			if err != nil {
				return err
			}
			_, err = funmem.EvalHeap(mu.Prog, env, h, &funmem.HeapOptions{Trace: func(k *fun.Stm, tr *semantics.KernelTrace) {
				if d := racyTrace(tr); d != "" && missed == "" {
					missed = fmt.Sprintf("the kernel at %v finished, but %s", k.Exp.Pos(), d)
				}
			}})
			return err
		})
		if isPanic(err) {
			return err.Error()
		}
		if missed != "" {
			return fmt.Sprintf("%s (%s): racefree (eq 4) fails: %s%s", v.Name, mu.What, missed, showMem("mutant of "+v.Name, mu.Prog, c))
		}
	}
	return ""
}

// racyTrace decides eq 4 on a kernel's trace: it describes a location
// written by one iteration and read or written by another, or gives "".
func racyTrace(tr *semantics.KernelTrace) string {
	iters := tr.Iters()
	writer := map[semantics.Loc]int{}
	for i, a := range iters {
		for _, l := range a.Writes {
			if w, ok := writer[l]; ok && w != i+1 {
				return fmt.Sprintf("iterations %d and %d both write %v", w, i+1, l)
			}
			writer[l] = i + 1
		}
	}
	for i, a := range iters {
		for _, l := range a.Reads {
			if w, ok := writer[l]; ok && w != i+1 {
				return fmt.Sprintf("iteration %d writes %v, which iteration %d reads", w, l, i+1)
			}
		}
	}
	return ""
}
