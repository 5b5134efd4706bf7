package imp

import (
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics of Fig 12, as written: a walk over the syntax
// with a map per environment E and a copy of it per iteration, one
// function or case per rule, named after it, building the rule's
// derivation node from its premises' when asked. It is the `rules`
// semantics of `arraysem run --semantics rules`; the engine (compiled.go:
// slots, iterations in place, kernels proved race free run untracked,
// copy kernels as one loop, large kernels on several goroutines) is
// `big`, and TestCompiledAgreesWithSmallStep, TestRaceFreePlansAgree and
// TestEngineMatchesRulesOnExamples hold it to these rules: the same
// results, errors (races included), final heaps and environments, traces,
// rule counts and cost counters (which fig12_stats.go counts around the
// rules, as the small-step counts them).
//
//	H; E ⊢ s → H'; E'
//
// reads "evaluation of statement s with heap H and environment E produces
// a new heap H' and environment E'". E is mutable: a rule's E' is E
// updated in place, and a kernel's iteration runs on a copy of E (its
// declarations end with it). Heap offsets count from 0 (ERRATA.md, I1).
// A derivation's conclusions show what a statement changed: E, x ↦ v for
// the variable it set, H' for a heap it wrote.

// EvalRules runs a program by the rules of Fig 12 as written (and the
// extensions' I-FOR, I-ASSERT, I-REDUCE and I-SCAN) and returns the values
// of its results and, when opts.Derive is set, the derivation. env is
// left as the program leaves its variables, also when it gets stuck;
// opts' Counter, Trace and Stats are used, Jobs is not (the rules run in
// order).
func EvalRules(p *Program, env Env, h *semantics.Heap, opts *Options) ([]semantics.Array, *semantics.Derivation, error) {
	if opts == nil {
		opts = &Options{}
	}
	if opts.Budget == nil { // every run is bounded, as the engine's
		o := *opts
		o.Budget = semantics.NewBudget(0)
		opts = &o
	}
	// The nodes count no rule: the rules count themselves (Counter.Hit),
	// as the engine and the small-step do, through the helpers they share.
	r := &rules{opts: opts, h: h, d: semantics.Deriver{Derive: opts.Derive}, costs: &ruleCosts{st: opts.Stats}}
	d, err := r.eImpSeq(env, p.Body)
	if err != nil {
		return nil, nil, err
	}
	vs, err := Results(p, env, h)
	if err != nil {
		return nil, nil, err
	}
	semantics.RecycleTrackers(r.free)
	return vs, d, nil
}

// rules is a run of the rules on one heap.
type rules struct {
	opts  *Options
	h     *semantics.Heap
	d     semantics.Deriver
	costs *ruleCosts // fig12_stats.go
	// free holds the trackers of kernels and folds that have ended, for
	// the next (as the engine's machine.free: Tracker.Reset keeps their
	// tables' memory, which a kernel started in a loop would make again).
	free []*semantics.Tracker
	// snaps is the memory of an ended kernel's envSnapshot, for the next.
	snaps  envSnapshot
	writes writesCache
}

// tracker is a fresh tracker for a kernel or fold: one that has ended,
// reset, or a new one.
func (r *rules) tracker() *semantics.Tracker {
	trace := r.opts.Trace != nil
	n := len(r.free)
	if n == 0 {
		return semantics.NewTracker(trace)
	}
	t := r.free[n-1]
	r.free = r.free[:n-1]
	t.Reset(trace)
	return t
}

// node builds the derivation node of rule concluding H; E ⊢ what → after.
// The statements ss, printed briefly (stmtsHead), stand for what only
// when the run builds derivations: a plain run prints nothing.
func (r *rules) node(rule string, ss []Stmt, after string, premises ...*semantics.Derivation) *semantics.Derivation {
	return r.d.Node(rule, func() string { return "H; E ⊢ " + stmtsHead(ss) + " → " + after }, premises...)
}

// premise adds the derivations ds to a rule's premises when the run
// builds derivations (a plain run keeps none).
func (r *rules) premise(premises []*semantics.Derivation, ds ...*semantics.Derivation) []*semantics.Derivation {
	if !r.d.Derive {
		return nil
	}
	return append(premises, ds...)
}

// part runs the statements of a kernel's iteration or of a fold's part,
// whose blocks die with it: the live words go back to base (cost
// counters).
func (r *rules) part(env Env, ss []Stmt, base int64) (*semantics.Derivation, error) {
	r.costs.enter(true, ss)
	d, err := r.eImpSeq(env, ss)
	if err != nil {
		return nil, err
	}
	r.costs.leave(base)
	return d, nil
}

// scope runs the statements of an if's branch or a for's iteration (the
// blocks of the variables it declares die with it: cost counters).
func (r *rules) scope(env Env, ss []Stmt) (*semantics.Derivation, error) {
	r.costs.enter(false, ss)
	d, err := r.eImpSeq(env, ss)
	if err != nil {
		return nil, err
	}
	r.costs.leave(0)
	return d, nil
}

// eImpSeq is E-IMP-SEQ over a sequence s1; …; sn, read as s1; (s2; …):
//
//	H1; E1 ⊢ s1 → H2; E2    H2; E2 ⊢ s2 → H3; E3
//	--------------------------------------------
//	H1; E1 ⊢ s1; s2 → H3; E3
//
// One statement is its own derivation; none is skip's.
func (r *rules) eImpSeq(env Env, ss []Stmt) (*semantics.Derivation, error) {
	if len(ss) == 0 {
		return r.node(EImpSkip.Name, []Stmt{&Skip{}}, "H; E"), nil
	}
	d1, err := r.stmt(env, ss[0])
	if err != nil || len(ss) == 1 {
		return d1, err
	}
	r.opts.Counter.Hit(EImpSeq.Name)
	d2, err := r.eImpSeq(env, ss[1:])
	if err != nil {
		return nil, err
	}
	return r.node(EImpSeq.Name, ss, "H'; E'", d1, d2), nil
}

// stmt applies the rule of s's form.
func (r *rules) stmt(env Env, s Stmt) (*semantics.Derivation, error) {
	switch s := s.(type) {
	case *If:
		return r.eImpIf(env, s)
	case *Kernel:
		return r.eImpKernel(env, s)
	case *For:
		return r.iFor(env, s)
	case *Reduce, *Scan:
		return r.iFold(env, s)
	}
	rule, _, err := exec(env, r.h, s)
	if err != nil {
		return nil, err
	}
	r.opts.Counter.Hit(rule)
	r.costs.ran(env, r.h, s)
	return r.d.Node(rule, func() string { return "H; E ⊢ " + PrintStmt(s) + " → " + effect(env, r.h, s) }), nil
}

// eImpIf is E-IMP-IF-TRUE and E-IMP-IF-FALSE:
//
//	E(x) ≠ 0    H; E ⊢ s1 → H'; E'                E(x) = 0    H; E ⊢ s2 → H'; E'
//	---------------------------------------       ---------------------------------------
//	H; E ⊢ if x then s1 else s2 fi → H'; E'       H; E ⊢ if x then s1 else s2 fi → H'; E'
func (r *rules) eImpIf(env Env, s *If) (*semantics.Derivation, error) {
	rule, branch, err := choose(env, s)
	if err != nil {
		return nil, err
	}
	r.opts.Counter.Hit(rule)
	d, err := r.scope(env, branch)
	if err != nil {
		return nil, err
	}
	return r.node(rule, []Stmt{s}, "H'; E'", d), nil
}

// choose is the choice between E-IMP-IF-TRUE and E-IMP-IF-FALSE: the rule
// and the branch it runs.
func choose(env Env, s *If) (string, []Stmt, error) {
	c, err := lookup(env)(s.Cond, EImpIfTrue.Name)
	if err != nil {
		return "", nil, err
	}
	if c != 0 {
		return EImpIfTrue.Name, s.Then, nil
	}
	return EImpIfFalse.Name, s.Else, nil
}

// eImpKernel is E-IMP-KERNEL: the iterations x = 1 … k on one heap, each
// on its own copy of E, their reads and writes racefree (eq 4; a race is
// reported at the kernel, naming the two iterations and the location):
//
//	E(se) = k    H; E, x ↦ 1 ⊢ s → H'1; E'1    …    H'k-1; E, x ↦ k ⊢ s → H'k; E'k
//	--------------------------------------------------------------------------
//	H; E ⊢ kernel x ≤ se do s done → H'k; E
func (r *rules) eImpKernel(env Env, s *Kernel) (*semantics.Derivation, error) {
	k, err := startKernel(env, r.h, s, r.tracker())
	if err != nil {
		return nil, err
	}
	if err := r.opts.Budget.Spend(k.m, s.At, EImpKernel.Name); err != nil { // the run's fuel, as the engine spends it
		r.h.Pop()
		return nil, err
	}
	base := r.costs.launch(0)
	var premises []*semantics.Derivation
	// Each iteration's copy of E is made in E's own map: what an
	// iteration can change (rebinds) is kept before the first (saved) and
	// set back when it has ended, so that the next one starts from E, and
	// the kernel ends with E (nothing keeps an iteration's environment:
	// the derivation's conclusions are rendered as they are made).
	var saved envSnapshot
	if k.m > 0 {
		k.w = r.writes.of(s)
		saved, r.snaps = env.save(k.w, r.snaps), nil // a nested kernel's is another
	}
	for i := int64(1); i <= k.m; i++ {
		k.t.Start(i)
		if i > 1 {
			env.restore(k.w, saved)
		}
		env[s.X.Name] = Value{K: i}
		d, err := r.part(env, s.Body, base)
		if err != nil {
			env.restore(k.w, saved)
			r.h.Pop()
			return nil, k.race(err)
		}
		premises = r.premise(premises, d)
	}
	if k.m > 0 {
		env.restore(k.w, saved)
		r.snaps = saved[:0]
	}
	k.finish(r.h, r.opts)
	r.free = append(r.free, k.t)
	return r.node(EImpKernel.Name, []Stmt{s}, "H'; E", premises...), nil
}

// iFor is I-FOR (an extension): the body for i = 1 … E(se) in turn, its
// declarations and i ending at done.
func (r *rules) iFor(env Env, s *For) (*semantics.Derivation, error) {
	n, err := forBound(env, s)
	if err != nil {
		return nil, err
	}
	var premises []*semantics.Derivation
	var inner Env // each iteration's, in turn (as eImpKernel's)
	var w []string
	if n > 0 {
		w = r.writes.of(s)
	}
	for i := int64(1); i <= n; i++ {
		if err := r.opts.Budget.Spend(1, s.At, IFor.Name); err != nil {
			return nil, err
		}
		inner = forIteration(inner, env, s, i, w)
		r.costs.enter(false, s.Body)
		d, err := r.eImpSeq(inner, s.Body)
		if err != nil {
			return nil, err
		}
		forBack(env, inner, s, w)
		r.costs.leave(0)
		premises = r.premise(premises, d)
	}
	r.opts.Counter.Hit(IFor.Name)
	return r.node(IFor.Name, []Stmt{s}, "H'; E'", premises...), nil
}

// iFold is I-REDUCE and I-SCAN (extensions): for i = 1 … n, element i's
// part, then the combine of the accumulator and its value (a scan
// writing the accumulator after it), racefree among the elements and the
// combines as a kernel's iterations are. Each part's derivation is a
// premise, element i's before its combine's.
func (r *rules) iFold(env Env, s Stmt) (*semantics.Derivation, error) {
	f, err := startFold(env, r.h, s, r.tracker())
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*semantics.Derivation, error) {
		r.h.Pop()
		return nil, f.race(err)
	}
	if err := r.opts.Budget.Spend(f.n, s.Pos(), f.rule); err != nil {
		return fail(err)
	}
	base := r.costs.launch(sexpOps(f.f.Neutral))
	var premises []*semantics.Derivation
	// Each element's and combine's copy of E, in turn (as eImpKernel's).
	var inner, comb Env
	for i := int64(1); i <= f.n; i++ {
		inner = f.element(inner, env, i)
		de, err := r.part(inner, f.f.Body, base)
		if err != nil {
			return fail(err)
		}
		comb, err = f.combine(comb, env, inner, i)
		if err != nil {
			return fail(err)
		}
		r.costs.enter(true, nil)
		dc, err := r.eImpSeq(comb, f.f.Combine)
		if err != nil {
			return fail(err)
		}
		if err := f.combined(env, comb, r.h, i); err != nil {
			return fail(err)
		}
		r.costs.leave(base)
		r.costs.scanWrite(s)
		premises = r.premise(premises, de, dc)
	}
	f.finish(env, r.h, r.opts)
	r.free = append(r.free, f.t)
	after := "H'; E"
	if red, ok := s.(*Reduce); ok {
		after = "H'; E, " + red.Target.Name + " ↦ " + env[red.Target.Name].String()
	}
	return r.node(f.rule, []Stmt{s}, after, premises...), nil
}

