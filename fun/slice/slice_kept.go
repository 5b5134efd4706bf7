package slice

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
)

// Part 4 of size slicing: the fallbacks.
//
// A loop that carries an array whose size changes from one iteration to
// the next, and a filter, bind existential sizes whose shape slice is the
// recurrence itself (computing the size ahead would run the loop, or the
// filter's predicate, twice: Fig 19, which the paper rejects for Fig 20):
// they stay existential, as §1's fallback keeps them.
//
// And the allocations that may stay in kernel bodies after slicing are
// listed: those FUN → FUNMEM gives an alloc that MemoryExpand (funmem/
// expand.go) may not hoist out of every kernel around it. MemoryExpand
// hoists an allocation from the top of a kernel's body whose size uses no
// variable bound in that body and whose block no body returns (but as a
// support group's, or an if's pattern's), then again from the kernel
// around, and so on. It also hoists allocations out of an if's branch, a
// loop's or a fold's body inside a kernel, and bounds sizes that vary
// affinely with the kernel's index, under conditions this pass does not
// model: the allocations in those bodies are listed, and the list is a
// superset of what is left.

// fallbacks notes the existential sizes of loops and filters, and lists
// the allocations kept in kernels.
func (s *slicer) fallbacks(p *fun.Program) {
	ts := slTypes{}
	for _, in := range p.Inputs {
		ts[in.Name.Name] = in.Type
	}
	k := &slKeeper{s: s, ts: ts}
	k.body(p.Body, slKeepCtx{})
}

// slKeepCtx is where a body is: in a kernel, at the top of a nest of
// kernel bodies (pure), the names bound in the outermost kernel of the
// nest, and the kernels of the nest.
type slKeepCtx struct {
	inKernel, pure bool
	bound          map[string]bool
	chain          []*fun.Stm // the kernels of the nest, outermost first
	// where says, for a body in a kernel but not at the top of the nest,
	// which form's body it is in.
	where string
}

// slKeeper walks the program for part 4.
type slKeeper struct {
	s  *slicer
	ts slTypes
}

// body walks the statements of b, which is where c says.
func (k *slKeeper) body(b *fun.Body, c slKeepCtx) {
	for _, st := range b.Stms {
		k.stm(st, b, c)
		for _, p := range st.Pat {
			if c.bound != nil {
				c.bound[p.Name.Name] = true
			}
		}
		k.ts.bindStm(st)
	}
}

// stm notes a loop's or a filter's existential sizes and a kept
// allocation, and walks the statement's bodies.
func (k *slKeeper) stm(st *fun.Stm, b *fun.Body, c slKeepCtx) {
	s := k.s
	switch e := st.Exp.(type) {
	case *fun.LoopExp:
		ints := map[string]int{}
		for j, p := range e.Params {
			if p.Type.IsInt() {
				ints[p.Name.Name] = j
			}
		}
		seen := map[int]bool{}
		for _, p := range e.Params {
			for _, d := range p.Type.Dims {
				if j, ok := ints[d.Name]; ok && !seen[j] {
					seen[j] = true
					x := st.Pat[j].Name
					s.note(x.NamePos, "kept %s existential: the loop at %s carries it, so its shape slice is the loop itself, a recurrence (§1's fallback)", x.Name, slAt(st.Pos()))
				}
			}
		}
	case *fun.FilterExp:
		x := st.Pat[0].Name
		s.note(x.NamePos, "kept %s existential: how many rows the filter at %s keeps is known only once it has run (Fig 20)", x.Name, slAt(st.Pos()))
	}
	if c.inKernel && slAllocates(st) {
		if why := k.keptWhy(st, b, c); why != "" {
			s.rep.Kept = append(s.rep.Kept, st.Pos()) // as FUN → FUNMEM gives its alloc
			name := st.Pat[len(st.Pat)-1].Name.Name
			s.note(st.Pos(), "kept the allocation of %s (%s) in the kernel at %s: %s", name, fun.FormName(st.Exp), slAt(c.chain[len(c.chain)-1].Pos()), why)
		}
	}
	// The bodies, with where they are.
	enter := func(bi int, nb *fun.Body, kernel bool) {
		nc := slKeepCtx{inKernel: c.inKernel || kernel, bound: c.bound, chain: c.chain}
		switch {
		case kernel && !c.inKernel:
			nc.pure, nc.bound, nc.chain = true, map[string]bool{}, []*fun.Stm{st}
		case kernel:
			nc.pure, nc.where, nc.chain = c.pure, c.where, append(append([]*fun.Stm(nil), c.chain...), st)
		default:
			nc.pure, nc.where = false, c.where
			if c.inKernel && c.where == "" {
				switch e := st.Exp.(type) {
				case *fun.IfExp:
					nc.where = "in a branch of the if at " + slAt(st.Pos()) + ", and MemoryExpand hoists out of an if only an allocation whose size is known before it"
				case *fun.ScanExp, *fun.FilterExp:
					nc.where = "in the body of the " + fun.FormName(st.Exp) + " at " + slAt(st.Pos()) + ", whose allocations MemoryExpand leaves there"
				case *fun.RedomapExp:
					if e.Scan {
						nc.where = "in the body of the scanomap at " + slAt(st.Pos()) + ", whose allocations MemoryExpand leaves there"
						break
					}
					nc.where = "in the body of the redomap at " + slAt(st.Pos()) + slLoopWhy
				default:
					nc.where = "in the body of the " + fun.FormName(st.Exp) + " at " + slAt(st.Pos()) + slLoopWhy
				}
			}
		}
		if nc.bound != nil {
			for x := range slBinders(st) {
				nc.bound[x] = true
			}
		}
		k.ts.bindFor(st.Exp, bi)
		k.body(nb, nc)
	}
	_, isKernel := st.Exp.(*fun.KernelExp)
	for bi, nb := range fun.ExpBodies(st.Exp) {
		enter(bi, nb, isKernel)
	}
}

