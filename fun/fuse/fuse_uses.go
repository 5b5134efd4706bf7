package fuse

import (
	"github.com/arraysem/arraysem/fun"
)

// The uses of arrays in a body, which the analysis classifies: a SOAC's
// input (a read at its own index, a fold over the array) or any other use,
// and why that other use forbids fusion.

// useKind is how a statement uses an array.
type useKind int

const (
	useRead   useKind = iota // x[y1, …, yn]
	useOver                  // reduce or scan over x
	useFilter                // filter over x
	useCopy                  // copy x
	useWhole                 // any other: returned, sliced, transposed, a loop's initial value, a fold's start value
)

// indexCtx maps the indices bound around a point of the program (by
// kernels, loops, redomaps and scanomaps) to the names of their bounds:
// an index i of kernel i <= n is known to lie in 1 … n. Names are never
// bound twice along a path of scopes, so the map is flat.
type indexCtx map[string]string

// with is ctx extended with the index x of bound n.
func (ctx indexCtx) with(x, n *fun.Ident) indexCtx {
	out := make(indexCtx, len(ctx)+1)
	for k, v := range ctx {
		out[k] = v
	}
	out[x.Name] = n.Name
	return out
}

// useSite is one use of a variable.
type useSite struct {
	name string
	kind useKind
	stm  *fun.Stm      // the statement whose expression uses it; nil for a body's result
	read *fun.IndexExp // the read, for useRead
	pos  fun.Pos       // the variable's occurrence
	what string        // the use as a phrase, for useWhole ("returned by the program")
	idx  indexCtx      // the indices bound around the use
}

// walkUses calls visit on every use of a variable as an array could be
// used (an array read or passed whole; scalar uses of ints, as indices,
// bounds and in scalar expressions, are not visited) in stms and then in
// result, which the body described by where returns; ctx are the indices
// bound around them.
func walkUses(stms []*fun.Stm, result []*fun.Ident, where string, ctx indexCtx, visit func(useSite)) {
	whole := func(s *fun.Stm, x *fun.Ident, what string) {
		visit(useSite{name: x.Name, kind: useWhole, stm: s, pos: x.NamePos, what: what, idx: ctx})
	}
	for _, s := range stms {
		place := "the " + formName(s.Exp) + " at " + at(s.Exp.Pos())
		switch e := s.Exp.(type) {
		case *fun.IndexExp:
			visit(useSite{name: e.Arr.Name, kind: useRead, stm: s, read: e, pos: e.Arr.NamePos, idx: ctx})
		case *fun.SliceExp:
			whole(s, e.Arr, "sliced at "+at(e.Pos()))
		case *fun.TransposeExp:
			whole(s, e.Arr, "transposed at "+at(e.Pos()))
		case *fun.CopyExp:
			visit(useSite{name: e.Arr.Name, kind: useCopy, stm: s, pos: e.Arr.NamePos, what: "copied at " + at(e.Pos()), idx: ctx})
		case *fun.IfExp:
			branches := "a branch of " + place
			walkUses(e.Then.Stms, e.Then.Result, branches, ctx, visit)
			walkUses(e.Else.Stms, e.Else.Result, branches, ctx, visit)
		case *fun.KernelExp:
			walkUses(e.Body.Stms, e.Body.Result, "the body of "+place, ctx.with(e.Var, e.Bound), visit)
		case *fun.LoopExp:
			for _, x := range e.Init {
				whole(s, x, "passed to "+place)
			}
			walkUses(e.Body.Stms, e.Body.Result, "the body of "+place, ctx.with(e.Var, e.Bound), visit)
		case *fun.ReduceExp:
			whole(s, e.Ne, "the start value of "+place)
			visit(useSite{name: e.Arr.Name, kind: useOver, stm: s, pos: e.Arr.NamePos, what: "folded by " + place, idx: ctx})
			walkUses(e.Body.Stms, e.Body.Result, "the operator of "+place, ctx, visit)
		case *fun.ScanExp:
			whole(s, e.Ne, "the start value of "+place)
			visit(useSite{name: e.Arr.Name, kind: useOver, stm: s, pos: e.Arr.NamePos, what: "scanned by " + place, idx: ctx})
			walkUses(e.Body.Stms, e.Body.Result, "the operator of "+place, ctx, visit)
		case *fun.FilterExp:
			visit(useSite{name: e.Arr.Name, kind: useFilter, stm: s, pos: e.Arr.NamePos, what: "filtered by " + place, idx: ctx})
			walkUses(e.Body.Stms, e.Body.Result, "the body of "+place, ctx, visit)
		case *fun.RedomapExp:
			whole(s, e.Ne, "the start value of "+place)
			walkUses(e.Map.Stms, e.Map.Result, "the map of "+place, ctx.with(e.Var, e.Bound), visit)
			walkUses(e.Op.Stms, e.Op.Result, "the operator of "+place, ctx, visit)
		}
	}
	for _, x := range result {
		visit(useSite{name: x.Name, kind: useWhole, pos: x.NamePos, what: "returned by " + where, idx: ctx})
	}
}

