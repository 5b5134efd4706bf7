package funmem

import (
	"sync/atomic"

	"github.com/arraysem/arraysem/fun"
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
	mapBody := c.body(sc.bind(e.Var.Name, iv), e.Map)
	inner := sc
	slots := make([]int, len(names))
	for i, x := range names {
		slots[i] = c.newSlot()
		inner = inner.bind(x, slots[i])
	}
	opBody := c.body(inner, e.Op)
	scalar := scalarRedomap(e, mapBody, opBody)
	return func(m *heapMachine, fr []Value) error {
		if scalar && m.plainScalarFolds() {
			return m.scalarRedomap(sc, s, e, fr, out, iv, slots, mapBody, opBody)
		}
		x, err := startExtPool(slotVars{fr, sc}.env(), m.h, s, m.trace, &m.pool)
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

// A redomap whose map and operator bodies compute scalars only (no heap
// access: every statement a scalar expression) and whose accumulator is
// one scalar runs, in a plain run, as a loop over the elements: its
// iterations can neither read nor write the heap, so the trackers of
// E-MEM-REDOMAP (the map bodies' kernel, each combine's own) can see no
// race and are not pushed. Values and errors are the rules' (the bodies'
// code is the same); HeapOptions.NoScalarFolds switches it off, and
// TestScalarRedomapAgrees compares the two.

// scalarRedomapRuns counts the redomaps run as the loop, so that the
// tests can tell that they compared it.
var scalarRedomapRuns atomic.Int64

// scalarRedomap reports whether e may run as a plain loop.
func scalarRedomap(e *fun.RedomapExp, mapBody, opBody *hbody) bool {
	if e.Scan || len(e.Params) != 2 || len(mapBody.results) != 1 || len(opBody.results) != 1 {
		return false
	}
	for _, g := range Groups(e.Params) {
		if g.IsArray() {
			return false
		}
	}
	for _, b := range []*fun.Body{e.Map, e.Op} {
		for _, st := range b.Stms {
			if _, ok := st.Exp.(*fun.ScalarExp); !ok {
				return false
			}
		}
	}
	return true
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
func (m *heapMachine) scalarRedomap(sc *hscope, s *fun.Stm, e *fun.RedomapExp, fr []Value, out []int, iv int, slots []int, mapBody, opBody *hbody) error {
	env := slotVars{fr, sc}.env()
	rule := redomapRule(e)
	n, err := lookupInt(env, e.Bound, rule)
	if err != nil {
		return err
	}
	if n < 0 {
		return semantics.Stuckf(e.Bound.NamePos, rule, "%s bound %s = %d is negative", fun.RedomapWord(e), e.Bound.Name, n)
	}
	acc, ok := env.Lookup(e.Ne.Name)
	if !ok {
		return semantics.Stuckf(e.Ne.NamePos, rule, "variable %s is unbound", e.Ne.Name)
	}
	if n > 0 { // the fold's iterations, charged at its first step (ext.spend)
		if err := m.opts.Budget.Spend(n, s.Exp.Pos(), rule); err != nil {
			return err
		}
	}
	scalarRedomapRuns.Add(1)
	if m.stats != nil {
		launch(m.stats, m.depth)
		m.depth++
		defer func() { m.depth-- }()
	}
	for i := int64(1); i <= n; i++ {
		fr[iv] = Value{Kind: IntVal, K: i}
		if err := mapBody.run(m, fr); err != nil {
			return err
		}
		fr[slots[0]], fr[slots[1]] = acc, fr[mapBody.results[0]]
		if err := opBody.run(m, fr); err != nil {
			return err
		}
		acc = fr[opBody.results[0]]
	}
	return bindOut(s, []Value{acc}, fr, out)
}