// slLoopWhy says when MemoryExpand hoists an allocation out of a loop or
// a fold in a kernel (funmem/expand_loop.go, expand_fold.go), which this
// pass does not decide: it lists the allocation as kept.
const slLoopWhy = ", and MemoryExpand hoists out of a loop or fold only an allocation whose size is known before it and whose arrays live no longer than the next iteration"

// slAllocates reports whether FUN → FUNMEM gives a statement an alloc.
func slAllocates(st *fun.Stm) bool {
	switch e := st.Exp.(type) {
	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp, *fun.ScanExp, *fun.FilterExp:
		return true
	case *fun.RedomapExp:
		return e.Scan
	}
	return false
}

// keptWhy says why MemoryExpand cannot hoist the allocation of st, a
// statement of body b in a kernel, out of every kernel ("" when it can).
func (k *slKeeper) keptWhy(st *fun.Stm, b *fun.Body, c slKeepCtx) string {
	if !c.pure {
		return "it is " + c.where
	}
	for _, d := range slAllocDims(st, k.ts) {
		if c.bound[d.Name] {
			if why, ok := k.s.unhoisted[st]; ok {
				return why
			}
			return fmt.Sprintf("its size %s is bound in the kernel at %s", d.Name, slAt(c.chain[0].Pos()))
		}
	}
	for _, kn := range c.chain[1:] {
		e := kn.Exp.(*fun.KernelExp)
		if c.bound[e.Bound.Name] {
			return fmt.Sprintf("the kernel at %s around it has the bound %s, bound in the kernel at %s", slAt(kn.Pos()), e.Bound.Name, slAt(c.chain[0].Pos()))
		}
	}
	if ret := slReturnedBlock(st, b); ret != nil {
		return fmt.Sprintf("its block is returned by the %s at %s (MemoryExpand expands only blocks that are used in types)", fun.FormName(ret.Exp), slAt(ret.Pos()))
	}
	return ""
}

// slReturnedBlock is the if or loop in body b (a kernel's, st one of its
// statements) that returns, starts from or carries the array st makes or a view
// or an if's result of it (in FUNMEM, its block), or nil. The array is in
// scope in the rest of b; a name bound in a scope of its own is another
// array, so the aliases are followed scope by scope.
func slReturnedBlock(st *fun.Stm, b *fun.Body) *fun.Stm {
	var found *fun.Stm
	// walk follows the aliases through stms (alias is theirs, extended as
	// the statements bind more); it gives the aliases at the end.
	var walk func(stms []*fun.Stm, alias map[string]bool) map[string]bool
	walk = func(stms []*fun.Stm, alias map[string]bool) map[string]bool {
		for _, t := range stms {
			var ends []map[string]bool // each body's aliases at its end
			for _, nb := range fun.ExpBodies(t.Exp) {
				inner := map[string]bool{}
				for x, v := range alias {
					inner[x] = v
				}
				ends = append(ends, walk(nb.Stms, inner))
			}
			switch e := t.Exp.(type) {
			case *fun.SliceExp:
				alias[t.Pat[0].Name.Name] = alias[e.Arr.Name]
			case *fun.TransposeExp:
				alias[t.Pat[0].Name.Name] = alias[e.Arr.Name]
			case *fun.IfExp:
				for j, p := range t.Pat {
					returned := ends[0][e.Then.Result[j].Name] || ends[1][e.Else.Result[j].Name]
					if returned && found == nil {
						found = t
					}
					alias[p.Name.Name] = returned
				}
			case *fun.LoopExp:
				// A loop starts from its initial values and carries its
				// body's results, with their blocks.
				for _, x := range e.Init {
					if alias[x.Name] && found == nil {
						found = t
					}
				}
				for _, x := range e.Body.Result {
					if ends[0][x.Name] && found == nil {
						found = t
					}
				}
				for _, p := range t.Pat {
					alias[p.Name.Name] = false
				}
			default:
				for _, p := range t.Pat {
					alias[p.Name.Name] = false
				}
			}
		}
		return alias
	}
	walk(b.Stms[slIndexOf(b, st)+1:], map[string]bool{st.Pat[len(st.Pat)-1].Name.Name: true})
	return found
}