// stmtHead renders a statement briefly, eliding the bodies of compound
// ones.
func stmtHead(s Stmt) string {
	switch s := s.(type) {
	case *If:
		return "if " + s.Cond.Name + " then … else … fi"
	case *Kernel, *For, *Reduce, *Scan:
		head := PrintStmt(s)
		if i := strings.Index(head, " do "); i >= 0 {
			head = head[:i]
		}
		return head + " do … done"
	}
	return PrintStmt(s)
}

// stmtsHead renders s1; … briefly: the first statement, and … for the
// rest.
func stmtsHead(ss []Stmt) string {
	if len(ss) == 1 {
		return stmtHead(ss[0])
	}
	return stmtHead(ss[0]) + "; …"
}

// effect renders what a statement without a body that ran in env on h
// changed: H; E, x ↦ v for the variable it set (and H, ℓ ↦ … for a block
// it allocated), H[ℓ, k] ↦ v; E for a write.
func effect(env Env, h *semantics.Heap, s Stmt) string {
	switch s := s.(type) {
	case *Decl:
		return "H; E, " + s.X.Name + " ↦ " + env[s.X.Name].String()
	case *Assign:
		return "H; E, " + s.X.Name + " ↦ " + env[s.X.Name].String()
	case *Read:
		return "H; E, " + s.X.Name + " ↦ " + env[s.X.Name].String()
	case *Alloc:
		v := env[s.X.Name]
		return "H, " + v.String() + " ↦ [0 × " + strconv.Itoa(len(h.Block(v.L))) + "]; E, " + s.X.Name + " ↦ " + v.String()
	case *Write:
		off, err := fun.EvalSExp(s.Index, lookup(env), EImpWrite.Name)
		v, err2 := fun.EvalNum(s.Value, numLookup(env), EImpWrite.Name)
		if err != nil || err2 != nil {
			return "H'; E"
		}
		return "H[" + env[s.X.Name].String() + ", " + strconv.FormatInt(off, 10) + "] ↦ " + v.String() + "; E"
	}
	return "H; E"
}

