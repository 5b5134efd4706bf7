package funmem

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
)

// Folds that allocate, inside a kernel. A redomap's (or an int reduce's)
// rules run its map bodies as a kernel's threads, each element's arrays
// in blocks of its own, and let a combine step write only blocks it
// allocated itself (E-MEM-REDOMAP, E-MEM-REDUCE): what a fold may do so
// that a GPU could fold its elements in parallel, as the fold's own
// kernels do outside kernels. Inside a kernel a fold is a loop of its
// thread, the left fold those rules describe (the CUDA backend emits
// it so): element i's map body, then the combine of the accumulator with
// its value. When such a fold allocates, MemoryExpand writes it as that
// loop,
//
//	loop (a's group) = (z's support, z) for i <= n do
//	  map body; b's support from its result; operator body
//	  in (the result's support, the result)
//
// whose allocations then leave it as any loop's (expand_loop.go): one
// block for every element's map body, two by turns for the accumulator.
// A scan or scanomap writes each step into its result and stays a fold,
// as does a reduce over arrays (its rows are bound by the rule, as
// views FUNMEM has no statement for), and a fold whose values are not
// found (bound outside the scopes typeScope follows).

// typeScope is the types of the names in scope, a body's over its
// parent's.
type typeScope struct {
	parent *typeScope
	// binds are the scope's patterns (and parameter lists) in order: a
	// later binding shadows an earlier one of the same name. A scope
	// holds a body's few names, bound once each and looked up rarely, so
	// the patterns themselves serve better than a map (or a copy of each
	// binding) of its own: the bodies' scopes were a tenth of a property
	// campaign's allocations.
	binds [][]*fun.Param
	buf   [4][]*fun.Param // binds' first room, allocated with the scope
	// index, when not "", is an int bound after binds (a form's index).
	index string
}

// child is a scope inside s for a body of n statements.
func (s *typeScope) child(n int) *typeScope {
	c := &typeScope{parent: s}
	if n <= len(c.buf) {
		c.binds = c.buf[:0]
	} else {
		c.binds = make([][]*fun.Param, 0, n)
	}
	return c
}

func (s *typeScope) bind(ps []*fun.Param) {
	if len(ps) > 0 {
		s.binds = append(s.binds, ps)
	}
}

func (s *typeScope) lookup(x string) (fun.Type, bool) {
	for ; s != nil; s = s.parent {
		if s.index != "" && s.index == x {
			return fun.Type{}, true
		}
		for i := len(s.binds) - 1; i >= 0; i-- {
			ps := s.binds[i]
			for j := len(ps) - 1; j >= 0; j-- {
				if ps[j].Name.Name == x {
					return ps[j].Type, true
				}
			}
		}
	}
	return fun.Type{}, false
}

// allocatesIn reports whether a body holds an allocation, at any depth.
func allocatesIn(bs ...*fun.Body) bool {
	found := false
	for _, b := range bs {
		eachBody(b, func(b *fun.Body) {
			for _, s := range b.Stms {
				if _, ok := s.Exp.(*AllocExp); ok {
					found = true
				}
			}
		})
	}
	return found
}

// foldAsLoop is st, a redomap or an int reduce inside a kernel whose
// bodies allocate, as a loop, after the statements binding its start's
// support; ok is false for any other statement, and for a fold it does
// not rewrite.
func (x *expander) foldAsLoop(st *fun.Stm, sc *typeScope) (pre []*fun.Stm, loop *fun.Stm, ok bool) {
	switch e := st.Exp.(type) {
	case *fun.RedomapExp:
		if e.Scan || !allocatesIn(e.Map, e.Op) || len(e.Map.Result) != 1 {
			return nil, nil, false
		}
		return x.redomapAsLoop(st, e, sc)
	case *fun.ReduceExp:
		if !allocatesIn(e.Body) || len(e.Params) != 2 || !e.Params[1].Type.IsScalar() {
			return nil, nil, false
		}
		// b is element i of an int (or float) array: xs[i].
		t, found := sc.lookup(e.Arr.Name)
		if !found || t.Rank() != 1 {
			return nil, nil, false
		}
		i := x.names.fresh("i")
		b := e.Params[1]
		get := &fun.Stm{Pat: []*fun.Param{{Name: b.Name, Type: b.Type}}, Exp: &fun.IndexExp{Arr: e.Arr, Idx: []*fun.Ident{i}}}
		body := &fun.Body{Stms: append([]*fun.Stm{get}, e.Body.Stms...), In: e.Body.In, Result: e.Body.Result, Rparen: e.Body.Rparen}
		l := &fun.LoopExp{Loop: e.Keyword, Params: e.Params[:1], Init: []*fun.Ident{e.Ne}, Var: i, Bound: t.Dims[0], Body: body}
		return nil, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: l}, true
	}
	return nil, nil, false
}

