package funmem

import (
	"github.com/arraysem/arraysem/fun"
)

// inPlace makes a kernel's array rows where the kernel puts them. A
// kernel whose body's result is an array r that an inner kernel of the
// body makes,
//
//	let (z : [y]τ @ zm -> Lz) = kernel x <= y do
//	  …
//	  let (r : τ @ m -> Lr) = kernel … do …
//	  …
//	  in (r)
//
// gets r made in m, a block of its own, which E-MEM-KERNEL's memcpy then
// moves into item x of z (COPY in FunMemToImp): on a GPU a load and a
// store of every element once more, and with MemoryExpand an expanded
// block for all the iterations' rows. T-MEM-KERNEL lets the inner kernel
// pick any index function for its result, so r can be made in item x of
// z directly: its annotation becomes zm -> index_f(Lz, x) (Lz's offset
// plus (x − 1) times its outer stride, its inner dimensions), m's alloc
// goes, and the memcpy is of each location
// onto itself. FunMemToImp then leaves that COPY out (it changes nothing
// and, the inner kernel having written every location it touches in the
// same iteration, witnesses no race the kernel's writes do not).
//
// It applies when m is allocated for r alone (an alloc, r's type its only
// use), r is used only as the body's result, zm holds nothing but z (z's
// type its only use besides the program's results), so that nothing else
// of the iteration sees its item x written early, and no name Lz mentions
// is bound in the body. Kernels at the top level of the program and
// nested in kernels' bodies are considered; one level: r's own body
// result stays where it is.
func inPlace(b *fun.Body) *fun.Body {
	type site struct {
		z, r *fun.Param
		zm   *ArrayMem
		k    *fun.KernelExp
	}
	var sites []site
	var scan func(b *fun.Body)
	scan = func(b *fun.Body) {
		for _, st := range b.Stms {
			k, ok := st.Exp.(*fun.KernelExp)
			if !ok {
				continue
			}
			scan(k.Body)
			if len(st.Pat) != 1 || len(k.Body.Result) != 1 {
				continue
			}
			za := ArrayOf(st.Pat[0].Type)
			if za == nil {
				continue
			}
			for _, in := range k.Body.Stms {
				if _, ok := in.Exp.(*fun.KernelExp); ok && len(in.Pat) == 1 && in.Pat[0].Name.Name == k.Body.Result[0].Name && ArrayOf(in.Pat[0].Type) != nil {
					sites = append(sites, site{z: st.Pat[0], r: in.Pat[0], zm: za, k: k})
				}
			}
		}
	}
	scan(b)
	if len(sites) == 0 {
		return b // (most programs: nothing below is counted)
	}
	// Where scan looked, the names bound, and those bound by alloc.
	allocs := map[string]int{} // mem names bound by alloc (how many times)
	binds := map[string]int{}  // every name any pattern binds (how many times)
	var count func(b *fun.Body)
	count = func(b *fun.Body) {
		for _, st := range b.Stms {
			for _, p := range st.Pat {
				binds[p.Name.Name]++
				if _, ok := st.Exp.(*AllocExp); ok {
					allocs[p.Name.Name]++
				}
			}
			if k, ok := st.Exp.(*fun.KernelExp); ok {
				count(k.Body)
			}
		}
	}
	count(b)
	uses := useCounter{n: map[string]int{}, step: 1, masked: true}
	for _, s := range sites {
		for _, x := range []string{s.zm.Block.Name, ArrayOf(s.r.Type).Block.Name, s.r.Name.Name} {
			uses.n[x] = 0
			uses.mask = uses.mask.with(x) // an identifier is looked up only when it may be one
		}
	}
	uses.body(b)
	inResults := map[string]int{}
	for _, x := range b.Result {
		inResults[x.Name]++
	}
	moved := map[*fun.Param]bool{} // the patterns of the rows to move
	gone := map[string]bool{}      // their blocks, whose allocs go
	zms := map[string]bool{}       // the blocks rows move into
	// Outer kernels first (scan lists a kernel after those in its body):
	// a block rows move into keeps its alloc, and one whose alloc goes
	// takes no rows.
	for i := len(sites) - 1; i >= 0; i-- {
		s := sites[i]
		zt, rt := s.z.Type, s.r.Type
		m, zm := ArrayOf(rt).Block.Name, s.zm.Block.Name
		if allocs[m] != 1 || binds[m] != 1 || binds[zm] != 1 || binds[s.r.Name.Name] != 1 ||
			uses.n[m] != 1 || uses.n[s.r.Name.Name] != 1 || uses.n[zm] != 1+inResults[zm] ||
			len(zt.Dims) == 0 || rt.Elem != zt.Elem || !sameDims(rt.Dims, zt.Dims[1:]) || gone[zm] || zms[m] {
			continue
		}
		if !namesFree(s.k, s.zm) {
			continue
		}
		moved[s.r] = true
		gone[m], zms[zm] = true, true
	}
	if len(moved) == 0 {
		return b
	}
	return inPlaceBody(b, moved, gone)
}

