package fun

import "github.com/arraysem/arraysem/semantics"

// E-REDOMAP and E-SCANOMAP, as the helpers the compiled big-step
// (compile_redomap.go) and the small-step machine (step_redomap.go)
// share, as eval_ext.go's are for the other extension forms:
//
//	E(n) = m ≥ 0   E(z) = v0
//	for i = 1 … m:  E, i ↦ i ⊢ map ⇓ (f_i)   E, a ↦ v(i-1), b ↦ f_i ⊢ op ⇓ (v_i)
//	----------------------------------------------------------------------
//	E ⊢ redomap (a : τ) (b : τ) = z for i <= n do map combine op ⇓ (v_m)
//
// and scanomap gives [v1, …, vm], of the shape and element type of z
// (E-SCANOMAP). The element i is computed just before it is combined,
// map then op for i = 1, then for i = 2, and so on: the order IMP's
// reduce runs its element and combine parts in (I-REDUCE). So when both
// a map body and an earlier operator step would get stuck, the operator's
// error is the one reported, where reduce over kernel i <= n do map would
// report the map's (docs/fun.md, "redomap and scanomap").

// redomapRule is the rule of a redomap or scanomap.
func redomapRule(e *RedomapExp) string {
	if e.Scan {
		return EScanomap.Name
	}
	return ERedomap.Name
}

// redomapStart is the start of E-REDOMAP and E-SCANOMAP: the number of
// elements m = E(n), which may not be negative, and the accumulator's
// start E(z).
func redomapStart(env vars, e *RedomapExp) (int64, semantics.Array, error) {
	rule := redomapRule(e)
	m, err := lookupInt(env, e.Bound, rule)
	if err != nil {
		return 0, semantics.Array{}, err
	}
	if m < 0 {
		return 0, semantics.Array{}, semantics.Stuckf(e.Bound.NamePos, rule, "%s bound %s = %d is negative", RedomapWord(e), e.Bound.Name, m)
	}
	z, ok := env.Lookup(e.Ne.Name)
	if !ok {
		return 0, semantics.Array{}, unbound(e.Ne, rule)
	}
	if len(e.Params) != 2 {
		return 0, semantics.Array{}, semantics.Stuckf(e.Keyword, rule, "%s takes two parameters, not %d", RedomapWord(e), len(e.Params))
	}
	if e.Scan {
		// The rows' shape: a scan of more rows than an array may hold is
		// stuck before any runs (as a kernel of that many items is).
		if _, err := semantics.Count(append([]int64{m}, z.Shape...)); err != nil {
			return 0, semantics.Array{}, semantics.Stuckf(e.Keyword, rule, "%v", err)
		}
	}
	return m, z, nil
}

// mapEnv is the environment of element i's map body: E, i ↦ i.
func mapEnv(env *Env, e *RedomapExp, i int64) *Env {
	return env.Bind(e.Var.Name, semantics.Scalar(i))
}

// mapArity is E-REDOMAP (E-SCANOMAP) stuck on a map body that returns n
// values, not one.
func mapArity(e *RedomapExp, n int) error {
	if n != 1 {
		return semantics.Stuckf(e.Map.In, redomapRule(e), "a map body returns one value, not %d", n)
	}
	return nil
}

// scanomapFinish stacks a scanomap's rows, each of the shape and element
// type of z.
func scanomapFinish(s *Stm, e *RedomapExp, z semantics.Array, items []semantics.Array) (semantics.Array, error) {
	v, err := semantics.StackOf(z.Elem, z.Shape, items)
	if err != nil {
		return semantics.Array{}, rowsStuck(s, redomapRule(e), err)
	}
	return v, nil
}
