package funmem

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
)

// Allocations in a branch of an if inside a kernel. §5's hoisting leaves
// them in the branch, so a thread that takes it allocates. A branch's
// allocation whose size is known before the if (the branch's scalar lets
// that cannot be stuck substituted) is made before the if instead, taken
// or not (its size never negative: nonNegative), and reaches the top of
// the kernel's body as any. When the branch returns the block, as the
// block of arrays of the if's pattern, the pattern binds those arrays
// with their support (an offset and strides, as Support gives them,
// which the simplifier drops when both branches agree on constant ones),
// so that MemoryExpand can move them with the block (regroup). What else
// the branch returns must hold nothing of the block.

// outOfIf hoists what it can of the allocations at the top of the
// branches of st, an if inside a kernel (sc: the types in scope): the
// allocations to put before the if, and the if.
func (x *expander) outOfIf(st *fun.Stm, sc *typeScope) ([]*fun.Stm, *fun.Stm) {
	e := st.Exp.(*fun.IfExp)
	pat := st.Pat
	branches := []*fun.Body{e.Then, e.Else}
	supported := map[int]bool{} // pattern blocks whose arrays get their support
	var pre []*fun.Stm
	for bi, br := range branches {
		binders := fun.Binders(br)
		defs := map[string]fun.SExp{}
		for i := 0; i < len(br.Stms); i++ {
			s := br.Stms[i]
			switch se := s.Exp.(type) {
			case *fun.ScalarExp:
				if len(s.Pat) == 1 && s.Pat[0].Type.IsInt() && !fun.CanFail(se.X) {
					defs[s.Pat[0].Name.Name] = se.X
				}
				continue
			case *AllocExp:
				size := se.Size
				if usesAny(size, binders) {
					size = substDefs(size, defs, 0)
					if size == nil || fun.CanFail(size) || usesAny(size, binders) {
						continue // known only inside the branch
					}
				}
				z := s.Pat[0].Name.Name
				blocks, ok := returnedAs(br, i, z, pat)
				if !ok || !x.canSupport(pat, blocks, branches, sc) {
					continue
				}
				for j := range blocks {
					supported[j] = true
				}
				pre = append(pre, &fun.Stm{Let: s.Let, Pat: s.Pat, Exp: &AllocExp{Alloc: se.Alloc, Size: nonNegative(size), Rparen: se.Rparen}})
				br = &fun.Body{Stms: append(append([]*fun.Stm(nil), br.Stms[:i]...), br.Stms[i+1:]...), In: br.In, Result: br.Result, Rparen: br.Rparen}
				branches[bi] = br
				i--
			}
		}
	}
	if len(pre) == 0 {
		return nil, st
	}
	pat, branches = x.supportPattern(pat, supported, branches, sc)
	return pre, &fun.Stm{Let: st.Let, Pat: pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: branches[0], Else: branches[1]}}
}

// returnedAs says how branch br returns block z, allocated by its
// statement i: as the block of the if's pattern parameters blocks (their
// indices), and otherwise only in the arrays the pattern puts in those
// blocks; ok is false when it returns z otherwise (an array in it, as an
// array of another block, or through an alias).
func returnedAs(br *fun.Body, i int, z string, pat []*fun.Param) (blocks map[int]bool, ok bool) {
	held := holders(br.Stms[i+1:], z)
	if len(br.Result) != len(pat) {
		return nil, !heldAny(br.Result, held)
	}
	blocks = map[int]bool{}
	for j, r := range br.Result {
		if r.Name == z && IsMem(pat[j].Type) {
			blocks[j] = true
		}
	}
	for j, r := range br.Result {
		if !held[r.Name] || blocks[j] {
			continue
		}
		a := ArrayOf(pat[j].Type)
		if a == nil {
			return nil, false
		}
		if k := indexOf(pat, a.Block.Name); k < 0 || !blocks[k] {
			return nil, false
		}
	}
	return blocks, true
}

// canSupport reports whether the arrays the pattern puts in the blocks
// have their support, or can be given it: the type of each branch's
// result for them is known.
func (x *expander) canSupport(pat []*fun.Param, blocks map[int]bool, branches []*fun.Body, sc *typeScope) bool {
	for k, p := range pat {
		a := ArrayOf(p.Type)
		if a == nil || !blocks[indexOf(pat, a.Block.Name)] || inSupportForm(p, pat) {
			continue
		}
		for _, br := range branches {
			if len(br.Result) != len(pat) {
				return false
			}
			if t, ok := typeIn(br.Result[k].Name, br, nil, sc); !ok || ArrayOf(t) == nil {
				return false
			}
		}
	}
	return true
}

// inSupportForm reports whether array parameter p of ps has its support
// among ps (Groups's form).
func inSupportForm(p *fun.Param, ps []*fun.Param) bool {
	index := map[string]int{}
	for j, q := range ps {
		index[q.Name.Name] = j
	}
	_, ok := supportForm(p, index)
	return ok
}

// supportPattern gives the arrays that pattern pat puts in the blocks of
// the indices blocks their support, as Support does: an offset and a
// stride a dimension before each, bound in each branch to those of the
// branch's result.
func (x *expander) supportPattern(pat []*fun.Param, blocks map[int]bool, branches []*fun.Body, sc *typeScope) ([]*fun.Param, []*fun.Body) {
	var np []*fun.Param
	nres := make([][]*fun.Ident, len(branches))
	lets := make([][]*fun.Stm, len(branches))
	for k, p := range pat {
		a := ArrayOf(p.Type)
		if a == nil || !blocks[indexOf(pat, a.Block.Name)] || inSupportForm(p, pat) {
			np = append(np, p)
			for b, br := range branches {
				nres[b] = append(nres[b], br.Result[k])
			}
			continue
		}
		_, dims := a.Index.LMAD()
		off := x.names.fresh(p.Name.Name + "_off")
		l := &IndexFn{Pos: a.Index.Pos, Offset: fun.Var{Ident: off}}
		np = append(np, &fun.Param{Lparen: p.Lparen, Name: off, Type: fun.Type{}, Rparen: p.Rparen})
		var strides []*fun.Ident
		for d, dim := range dims {
			s := x.names.fresh(fmt.Sprintf("%s_stride%d", p.Name.Name, d+1))
			strides = append(strides, s)
			np = append(np, &fun.Param{Lparen: p.Lparen, Name: s, Type: fun.Type{}, Rparen: p.Rparen})
			l.Dims = append(l.Dims, LDim{Elems: dim.Elems, Stride: fun.Var{Ident: s}})
		}
		np = append(np, &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.Type{Dims: p.Type.Dims, Elem: p.Type.Elem, Ext: &ArrayMem{Block: a.Block, Index: l}}, Rparen: p.Rparen})
		for b, br := range branches {
			r := br.Result[k]
			t, _ := typeIn(r.Name, br, nil, sc)
			post, supp := x.supportOf(t, r)
			lets[b] = append(lets[b], post...)
			nres[b] = append(nres[b], supp[1:]...) // the offset, the strides, the array
		}
	}
	out := make([]*fun.Body, len(branches))
	for b, br := range branches {
		out[b] = &fun.Body{Stms: append(append([]*fun.Stm(nil), br.Stms...), lets[b]...), In: br.In, Result: nres[b], Rparen: br.Rparen}
	}
	return np, out
}