// touched is the heap word a read or a write touched, and its value,
// for the small-step's note of the step.
type touched struct {
	loc  semantics.Loc
	word Value
}

// exec runs a statement without a body by its rule of Fig 12 (or the
// extension's), and returns the rule and, for a read or a write, the
// heap word it touched.
func exec(env Env, h *semantics.Heap, s Stmt) (string, touched, error) {
	var none touched
	switch s := s.(type) {
	case *Skip:
		return EImpSkip.Name, none, nil
	case *Decl:
		if s.Type == Mem {
			env[s.X.Name] = Value{Mem: true}
			return EImpDecMem.Name, none, nil
		}
		if s.Type == Float {
			env[s.X.Name] = NumValue(semantics.FloatNum(0))
			return EImpDecFloat.Name, none, nil
		}
		env[s.X.Name] = Value{}
		return EImpDecInt.Name, none, nil
	case *Assign:
		if y, ok := s.SE.(fun.Var); ok {
			if v, ok := env[y.Name]; ok && v.Mem {
				env[s.X.Name] = v
				return EImpAssignMem.Name, none, nil
			}
		}
		v, err := fun.EvalNum(s.SE, numLookup(env), EImpAssignInt.Name)
		if err != nil {
			return "", none, err
		}
		env[s.X.Name] = NumValue(v)
		return EImpAssignInt.Name, none, nil
	case *Alloc:
		rule := EImpAlloc.Name
		n, err := fun.EvalSExp(s.Size, lookup(env), rule)
		if err != nil {
			return "", none, err
		}
		l, err := h.Alloc(n)
		if err != nil {
			return "", none, semantics.Stuckf(s.At, rule, "%v", err)
		}
		env[s.X.Name] = Value{Mem: true, Defined: true, L: l}
		return rule, none, nil
	case *Read:
		rule := EImpRead.Name
		b, err := block(env, s.Y, rule)
		if err != nil {
			return "", none, err
		}
		off, err := fun.EvalSExp(s.Index, lookup(env), rule)
		if err != nil {
			return "", none, err
		}
		k, err := h.Read(semantics.Loc{Block: b, Offset: off})
		if err != nil {
			return "", none, heapErr(err, s.At, rule, s.Y.Name)
		}
		// The word is read as x is declared: a heap word is a word.
		env[s.X.Name] = Value{Elem: env[s.X.Name].Elem, K: k}
		return rule, touched{semantics.Loc{Block: b, Offset: off}, env[s.X.Name]}, nil
	case *Assert:
		rule := IAssert.Name
		k, err := intValue(s.Cond, env, rule)
		if err != nil {
			return "", none, err
		}
		if k == 0 {
			if s.Msg != "" {
				return "", none, semantics.Stuckf(s.At, rule, "%s (assertion %s is 0)", s.Msg, fun.PrintSExp(s.Cond))
			}
			return "", none, semantics.Stuckf(s.At, rule, "assertion %s is 0", fun.PrintSExp(s.Cond))
		}
		return rule, none, nil
	case *Write:
		rule := EImpWrite.Name
		b, err := block(env, s.X, rule)
		if err != nil {
			return "", none, err
		}
		off, err := fun.EvalSExp(s.Index, lookup(env), rule)
		if err != nil {
			return "", none, err
		}
		v, err := fun.EvalNum(s.Value, numLookup(env), rule)
		if err != nil {
			return "", none, err
		}
		if err := h.Write(semantics.Loc{Block: b, Offset: off}, v.Bits); err != nil {
			return "", none, heapErr(err, s.At, rule, s.X.Name)
		}
		return rule, touched{semantics.Loc{Block: b, Offset: off}, NumValue(v)}, nil
	}
	return "", none, semantics.Stuckf(s.Pos(), EImpSeq.Name, "no rule runs %s", PrintStmt(s))
}
