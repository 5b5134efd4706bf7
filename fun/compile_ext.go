package fun

import "github.com/arraysem/arraysem/semantics"

// The extension forms compiled (compile.go): E-LOOP, E-REDUCE, E-SCAN,
// E-FILTER and E-ASSERT, each with the start, checks and mutation points
// it shares with the small-step (eval_ext.go). An iteration binds its
// variables by writing their slots; each iteration's body derivation is a
// premise of the form's node.

// rowVal is row i (1-based) of the array xs, unboxed: what row gives.
func rowVal(xs semantics.Array, i int64) val {
	if len(xs.Shape) == 1 {
		return val{elem: xs.Elem, bits: xs.Data[i-1]}
	}
	return valOf(row(xs, i))
}

// eAssert is E-ASSERT: 1 when se is not 0, else stuck with the message.
func (c *compiler) eAssert(sc *scope, s *Stm, e *AssertExp, out []int) code {
	se := c.sexp(sc, e.Cond)
	var ops int64
	if c.stats {
		ops = 1 + SExpOps(e.Cond)
	}
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		k, err := evalSExp(se, e.Cond, fr, sc, EAssert.Name)
		if err != nil {
			return nil, err
		}
		if err := assertHolds(e, k); err != nil {
			return nil, err
		}
		if m.stats != nil {
			m.stats.Ops += ops // the check and the condition's operators
		}
		fr[out[0]] = intVal(1)
		if m.plain {
			return nil, nil
		}
		return m.node(EAssert.Name, conclusion(s, fr, out)), nil
	}
}

// eLoop is E-LOOP: the body for i = 1, …, E(t) in order, each iteration's
// results the next values of the parameters (bound, then i, in the
// body's scope).
func (c *compiler) eLoop(sc *scope, s *Stm, e *LoopExp, out []int) (code, int) {
	bsc := sc
	params := make([]int, len(e.Params))
	for j, y := range e.Params {
		params[j] = c.newSlot()
		bsc = bsc.bind(y.Name.Name, params[j])
	}
	iv := c.newSlot()
	lb := c.lazy(bsc.bind(e.Var.Name, iv), e.Body)
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		n, init, err := loopStart(slotVars{fr, sc}, e)
		if err != nil {
			return nil, err
		}
		var body *bodyCode
		if n > 0 {
			body = lb.get(n)
		}
		vals := make([]val, len(init))
		for j, v := range init {
			vals[j] = valOf(v)
		}
		var prem []*semantics.Derivation
		for i := int64(1); i <= n; i++ {
			if err := m.spend(1, e, ELoop.Name); err != nil {
				return nil, err
			}
			for j, p := range params {
				fr[p] = vals[j]
			}
			fr[iv] = intVal(i)
			d, err := body.run(m, fr)
			if err != nil {
				return nil, err
			}
			if err := loopArity(e, len(body.results)); err != nil {
				return nil, err
			}
			for j, r := range body.results {
				vals[j] = fr[r]
			}
			if m.derive {
				prem = append(prem, d)
			}
		}
		for j, o := range out {
			fr[o] = vals[j]
		}
		if m.plain {
			return nil, nil
		}
		return m.node(ELoop.Name, conclusion(s, fr, out), prem...), nil
	}, lb.weight
}

// fold compiles the operator of a reduce or scan: its parameters a and b
// (b shadowing a when they share a name) in fresh slots, and its body
// (when first run).
func (c *compiler) fold(sc *scope, ps []*Param, b *Body) (a, x int, body *lazyBody) {
	a, x = c.newSlot(), c.newSlot()
	for i, p := range ps[:min(len(ps), 2)] { // the parser gives two
		sc = sc.bind(p.Name.Name, []int{a, x}[i])
	}
	return a, x, c.lazy(sc, b)
}

// eReduce is E-REDUCE: the left fold ((z ⊕ x1) ⊕ x2) … ⊕ xn.
func (c *compiler) eReduce(sc *scope, s *Stm, e *ReduceExp, out []int) (code, int) {
	rule := EReduce.Name
	a, x, lb := c.fold(sc, e.Params, e.Body)
	step := c.intStep(e.Params, e.Body) // compile_scalar.go
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		xs, n, z, from, err := foldStart(slotVars{fr, sc}, rule, e.Ne, e.Arr, true)
		if err == nil {
			err = m.spend(n-from+1, e, rule)
		}
		if err != nil {
			return nil, err
		}
		if m.stats != nil {
			launch(m.stats, m.depth)
			m.depth++
		}
		acc := valOf(z)
		fast := step != nil && m.plain && m.stats == nil
		var prem []*semantics.Derivation
		var body *bodyCode // compiled when an element first needs it
		for i := from; i <= n; i++ {
			f := rowVal(xs, i)
			if fast && acc.isInt() && f.isInt() {
				if k, ok := step(acc.bits, f.bits); ok {
					acc = intVal(k)
					continue
				}
			}
			if body == nil {
				body = lb.get(n - from + 1)
			}
			fr[a], fr[x] = acc, f
			d, err := body.run(m, fr)
			if err != nil {
				return nil, err
			}
			if err := foldArity(rule, e.Body, len(body.results)); err != nil {
				return nil, err
			}
			acc = fr[body.results[0]]
			if m.derive {
				prem = append(prem, d)
			}
		}
		if m.stats != nil { // the rows read
			m.stats.Ops += (n - from + 1) * elems(xs.Shape[1:])
			m.depth--
		}
		fr[out[0]] = acc
		if m.plain {
			return nil, nil
		}
		return m.node(rule, conclusion(s, fr, out), prem...), nil
	}, lb.weight
}

