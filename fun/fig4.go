package fun

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The big-step semantics of Fig 4, as written: a walk over the syntax with
// the environment E of env.go, one function per rule, named after it,
// building the rule's derivation node (semantics.Deriver) from the
// derivations of its premises. It is the `rules` semantics of `arraysem
// run --semantics rules`; the engine (compile.go: closures over slots,
// kernels stacked into flat buffers, iterations on several goroutines,
// int fast paths) is `big`, and TestEngineMatchesRules holds it to these
// rules: the same results, errors, derivations, rule counts and cost
// counters. The extension forms' rules are in fig4_ext.go; the cost
// counters, which are not part of any rule, are counted around each rule
// by fig4_stats.go.
//
// The rules without a body (E-SCALAR, E-INDEX, E-SLICE, E-TRANSPOSE, the
// derived E-IOTA and E-COPY) are the functions the small-step and the
// engine also call (evalAtomic), reading variables through vars, so that
// the three semantics are stuck in the same rule with the same message.
// FUN counts from 1 (§2.2: "Arrays are 1-indexed").

// EvalRules runs a program by the rules of Fig 4 as written (and the
// derived and extension forms' rules), in the environment of its inputs,
// and returns its results and, when opts.Derive is set, the derivation.
// It runs sequentially: opts.Jobs is not read.
func EvalRules(p *Program, inputs *Env, opts *EvalOptions) ([]semantics.Array, *semantics.Derivation, error) {
	if opts == nil {
		opts = &EvalOptions{}
	}
	r := &rules{d: semantics.Deriver{Derive: opts.Derive, Counter: opts.Counter}, costs: &ruleCosts{st: opts.Stats}, budget: semantics.NewBudget(opts.Fuel)}
	return r.body(inputs, p.Body)
}

// rules is a run of the rules: what it records of each rule applied.
type rules struct {
	d      semantics.Deriver
	costs  *ruleCosts        // fig4_stats.go
	budget *semantics.Budget // the run's fuel, spent as the engine spends it
}

// spend charges n iterations of the form e to the run's fuel (a
// kernel's or fold's when it starts, a loop's one by one, as the engine
// does), so that the rules run no longer than --fuel allows.
func (r *rules) spend(n int64, e Exp, rule semantics.Rule) error {
	return r.budget.Spend(n, e.Pos(), rule.Name)
}

// node records an application of rule concluding E ⊢ e ⇓ vs for the
// expression of s.
func (r *rules) node(rule semantics.Rule, s *Stm, vs []semantics.Array, premises ...*semantics.Derivation) *semantics.Derivation {
	return r.d.Node(rule.Name, func() string { return "E ⊢ " + expHead(s.Exp) + " ⇓ " + valuesString(vs) }, premises...)
}

// premise adds the derivations ds to a rule's premises when the run
// builds derivations (a plain run keeps none: a kernel of 10^8
// iterations would keep 10^8 nils).
func (r *rules) premise(premises []*semantics.Derivation, ds ...*semantics.Derivation) []*semantics.Derivation {
	if !r.d.Derive {
		return nil
	}
	return append(premises, ds...)
}

// body is the judgement E ⊢ b ⇓ (v1, …, vn): E-LET for b's first
// statement, E-IN when none is left.
func (r *rules) body(env *Env, b *Body) ([]semantics.Array, *semantics.Derivation, error) {
	live := r.costs.enterBody()
	vs, d, err := r.eLet(env, b, 0)
	if err == nil {
		r.costs.leaveBody(live)
	}
	return vs, d, err
}

// eLet is E-LET, for statement i of b and the rest of b after it:
//
//	E ⊢ e ⇓ (v1e, …, vne)    E, x1 ↦ v1e, …, xn ↦ vne ⊢ b ⇓ (v1b, …, vmb)
//	---------------------------------------------------------------------
//	E ⊢ let (x1 : τ1) … (xn : τn) = e b ⇓ (v1b, …, vmb)
func (r *rules) eLet(env *Env, b *Body, i int) ([]semantics.Array, *semantics.Derivation, error) {
	if i == len(b.Stms) {
		return r.eIn(env, b)
	}
	s := b.Stms[i]
	ve, de, err := r.exp(env, s)
	if err != nil {
		return nil, nil, err
	}
	inner, err := bindPattern(env, s, ve)
	if err != nil {
		return nil, nil, err
	}
	r.costs.ran(s)
	vb, db, err := r.eLet(inner, b, i+1)
	if err != nil {
		return nil, nil, err
	}
	return vb, r.d.Node(ELet.Name, func() string { return "E ⊢ " + bodyHead(b, i) + " ⇓ " + valuesString(vb) }, de, db), nil
}

