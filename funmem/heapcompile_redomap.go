package funmem

import "github.com/arraysem/arraysem/fun"

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
			vs, err := m.walk.stm(slotVars{fr, sc}.env(), s)
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
	return func(m *heapMachine, fr []Value) error {
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
