package fuse

import "github.com/arraysem/arraysem/fun"

// The compositions of Fig 14 of "A T2 Graph-Reduction Approach To
// Fusion", as rewrites of FUN statements.

// kernelForm is the map statement s as the kernel it is or derives (§2):
// its index, its bound, and its body, whose one result is the element.
//
//	iota n ≡ kernel i <= n do in (i)
//	copy y ≡ kernel j1 <= n1 do … in (y[j1, …])
func (f *fuser) kernelForm(s *fun.Stm) (idx, bound *fun.Ident, body *fun.Body) {
	switch e := s.Exp.(type) {
	case *fun.KernelExp:
		return e.Var, e.Bound, e.Body
	case *fun.IotaExp:
		i := &fun.Ident{NamePos: e.Keyword, Name: f.fresh("i")}
		return i, e.N, &fun.Body{In: e.Keyword, Result: []*fun.Ident{fun.CloneIdent(i)}}
	case *fun.CopyExp:
		t := s.Pat[0].Type
		k := fun.CopyKernel(e.Keyword, e.Arr, t.Dims, t.Elem, f.names())
		return k.Var, k.Bound, k.Body
	}
	return nil, nil, nil
}

// inline fuses the map statement s, which produces x, into the kernel k
// (which takes x as an input):
//
//	kernel over x ⇒ kernel      (map2 ∘ map2 ⇒ map2): x's element is
//	                             computed at the top of k's body, by a copy
//	                             of s's body with s's index renamed to k's,
//	                             and k's reads x[j, …] read the element
//	redomap over x ⇒ redomap    (redomap2 ∘ map2 ⇒ redomap2): the same, in
//	                             its map
//	reduce over x ⇒ redomap     (reduce2 ∘ map2 ⇒ redomap2): s's body is the
//	scan over x ⇒ scanomap       map, the operator k's
//	copy x ⇒ kernel             s itself, as the copy's binding
func (f *fuser) inline(s *fun.Stm, x string, k *fusedKer) {
	idx, bound, body := f.kernelForm(s)
	switch e := k.stm.Exp.(type) {
	case *fun.KernelExp:
		e.Body = f.prepend(body, idx, e.Var, x, e.Body, k.stm)
	case *fun.RedomapExp:
		e.Map = f.prepend(body, idx, e.Var, x, e.Map, k.stm)
	case *fun.ReduceExp:
		v := f.indexFor(idx, k.stm)
		k.stm.Exp = &fun.RedomapExp{Keyword: e.Keyword, Params: e.Params, Ne: e.Ne, Var: v, Bound: fun.CloneIdent(bound),
			Map: f.instantiate(body, idx, v, k.stm), Combine: e.Body.Pos(), Op: e.Body}
	case *fun.ScanExp:
		v := f.indexFor(idx, k.stm)
		k.stm.Exp = &fun.RedomapExp{Keyword: e.Keyword, Scan: true, Params: e.Params, Ne: e.Ne, Var: v, Bound: fun.CloneIdent(bound),
			Map: f.instantiate(body, idx, v, k.stm), Combine: e.Body.Pos(), Op: e.Body}
	case *fun.CopyExp:
		v := f.indexFor(idx, k.stm)
		k.stm.Exp = &fun.KernelExp{Kernel: e.Keyword, Var: v, Bound: fun.CloneIdent(bound), Body: f.instantiate(body, idx, v, k.stm)}
	}
}