// eIn is E-IN:
//
//	E(xi) = vi  for 0 < i ≤ n
//	--------------------------------
//	E ⊢ in (x1, …, xn) ⇓ (v1, …, vn)
func (r *rules) eIn(env *Env, b *Body) ([]semantics.Array, *semantics.Derivation, error) {
	vs, err := evalIn(env, b)
	if err != nil {
		return nil, nil, err
	}
	return vs, r.d.Node(EIn.Name, func() string { return "E ⊢ " + bodyHead(b, len(b.Stms)) + " ⇓ " + valuesString(vs) }), nil
}

// exp is the judgement E ⊢ e ⇓ (v1, …, vn) for the expression of s: the
// rule of e's form.
func (r *rules) exp(env *Env, s *Stm) ([]semantics.Array, *semantics.Derivation, error) {
	r.costs.before(env, s)
	vs, d, err := r.rule(env, s)
	if err == nil {
		r.costs.after(env, s, vs)
	}
	return vs, d, err
}

// rule applies the rule of s's expression.
func (r *rules) rule(env *Env, s *Stm) ([]semantics.Array, *semantics.Derivation, error) {
	switch e := s.Exp.(type) {
	case *IfExp:
		return r.eIf(env, s, e)
	case *KernelExp:
		return r.eKernel(env, s, e)
	case *LoopExp:
		return r.eLoop(env, s, e)
	case *ReduceExp:
		return r.eReduce(env, s, e)
	case *ScanExp:
		return r.eScan(env, s, e)
	case *FilterExp:
		return r.eFilter(env, s, e)
	case *RedomapExp:
		return r.eRedomap(env, s, e)
	}
	// The rules without premises.
	vs, rule, err := evalAtomic(env, s)
	if err != nil {
		return nil, nil, err
	}
	return vs, r.d.Node(rule, func() string { return "E ⊢ " + expHead(s.Exp) + " ⇓ " + valuesString(vs) }), nil
}

// eIf is E-IF-TRUE or E-IF-FALSE, as E(x) is 0 or not (E-IF is stuck on a
// condition that is not an int):
//
//	E(x) ≠ 0    E ⊢ b1 ⇓ (v1, …, vn)               E(x) = 0    E ⊢ b2 ⇓ (v1, …, vn)
//	-------------------------------- [E-IF-TRUE]   -------------------------------- [E-IF-FALSE]
//	E ⊢ if x then b1 else b2 ⇓ (v1, …, vn)          E ⊢ if x then b1 else b2 ⇓ (v1, …, vn)
func (r *rules) eIf(env *Env, s *Stm, e *IfExp) ([]semantics.Array, *semantics.Derivation, error) {
	k, err := lookupInt(env, e.Cond, EIf.Name)
	if err != nil {
		return nil, nil, err
	}
	if k != 0 {
		return r.eIfBranch(EIfTrue, env, s, e.Then)
	}
	return r.eIfBranch(EIfFalse, env, s, e.Else)
}

// eIfBranch concludes E-IF-TRUE or E-IF-FALSE from the branch b's
// evaluation.
func (r *rules) eIfBranch(rule semantics.Rule, env *Env, s *Stm, b *Body) ([]semantics.Array, *semantics.Derivation, error) {
	vs, d, err := r.body(env, b)
	if err != nil {
		return nil, nil, err
	}
	return vs, r.node(rule, s, vs, d), nil
}

// eKernel is E-KERNEL:
//
//	E, x ↦ 1 ⊢ b ⇓ (v1)    m = E(y)    …    E, x ↦ m ⊢ b ⇓ (vm)
//	-----------------------------------------------------------
//	E ⊢ kernel x ≤ y do b ⇓ ([v1, …, vm])
//
// The items [v1, …, vm] have the shape the pattern declares for them, so
// that a kernel of no iterations has its full shape (ERRATA.md, E7).
func (r *rules) eKernel(env *Env, s *Stm, e *KernelExp) ([]semantics.Array, *semantics.Derivation, error) {
	m, cell, err := kernelStart(env, s, e)
	if err == nil {
		err = r.spend(m, e, EKernel)
	}
	if err != nil {
		return nil, nil, err
	}
	var items []semantics.Array
	var premises []*semantics.Derivation
	for i := int64(1); i <= m; i++ {
		vs, d, err := r.body(env.Bind(e.Var.Name, semantics.Scalar(i)), e.Body)
		if err != nil {
			return nil, nil, err
		}
		if err := kernelArity(e, len(vs)); err != nil {
			return nil, nil, err
		}
		items = append(items, vs[0])
		premises = r.premise(premises, d)
	}
	vs, err := kernelFinish(s, cell, items)
	if err != nil {
		return nil, nil, err
	}
	return vs, r.node(EKernel, s, vs, premises...), nil
}