// inputReads are the arrays free in the bodies bs that a SOAC of index
// idx takes as inputs: every use of them is a read x[idx, …] (at any
// depth). Free uses in the bodies others (a redomap's operator) make an
// array no input.
func inputReads(idx string, bs []*fun.Body, others ...*fun.Body) map[string]bool {
	bound := map[string]bool{}
	for _, b := range append(append([]*fun.Body(nil), bs...), others...) {
		fun.BindersInto(bound, b)
	}
	ok, bad := map[string]bool{}, map[string]bool{}
	check := func(input bool) func(useSite) {
		return func(u useSite) {
			if bound[u.name] {
				return
			}
			if input && u.kind == useRead && len(u.read.Idx) > 0 && u.read.Idx[0].Name == idx && !bad[u.name] {
				ok[u.name] = true
				return
			}
			bad[u.name] = true
			delete(ok, u.name)
		}
	}
	for _, b := range bs {
		walkUses(b.Stms, b.Result, "", nil, check(true))
	}
	for _, b := range others {
		walkUses(b.Stms, b.Result, "", nil, check(false))
	}
	return ok
}

// wset is a set of size variables witnessed non-negative at a point of
// the program: each is a size of an array bound there (an array's sizes
// were checked when it was made), or bound to a non-negative constant.
// Removing the statement that would check a size is safe only for sizes
// witnessed before it.
type wset map[string]bool

// witness is wit extended with the sizes of the types of ps.
func witness(wit wset, ps []*fun.Param) wset {
	var add []string
	for _, p := range ps {
		for _, d := range p.Type.Dims {
			add = append(add, d.Name)
		}
	}
	return wit.with(add)
}

// with is w with the names added: w itself when it has them all (a set,
// once made, is never changed, so sets share what they can), else a new
// set.
func (w wset) with(names []string) wset {
	missing := false
	for _, x := range names {
		if !w[x] {
			missing = true
			break
		}
	}
	if !missing {
		return w
	}
	out := make(wset, len(w)+len(names))
	for k := range w {
		out[k] = true
	}
	for _, x := range names {
		out[x] = true
	}
	return out
}

// prefixWitness are the witnessed sets before each statement of b, given
// wit before its first.
func prefixWitness(b *fun.Body, wit wset) []wset {
	out := make([]wset, len(b.Stms))
	cur := wit
	var add []string
	for k, s := range b.Stms {
		out[k] = cur
		add = add[:0]
		for _, p := range s.Pat {
			for _, d := range p.Type.Dims {
				add = append(add, d.Name)
			}
		}
		if e, ok := s.Exp.(*fun.ScalarExp); ok && len(s.Pat) == 1 {
			if c, ok := e.X.(*fun.Const); ok && c.Value >= 0 {
				add = append(add, s.Pat[0].Name.Name)
			}
		}
		cur = cur.with(add)
	}
	return out
}
