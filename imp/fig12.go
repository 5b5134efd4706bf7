package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics of Fig 12, as written: a walk over the syntax
// with a map per environment E and a copy of it per iteration, one
// function or case per rule, named after it. It is the `rules` semantics
// of `arraysem run --semantics rules`; the engine (compiled.go: slots,
// iterations in place, kernels proved race free run untracked, copy
// kernels as one loop, large kernels on several goroutines) is `big`, and
// TestCompiledAgreesWithSmallStep, TestRaceFreePlansAgree and
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

// EvalRules runs a program by the rules of Fig 12 as written (and the
// extensions' I-FOR, I-ASSERT, I-REDUCE and I-SCAN) and returns the values
// of its results. env is left as the program leaves its variables, also
// when it gets stuck; opts' Counter, Trace and Stats are used, Jobs is
// not (the rules run in order).
func EvalRules(p *Program, env Env, h *semantics.Heap, opts *Options) ([]semantics.Array, error) {
	if opts == nil {
		opts = &Options{}
	}
	r := &rules{opts: opts, h: h, costs: &ruleCosts{st: opts.Stats}}
	if err := r.eImpSeq(env, p.Body); err != nil {
		return nil, err
	}
	return Results(p, env, h)
}

// rules is a run of the rules on one heap.
type rules struct {
	opts  *Options
	h     *semantics.Heap
	costs *ruleCosts // fig12_stats.go
}

// part runs the statements of a kernel's iteration or of a fold's part,
// whose blocks die with it: the live words go back to base (cost
// counters).
func (r *rules) part(env Env, ss []Stmt, base int64) error {
	r.costs.enter(true, ss)
	if err := r.eImpSeq(env, ss); err != nil {
		return err
	}
	r.costs.leave(base)
	return nil
}

// scope runs the statements of an if's branch or a for's iteration (the
// blocks of the variables it declares die with it: cost counters).
func (r *rules) scope(env Env, ss []Stmt) error {
	r.costs.enter(false, ss)
	if err := r.eImpSeq(env, ss); err != nil {
		return err
	}
	r.costs.leave(0)
	return nil
}

// eImpSeq is E-IMP-SEQ over a sequence s1; …; sn:
//
//	H1; E1 ⊢ s1 → H2; E2    H2; E2 ⊢ s2 → H3; E3
//	--------------------------------------------
//	H1; E1 ⊢ s1; s2 → H3; E3
func (r *rules) eImpSeq(env Env, ss []Stmt) error {
	for i, s := range ss {
		if i > 0 {
			r.opts.Counter.Hit(EImpSeq.Name)
		}
		if err := r.stmt(env, s); err != nil {
			return err
		}
	}
	return nil
}

// stmt applies the rule of s's form.
func (r *rules) stmt(env Env, s Stmt) error {
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
	rule, err := exec(env, r.h, s)
	if err != nil {
		return err
	}
	r.opts.Counter.Hit(rule)
	r.costs.ran(env, r.h, s)
	return nil
}