// The rules without premises, which evalAtomic applies for the three
// semantics. Each gives its one value.

// eScalar is E-SCALAR:
//
//	v = conventional evaluation of se
//	---------------------------------
//	E ⊢ se ⇓ (v)
func eScalar(env vars, e *ScalarExp) (semantics.Array, error) {
	k, err := EvalNum(e.X, numLookup(env), EScalar.Name)
	if err != nil {
		return semantics.Array{}, err
	}
	return k.Array(), nil
}

// eIndex is E-INDEX, stuck on indices out of bounds 1..n:
//
//	v = index(E(x), E(y1), …, E(yn))
//	--------------------------------
//	E ⊢ x[y1, …, yn] ⇓ (v)
func eIndex(env vars, e *IndexExp) (semantics.Array, error) {
	rule := EIndex.Name
	a, err := lookupArray(env, e.Arr, rule)
	if err != nil {
		return semantics.Array{}, err
	}
	idx, err := EvalIndices(e.Idx, envLookup(env), rule)
	if err != nil {
		return semantics.Array{}, err
	}
	if len(idx) != a.Rank() {
		return semantics.Array{}, semantics.Stuckf(e.Pos(), rule, "%s has rank %d but is indexed with %d indices", e.Arr.Name, a.Rank(), len(idx))
	}
	v, err := a.Index(idx) // Fig 5's index
	if err != nil {
		return semantics.Array{}, semantics.Stuckf(e.Pos(), rule, "%v of %s", err, e.Arr.Name)
	}
	return v, nil
}

// eTranspose is E-TRANSPOSE:
//
//	v = tr(E(x))
//	------------------------
//	E ⊢ transpose x ⇓ (v)
func eTranspose(env vars, e *TransposeExp) (semantics.Array, error) {
	rule := ETranspose.Name
	a, err := lookupArray(env, e.Arr, rule)
	if err != nil {
		return semantics.Array{}, err
	}
	v, err := a.Transpose() // Fig 5's tr
	if err != nil {
		return semantics.Array{}, semantics.Stuckf(e.Pos(), rule, "%v", err)
	}
	return v, nil
}

// eSlice is E-SLICE, stuck on a slice out of bounds (ERRATA.md reads
// Fig 5's slice as E(y2) elements from position E(y1)):
//
//	v = slice(E(x), E(y1) : E(y2), …, E(y2n-1) : E(y2n))
//	----------------------------------------------------
//	E ⊢ x[y1 : y2, …, y2n-1 : y2n] ⇓ (v)
func eSlice(env vars, e *SliceExp) (semantics.Array, error) {
	rule := ESlice.Name
	a, err := lookupArray(env, e.Arr, rule)
	if err != nil {
		return semantics.Array{}, err
	}
	pairs, err := EvalSlices(e.Slices, envLookup(env), rule)
	if err != nil {
		return semantics.Array{}, err
	}
	if mutant.On("slice-off-by-one") { // mutant: every slice starts one element later
		for i := range pairs {
			pairs[i][0]++
		}
	}
	v, err := a.Slice(pairs) // Fig 5's slice
	if err != nil {
		return semantics.Array{}, semantics.Stuckf(e.Pos(), rule, "%v of %s", err, e.Arr.Name)
	}
	return v, nil
}

// eIota is E-IOTA, of the derived form iota x ≡ kernel xi ≤ x do in (xi)
// (§2): the value is [1, …, E(x)].
func eIota(env vars, e *IotaExp) (semantics.Array, error) {
	rule := EIota.Name
	n, err := lookupInt(env, e.N, rule)
	if err != nil {
		return semantics.Array{}, err
	}
	if n < 0 {
		return semantics.Array{}, semantics.Stuckf(e.N.NamePos, rule, "iota of %s = %d: a kernel bound is negative", e.N.Name, n)
	}
	v, err := semantics.Iota(n)
	if err != nil {
		return semantics.Array{}, semantics.Stuckf(e.Pos(), rule, "%v", err)
	}
	return v, nil
}

// eCopy is E-COPY, of the derived form copy x, kernels indexing x
// everywhere (§2): a fresh array equal to E(x).
func eCopy(env vars, e *CopyExp) (semantics.Array, error) {
	a, err := lookupArray(env, e.Arr, ECopy.Name)
	if err != nil {
		return semantics.Array{}, err
	}
	return semantics.Array{Elem: a.Elem, Shape: a.Shape, Data: append([]int64(nil), a.Data...)}, nil
}
