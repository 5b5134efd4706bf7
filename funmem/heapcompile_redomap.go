package funmem

import (
	"sync/atomic"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// hRedomap is E-MEM-REDOMAP and E-MEM-SCANOMAP compiled (heapcompile.go):
// the ext's steps (heap_redomap.go) with the map body compiled in the
// scope of its index and the operator body in that of the parameters.
// enter binds the index or the parameters into their slots, and returns
// the body to run. A redomap whose operands' support groups do not bind
// every parameter (which the checker refuses) runs by the tree walker.
func (c *hcompiler) hRedomap(sc *hscope, s *fun.Stm, e *fun.RedomapExp, out []int) hcode {
	names, ok := extBound(&fun.ReduceExp{Params: e.Params})
	if !ok {
		return func(m *heapMachine, fr []Value) error {
			vs, _, err := m.walk.stm(slotVars{fr, sc}.env(), s)
			if err != nil {
				return err
			}
			return bindOut(s, vs, fr, out)
		}
	}
	iv := c.newSlot()
	lmap := c.lazy(sc.bind(e.Var.Name, iv), e.Map)
	inner, slots := c.bindAll(sc, names)
	lop := c.lazy(inner, e.Op)
	// The bodies are compiled when the statement first runs (lazyBody).
	var mapBody, opBody *hbody
	var scalar bool
	return func(m *heapMachine, fr []Value) error {
		if mapBody == nil {
			mapBody, opBody = lmap.get(2), lop.get(2) // compiled before the form starts: as if they iterate
			scalar = scalarRedomap(e, mapBody, opBody)
		}
		if scalar && m.plainScalarFolds() {
			if ran, err := m.scalarRedomap(sc, s, e, fr, out, iv, slots, mapBody, opBody); ran {
				return err
			}
		}
		x, err := startExtPool(slotVars{fr, sc}, m.h, s, m.trace, &m.pool)
		if err != nil {
			return err
		}
		if m.stats != nil {
			launch(m.stats, m.depth)
			m.depth++
		}
		mapping := true // whether the next body to run is the map's
		bind := func(name string, v Value) {
			if mapping {
				fr[iv] = v
				return
			}
			for i, x := range names {
				if x == name {
					fr[slots[i]] = v
				}
			}
		}
		// leave keeps the map's value (a copy) and the operator's results,
		// the accumulator, until the next operator step: that one writes
		// the other buffer.
		mapVals := make([]Value, len(mapBody.results))
		var opVals [2][]Value
		for !x.done() {
			mapping = x.mapping
			err := x.spend(m.opts.Budget)
			if err == nil {
				_, err = x.enterWith(m.h, bind)
			}
			body, vs := mapBody, mapVals
			if !mapping {
				body, vs = opBody, turnBuf(&opVals, x.i, len(opBody.results))
			}
			if err := runStep(m, x, body, fr, vs, err); err != nil { // heapcompile.go
				return err
			}
		}
		vs, err := x.finish(m.h, m.opts)
		if err != nil {
			return err
		}
		if m.stats != nil {
			m.depth--
		}
		return bindOut(s, vs, fr, out)
	}
}

// A redomap whose map and operator bodies write nothing to the heap
// (writeFree: reads, branches, loops and folds that write nothing) and
// whose accumulator is one scalar runs, in a plain run, as a loop over the
// elements; so does a reduce over the rows of an int or float array whose
// operator body is so and whose parameters are scalars, and a scan or a
// filter whose writes (its destination's rows) no element reads. A race
// needs a write, so the trackers of E-MEM-REDOMAP, E-MEM-REDUCE,
// E-MEM-SCAN and E-MEM-FILTER (the elements' kernel, each combine's own)
// could never report one, and are not pushed: their records (tens of
// bytes per element read) were most of a fold's time and, over an input
// of 10^7 elements, hundreds of MB. The reads themselves are the same,
// each still recorded by the trackers of the enclosing kernels, if any.
// Values and errors are the rules' (the bodies' code is the same);
// HeapOptions.NoScalarFolds switches the loops off, and
// TestScalarRedomapAgrees and TestWriteFreeFoldsAgree compare them with
// the steps and with the rules.

// scalarRedomapRuns, scalarReduceRuns, scalarScanRuns and
// scalarFilterRuns count the folds run as loops, so that the tests can
// tell that they compared them.
var scalarRedomapRuns, scalarReduceRuns, scalarScanRuns, scalarFilterRuns atomic.Int64

// writeFree reports whether body b writes nothing to the heap: each of
// its statements, at any depth, a scalar expression, an index (a read, or
// an array's row by reference), a slice, a transpose, an assertion, or an
// if, a loop, a reduce or a redomap (not a scanomap) whose bodies are so.
// (These forms write nothing themselves: heaprace.go's condition 1.)
func writeFree(b *fun.Body) bool {
	for _, st := range b.Stms {
		switch e := st.Exp.(type) {
		case *fun.ScalarExp, *fun.IndexExp, *fun.SliceExp, *fun.TransposeExp, *fun.AssertExp:
		case *fun.IfExp:
			if !writeFree(e.Then) || !writeFree(e.Else) {
				return false
			}
		case *fun.LoopExp:
			if !writeFree(e.Body) {
				return false
			}
		case *fun.ReduceExp:
			if !writeFree(e.Body) {
				return false
			}
		case *fun.RedomapExp:
			if e.Scan || !writeFree(e.Map) || !writeFree(e.Op) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// scalarRedomap reports whether e may run as a plain loop: a scanomap
// too when, as it starts, its destination's rows are disjoint and in a
// block no array in scope lives in (so no map body reads them).
func scalarRedomap(e *fun.RedomapExp, mapBody, opBody *hbody) bool {
	if len(e.Params) != 2 || len(mapBody.results) != 1 || len(opBody.results) != 1 {
		return false
	}
	for _, g := range Groups(e.Params) {
		if g.IsArray() {
			return false
		}
	}
	return writeFree(e.Map) && writeFree(e.Op)
}

// scalarReduce reports whether e is a reduce that may run as a plain
// loop: two scalar parameters (so each is a name of its own, bound
// directly), one result, an operator body that writes nothing. Whether
// the array's rows are scalars is known when it starts.
func scalarReduce(e fun.Exp, body *hbody) bool {
	r, ok := e.(*fun.ReduceExp)
	return ok && scalarOperator(r.Params, r.Body, body)
}

// scalarScan is scalarReduce for a scan. When it starts, its rows and its
// destination's must be scalars, the destination's rows disjoint and its
// block not the array's: then the only writes, row i of the destination
// by element i, touch no location another element reads or writes.
func scalarScan(e fun.Exp, body *hbody) bool {
	r, ok := e.(*fun.ScanExp)
	return ok && scalarOperator(r.Params, r.Body, body)
}

// scalarOperator reports whether a fold's operator has two scalar
// parameters, one result and a body b (compiled as body) that writes
// nothing.
func scalarOperator(ps []*fun.Param, b *fun.Body, body *hbody) bool {
	if len(ps) != 2 || len(body.results) != 1 {
		return false
	}
	for _, g := range Groups(ps) {
		if g.IsArray() {
			return false
		}
	}
	return writeFree(b)
}

// scalarReduce runs statement s, a reduce that scalarReduce accepts, as a
// loop: row i of xs read (as E-MEM-REDUCE's element i reads it), then the
// combine, in order. ran is false, and nothing has happened, when the
// array's rows are arrays (which the checker refuses for scalar
// parameters): the rules' steps run it then.
func (m *heapMachine) scalarReduce(sc *hscope, s *fun.Stm, fr []Value, out []int, names []string, slots []int, body *hbody) (ran bool, err error) {
	e := s.Exp.(*fun.ReduceExp)
	x := &ext{s: s, i: 1}
	if err := x.foldOperands(slotVars{fr, sc}, EMemReduce.Name, e.Ne, e.Arr); err != nil {
		return true, err
	}
	if x.xs.L.Rank() != 1 {
		return false, nil
	}
	end, err := m.plainStart(s, x, &scalarReduceRuns)
	if err != nil {
		return true, err
	}
	defer end()
	acc, err := m.combineRows(x, e.Params, fr, names, slots, body, nil)
	if err != nil {
		return true, err
	}
	vs, err := patternValues(s.Pat, []Value{acc}, x.rule)
	if err != nil {
		return true, err
	}
	return true, bindOut(s, vs, fr, out)
}

// scalarScan runs statement s, a scan that scalarScan accepts, as a loop:
// row i of xs read, the combine, then row i of the destination written,
// in order, as E-MEM-SCAN's steps do them. ran is false, and nothing has
// happened, when the conditions that make the loop race free do not hold
// (scalarScan): the rules' steps run it then.
func (m *heapMachine) scalarScan(sc *hscope, s *fun.Stm, fr []Value, out []int, names []string, slots []int, body *hbody) (ran bool, err error) {
	e := s.Exp.(*fun.ScanExp)
	env := slotVars{fr, sc}
	x := &ext{s: s, i: 1}
	if err := x.foldOperands(env, EMemScan.Name, e.Ne, e.Arr); err != nil {
		return true, err
	}
	dest, err := destination(env, s, x.rule)
	if err == nil && (dest.L.Rank() == 0 || dest.L.Dims[0].Elems != x.n) {
		err = semantics.Stuckf(s.Pat[0].Lparen, x.rule, "the destination %v does not have %d rows", dest.L, x.n)
	}
	if err != nil {
		return true, err
	}
	if x.xs.L.Rank() != 1 || dest.L.Rank() != 1 || x.xs.Block == dest.Block || !disjointRows(dest.L) {
		return false, nil
	}
	x.dest = dest
	end, err := m.plainStart(s, x, &scalarScanRuns)
	if err != nil {
		return true, err
	}
	defer end()
	// Row i is the accumulator, as ext.leave stores it (its mutants too).
	_, err = m.combineRows(x, e.Params, fr, names, slots, body, func(i int64, before, acc Value) error {
		item, row := acc, i
		if mutant.On("funmem-scan-exclusive") {
			item = before
		}
		if mutant.On("funmem-scan-row") && i > 1 {
			row = i - 1
		}
		return x.store(m.h, row, item)
	})
	if err != nil {
		return true, err
	}
	return true, bindOut(s, []Value{x.dest}, fr, out)
}

// scalarFilter reports whether e is a filter that may run as a plain
// loop: one scalar parameter, one result, a body that writes nothing.
// When it starts, its rows must be scalars, and the block its pattern
// names must not be the array's nor hold any array in scope, so that
// nothing the bodies read is written by the copies of the kept rows.
func scalarFilter(e fun.Exp, body *hbody) bool {
	f, ok := e.(*fun.FilterExp)
	if !ok || len(f.Params) != 1 || len(body.results) != 1 {
		return false
	}
	for _, g := range Groups(f.Params) {
		if g.IsArray() {
			return false
		}
	}
	return writeFree(f.Body)
}

// scalarFilter runs statement s, a filter that scalarFilter accepts, as a
// loop: row i of xs read, the body, in order; then the kept rows copied
// to the destination (ext.filterCopy), under a tracker of their own only
// when the destination's rows may overlap, the one way the copies can
// race then. ran is false, and nothing has happened, when the conditions
// do not hold: the rules' steps run it then.
func (m *heapMachine) scalarFilter(sc *hscope, s *fun.Stm, fr []Value, out []int, names []string, slots []int, body *hbody) (ran bool, err error) {
	e := s.Exp.(*fun.FilterExp)
	env := slotVars{fr, sc}
	x := &ext{s: s, i: 1, vars: env}
	if err := x.foldOperands(env, EMemFilter.Name, nil, e.Arr); err != nil {
		return true, err
	}
	if x.xs.L.Rank() != 1 || len(s.Pat) != 2 {
		return false, nil
	}
	a := ArrayOf(s.Pat[1].Type)
	if a == nil || a.Block.Name == s.Pat[0].Name.Name {
		return false, nil
	}
	if b, ok := env.Lookup(a.Block.Name); !ok || b.Kind != BlockVal || b.Block == x.xs.Block || !noArrayIn(fr, sc, b.Block) {
		return false, nil
	}
	end, err := m.plainStart(s, x, &scalarFilterRuns)
	if err != nil {
		return true, err
	}
	defer end()
	bind, p := binder(fr, names, slots), e.Params[0].Name.Name
	for i := int64(1); i <= x.n; i++ {
		elem, err := x.row(m.h, i)
		if err != nil {
			return true, err
		}
		bind(p, elem)
		if err := body.run(m, fr); err != nil {
			return true, err
		}
		// As ext.leave reads a filter body's result.
		if v := fr[body.results[0]]; v.Kind != IntVal || v.Elem != semantics.IntElem {
			return true, semantics.Stuckf(e.Body.In, x.rule, "a filter body returns one int, not %s", ValuesString([]Value{v}))
		} else if v.K != 0 {
			x.kept = append(x.kept, i)
		}
	}
	kv, err := x.filterDest(e)
	if err != nil {
		return true, err
	}
	if !disjointRows(x.dest.L) {
		x.t = m.pool.get(false)
		m.h.Push(x.t)
	}
	err = x.filterCopy(m.h, e)
	if x.t != nil {
		m.h.Pop()
		m.pool.put(x.t)
	}
	if err != nil {
		return true, err
	}
	return true, bindOut(s, []Value{kv, x.dest}, fr, out)
}

// combineRows folds the rows of x.xs, starting from the accumulator
// x.vals[0], as a reduce's or a scan's elements do: row i read, then the
// operator body with the parameters ps bound to the accumulator and the
// row; after, when not nil, is called with each element's index and the
// accumulator before and after it. It returns the last accumulator.
func (m *heapMachine) combineRows(x *ext, ps []*fun.Param, fr []Value, names []string, slots []int, body *hbody, after func(i int64, before, acc Value) error) (Value, error) {
	bind := binder(fr, names, slots)
	a, b := ps[0].Name.Name, ps[1].Name.Name
	acc := x.vals[0]
	for i := int64(1); i <= x.n; i++ {
		elem, err := x.row(m.h, i)
		if err != nil {
			return Value{}, err
		}
		bind(a, acc)
		bind(b, elem)
		if err := body.run(m, fr); err != nil {
			return Value{}, err
		}
		before := acc
		acc = fr[body.results[0]]
		if after != nil {
			if err := after(i, before, acc); err != nil {
				return Value{}, err
			}
		}
	}
	return acc, nil
}

// plainStart is what a plain loop does as it starts, as the steps do it:
// the fold's iterations charged at its first step (ext.spend), and its
// launch for the cost counters (end undoes the depth). runs counts it.
func (m *heapMachine) plainStart(s *fun.Stm, x *ext, runs *atomic.Int64) (end func(), err error) {
	if x.n > 0 {
		if err := m.opts.Budget.Spend(x.n, s.Exp.Pos(), x.rule); err != nil {
			return nil, err
		}
	}
	runs.Add(1)
	if m.stats == nil {
		return func() {}, nil
	}
	launch(m.stats, m.depth)
	m.depth++
	return func() { m.depth-- }, nil
}

// binder binds a parameter into its slots as the steps' enter does: a
// name given twice takes the last binding.
func binder(fr []Value, names []string, slots []int) func(name string, v Value) {
	return func(name string, v Value) {
		for i, y := range names {
			if y == name {
				fr[slots[i]] = v
			}
		}
	}
}

// plainScalarFolds reports whether this run may take the scalar loops: no
// trace or rule counts to keep, and the option not off. The cost
// counters are kept: the loop runs the same bodies, which count their
// operations, and counts the form's launch as the steps do.
func (m *heapMachine) plainScalarFolds() bool {
	return !m.trace && m.opts.Counter == nil && !m.opts.NoScalarFolds
}

// scalarRedomap runs statement s, a redomap that scalarRedomap accepts,
// as a loop: element i's map body, then its combine, in order.
func (m *heapMachine) scalarRedomap(sc *hscope, s *fun.Stm, e *fun.RedomapExp, fr []Value, out []int, iv int, slots []int, mapBody, opBody *hbody) (ran bool, err error) {
	env := slotVars{fr, sc}
	x := &ext{s: s, rule: redomapRule(e)}
	n, err := lookupInt(env, e.Bound, x.rule)
	if err != nil {
		return true, err
	}
	if n < 0 {
		return true, semantics.Stuckf(e.Bound.NamePos, x.rule, "%s bound %s = %d is negative", fun.RedomapWord(e), e.Bound.Name, n)
	}
	acc, ok := env.Lookup(e.Ne.Name)
	if !ok {
		return true, semantics.Stuckf(e.Ne.NamePos, x.rule, "variable %s is unbound", e.Ne.Name)
	}
	x.n = n
	if e.Scan { // as startRedomap finds the destination
		dest, err := destination(env, s, x.rule)
		if err == nil && (dest.L.Rank() == 0 || dest.L.Dims[0].Elems != n) {
			err = semantics.Stuckf(s.Pat[0].Lparen, x.rule, "the destination %v does not have %d rows", dest.L, n)
		}
		if err != nil {
			return true, err
		}
		if dest.L.Rank() != 1 || !disjointRows(dest.L) || !noArrayIn(fr, sc, dest.Block) {
			return false, nil
		}
		x.dest = dest
	}
	end, err := m.plainStart(s, x, &scalarRedomapRuns)
	if err != nil {
		return true, err
	}
	defer end()
	for i := int64(1); i <= n; i++ {
		fr[iv] = Value{Kind: IntVal, K: i}
		if err := mapBody.run(m, fr); err != nil {
			return true, err
		}
		fr[slots[0]], fr[slots[1]] = acc, fr[mapBody.results[0]]
		if err := opBody.run(m, fr); err != nil {
			return true, err
		}
		acc = fr[opBody.results[0]]
		if e.Scan { // row i, traced as element i's by the steps
			if err := x.store(m.h, i, acc); err != nil {
				return true, err
			}
		}
	}
	if e.Scan {
		return true, bindOut(s, []Value{x.dest}, fr, out)
	}
	return true, bindOut(s, []Value{acc}, fr, out)
}