// eScan is E-SCAN: the inclusive left scan, row i z ⊕ x1 ⊕ … ⊕ xi,
// stacked as rows of xs's row shape.
func (c *compiler) eScan(sc *scope, s *Stm, e *ScanExp, out []int) (code, int) {
	rule := EScan.Name
	a, x, lb := c.fold(sc, e.Params, e.Body)
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		xs, n, z, from, err := foldStart(slotVars{fr, sc}, rule, e.Ne, e.Arr, false)
		if err == nil {
			err = m.spend(n-from+1, e, rule)
		}
		if err != nil {
			return nil, err
		}
		var body *bodyCode
		if n >= from {
			body = lb.get(n - from + 1)
		}
		acc := valOf(z)
		st, mis := newStacker(xs.Elem, n-from+1, xs.Shape[1:]), noMisfit()
		words := (n - from + 1) * elems(xs.Shape[1:])
		if m.stats != nil { // a launch, making its array
			launch(m.stats, m.depth)
			m.stats.Alloc(words)
			m.depth++
		}
		var prem []*semantics.Derivation
		for i := from; i <= n; i++ {
			fr[a], fr[x] = acc, rowVal(xs, i)
			d, err := body.run(m, fr)
			if err != nil {
				return nil, err
			}
			if err := foldArity(rule, e.Body, len(body.results)); err != nil {
				return nil, err
			}
			next := fr[body.results[0]]
			if item := scanItem(acc, next); !st.put(i-from, &item) {
				mis.note(i-from, &item)
			}
			acc = next
			if m.derive {
				prem = append(prem, d)
			}
		}
		v, err := st.finish(&mis)
		if err != nil {
			return nil, rowsStuck(s, rule, err)
		}
		if m.stats != nil { // the rows read, and written
			m.stats.Ops += 2 * words
			m.depth--
		}
		fr[out[0]] = v
		if m.plain {
			return nil, nil
		}
		return m.node(rule, conclusion(s, fr, out), prem...), nil
	}, lb.weight
}

// eFilter is E-FILTER: the rows of xs for which the body gives an int
// other than 0, in order, and their number.
func (c *compiler) eFilter(sc *scope, s *Stm, e *FilterExp, out []int) (code, int) {
	x, bsc := c.newSlot(), sc
	for _, p := range e.Params[:min(len(e.Params), 1)] { // the parser gives one
		bsc = bsc.bind(p.Name.Name, x)
	}
	lb := c.lazy(bsc, e.Body)
	return func(m *machine, fr []val) (*semantics.Derivation, error) {
		xs, err := filterStart(slotVars{fr, sc}, e)
		if err == nil {
			err = m.spend(xs.Shape[0], e, EFilter.Name)
		}
		if err != nil {
			return nil, err
		}
		var body *bodyCode
		if xs.Shape[0] > 0 {
			body = lb.get(xs.Shape[0])
		}
		if m.stats != nil {
			launch(m.stats, m.depth)
			m.depth++
		}
		// The kept rows' words, in order: what filterFinish stacks (rows
		// of one array all have its row shape), without a value per row.
		cell := int64(1)
		for _, d := range xs.Shape[1:] {
			cell *= d
		}
		data, k := []int64{}, int64(0)
		var prem []*semantics.Derivation
		for i := int64(1); i <= xs.Shape[0]; i++ {
			fr[x] = rowVal(xs, i)
			d, err := body.run(m, fr)
			if err != nil {
				return nil, err
			}
			var keep bool
			if rs := body.results; len(rs) == 1 && fr[rs[0]].isInt() {
				keep = keepInt(fr[rs[0]].bits)
			} else if keep, err = keepRow(e, body.values(fr)); err != nil {
				return nil, err
			}
			if keep {
				data = append(data, xs.Data[(i-1)*cell:i*cell]...)
				k++
			}
			if m.derive {
				prem = append(prem, d)
			}
		}
		vs := []semantics.Array{semantics.Scalar(k), {Elem: xs.Elem, Shape: append([]int64{k}, xs.Shape[1:]...), Data: data}}
		if m.stats != nil {
			filterCosts(m.stats, xs, vs[1])
			m.depth--
		}
		fr[out[0]], fr[out[1]] = valOf(vs[0]), valOf(vs[1])
		if m.plain {
			return nil, nil
		}
		return m.node(EFilter.Name, conclusion(s, fr, out), prem...), nil
	}, lb.weight
}
