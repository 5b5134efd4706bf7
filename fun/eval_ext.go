package fun

import (
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The rules of the extension forms, E-LOOP, E-REDUCE, E-SCAN, E-FILTER
// and E-ASSERT, as the helpers the compiled big-step (compile_ext.go) and
// the small-step machine (step_ext.go) share: the start of each form, the
// environment of an iteration, the reading of an iteration's results and
// the final value. Sharing them keeps big = small, stuck states included,
// and puts each mutation point (mutants.go) in one place for both
// semantics.

// loopStart is E-LOOP's start: the bound m = E(t), which may not be
// negative, and the initial values E(x1), …, E(xn).
func loopStart(env vars, e *LoopExp) (int64, []semantics.Array, error) {
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
			return 0, nil, unbound(x, rule)
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
func loopNext(e *LoopExp, vs []semantics.Array) error { return loopArity(e, len(vs)) }

// loopArity is E-LOOP stuck on a body that returns n values, not one per
// parameter.
func loopArity(e *LoopExp, n int) error {
	if n != len(e.Params) {
		return semantics.Stuckf(e.Body.In, ELoop.Name, "a loop body returns %d values for %d parameters", n, len(e.Params))
	}
	return nil
}

// foldStart is the start of E-REDUCE and E-SCAN: the array xs = E(x),
// its number of rows n, the accumulator's start E(z), and the first row
// to combine with it.
func foldStart(env vars, rule string, ne, arr *Ident, reduce bool) (xs semantics.Array, n int64, acc semantics.Array, from int64, err error) {
	xs, err = lookupArray(env, arr, rule)
	if err != nil {
		return
	}
	z, ok := env.Lookup(ne.Name)
	if !ok {
		err = unbound(ne, rule)
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
	if err := foldArity(rule, b, len(vs)); err != nil {
		return semantics.Array{}, err
	}
	return vs[0], nil
}

// foldArity is rule (E-REDUCE, E-SCAN) stuck on an operator body that
// returns n values, not one.
func foldArity(rule string, b *Body, n int) error {
	if n != 1 {
		return semantics.Stuckf(b.In, rule, "an operator body returns one value, not %d", n)
	}
	return nil
}

// scanItem is the row of a scan's result an iteration gives: the
// accumulator after it (the scan is inclusive). It is generic so that the
// small-step's arrays and the compiled big-step's slot values share it.
func scanItem[V any](before, after V) V {
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
		return semantics.Array{}, rowsStuck(s, rule, err)
	}
	return v, nil
}

// rowsStuck is rule (E-SCAN, E-FILTER) stuck on rows that do not stack
// (err is semantics.StackOf's).
func rowsStuck(s *Stm, rule string, err error) error {
	return semantics.Stuckf(patPos(s), rule, "%v", err)
}

// filterStart is the start of E-FILTER: the array xs = E(x).
func filterStart(env vars, e *FilterExp) (semantics.Array, error) {
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
	return keepInt(vs[0].Int()), nil
}

// keepInt is keepRow's verdict on a body that returned the int k (the
// compiled big-step, which holds k unboxed, calls it directly).
func keepInt(k int64) bool {
	if mutant.On("filter-keeps-rejected") { // mutant: every row is kept
		return true
	}
	return k != 0
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
func evalAssert(env vars, e *AssertExp) ([]semantics.Array, error) {
	v, err := EvalNum(e.Cond, numLookup(env), EAssert.Name)
	if err != nil {
		return nil, err
	}
	if err := assertHolds(e, v); err != nil {
		return nil, err
	}
	return []semantics.Array{semantics.Scalar(1)}, nil
}

// assertHolds is E-ASSERT's test of the condition's value v: nil when it
// is an int other than 0, else the stuck state.
func assertHolds(e *AssertExp, v semantics.Num) error {
	rule := EAssert.Name
	if v.Elem != semantics.IntElem {
		return semantics.Stuckf(e.Cond.Pos(), rule, "the condition %s is the float %s, not an int", PrintSExp(e.Cond), v)
	}
	if v.Int() == 0 {
		if e.HasMsg {
			return semantics.Stuckf(e.Keyword, rule, "assertion %s failed: %s", PrintSExp(e.Cond), e.Msg)
		}
		return semantics.Stuckf(e.Keyword, rule, "assertion %s failed", PrintSExp(e.Cond))
	}
	return nil
}
