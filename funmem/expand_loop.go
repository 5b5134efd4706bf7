package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Allocations in the body of a loop inside a kernel. §5 hoists only the
// allocations at the top of a kernel's body; one in a loop's body runs
// once per iteration of the loop in every thread, so a GPU thread would
// allocate from the device heap at each iteration. The iterations run in
// order, one at a time, so they need not each have a block of their own:
//
//   - when no array of the block outlives its iteration (the body's
//     results name none of its arrays, nor anything that may hold one),
//     one block before the loop serves every iteration in turn;
//   - when the iteration's array is what the body carries to the next
//     (the body returns the block as a support group's, which is what
//     TransformStm makes of a loop carrying an array), two halves of one
//     block serve the iterations by turns, iteration i writing half
//     i mod 2 and reading the array the previous one made in the other
//     half (double buffering): an array lives until the iteration after
//     the one that made it has run, and no longer, provided every array
//     the body returns is made in the iteration or lives outside the loop
//     (one it took from a parameter could be two iterations old, in the
//     half being written).
//
// The block's size is the allocation's, or its largest value over the
// iterations when it varies (boundOver), and never negative: the loop may
// run no iteration (nonNegative). Once before the loop, the allocation is
// one of the kernel's body (or of a loop around, which it leaves in
// turn), which MemoryExpand expands as any. An allocation whose size is
// known only inside the body (carried by the loop, read from an array),
// or whose block the body returns otherwise, stays.

// outOfLoop hoists what it can of the allocations at the top of the body
// of st, a loop inside a kernel: the allocations to put before the loop,
// and the loop.
func (x *expander) outOfLoop(st *fun.Stm) ([]*fun.Stm, *fun.Stm) {
	e := st.Exp.(*fun.LoopExp)
	inLoop := fun.Binders(e.Body)
	for _, p := range e.Params {
		inLoop[p.Name.Name] = true
	}
	inLoop[e.Var.Name] = true
	n := fun.Var{Ident: e.Bound}
	body := e.Body
	var pre []*fun.Stm
	defs := map[string]fun.SExp{}
	for i := 0; i < len(body.Stms); i++ {
		s := body.Stms[i]
		switch se := s.Exp.(type) {
		case *fun.ScalarExp:
			noteDef(defs, s, se)
			continue
		case *AllocExp:
			size, ok := boundOver(se.Size, inLoop, defs, e.Var, n)
			if !ok {
				continue // known only inside the body
			}
			z := s.Pat[0].Name.Name
			rest := &fun.Body{Stms: append(append([]*fun.Stm(nil), body.Stms[:i]...), body.Stms[i+1:]...), In: body.In, Result: body.Result, Rparen: body.Rparen}
			held := holders(body.Stms[i+1:], z)
			switch {
			case !heldAny(body.Result, held):
				pre = append(pre, &fun.Stm{Let: s.Let, Pat: s.Pat, Exp: &AllocExp{Alloc: se.Alloc, Size: nonNegative(size), Rparen: se.Rparen}})
			case x.doubleBufferable(rest, z, held, e.Params, inLoop):
				d := x.names.fresh(z + "_pair")
				half := Mul(fun.Binary(semantics.Mod, fun.Var{Ident: e.Var}, fun.Int(2)), nonNegative(size)) // (i mod 2)·size
				m := lmadMap{offset: func(off fun.SExp) fun.SExp { return Add(half, off) }, stride: func(s fun.SExp) fun.SExp { return s }}
				rest = x.move(rest, z, d, m, e.Params)
				pre = append(pre, &fun.Stm{Let: s.Let, Pat: []*fun.Param{{Lparen: s.Pat[0].Lparen, Name: d, Type: Mem(), Rparen: s.Pat[0].Rparen}},
					Exp: &AllocExp{Alloc: se.Alloc, Size: nonNegative(Mul(fun.Int(2), size)), Rparen: se.Rparen}})
			default:
				continue
			}
			body = rest
			i--
		}
	}
	if len(pre) == 0 {
		return nil, st
	}
	l := *e
	l.Body = body
	return pre, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &l}
}

