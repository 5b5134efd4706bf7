package funmem

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The heap-based big-step semantics of Fig 10, as written: a walk over
// the syntax with the environment E, one case per rule, building the
// rule's derivation node from its premises' (E; H ⊢ s ⇓ E'; H'). It is the
// `rules` semantics of `arraysem run --semantics rules`; the engine
// (heapcompile.go: closures over slots, race-free kernels without a
// tracker, scalar folds as plain loops, iterations on several
// goroutines) is `heap`, and TestEngineMatchesRules holds it to these
// rules: the same results, errors, race reports, rule counts and cost
// counters. The engine also runs the extension forms' bodies by this
// walk. The boxed traces of Fig 10 are the kernel's tracker (startKernel,
// racefree of eq 4 decided as each access is made); the cost counters,
// which are not part of any rule, are counted beside each rule.

// EvalRules runs a program by the rules of Fig 10 as written
// (E-MEM-PROG) on the heap h holding its inputs, and returns its result
// values and, when opts.Derive is set, the derivation.
func EvalRules(p *fun.Program, env *Env, h *semantics.Heap, opts *HeapOptions) ([]Value, *semantics.Derivation, error) {
	opts = withBudget(opts)
	ev := &heapEval{opts: opts, h: h, depth: new(int), d: semantics.Deriver{Derive: opts.Derive}}
	if opts.Stats != nil {
		h.Count(opts.Stats)
		defer h.Count(nil)
	}
	vs, d, err := ev.body(env, p.Body)
	if err != nil {
		return nil, nil, err
	}
	opts.Counter.Hit(EMemProg.Name)
	return vs, ev.d.Node(EMemProg.Name, func() string { return "⊢ s̄ in (…) ⇓ " + ValuesString(vs) + "; H" }, d), nil
}

// evalHeapTree is EvalRules without the derivation.
func evalHeapTree(p *fun.Program, env *Env, h *semantics.Heap, opts *HeapOptions) ([]Value, error) {
	vs, _, err := EvalRules(p, env, h, opts)
	return vs, err
}

// heapEval is a run of the rules. Its Deriver counts nothing: each rule
// is counted where the small-step and the engine count it too.
type heapEval struct {
	opts  *HeapOptions
	h     *semantics.Heap
	depth *int // the parallel forms whose bodies run (the compiled machine's, when it walks a form)
	d     semantics.Deriver
}

// node is rule's derivation node for E; H ⊢ s ⇓ E'; H', giving vs.
func (ev *heapEval) node(rule string, s *fun.Stm, vs []Value, premises ...*semantics.Derivation) *semantics.Derivation {
	return ev.d.Node(rule, func() string { return "E; H ⊢ " + stmHead(s) + " ⇓ " + ValuesString(vs) + "; H'" }, premises...)
}

// stmHead is a statement as a conclusion shows it: on one line, up to
// its body or branches.
func stmHead(s *fun.Stm) string {
	t := fun.PrintStm(s, true)
	for _, w := range []string{" do ", " then "} {
		if head, _, ok := strings.Cut(t, w); ok {
			return head + w + "…"
		}
	}
	return t
}

// body is E-STMS followed by the results.
func (ev *heapEval) body(env *Env, b *fun.Body) ([]Value, *semantics.Derivation, error) {
	if st := ev.opts.Stats; st != nil { // its blocks die when it ends
		defer st.SetLive(st.Live())
	}
	var premises []*semantics.Derivation
	for _, s := range b.Stms {
		vs, d, err := ev.stm(env, s)
		if err != nil {
			return nil, nil, err
		}
		if env, err = bindPattern(env, s, vs); err != nil {
			return nil, nil, err
		}
		if d != nil {
			premises = append(premises, d)
		}
	}
	ev.opts.Counter.Hit(EStms.Name)
	vs, err := results(env, b)
	if err != nil {
		return nil, nil, err
	}
	return vs, ev.d.Node(EStms.Name, func() string { return "E; H ⊢ s̄ in (…) ⇓ " + ValuesString(vs) + "; H'" }, premises...), nil
}