// redomapAsLoop is foldAsLoop of a redomap.
func (x *expander) redomapAsLoop(st *fun.Stm, e *fun.RedomapExp, sc *typeScope) ([]*fun.Stm, *fun.Stm, bool) {
	gs := Groups(e.Params)
	if len(gs) != 2 {
		return nil, nil, false
	}
	// The accumulator's parameters (the first group): the loop's.
	var aps []*fun.Param
	inB := supportNames(gs[1:])
	inB[e.Params[gs[1].Operand].Name.Name] = true
	for _, p := range e.Params {
		if !inB[p.Name.Name] {
			aps = append(aps, p)
		}
	}
	// The map body and the operator body become one scope: the map
	// body's names that the operator's scope binds, and the operator
	// body's that the map's binds (i), are renamed.
	opNames := fun.Binders(e.Op)
	for _, p := range e.Params {
		opNames[p.Name.Name] = true
	}
	mapBody := renameBinders(e.Map, opNames, x.names)
	opBody := renameBinders(e.Op, map[string]bool{e.Var.Name: true}, x.names)
	r := mapBody.Result[0]
	var stms []*fun.Stm
	stms = append(stms, mapBody.Stms...)
	b := e.Params[gs[1].Operand]
	if !gs[1].IsArray() {
		stms = append(stms, &fun.Stm{Pat: []*fun.Param{{Name: b.Name, Type: b.Type}}, Exp: &fun.ScalarExp{X: fun.Var{Ident: r}}})
	} else {
		rt, ok := typeIn(r.Name, mapBody, nil, sc)
		if !ok {
			return nil, nil, false
		}
		// b and its block are the map body's result and its block; its
		// offset and strides are bound from the result's LMAD.
		ra := ArrayOf(rt)
		off, dims := ra.Index.LMAD()
		stms = append(stms, &fun.Stm{Pat: []*fun.Param{{Name: &fun.Ident{Name: gs[1].Off}, Type: fun.Type{}}}, Exp: &fun.ScalarExp{X: off}})
		for d, s := range gs[1].Strides {
			stms = append(stms, &fun.Stm{Pat: []*fun.Param{{Name: &fun.Ident{Name: s}, Type: fun.Type{}}}, Exp: &fun.ScalarExp{X: dims[d].Stride}})
		}
		opBody = fun.MapBody(opBody, fun.All(fun.Renaming(map[string]string{b.Name.Name: r.Name, gs[1].Block: ra.Block.Name})))
	}
	stms = append(stms, opBody.Stms...)
	res := opBody.Result
	if len(res) != 1 {
		return nil, nil, false
	}
	// The body returns the operator's result, with its support when an
	// array.
	var pre []*fun.Stm
	init := []*fun.Ident{e.Ne}
	if gs[0].IsArray() {
		inner := &fun.Body{Stms: stms}
		rt, ok := typeIn(res[0].Name, inner, aps, sc)
		if !ok {
			return nil, nil, false
		}
		post, supp := x.supportOf(rt, res[0])
		stms = append(stms, post...)
		res = supp
		zt, ok := sc.lookup(e.Ne.Name)
		if !ok || ArrayOf(zt) == nil {
			return nil, nil, false
		}
		pre, init = x.supportOf(zt, e.Ne)
	}
	body := &fun.Body{Stms: stms, In: e.Op.In, Result: res, Rparen: e.Op.Rparen}
	l := &fun.LoopExp{Loop: e.Keyword, Params: aps, Init: init, Var: e.Var, Bound: e.Bound, Body: body}
	return pre, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: l}, true
}

// supportOf is Support of array y of type t: lets binding its offset and
// strides, and the group's values (its block, offset, strides, y).
func (x *expander) supportOf(t fun.Type, y *fun.Ident) ([]*fun.Stm, []*fun.Ident) {
	a := ArrayOf(t)
	off, dims := a.Index.LMAD()
	var lets []*fun.Stm
	bind := func(e fun.SExp, role string) *fun.Ident {
		v := x.names.fresh(y.Name + "_" + role)
		lets = append(lets, &fun.Stm{Pat: []*fun.Param{{Name: v, Type: fun.Type{}}}, Exp: &fun.ScalarExp{X: e}})
		return v
	}
	out := []*fun.Ident{{Name: a.Block.Name}, bind(off, "off")}
	for d, dim := range dims {
		out = append(out, bind(dim.Stride, fmt.Sprintf("stride%d", d+1)))
	}
	return lets, append(out, y)
}

// typeIn is the type of y: bound by a statement of b (at its top level),
// among ps, or in scope.
func typeIn(y string, b *fun.Body, ps []*fun.Param, sc *typeScope) (fun.Type, bool) {
	for _, s := range b.Stms {
		for _, p := range s.Pat {
			if p.Name.Name == y {
				return p.Type, true
			}
		}
	}
	for _, p := range ps {
		if p.Name.Name == y {
			return p.Type, true
		}
	}
	return sc.lookup(y)
}

// renameBinders renames, in b, the names it binds that are among clash,
// to fresh ones (every occurrence: a name is bound at most once along a
// path, so in b each names what b binds).
func renameBinders(b *fun.Body, clash map[string]bool, n *names) *fun.Body {
	m := map[string]string{}
	for x := range fun.Binders(b) {
		if clash[x] {
			m[x] = n.fresh(x).Name
		}
	}
	if len(m) == 0 {
		return b
	}
	return fun.MapBody(b, fun.All(fun.Renaming(m)))
}
