package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// E-MEM-REDOMAP and E-MEM-SCANOMAP, as steps of an ext (heap_ext.go),
// shared by the big- and small-step. Element i takes two iterations of
// the ext: its map body, with i bound, run in the fold's tracker as
// iteration i (the map bodies are a kernel's threads: no element may
// write what another reads or writes); then its combine, with a bound to
// the accumulator and b to the map body's value (each an array with its
// support), outside that tracker, in order, writing only blocks it
// allocates itself, as a reduce's. A scanomap then writes the
// accumulator as row i of its destination, traced as element i's. As in
// FUN (E-REDOMAP), element i's map body runs just before its combine.

// redomapRule is the rule of a redomap or scanomap.
func redomapRule(e *fun.RedomapExp) string {
	if e.Scan {
		return EMemScanomap.Name
	}
	return EMemRedomap.Name
}

// startRedomap is the start of a redomap or scanomap: its number of
// elements E(n), not negative, the accumulator z, the tracker, and a
// scanomap's destination of n rows.
func (x *ext) startRedomap(env vars, h *semantics.Heap, e *fun.RedomapExp) error {
	x.rule = redomapRule(e)
	m, err := lookupInt(env, e.Bound, x.rule)
	if err != nil {
		return err
	}
	if m < 0 {
		return semantics.Stuckf(e.Bound.NamePos, x.rule, "%s bound %s = %d is negative", fun.RedomapWord(e), e.Bound.Name, m)
	}
	z, ok := env.Lookup(e.Ne.Name)
	if !ok {
		return semantics.Stuckf(e.Ne.NamePos, x.rule, "variable %s is unbound", e.Ne.Name)
	}
	x.n, x.vals, x.mapping = m, []Value{z}, true
	if e.Scan {
		dest, err := destination(env, x.s, x.rule)
		if err == nil && (dest.L.Rank() == 0 || dest.L.Dims[0].Elems != x.n) {
			err = semantics.Stuckf(x.s.Pat[0].Lparen, x.rule, "the destination %v does not have %d rows", dest.L, x.n)
		}
		if err != nil {
			return err
		}
		x.dest = dest
	}
	x.t = x.pool.get(x.trace)
	h.Push(x.t)
	x.on = true
	return nil
}

// enterRedomap begins element x.i's map body or its combine.
func (x *ext) enterRedomap(h *semantics.Heap, e *fun.RedomapExp, bind func(name string, v Value)) (*fun.Body, error) {
	if x.mapping {
		x.t.Start(x.i)
		bind(e.Var.Name, Value{Kind: IntVal, K: x.i})
		return e.Map, nil
	}
	ps, gs := x.params(), x.groups()
	if len(gs) != 2 {
		return nil, semantics.Stuckf(e.Keyword, x.rule, "%s takes 2 operands, but its parameters give %d", fun.RedomapWord(e), len(gs))
	}
	if err := x.startCombine(h, bind, ps, gs, x.elem); err != nil { // heap_ext.go
		return nil, err
	}
	return e.Op, nil
}

// leaveRedomap ends element x.i's map body (keeping its value) or its
// combine (the next accumulator, a scanomap's row i; then element i+1).
func (x *ext) leaveRedomap(h *semantics.Heap, e *fun.RedomapExp, vs []Value) error {
	i := x.i
	if x.mapping {
		if len(vs) != 1 {
			return semantics.Stuckf(e.Map.In, x.rule, "a map body returns one value, not %d", len(vs))
		}
		x.elem, x.mapping = vs[0], false
		return nil
	}
	if err := x.finishCombine(h, e.Keyword, i); err != nil {
		return err
	}
	if len(vs) != 1 {
		return semantics.Stuckf(e.Op.In, x.rule, "an operator body returns one value, not %d", len(vs))
	}
	x.vals, x.mapping, x.elem = vs, true, Value{}
	x.i++
	if e.Scan {
		x.t.Start(i)
		return x.store(h, i, vs[0])
	}
	return nil
}