// namesFree reports whether no name of a's index function is bound in
// the kernel's body (its index included), so that it means the same
// there.
func namesFree(k *fun.KernelExp, a *ArrayMem) bool {
	bound := map[string]bool{k.Var.Name: true}
	var collect func(b *fun.Body)
	collect = func(b *fun.Body) {
		for _, st := range b.Stms {
			for _, p := range st.Pat {
				bound[p.Name.Name] = true
			}
			if k, ok := st.Exp.(*fun.KernelExp); ok {
				bound[k.Var.Name] = true
				collect(k.Body)
			}
		}
	}
	collect(k.Body)
	off, dims := a.Index.LMAD()
	exprs := []fun.SExp{off}
	for _, d := range dims {
		exprs = append(exprs, d.Elems, d.Stride)
	}
	for _, e := range exprs {
		for _, v := range fun.FreeVars(e, nil) {
			if bound[v.Name] {
				return false
			}
		}
	}
	return true
}

// inPlaceBody rebuilds b with the rows moved: a kernel statement whose
// body's result is a pattern of moved gets it in its own block, at its
// item x. Bodies are rebuilt, never changed (the stage before keeps its
// program).
func inPlaceBody(b *fun.Body, moved map[*fun.Param]bool, gone map[string]bool) *fun.Body {
	var stms []*fun.Stm
	changed := false
	for _, st := range b.Stms {
		if _, ok := st.Exp.(*AllocExp); ok && len(st.Pat) == 1 && gone[st.Pat[0].Name.Name] {
			changed = true
			continue
		}
		k, ok := st.Exp.(*fun.KernelExp)
		if !ok {
			stms = append(stms, st)
			continue
		}
		body := inPlaceBody(k.Body, moved, gone)
		if za := ArrayOf(st.Pat[0].Type); za != nil && len(st.Pat) == 1 {
			body = moveRow(body, k.Var, za, moved)
		}
		if body == k.Body {
			stms = append(stms, st)
			continue
		}
		changed = true
		stms = append(stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.KernelExp{Kernel: k.Kernel, Var: k.Var, Bound: k.Bound, Body: body}})
	}
	if !changed {
		return b
	}
	return &fun.Body{Stms: stms, In: b.In, Result: b.Result, Rparen: b.Rparen}
}

// moveRow gives the statement of body that makes its result, when moved
// holds its pattern, item x of the kernel's block (za).
func moveRow(body *fun.Body, x *fun.Ident, za *ArrayMem, moved map[*fun.Param]bool) *fun.Body {
	for i, st := range body.Stms {
		if len(st.Pat) != 1 || st.Pat[0].Name.Name != body.Result[0].Name {
			continue
		}
		r := st.Pat[0]
		if !moved[r] {
			return body
		}
		row := itemOf(za, x)
		np := &fun.Param{Lparen: r.Lparen, Name: r.Name, Rparen: r.Rparen,
			Type: fun.Type{Dims: r.Type.Dims, Elem: r.Type.Elem, Ext: &ArrayMem{Block: za.Block, Index: row}}}
		stms := append([]*fun.Stm(nil), body.Stms...)
		stms[i] = &fun.Stm{Let: st.Let, Pat: []*fun.Param{np}, Exp: st.Exp}
		return &fun.Body{Stms: stms, In: body.In, Result: body.Result, Rparen: body.Rparen}
	}
	return body
}

// itemOf is index_f(L, x): the index function of item x of an array
// whose index function is a's (its offset plus (x − 1) times its outer
// stride, its inner dimensions).
func itemOf(a *ArrayMem, x *fun.Ident) *IndexFn {
	off, dims := a.Index.LMAD()
	return &IndexFn{Pos: a.Index.Pos,
		Offset: Add(off, Mul(Sub(fun.Var{Ident: x}, fun.Int(1)), dims[0].Stride)),
		Dims:   append([]LDim(nil), dims[1:]...)}
}

// IsItem reports whether src is item x of dst: the same block, and as
// LMADs src's index function is index_f of dst's at x. A kernel whose
// body's result is its own item x (inPlace) needs no COPY.
func IsItem(src, dst *ArrayMem, x *fun.Ident) bool {
	if src == nil || dst == nil || src.Block.Name != dst.Block.Name || dst.Index.Rank() == 0 {
		return false
	}
	return sameLMAD(src.Index, itemOf(dst, x))
}
