package fun

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The big-step rules of the extension forms, E-LOOP, E-REDUCE, E-SCAN,
// E-FILTER and E-ASSERT, and the helpers the small-step machine shares
// with them (step.go): the start of each form, the environment of an
// iteration, the reading of an iteration's results and the final value.
// Sharing them keeps big = small, stuck states included, and puts each
// mutation point (mutants.go) in one place for both semantics.

// loopStart is E-LOOP's start: the bound m = E(t), which may not be
// negative, and the initial values E(x1), …, E(xn).
func loopStart(env *Env, e *LoopExp) (int64, []semantics.Array, error) {
	rule := ELoop.Name
	m, err := lookupInt(env, e.Bound, rule)
	if err != nil {
		return 0, nil, err
	}
	if m < 0 {
		return 0, nil, semantics.Stuckf(e.Bound.NamePos, rule, "loop bound %s = %d is negative", e.Bound.Name, m)
	}
	if len(e.Init) != len(e.Params) {
		return 0, nil, semantics.Stuckf(e.Lparen, rule, "the loop has %d parameters, but %d initial values", len(e.Params), len(e.Init))
	}
	vals := make([]semantics.Array, len(e.Init))
	for j, x := range e.Init {
		v, ok := env.Lookup(x.Name)
		if !ok {
			return 0, nil, semantics.Stuckf(x.NamePos, rule, "variable %s is unbound", x.Name)
		}
		vals[j] = v
	}
	if mutant.On("loop-one-short") && m > 0 { // mutant: one iteration too few
		m--
	}
	return m, vals, nil
}

// loopEnv is the environment of iteration i of a loop: E, y1 ↦ v1, …,
// yn ↦ vn, i ↦ i.
func loopEnv(env *Env, e *LoopExp, i int64, vals []semantics.Array) *Env {
	for j, y := range e.Params {
		env = env.Bind(y.Name.Name, vals[j])
	}
	return env.Bind(e.Var.Name, semantics.Scalar(i))
}

// loopNext checks that an iteration gave one value per parameter.
func loopNext(e *LoopExp, vs []semantics.Array) error {
	if len(vs) != len(e.Params) {
		return semantics.Stuckf(e.Body.In, ELoop.Name, "a loop body returns %d values for %d parameters", len(vs), len(e.Params))
	}
	return nil
}

// foldStart is the start of E-REDUCE and E-SCAN: the array xs = E(x),
// its number of rows n, the accumulator's start E(z), and the first row
// to combine with it.
func foldStart(env *Env, rule string, ne, arr *Ident, reduce bool) (xs semantics.Array, n int64, acc semantics.Array, from int64, err error) {
	xs, err = lookupArray(env, arr, rule)
	if err != nil {
		return
	}
	z, ok := env.Lookup(ne.Name)
	if !ok {
		err = semantics.Stuckf(ne.NamePos, rule, "variable %s is unbound", ne.Name)
		return
	}
	n, acc, from = xs.Shape[0], z, 1
	if reduce && mutant.On("reduce-skips-neutral") && n > 0 { // mutant: the fold starts from x1, not z ⊕ x1
		acc, from = row(xs, 1), 2
	}
	return
}

// row is row i (1-based) of xs: a sub-array of rank one less, or a scalar.
func row(xs semantics.Array, i int64) semantics.Array {
	v, _ := xs.Index([]int64{i}) // i is in 1..n: the caller counts to n
	return v
}

// foldEnv is the environment of one step of a fold: E, a ↦ acc, b ↦ x_i.
func foldEnv(env *Env, ps []*Param, acc, x semantics.Array) *Env {
	return env.Bind(ps[0].Name.Name, acc).Bind(ps[1].Name.Name, x)
}

// foldNext is the accumulator an operator body gave (one value).
func foldNext(rule string, b *Body, vs []semantics.Array) (semantics.Array, error) {
	if len(vs) != 1 {
		return semantics.Array{}, semantics.Stuckf(b.In, rule, "an operator body returns one value, not %d", len(vs))
	}
	return vs[0], nil
}

// scanItem is the row of a scan's result an iteration gives: the
// accumulator after it (the scan is inclusive).
func scanItem(before, after semantics.Array) semantics.Array {
	if mutant.On("scan-exclusive") { // mutant: row i is z ⊕ x1 ⊕ … ⊕ x(i-1)
		return before
	}
	return after
}

// stackRows stacks the rows a scan or filter gives, each of the shape of
// xs's rows (so that none still has that shape).
func stackRows(s *Stm, rule string, xs semantics.Array, items []semantics.Array) (semantics.Array, error) {
	v, err := semantics.StackOf(xs.Elem, xs.Shape[1:], items)
	if err != nil {
		return semantics.Array{}, semantics.Stuckf(patPos(s), rule, "%v", err)
	}
	return v, nil
}

// filterStart is the start of E-FILTER: the array xs = E(x).
func filterStart(env *Env, e *FilterExp) (semantics.Array, error) {
	return lookupArray(env, e.Arr, EFilter.Name)
}

// filterEnv is the environment of the body for row x_i: E, x ↦ x_i.
func filterEnv(env *Env, e *FilterExp, x semantics.Array) *Env {
	return env.Bind(e.Params[0].Name.Name, x)
}

