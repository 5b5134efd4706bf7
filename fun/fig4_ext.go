package fun

import "github.com/arraysem/arraysem/semantics"

// The rules of the extension forms (docs/fun.md, "Extensions"), as
// written, in the manner of Fig 4 (fig4.go): E-LOOP, E-REDUCE, E-SCAN,
// E-FILTER, E-REDOMAP and E-SCANOMAP (E-ASSERT has no premises: evalAtomic
// applies it). Their starts and checks are the helpers of eval_ext.go and
// eval_redomap.go, which the engine and the small-step share.

// eLoop is E-LOOP: for i = 1 … E(t) in order, the body with the
// parameters bound to the previous iteration's results (the initial
// values at first):
//
//	E(t) = m ≥ 0    (v0,1 … v0,n) = (E(x1) … E(xn))
//	E, y1 ↦ vi-1,1 … yn ↦ vi-1,n, i ↦ i ⊢ b ⇓ (vi,1 … vi,n)   for i = 1 … m
//	-------------------------------------------------------------------------
//	E ⊢ loop (y1 : τ1) … (yn : τn) = (x1 … xn) for i <= t do b ⇓ (vm,1 … vm,n)
func (r *rules) eLoop(env *Env, s *Stm, e *LoopExp) ([]semantics.Array, *semantics.Derivation, error) {
	m, vals, err := loopStart(env, e)
	if err != nil {
		return nil, nil, err
	}
	var premises []*semantics.Derivation
	for i := int64(1); i <= m; i++ {
		if err := r.spend(1, e, ELoop); err != nil {
			return nil, nil, err
		}
		vs, d, err := r.body(loopEnv(env, e, i, vals), e.Body)
		if err != nil {
			return nil, nil, err
		}
		if err := loopNext(e, vs); err != nil {
			return nil, nil, err
		}
		vals = vs
		premises = r.premise(premises, d)
	}
	return vals, r.node(ELoop, s, vals, premises...), nil
}

// eReduce is E-REDUCE, the left fold of the n rows of xs = E(x):
//
//	v0 = E(z)    E, a ↦ vi-1, b ↦ xs[i] ⊢ body ⇓ (vi)   for i = 1 … n
//	------------------------------------------------------------------
//	E ⊢ reduce (a : τ) (b : τ) = z over x do body ⇓ (vn)
func (r *rules) eReduce(env *Env, s *Stm, e *ReduceExp) ([]semantics.Array, *semantics.Derivation, error) {
	rule := EReduce.Name
	xs, n, acc, from, err := foldStart(env, rule, e.Ne, e.Arr, true)
	if err == nil {
		err = r.spend(n-from+1, e, EReduce)
	}
	if err != nil {
		return nil, nil, err
	}
	var premises []*semantics.Derivation
	for i := from; i <= n; i++ {
		vs, d, err := r.body(foldEnv(env, e.Params, acc, row(xs, i)), e.Body)
		if err != nil {
			return nil, nil, err
		}
		if acc, err = foldNext(rule, e.Body, vs); err != nil {
			return nil, nil, err
		}
		premises = r.premise(premises, d)
	}
	vs := []semantics.Array{acc}
	return vs, r.node(EReduce, s, vs, premises...), nil
}

// eScan is E-SCAN, the inclusive left scan: the premises of E-REDUCE, and
// the value [v1, …, vn], of the shape of xs.
func (r *rules) eScan(env *Env, s *Stm, e *ScanExp) ([]semantics.Array, *semantics.Derivation, error) {
	rule := EScan.Name
	xs, n, acc, from, err := foldStart(env, rule, e.Ne, e.Arr, false)
	if err == nil {
		err = r.spend(n-from+1, e, EScan)
	}
	if err != nil {
		return nil, nil, err
	}
	var items []semantics.Array
	var premises []*semantics.Derivation
	for i := from; i <= n; i++ {
		vs, d, err := r.body(foldEnv(env, e.Params, acc, row(xs, i)), e.Body)
		if err != nil {
			return nil, nil, err
		}
		next, err := foldNext(rule, e.Body, vs)
		if err != nil {
			return nil, nil, err
		}
		items = append(items, scanItem(acc, next))
		acc = next
		premises = r.premise(premises, d)
	}
	v, err := stackRows(s, rule, xs, items)
	if err != nil {
		return nil, nil, err
	}
	vs := []semantics.Array{v}
	return vs, r.node(EScan, s, vs, premises...), nil
}

// eFilter is E-FILTER: the rows xs[i] of xs = E(x) whose body, with x
// bound to them, gives an int other than 0, in order, and their number k:
//
//	E, x ↦ xs[i] ⊢ body ⇓ (ci)   for i = 1 … n
//	-------------------------------------------------------------
//	E ⊢ filter (x : τ) over xs do body ⇓ (k, [xs[i] | ci ≠ 0])
func (r *rules) eFilter(env *Env, s *Stm, e *FilterExp) ([]semantics.Array, *semantics.Derivation, error) {
	xs, err := filterStart(env, e)
	if err == nil {
		err = r.spend(xs.Shape[0], e, EFilter)
	}
	if err != nil {
		return nil, nil, err
	}
	var kept []semantics.Array
	var premises []*semantics.Derivation
	for i := int64(1); i <= xs.Shape[0]; i++ {
		x := row(xs, i)
		vs, d, err := r.body(filterEnv(env, e, x), e.Body)
		if err != nil {
			return nil, nil, err
		}
		keep, err := keepRow(e, vs)
		if err != nil {
			return nil, nil, err
		}
		if keep {
			kept = append(kept, x)
		}
		premises = r.premise(premises, d)
	}
	vs, err := filterFinish(s, xs, kept)
	if err != nil {
		return nil, nil, err
	}
	return vs, r.node(EFilter, s, vs, premises...), nil
}

// eRedomap is E-REDOMAP and E-SCANOMAP (eval_redomap.go gives the rule):
// for i = 1 … E(n), the map body with i bound gives f(i), then the
// operator body combines it with the accumulator; redomap gives the last
// accumulator, scanomap all of them. Each element's two derivations are
// premises, the map's first.
func (r *rules) eRedomap(env *Env, s *Stm, e *RedomapExp) ([]semantics.Array, *semantics.Derivation, error) {
	rule := redomapRule(e)
	m, z, err := redomapStart(env, e)
	if err == nil {
		err = r.budget.Spend(m, e.Pos(), rule)
	}
	if err != nil {
		return nil, nil, err
	}
	acc := z
	var items []semantics.Array
	var premises []*semantics.Derivation
	for i := int64(1); i <= m; i++ {
		fs, dm, err := r.body(mapEnv(env, e, i), e.Map)
		if err != nil {
			return nil, nil, err
		}
		if err := mapArity(e, len(fs)); err != nil {
			return nil, nil, err
		}
		vs, do, err := r.body(foldEnv(env, e.Params, acc, fs[0]), e.Op)
		if err != nil {
			return nil, nil, err
		}
		next, err := foldNext(rule, e.Op, vs)
		if err != nil {
			return nil, nil, err
		}
		if e.Scan {
			items = append(items, scanItem(acc, next))
		}
		acc = next
		premises = r.premise(premises, dm, do)
	}
	v := acc
	if e.Scan {
		if v, err = scanomapFinish(s, e, z, items); err != nil {
			return nil, nil, err
		}
	}
	vs := []semantics.Array{v}
	if e.Scan {
		return vs, r.node(EScanomap, s, vs, premises...), nil
	}
	return vs, r.node(ERedomap, s, vs, premises...), nil
}
