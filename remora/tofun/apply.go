package tofun

import (
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Applications. After Explicitize every argument already has exactly its
// parameter's cell type and the lifting is in MAPs; an application whose
// arguments still have frames (a program that was only checked) is lifted
// here by the same frame rule (T-APP: the largest frame, of which the
// others are prefixes; smaller frames' cells are read at the prefix of
// the position, which is their replication).

// primOf takes apart a primitive with its instantiation, f{τ … | ι …}.
func primOf(e remora.Expr) (*remora.PrimDef, []remora.Index, []remora.Type, bool) {
	switch e := e.(type) {
	case *remora.Prim:
		return e.Def, nil, nil, true
	case *remora.TApp:
		p, is, ts, ok := primOf(e.Fn)
		return p, is, append(append([]remora.Type{}, ts...), e.Args...), ok
	case *remora.IApp:
		p, is, ts, ok := primOf(e.Fn)
		return p, append(append([]remora.Index{}, is...), e.Args...), ts, ok
	}
	return nil, nil, nil, false
}

// instantiate is a primitive's type at its index and type arguments: the
// canonical array type of its value (a scalar array of a function for
// every primitive but iota).
func instantiate(p *remora.PrimDef, is []remora.Index, ts []remora.Type) remora.Type {
	t := p.Type
	if pi, ok := t.(*remora.Pi); ok {
		sub := remora.Subst{}
		for i, v := range pi.Vars {
			if i < len(is) {
				sub[v] = is[i]
			}
		}
		t = unscalar(remora.TypeSubst{Indices: sub}.Type(pi.Body))
	}
	if fa, ok := t.(*remora.Forall); ok {
		m := map[string]remora.Type{}
		for i, v := range fa.Vars {
			if i < len(ts) {
				m[v] = ts[i]
			}
		}
		t = remora.TypeSubst{Types: m}.Type(fa.Body)
	}
	return remora.CanonArr(t)
}

// unscalar is the atom type of a scalar array type of a function or an
// abstraction, else t.
func unscalar(t remora.Type) remora.Type {
	if a, ok := t.(*remora.Arr); ok && len(a.Shape) == 0 {
		switch a.Elem.(type) {
		case *remora.Fn, *remora.Forall, *remora.Pi:
			return a.Elem
		}
	}
	return t
}

// fnType is a primitive's function type at its instantiation.
func fnType(p *remora.PrimDef, is []remora.Index, ts []remora.Type, pos semantics.Pos) *remora.Fn {
	t := instantiate(p, is, ts).(*remora.Arr)
	f, ok := t.Elem.(*remora.Fn)
	if !ok || len(t.Shape) != 0 {
		refuse(pos, "the primitive "+p.Name, "it is applied without all its type and index arguments")
	}
	return f
}

func isFnType(t remora.Type) bool {
	_, ok := remora.CanonArr(t).Elem.(*remora.Fn)
	return ok
}

// app lowers an application: of a λ (a let the checker elaborated, or an
// applied λ), or of a primitive, whose operator arguments (reduce's, a
// fold's) are passed on unevaluated.
func (l *lowerer) app(b *block, en *env, e *remora.App) *val {
	if lam, ok := e.Fn.(*remora.Lam); ok {
		args := make([]*val, len(e.Args))
		for i, a := range e.Args {
			if isFnType(lam.Params[i].Type) {
				refuse(a.At(), "a function argument of a λ", "FUN is first order (Inline should have substituted it)")
			}
			args[i] = l.expr(b, en, a)
		}
		return l.applyLam(b, en, lam, args, e.Pos)
	}
	p, is, ts, ok := primOf(e.Fn)
	if !ok {
		refuse(e.Fn.At(), "an application of "+short(e.Fn), "after Inline only primitives and λs are applied")
	}
	f := fnType(p, is, ts, e.Pos)
	args := make([]*val, len(e.Args))
	ops := make([]remora.Expr, len(e.Args))
	for i, a := range e.Args {
		// Only the reduce family's operator is passed as a function: any
		// other function argument is a function value, refused.
		if i == 0 && p.Fold != nil && isFnType(f.Params[i]) {
			ops[i] = a
			continue
		}
		args[i] = l.expr(b, en, a)
	}
	return l.applyPrim(b, en, e.Pos, p, is, ts, args, ops)
}

// applyFn applies the operator fe (a primitive, perhaps instantiated, or
// a closed λ) to lowered arguments, lifting it over their frames.
func (l *lowerer) applyFn(b *block, en *env, fe remora.Expr, args []*val, pos semantics.Pos) *val {
	if lam, ok := fe.(*remora.Lam); ok {
		return l.applyLam(b, en, lam, args, pos)
	}
	p, is, ts, ok := primOf(fe)
	if !ok {
		refuse(fe.At(), "the operator "+short(fe), "after Inline an operator is a primitive or a closed λ")
	}
	f := fnType(p, is, ts, pos)
	for _, t := range f.Params {
		if isFnType(t) {
			refuse(fe.At(), "the operator "+p.Name, "a higher-order primitive as an operator")
		}
	}
	return l.applyPrim(b, en, pos, p, is, ts, args, make([]remora.Expr, len(args)))
}

// frameOf is the frame of an application: each argument's frame rank
// (its rank less its cell's), and the sizes of the largest frame.
func frameOf(pos semantics.Pos, args []*val, cells []remora.Type) ([]int, []string) {
	ranks := make([]int, len(args))
	var fd []string
	for i, a := range args {
		if a == nil {
			continue
		}
		r := a.rank() - len(remora.CanonArr(cells[i]).Shape)
		if r < 0 {
			refuse(pos, "an application", "argument %d has rank %d, below its cell type %s", i+1, a.rank(), remora.TypeString(cells[i]))
		}
		ranks[i] = r
		if r > len(fd) {
			fd = a.dims[:r]
		}
	}
	return ranks, fd
}

// applyLam runs a λ's body on its arguments' cells, mapped over their
// frame.
func (l *lowerer) applyLam(b *block, en *env, lam *remora.Lam, args []*val, pos semantics.Pos) *val {
	cells := make([]remora.Type, len(lam.Params))
	for i, p := range lam.Params {
		cells[i] = p.Type
		kindOf(remora.CanonArr(p.Type).Elem, pos)
	}
	ranks, fd := frameOf(pos, args, cells)
	rt, k, sig := arrOf(lam.Ret, lam.Pos)
	return l.mapFrame(b, en, pos, fd, args, ranks, rt.Shape, k, sig, func(ib *block, cs []*val) *val {
		inner := en
		for i, p := range lam.Params {
			inner = inner.bind(p.Name, cs[i])
		}
		return l.expr(ib, inner, lam.Body)
	})
}

// applyPrim runs a primitive on its arguments' cells, mapped over their
// frame; ops are its operator arguments (nil where an argument is a
// value).
func (l *lowerer) applyPrim(b *block, en *env, pos semantics.Pos, p *remora.PrimDef, is []remora.Index, ts []remora.Type, args []*val, ops []remora.Expr) *val {
	f := fnType(p, is, ts, pos)
	ranks, fd := frameOf(pos, args, f.Params)
	rt, k, sig := arrOf(f.Ret, pos)
	var live []*val
	var liveRanks []int
	for i, a := range args {
		if a != nil {
			live = append(live, a)
			liveRanks = append(liveRanks, ranks[i])
		}
	}
	return l.mapFrame(b, en, pos, fd, live, liveRanks, rt.Shape, k, sig, func(ib *block, cs []*val) *val {
		cells := make([]*val, len(args))
		j := 0
		for i := range args {
			if args[i] != nil {
				cells[i] = cs[j]
				j++
			}
		}
		return l.callPrim(ib, en, pos, p, is, ts, cells, ops)
	})
}

// callPrim runs a primitive on cells of exactly its parameter types (or,
// for iota, on none) by its entry in prims.
func (l *lowerer) callPrim(b *block, en *env, pos semantics.Pos, p *remora.PrimDef, is []remora.Index, ts []remora.Type, args []*val, ops []remora.Expr) *val {
	impl, ok := prims[p.Name]
	if !ok {
		refuse(pos, "the primitive "+p.Name, "it has no FUN translation")
	}
	c := &call{l: l, b: b, en: en, pos: pos, p: p, is: is, ts: ts, args: args, ops: ops}
	t := instantiate(p, is, ts).(*remora.Arr)
	if f, ok := t.Elem.(*remora.Fn); ok {
		c.ret, c.kind, c.sig = arrOf(f.Ret, pos)
	} else {
		c.ret, c.kind, c.sig = arrOf(t, pos)
	}
	return impl(c)
}

// short prints a term for an error, cut to a readable length.
func short(e remora.Expr) string {
	s := []rune(remora.ExprString(e))
	if len(s) > 50 {
		return string(s[:47]) + "..."
	}
	return string(s)
}