// eImpIf is E-IMP-IF-TRUE and E-IMP-IF-FALSE:
//
//	E(x) ≠ 0    H; E ⊢ s1 → H'; E'                E(x) = 0    H; E ⊢ s2 → H'; E'
//	---------------------------------------       ---------------------------------------
//	H; E ⊢ if x then s1 else s2 fi → H'; E'       H; E ⊢ if x then s1 else s2 fi → H'; E'
func (r *rules) eImpIf(env Env, s *If) error {
	rule, branch, err := choose(env, s)
	if err != nil {
		return err
	}
	r.opts.Counter.Hit(rule)
	return r.scope(env, branch)
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
func (r *rules) eImpKernel(env Env, s *Kernel) error {
	k, err := startKernel(env, r.h, s, r.opts.Trace != nil)
	if err != nil {
		return err
	}
	base := r.costs.launch(0)
	for i := int64(1); i <= k.m; i++ {
		k.t.Start(i)
		inner := env.clone()
		inner[s.X.Name] = Value{K: i}
		if err := r.part(inner, s.Body, base); err != nil {
			r.h.Pop()
			return k.race(err)
		}
	}
	k.finish(r.h, r.opts)
	return nil
}

// iFor is I-FOR (an extension): the body for i = 1 … E(se) in turn, its
// declarations and i ending at done.
func (r *rules) iFor(env Env, s *For) error {
	n, err := forBound(env, s)
	if err != nil {
		return err
	}
	for i := int64(1); i <= n; i++ {
		inner := forIteration(env, s, i)
		r.costs.enter(false, s.Body)
		if err := r.eImpSeq(inner, s.Body); err != nil {
			return err
		}
		forBack(env, inner, s)
		r.costs.leave(0)
	}
	r.opts.Counter.Hit(IFor.Name)
	return nil
}

// iFold is I-REDUCE and I-SCAN (extensions): for i = 1 … n, element i's
// part, then the combine of the accumulator and its value (a scan
// writing the accumulator after it), racefree among the elements and the
// combines as a kernel's iterations are.
func (r *rules) iFold(env Env, s Stmt) error {
	f, err := startFold(env, r.h, s, r.opts.Trace != nil)
	if err != nil {
		return err
	}
	fail := func(err error) error {
		r.h.Pop()
		return f.race(err)
	}
	base := r.costs.launch(sexpOps(f.f.Neutral))
	for i := int64(1); i <= f.n; i++ {
		inner := f.element(env, i)
		if err := r.part(inner, f.f.Body, base); err != nil {
			return fail(err)
		}
		comb, err := f.combine(env, inner, i)
		if err != nil {
			return fail(err)
		}
		r.costs.enter(true, nil)
		if err := r.eImpSeq(comb, f.f.Combine); err != nil {
			return fail(err)
		}
		if err := f.combined(env, comb, r.h, i); err != nil {
			return fail(err)
		}
		r.costs.leave(base)
		r.costs.scanWrite(s)
	}
	f.finish(env, r.h, r.opts)
	return nil
}

// exec applies the rules without premises, E-IMP-SKIP, E-IMP-DEC-INT,
// E-IMP-DEC-MEM, E-IMP-ASSIGN-INT, E-IMP-ASSIGN-MEM, E-IMP-ALLOC,
// E-IMP-READ, E-IMP-WRITE (and the extensions' E-IMP-DEC-FLOAT and
// I-ASSERT), and names the rule; the small-step applies them too:
//
//	H; E ⊢ skip → H; E                              [E-IMP-SKIP]
//	H; E ⊢ var x : int → H; E, x ↦ 0                [E-IMP-DEC-INT]
//	H; E ⊢ var x : mem → H; E, x ↦ ⊥                [E-IMP-DEC-MEM]
//	H; E ⊢ x ← se → H; E, x ↦ E(se)                 [E-IMP-ASSIGN-INT]
//	H; E ⊢ x ← y → H; E, x ↦ E(y)                   [E-IMP-ASSIGN-MEM]
//	H; E ⊢ x ← y[se] → H; E, x ↦ H[E(y), E(se)]     [E-IMP-READ]
//	H; E ⊢ x[se_i] ← se_j → H[E(x), E(se_i)] ↦ E(se_j); E   [E-IMP-WRITE]
//	E(se) = m   ℓ fresh   H' = H, ℓ ↦ [0, …, 0] (m zeros)
//	H; E ⊢ x ← alloc se → H'; E, x ↦ ℓ              [E-IMP-ALLOC]
func exec(env Env, h *semantics.Heap, s Stmt) (string, error) {
	switch s := s.(type) {
	case *Skip:
		return EImpSkip.Name, nil
	case *Decl:
		if s.Type == Mem {
			env[s.X.Name] = Value{Mem: true}
			return EImpDecMem.Name, nil
		}
		if s.Type == Float {
			env[s.X.Name] = NumValue(semantics.FloatNum(0))
			return EImpDecFloat.Name, nil
		}
		env[s.X.Name] = Value{}
		return EImpDecInt.Name, nil
	case *Assign:
		if y, ok := s.SE.(fun.Var); ok {
			if v, ok := env[y.Name]; ok && v.Mem {
				env[s.X.Name] = v
				return EImpAssignMem.Name, nil
			}
		}
		v, err := fun.EvalNum(s.SE, numLookup(env), EImpAssignInt.Name)
		if err != nil {
			return "", err
		}
		env[s.X.Name] = NumValue(v)
		return EImpAssignInt.Name, nil
	case *Alloc:
		rule := EImpAlloc.Name
		n, err := fun.EvalSExp(s.Size, lookup(env), rule)
		if err != nil {
			return "", err
		}
		l, err := h.Alloc(n)
		if err != nil {
			return "", semantics.Stuckf(s.At, rule, "%v", err)
		}
		env[s.X.Name] = Value{Mem: true, Defined: true, L: l}
		return rule, nil
	case *Read:
		rule := EImpRead.Name
		b, err := block(env, s.Y, rule)
		if err != nil {
			return "", err
		}
		off, err := fun.EvalSExp(s.Index, lookup(env), rule)
		if err != nil {
			return "", err
		}
		k, err := h.Read(semantics.Loc{Block: b, Offset: off})
		if err != nil {
			return "", heapErr(err, s.At, rule, s.Y.Name)
		}
		// The word is read as x is declared: a heap word is a word.
		env[s.X.Name] = Value{Elem: env[s.X.Name].Elem, K: k}
		return rule, nil
	case *Assert:
		rule := IAssert.Name
		k, err := intValue(s.Cond, env, rule)
		if err != nil {
			return "", err
		}
		if k == 0 {
			if s.Msg != "" {
				return "", semantics.Stuckf(s.At, rule, "%s (assertion %s is 0)", s.Msg, fun.PrintSExp(s.Cond))
			}
			return "", semantics.Stuckf(s.At, rule, "assertion %s is 0", fun.PrintSExp(s.Cond))
		}
		return rule, nil
	case *Write:
		rule := EImpWrite.Name
		b, err := block(env, s.X, rule)
		if err != nil {
			return "", err
		}
		off, err := fun.EvalSExp(s.Index, lookup(env), rule)
		if err != nil {
			return "", err
		}
		v, err := fun.EvalNum(s.Value, numLookup(env), rule)
		if err != nil {
			return "", err
		}
		if err := h.Write(semantics.Loc{Block: b, Offset: off}, v.Bits); err != nil {
			return "", heapErr(err, s.At, rule, s.X.Name)
		}
		return rule, nil
	}
	return "", semantics.Stuckf(s.Pos(), EImpSeq.Name, "no rule runs %s", PrintStmt(s))
}