// stm is the rule of one statement: E-MEM-IF-TRUE/FALSE, E-MEM-KERNEL,
// an extension form's, or an atomic statement's (E-MEM-ALLOC, …).
func (ev *heapEval) stm(env *Env, s *fun.Stm) ([]Value, *semantics.Derivation, error) {
	switch e := s.Exp.(type) {
	case *fun.IfExp:
		rule, branch, err := chooseBranch(env, e)
		if err != nil {
			return nil, nil, err
		}
		ev.opts.Counter.Hit(rule)
		vs, d, err := ev.body(env, branch)
		if err != nil {
			return nil, nil, err
		}
		return vs, ev.node(rule, s, vs, d), nil
	case *fun.KernelExp:
		return ev.kernel(env, s, e)
	}
	x, err := startExt(env, ev.h, s, ev.opts.Trace != nil)
	if err != nil {
		return nil, nil, err
	}
	if x != nil {
		return ev.ext(s, x)
	}
	vs, rule, err := evalAtomic(env, ev.h, s, ev.opts)
	if err != nil {
		return nil, nil, err
	}
	if st := ev.opts.Stats; st != nil {
		atomicCosts(st, *ev.depth, ev.h, s, vs)
	}
	ev.opts.Counter.Hit(rule)
	return vs, ev.node(rule, s, vs), nil
}

// kernel is E-MEM-KERNEL: E(y) = k iterations, iteration i running the
// body with x = i on the heap the one before left, each storing its
// item at the destination, racefree (eq 4) over their traces.
func (ev *heapEval) kernel(env *Env, s *fun.Stm, e *fun.KernelExp) ([]Value, *semantics.Derivation, error) {
	k, err := startKernel(env, ev.h, s, e, ev.opts.Trace != nil)
	if err != nil {
		return nil, nil, err
	}
	if err := ev.opts.Budget.Spend(k.m, e.Pos(), EMemKernel.Name); err != nil {
		ev.h.Pop()
		return nil, nil, err
	}
	if st := ev.opts.Stats; st != nil {
		launch(st, *ev.depth)
		*ev.depth++
		defer func() { *ev.depth-- }()
	}
	var premises []*semantics.Derivation
	for i := int64(1); i <= k.m; i++ {
		k.t.Start(i)
		vs, d, err := ev.body(env.Bind(e.Var.Name, Value{Kind: IntVal, K: i}), e.Body)
		if err == nil {
			err = k.store(ev.h, i, vs)
		}
		if err != nil {
			ev.h.Pop()
			return nil, nil, k.race(err)
		}
		if d != nil {
			premises = append(premises, d)
		}
	}
	vs, err := k.finish(ev.h, ev.opts)
	if err != nil {
		return nil, nil, err
	}
	return vs, ev.node(EMemKernel.Name, s, vs, premises...), nil
}

// ext is an extension form's rule (loop, reduce, scan, filter, redomap):
// its parts' bodies run in order, each a premise.
func (ev *heapEval) ext(s *fun.Stm, x *ext) ([]Value, *semantics.Derivation, error) {
	if st := ev.opts.Stats; st != nil && parallel(s.Exp) {
		launch(st, *ev.depth)
		*ev.depth++
		defer func() { *ev.depth-- }()
	}
	var premises []*semantics.Derivation
	for !x.done() {
		err := x.spend(ev.opts.Budget)
		var env *Env
		var b *fun.Body
		if err == nil {
			env, b, err = x.enter(ev.h)
		}
		var vs []Value
		var d *semantics.Derivation
		if err == nil {
			vs, d, err = ev.body(env, b)
		}
		if err == nil {
			err = x.leave(ev.h, vs)
		}
		if err != nil {
			x.abort(ev.h)
			return nil, nil, x.raceOf(err)
		}
		if d != nil {
			premises = append(premises, d)
		}
	}
	vs, err := x.finish(ev.h, ev.opts)
	if err != nil {
		return nil, nil, err
	}
	return vs, ev.node(x.rule, s, vs, premises...), nil
}
