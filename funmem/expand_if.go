package funmem

import "github.com/arraysem/arraysem/fun"

// Allocations in a branch of an if inside a kernel. §5's hoisting leaves
// them in the branch, so a thread that takes it allocates. A branch's
// allocation whose size is known before the if (the branch's scalar lets
// that cannot be stuck substituted) is made before the if instead, taken
// or not (its size never negative: nonNegative), and reaches the top of
// the kernel's body as any. The branch may return the block as the block
// of the if's pattern's arrays (MemoryExpand then moves it with the
// other branches' blocks and the pattern's arrays: joint), but nothing
// else of it.

// outOfIf hoists what it can of the allocations at the top of the
// branches of st, an if inside a kernel (sc: the types in scope): the
// allocations to put before the if, and the if.
func (x *expander) outOfIf(st *fun.Stm, sc *typeScope) ([]*fun.Stm, *fun.Stm) {
	e := st.Exp.(*fun.IfExp)
	pat := st.Pat
	branches := []*fun.Body{e.Then, e.Else}
	var pre []*fun.Stm
	for bi, br := range branches {
		binders := fun.Binders(br)
		defs := map[string]fun.SExp{}
		for i := 0; i < len(br.Stms); i++ {
			s := br.Stms[i]
			switch se := s.Exp.(type) {
			case *fun.ScalarExp:
				noteDef(defs, s, se)
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
				if !returnedAs(br, i, z, pat) {
					continue
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
	return pre, &fun.Stm{Let: st.Let, Pat: pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: branches[0], Else: branches[1]}}
}

// returnedAs reports whether branch br returns block z, allocated by its
// statement i, only as the block of the if's pattern's mem parameters,
// and arrays in it only as arrays the pattern puts in those blocks (not
// as an array of another block, nor through an alias).
func returnedAs(br *fun.Body, i int, z string, pat []*fun.Param) bool {
	held := holders(br.Stms[i+1:], z)
	if len(br.Result) != len(pat) {
		return !heldAny(br.Result, held)
	}
	blocks := map[int]bool{}
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
			return false
		}
		if k := indexOf(pat, a.Block.Name); k < 0 || !blocks[k] {
			return false
		}
	}
	return true
}