// prepend is the body b of the consumer dest of index j, which reads x
// only as x[j, …], with x's element computed at its top by a copy of the
// producer's body (index idx, renamed to j), and those reads reading the
// element instead: x[j] becomes the copy let (t : τ) = e, x[j, k, …]
// becomes e[k, …].
func (f *fuser) prepend(body *fun.Body, idx, j *fun.Ident, x string, b *fun.Body, dest *fun.Stm) *fun.Body {
	nb := f.instantiate(body, idx, j, dest)
	elem := nb.Result[0]
	fun.Stms(b, func(t *fun.Stm) {
		r, ok := t.Exp.(*fun.IndexExp)
		if !ok || r.Arr.Name != x {
			return
		}
		e := &fun.Ident{NamePos: r.Arr.NamePos, Name: elem.Name}
		if len(r.Idx) == 1 {
			t.Exp = &fun.ScalarExp{X: fun.Var{Ident: e}}
		} else {
			t.Exp = &fun.IndexExp{Arr: e, Idx: r.Idx[1:], Rbrack: r.Rbrack}
		}
	})
	return &fun.Body{Stms: append(nb.Stms, b.Stms...), In: b.In, Result: b.Result, Rparen: b.Rparen}
}

// indexFor is the index of a redomap, scanomap or kernel that the
// statement dest becomes, made of a producer of index idx: idx itself
// when that name is free there, else a fresh one.
func (f *fuser) indexFor(idx *fun.Ident, dest *fun.Stm) *fun.Ident {
	name := idx.Name
	if f.taken(dest)[name] {
		name = f.fresh(name)
	}
	return &fun.Ident{NamePos: idx.NamePos, Name: name}
}

// taken are the names a body copied into the statement dest may not
// bind: those in scope at dest, and those bound in it. (A fold's operator
// and a redomap's map are scopes of their own, but the levels below FUN
// are spared names shared between them.)
func (f *fuser) taken(dest *fun.Stm) map[string]bool {
	out := map[string]bool{}
	if !scopeAt(f.prog, dest, out) {
		fun.BindersInto(out, f.prog) // not found (cannot happen): avoid every name
	}
	fun.BindersInto(out, dest.Exp)
	return out
}

// scopeAt adds to scope the names in scope at the statement target of p
// (its inputs, the statements before it in its body and the bodies
// around it, and the indices and parameters of the forms around it), and
// reports whether it found target.
func scopeAt(p *fun.Program, target *fun.Stm, scope map[string]bool) bool {
	var path []string
	var walk func(b *fun.Body) bool
	walk = func(b *fun.Body) bool {
		mark := len(path)
		defer func() { path = path[:mark] }()
		for _, s := range b.Stms {
			if s == target {
				for _, x := range path {
					scope[x] = true
				}
				return true
			}
			for _, nb := range fun.ExpBodies(s.Exp) {
				inner := len(path)
				path = append(path, formBinders(s.Exp, nb)...)
				if walk(nb) {
					return true
				}
				path = path[:inner]
			}
			for _, q := range s.Pat {
				path = append(path, q.Name.Name)
			}
		}
		return false
	}
	for _, in := range p.Inputs {
		path = append(path, in.Name.Name)
	}
	return walk(p.Body)
}

// formBinders are the names the form e binds in its body b: a kernel's,
// loop's or redomap's map's index, and the parameters of a loop, of a
// fold's operator and of a filter's body.
func formBinders(e fun.Exp, b *fun.Body) []string {
	var out []string
	if x := fun.ExpIndex(e); x != nil {
		if r, ok := e.(*fun.RedomapExp); !ok || b == r.Map {
			out = append(out, x.Name)
		}
	}
	if r, ok := e.(*fun.RedomapExp); ok && b != r.Op {
		return out
	}
	for _, p := range fun.ExpParams(e) {
		out = append(out, p.Name.Name)
	}
	return out
}

// instantiate is a copy of the producer's body with its index idx renamed
// to j and every name it binds that is taken at dest (the statement it is
// copied into) renamed to a fresh one: the copy binds no name already in
// scope there (FUN forbids shadowing), and its errors name what the
// source names where they can.
func (f *fuser) instantiate(body *fun.Body, idx, j *fun.Ident, dest *fun.Stm) *fun.Body {
	taken := f.taken(dest)
	m := map[string]string{idx.Name: j.Name}
	for _, x := range sortedKeys(fun.Binders(body)) {
		if taken[x] {
			m[x] = f.fresh(x)
		}
	}
	return fun.MapBody(body, fun.All(fun.Renaming(m)))
}