// doubleBufferable reports whether the block z, allocated in the loop
// body b (and taken out of it), may serve the iterations by halves: b
// names it only as the block of support groups (groupsOnly), among its
// results only as the block of the loop's own groups, and every group the
// body returns has a block made in the iteration (allocated at the top of
// b, z among them), bound outside the loop, or its own parameter's (its
// initial block, carried on): nothing that may hold an older iteration's
// array (another group's parameter, a pattern's block).
func (x *expander) doubleBufferable(b *fun.Body, z string, held map[string]bool, ps []*fun.Param, inLoop map[string]bool) bool {
	if !groupsOnly(b, z, ps, nil) || len(b.Result) != len(ps) {
		return false
	}
	fresh := map[string]bool{z: true}
	for _, s := range b.Stms {
		if _, ok := s.Exp.(*AllocExp); ok {
			fresh[s.Pat[0].Name.Name] = true
		}
	}
	blocks := groupBlocks(ps)
	support := map[int]bool{}
	for j, gs := range blocks {
		if gs == nil {
			continue
		}
		// A group that returns its own parameter's block carries its
		// initial block, from outside the loop, through every iteration.
		r := b.Result[j].Name
		if !fresh[r] && inLoop[r] && r != ps[j].Name.Name {
			return false
		}
		if r != z {
			continue
		}
		support[j] = true
		for _, g := range gs {
			support[g.off] = true
			for _, s := range g.strides {
				support[s] = true
			}
		}
	}
	// A group's array follows its block (it is the parameter whose type
	// names the block, after its support); what else the body returns
	// must hold nothing of z.
	for j, r := range b.Result {
		if !held[r.Name] || support[j] {
			continue
		}
		if a := ArrayOf(ps[j].Type); a != nil && blocks[indexOf(ps, a.Block.Name)] != nil && b.Result[indexOf(ps, a.Block.Name)].Name == z {
			continue
		}
		return false
	}
	return true
}

// indexOf is the index of the parameter named x among ps, or -1.
func indexOf(ps []*fun.Param, x string) int {
	for j, p := range ps {
		if p.Name.Name == x {
			return j
		}
	}
	return -1
}

// heldAny reports whether one of xs is among held.
func heldAny(xs []*fun.Ident, held map[string]bool) bool {
	for _, y := range xs {
		if held[y.Name] {
			return true
		}
	}
	return false
}

// holders are the names that may stand for block z, or for an array in
// it, after the statements stms (which follow z's allocation, at its
// level): z, every array whose type puts it in one of them, and the
// blocks and arrays of the patterns of the forms that may return one (an
// if, a loop, a reduce or redomap, whose bodies return one, whose loop
// starts or whose fold starts from one; a kernel copies its rows into
// its own block). A name bound twice in sibling scopes counts once: the
// set is larger than needed, never smaller.
func holders(stms []*fun.Stm, z string) map[string]bool {
	h := map[string]bool{z: true}
	in := func(t fun.Type) bool {
		a := ArrayOf(t)
		return a != nil && h[a.Block.Name]
	}
	var walk func(stms []*fun.Stm)
	walk = func(stms []*fun.Stm) {
		for _, s := range stms {
			for _, p := range fun.ExpParams(s.Exp) {
				if in(p.Type) {
					h[p.Name.Name] = true
				}
			}
			escapes := false
			_, kernel := s.Exp.(*fun.KernelExp)
			for _, nb := range fun.ExpBodies(s.Exp) {
				walk(nb.Stms)
				escapes = escapes || !kernel && heldAny(nb.Result, h)
			}
			switch e := s.Exp.(type) {
			case *fun.LoopExp:
				escapes = escapes || heldAny(e.Init, h)
			case *fun.ReduceExp:
				escapes = escapes || h[e.Ne.Name]
			case *fun.RedomapExp:
				escapes = escapes || h[e.Ne.Name]
			}
			for _, p := range s.Pat {
				if in(p.Type) || escapes && (IsMem(p.Type) || ArrayOf(p.Type) != nil) {
					h[p.Name.Name] = true
				}
			}
		}
	}
	walk(stms)
	return h
}
