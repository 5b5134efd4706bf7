package fun

// The compositions of Fig 14 of "A T2 Graph-Reduction Approach To
// Fusion", as rewrites of FUN statements.

// kernelForm is the map statement s as the kernel it is or derives (§2):
// its index, its bound, and its body, whose one result is the element.
//
//	iota n ≡ kernel i <= n do in (i)
//	copy y ≡ kernel j1 <= n1 do … in (y[j1, …])
func (f *fuser) kernelForm(s *Stm) (idx, bound *Ident, body *Body) {
	switch e := s.Exp.(type) {
	case *KernelExp:
		return e.Var, e.Bound, e.Body
	case *IotaExp:
		i := &Ident{NamePos: e.Keyword, Name: f.fresh("i")}
		return i, e.N, &Body{In: e.Keyword, Result: []*Ident{CloneIdent(i)}}
	case *CopyExp:
		t := s.Pat[0].Type
		x := &expander{used: f.used}
		k := x.copyKernel(e.Keyword, e.Arr, t.Dims, t.Elem, nil)
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
func (f *fuser) inline(s *Stm, x string, k *fusedKer) {
	idx, bound, body := f.kernelForm(s)
	switch e := k.stm.Exp.(type) {
	case *KernelExp:
		e.Body = f.prepend(s, body, idx, e.Var, x, e.Body)
	case *RedomapExp:
		e.Map = f.prepend(s, body, idx, e.Var, x, e.Map)
	case *ReduceExp:
		v := f.indexFor(s, idx)
		k.stm.Exp = &RedomapExp{Keyword: e.Keyword, Params: e.Params, Ne: e.Ne, Var: v, Bound: CloneIdent(bound),
			Map: f.instantiate(s, body, idx, v), Combine: e.Body.Pos(), Op: e.Body}
	case *ScanExp:
		v := f.indexFor(s, idx)
		k.stm.Exp = &RedomapExp{Keyword: e.Keyword, Scan: true, Params: e.Params, Ne: e.Ne, Var: v, Bound: CloneIdent(bound),
			Map: f.instantiate(s, body, idx, v), Combine: e.Body.Pos(), Op: e.Body}
	case *CopyExp:
		v := f.indexFor(s, idx)
		k.stm.Exp = &KernelExp{Kernel: e.Keyword, Var: v, Bound: CloneIdent(bound), Body: f.instantiate(s, body, idx, v)}
	}
}

// prepend is the body b of a consumer of index j, which reads x only as
// x[j, …], with x's element computed at its top by a copy of the
// producer's body (index idx, renamed to j), and those reads reading the
// element instead: x[j] becomes the copy let (t : τ) = e, x[j, k, …]
// becomes e[k, …].
func (f *fuser) prepend(s *Stm, body *Body, idx, j *Ident, x string, b *Body) *Body {
	nb := f.instantiate(s, body, idx, j)
	elem := nb.Result[0]
	Stms(b, func(t *Stm) {
		r, ok := t.Exp.(*IndexExp)
		if !ok || r.Arr.Name != x {
			return
		}
		e := &Ident{NamePos: r.Arr.NamePos, Name: elem.Name}
		if len(r.Idx) == 1 {
			t.Exp = &ScalarExp{X: Var{Ident: e}}
		} else {
			t.Exp = &IndexExp{Arr: e, Idx: r.Idx[1:], Rbrack: r.Rbrack}
		}
	})
	return &Body{Stms: append(nb.Stms, b.Stms...), In: b.In, Result: b.Result, Rparen: b.Rparen}
}

// indexFor is the index of a redomap, scanomap or kernel made of the
// producer s of index idx: idx itself when no other statement of the
// program binds that name, else a fresh one.
func (f *fuser) indexFor(s *Stm, idx *Ident) *Ident {
	name := idx.Name
	if f.boundElsewhere(s)[name] {
		name = f.fresh(name)
	}
	return &Ident{NamePos: idx.NamePos, Name: name}
}

// boundElsewhere are the names bound in the program outside the
// expression of statement s (its copies', once inlined, are outside; so
// is its pattern, in scope where its body is copied to).
func (f *fuser) boundElsewhere(s *Stm) map[string]bool {
	all := map[string]int{}
	count := func(m map[string]int, n Node) {
		Inspect(n, func(n Node) bool {
			switch n := n.(type) {
			case *Param:
				m[n.Name.Name]++
			case *KernelExp:
				m[n.Var.Name]++
			case *LoopExp:
				m[n.Var.Name]++
			case *RedomapExp:
				m[n.Var.Name]++
			}
			return true
		})
	}
	count(all, f.prog)
	in := map[string]int{}
	count(in, s.Exp) // not s's pattern: its names are in scope where s's body goes
	out := map[string]bool{}
	for x, k := range all {
		if k > in[x] {
			out[x] = true
		}
	}
	return out
}

// instantiate is a copy of the producer s's body with its index idx
// renamed to j and every name it binds that some other statement of the
// program binds too renamed to a fresh one, so that the copy, wherever it
// goes, binds no name already in scope there (FUN forbids shadowing) and
// its errors name what the source names where they can.
func (f *fuser) instantiate(s *Stm, body *Body, idx, j *Ident) *Body {
	elsewhere := f.boundElsewhere(s)
	m := map[string]string{idx.Name: j.Name}
	for _, x := range sortedKeys(bindersOf(body)) {
		if elsewhere[x] {
			m[x] = f.fresh(x)
		}
	}
	return MapBody(body, All(Renaming(m)))
}