// keepRow reads a filter body's result: whether to keep the row.
func keepRow(e *FilterExp, vs []semantics.Array) (bool, error) {
	rule := EFilter.Name
	if len(vs) != 1 || !vs[0].IsScalar() || vs[0].Elem != semantics.IntElem {
		return false, semantics.Stuckf(e.Body.In, rule, "a filter body returns one int, not %s", valuesString(vs))
	}
	if mutant.On("filter-keeps-rejected") { // mutant: every row is kept
		return true, nil
	}
	return vs[0].Int() != 0, nil
}

// filterFinish is E-FILTER's (k, ys): the number of rows kept, and them.
func filterFinish(s *Stm, xs semantics.Array, kept []semantics.Array) ([]semantics.Array, error) {
	ys, err := stackRows(s, EFilter.Name, xs, kept)
	if err != nil {
		return nil, err
	}
	return []semantics.Array{semantics.Scalar(int64(len(kept))), ys}, nil
}

// evalAssert is E-ASSERT: 1 when se is not 0, else stuck with the
// message.
func evalAssert(env *Env, e *AssertExp) ([]semantics.Array, error) {
	rule := EAssert.Name
	v, err := EvalNum(e.Cond, numLookup(env), rule)
	if err != nil {
		return nil, err
	}
	if v.Elem != semantics.IntElem {
		return nil, semantics.Stuckf(e.Cond.Pos(), rule, "the condition %s is the float %s, not an int", PrintSExp(e.Cond), v)
	}
	if v.Int() == 0 {
		if e.HasMsg {
			return nil, semantics.Stuckf(e.Keyword, rule, "assertion %s failed: %s", PrintSExp(e.Cond), e.Msg)
		}
		return nil, semantics.Stuckf(e.Keyword, rule, "assertion %s failed", PrintSExp(e.Cond))
	}
	return []semantics.Array{semantics.Scalar(1)}, nil
}

// ext evaluates a statement of an extension form with a body (E-LOOP,
// E-REDUCE, E-SCAN, E-FILTER), reporting whether s is one. Each
// iteration's body derivation is a premise of the form's node.
func (ev *evaluator) ext(env *Env, s *Stm, concl func([]semantics.Array) func() string) ([]semantics.Array, *semantics.Derivation, bool, error) {
	var prem []*semantics.Derivation
	run := func(env *Env, b *Body) ([]semantics.Array, error) {
		vs, d, err := ev.body(env, b)
		if err == nil && ev.opts.Derive {
			prem = append(prem, d)
		}
		return vs, err
	}
	switch e := s.Exp.(type) {
	case *LoopExp:
		m, vals, err := loopStart(env, e)
		if err != nil {
			return nil, nil, true, err
		}
		for i := int64(1); i <= m; i++ {
			vs, err := run(loopEnv(env, e, i, vals), e.Body)
			if err != nil {
				return nil, nil, true, err
			}
			if err := loopNext(e, vs); err != nil {
				return nil, nil, true, err
			}
			vals = vs
		}
		return vals, ev.node(ELoop.Name, concl(vals), prem...), true, nil
	case *ReduceExp:
		rule := EReduce.Name
		xs, n, acc, from, err := foldStart(env, rule, e.Ne, e.Arr, true)
		if err != nil {
			return nil, nil, true, err
		}
		for i := from; i <= n; i++ {
			vs, err := run(foldEnv(env, e.Params, acc, row(xs, i)), e.Body)
			if err != nil {
				return nil, nil, true, err
			}
			if acc, err = foldNext(rule, e.Body, vs); err != nil {
				return nil, nil, true, err
			}
		}
		out := []semantics.Array{acc}
		return out, ev.node(rule, concl(out), prem...), true, nil
	case *ScanExp:
		rule := EScan.Name
		xs, n, acc, from, err := foldStart(env, rule, e.Ne, e.Arr, false)
		if err != nil {
			return nil, nil, true, err
		}
		items := make([]semantics.Array, 0, min(n, 1<<20))
		for i := from; i <= n; i++ {
			vs, err := run(foldEnv(env, e.Params, acc, row(xs, i)), e.Body)
			if err != nil {
				return nil, nil, true, err
			}
			next, err := foldNext(rule, e.Body, vs)
			if err != nil {
				return nil, nil, true, err
			}
			items = append(items, scanItem(acc, next))
			acc = next
		}
		v, err := stackRows(s, rule, xs, items)
		if err != nil {
			return nil, nil, true, err
		}
		out := []semantics.Array{v}
		return out, ev.node(rule, concl(out), prem...), true, nil
	case *FilterExp:
		xs, err := filterStart(env, e)
		if err != nil {
			return nil, nil, true, err
		}
		var kept []semantics.Array
		for i := int64(1); i <= xs.Shape[0]; i++ {
			x := row(xs, i)
			vs, err := run(filterEnv(env, e, x), e.Body)
			if err != nil {
				return nil, nil, true, err
			}
			keep, err := keepRow(e, vs)
			if err != nil {
				return nil, nil, true, err
			}
			if keep {
				kept = append(kept, x)
			}
		}
		out, err := filterFinish(s, xs, kept)
		if err != nil {
			return nil, nil, true, err
		}
		return out, ev.node(EFilter.Name, concl(out), prem...), true, nil
	}
	return nil, nil, false, nil
}
