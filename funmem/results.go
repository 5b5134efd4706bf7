package funmem

import (
	"github.com/arraysem/arraysem/fun"
)

// ownResults gives a program's array results their blocks directly where
// it can. TransformProgram returns each array result x as a row-major copy
// in a block of its own (s_alloc; s_lin):
//
//	let (m : mem) = alloc N
//	let (y : [n]… @ m -> R(n, …)) = copy x
//	in (…, m, y, …)
//
// which on a GPU is a kernel that moves the whole result once more. When
// x already is what T-MEM-PROG asks of a result (row-major with offset 0,
// its type's sizes) in a block the program's body allocated for it alone
// (no other array, view or result is in that block, and it is not an
// input's), the copy adds nothing: the program returns x and its block,
// and the alloc and the copy go. Arrays are never written once made, and
// a valid program (Def 3.1) does not overwrite a live array's memory, so
// x's block holds x's value when the program ends, as the copy would.
func ownResults(b *fun.Body) *fun.Body { return ownResultsWith(b, true) }

// ownResultsWith is ownResults; without shortcuts, it counts the uses
// whether or not a pair of results may go, looking every identifier up
// (TestOwnResultsShortcuts compares the two).
func ownResultsWith(b *fun.Body, shortcuts bool) *fun.Body {
	binding := map[string]int{} // a top-level name → the statement binding it
	for i, st := range b.Stms {
		for _, p := range st.Pat {
			binding[p.Name.Name] = i
		}
	}
	// A result goes only where an allocation's block and a copy made in
	// it are returned side by side: without such a pair (as in a program
	// simplified before) there is nothing to count.
	pair := false
	for i := 0; i+1 < len(b.Result) && !pair; i++ {
		jm, okm := binding[b.Result[i].Name]
		jy, oky := binding[b.Result[i+1].Name]
		if okm && oky && len(b.Stms[jm].Pat) == 1 && len(b.Stms[jy].Pat) == 1 {
			_, alloc := b.Stms[jm].Exp.(*AllocExp)
			_, copied := b.Stms[jy].Exp.(*fun.CopyExp)
			pair = alloc && copied
		}
	}
	if !pair && shortcuts {
		return b
	}
	uses := useCounter{n: map[string]int{}, step: 1}
	for i := 0; i+1 < len(b.Result); i++ {
		for _, x := range b.Result[i : i+2] {
			uses.n[x.Name] = 0
		}
		if j, ok := binding[b.Result[i+1].Name]; ok {
			if c, ok := b.Stms[j].Exp.(*fun.CopyExp); ok {
				uses.n[c.Arr.Name] = 0
				if k, ok := binding[c.Arr.Name]; ok {
					for _, p := range b.Stms[k].Pat {
						if a := ArrayOf(p.Type); a != nil && p.Name.Name == c.Arr.Name {
							uses.n[a.Block.Name] = 0
						}
					}
				}
			}
		}
	}
	if len(uses.n) == 0 {
		return b
	}
	// The names counted are few: an identifier is looked up only when
	// their signature may hold it.
	for x := range uses.n {
		uses.mask = uses.mask.with(x)
	}
	uses.masked = shortcuts
	uses.body(b)
	drop := map[int]bool{}
	result := append([]*fun.Ident(nil), b.Result...)
	for i := 0; i+1 < len(result); i++ {
		m, y := result[i], result[i+1]
		jm, okm := binding[m.Name]
		jy, oky := binding[y.Name]
		if !okm || !oky || drop[jm] || drop[jy] {
			continue
		}
		if _, ok := b.Stms[jm].Exp.(*AllocExp); !ok || len(b.Stms[jm].Pat) != 1 {
			continue
		}
		c, ok := b.Stms[jy].Exp.(*fun.CopyExp)
		if !ok || len(b.Stms[jy].Pat) != 1 {
			continue
		}
		yt := b.Stms[jy].Pat[0].Type
		jx, ok := binding[c.Arr.Name]
		if !ok || drop[jx] {
			continue
		}
		var xt fun.Type
		for _, p := range b.Stms[jx].Pat {
			if p.Name.Name == c.Arr.Name {
				xt = p.Type
			}
		}
		xa, ya := ArrayOf(xt), ArrayOf(yt)
		if xa == nil || ya == nil || ya.Block.Name != m.Name || xt.Elem != yt.Elem || !sameDims(xt.Dims, yt.Dims) || !sameLMAD(xa.Index, ya.Index) {
			continue
		}
		jxm, ok := binding[xa.Block.Name]
		if !ok {
			continue // an input's block, or one a pattern binds with its support
		}
		if _, ok := b.Stms[jxm].Exp.(*AllocExp); !ok || len(b.Stms[jxm].Pat) != 1 {
			continue
		}
		// m only in y's type and the results, y only in the results, x's
		// block only in x's type: nothing else lives in it, or sees m.
		if uses.n[m.Name] != 2 || uses.n[y.Name] != 1 || uses.n[xa.Block.Name] != 1 {
			continue
		}
		drop[jm], drop[jy] = true, true
		result[i], result[i+1] = xa.Block, c.Arr
		uses.n[xa.Block.Name]++ // now a result: another result may not claim it
	}
	if len(drop) == 0 {
		return b
	}
	var stms []*fun.Stm
	for i, st := range b.Stms {
		if !drop[i] {
			stms = append(stms, st)
		}
	}
	return &fun.Body{Stms: stms, In: b.In, Result: result}
}

// sameDims reports whether two lists of sizes name the same variables.
func sameDims(a, b []*fun.Ident) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// sameLMAD reports whether two index functions are the same LMAD (offset,
// and each dimension's elements and stride, as polynomials).
func sameLMAD(a, b *IndexFn) bool {
	ao, ad := a.LMAD()
	bo, bd := b.LMAD()
	if len(ad) != len(bd) || !SameValue(ao, bo) {
		return false
	}
	for i := range ad {
		if !SameValue(ad[i].Elems, bd[i].Elems) || !SameValue(ad[i].Stride, bd[i].Stride) {
			return false
		}
	}
	return true
}
