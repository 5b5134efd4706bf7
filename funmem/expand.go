package funmem

import (
	"fmt"
	"github.com/arraysem/arraysem/semantics"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
)

// Layout is where MemoryExpand puts each thread's part of an expanded
// block.
type Layout int

const (
	// GPU interleaves the threads' arrays: element j of thread x lives at
	// (x − 1) + y·L(j), so consecutive threads touch consecutive words
	// (coalesced access).
	GPU Layout = iota
	// CPU gives thread x the row (x − 1)·se … x·se − 1 of the block, so
	// one thread's accesses stay together.
	CPU
)

// String is the layout's name, as ParseLayout reads it.
func (l Layout) String() string {
	if l == CPU {
		return "cpu"
	}
	return "gpu"
}

// ParseLayout reads "gpu" or "cpu".
func ParseLayout(s string) (Layout, error) {
	switch s {
	case "gpu", "":
		return GPU, nil
	case "cpu":
		return CPU, nil
	}
	return GPU, fmt.Errorf("unknown layout %q (gpu or cpu)", s)
}

// MemoryExpand hoists allocations out of kernels (§5). It first moves each
// kernel-invariant allocation to the top of its kernel's body (the
// procedure assumes this was done), then, while some kernel
//
//	let p̄ = kernel x <= y do let (z : mem) = alloc se  b
//
// (z among the allocations at the top of the body) has x ∉ FV(se) and z
// used only in types in b, allocates one block z' of
// se·y before the kernel and rewrites every type [x1]…[xn] @ z -> L in b to
// live in z' at thread x's part (see Layout). Kernel indices run from 1, so
// thread x's part starts at (x − 1)·se, not the paper's x·se, which would
// reach past the block (ERRATA.md). Nested kernels expand from the inside
// out: an inner expansion's allocation becomes the outer kernel's.
func MemoryExpand(p *fun.Program, layout Layout) *fun.Program {
	x := &expander{names: newNames(p), layout: layout}
	body := p.Body
	for {
		x.changed = false
		body = x.body(hoistAllocs(body, nil))
		if !x.changed {
			break
		}
	}
	return &fun.Program{File: p.File, Inputs: p.Inputs, Body: body, Format: p.Format}
}

type expander struct {
	names   *names
	layout  Layout
	changed bool
}

// hoistAllocs moves, in every kernel body, the allocations whose sizes
// use only variables bound outside that body to its top. local is the set
// of names bound inside the innermost enclosing kernel body (nil outside).
func hoistAllocs(b *fun.Body, local map[string]bool) *fun.Body {
	return hoistIn(b, semantics.CloneMap(local), local != nil, true)
}

// hoistIn is hoistAllocs of b, given bound, the names bound inside the
// innermost enclosing kernel body so far (all names bound so far outside
// kernels), and inKernel, whether there is such a body. The branches of
// an if share their caller's set, taking back the names they add when
// done (owned is false), rather than each being given a copy.
func hoistIn(b *fun.Body, bound map[string]bool, inKernel, owned bool) *fun.Body {
	var added []string // the names this body adds to a set it does not own
	var allocs []*fun.Stm
	rest := make([]*fun.Stm, 0, len(b.Stms))
	for _, st := range b.Stms {
		ns := st
		switch e := st.Exp.(type) {
		case *fun.KernelExp:
			inner := hoistIn(e.Body, map[string]bool{e.Var.Name: true}, true, true)
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: inner}}
		case *fun.IfExp:
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond,
				Then: hoistIn(e.Then, bound, true, false), Else: hoistIn(e.Else, bound, true, false)}}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			// Their bodies run once per iteration, in order: allocations
			// stay there (each iteration's arrays live in blocks of their
			// own), but the kernels inside expand as any.
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, hoistIn(fun.ExpBody(e), map[string]bool{}, false, true))}
		case *fun.RedomapExp:
			// So do a redomap's: its elements are folded in order, each
			// map body's arrays in blocks of its own, as a reduce's rows.
			ns = &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{
				hoistIn(e.Map, map[string]bool{}, false, true), hoistIn(e.Op, map[string]bool{}, false, true)})}
		case *AllocExp:
			invariant := inKernel
			var buf [8]*fun.Ident
			for _, v := range fun.FreeVars(e.Size, buf[:0]) {
				if bound[v.Name] {
					invariant = false
				}
			}
			if invariant {
				allocs = append(allocs, st)
				continue
			}
		}
		rest = append(rest, ns)
		for _, q := range st.Pat {
			if !owned && !bound[q.Name.Name] {
				added = append(added, q.Name.Name)
			}
			bound[q.Name.Name] = true
		}
	}
	for _, x := range added {
		delete(bound, x)
	}
	stms := rest
	switch {
	case len(allocs) > 0:
		stms = append(allocs, rest...)
	case len(rest) == 0:
		stms = nil // as appending nothing to nothing gives
	}
	return &fun.Body{Stms: stms, In: b.In, Result: b.Result}
}

func (x *expander) body(b *fun.Body) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result}
	if len(b.Stms) > 0 {
		out.Stms = make([]*fun.Stm, 0, len(b.Stms))
	}
	for _, st := range b.Stms {
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond, Then: x.body(e.Then), Else: x.body(e.Else)}})
		case *fun.KernelExp:
			inner := x.body(e.Body)
			k := &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: inner}
			for i := x.expandable(k); i >= 0; i = x.expandable(k) {
				var alloc *fun.Stm
				alloc, k = x.expand(k, i)
				out.Stms = append(out.Stms, alloc)
				x.changed = true
			}
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: k})
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithParts(e, nil, x.body(fun.ExpBody(e)))})
		case *fun.RedomapExp:
			out.Stms = append(out.Stms, &fun.Stm{Let: st.Let, Pat: st.Pat, Exp: fun.WithBodies(e, nil, []*fun.Body{x.body(e.Map), x.body(e.Op)})})
		default:
			out.Stms = append(out.Stms, st)
		}
	}
	return out
}

// expandable finds, among the allocations at the top of the kernel's body
// (hoistAllocs puts the invariant ones there), one that MemoryExpand's
// condition holds for: let z = alloc se with x ∉ FV(se), z only used in
// patterns (no body returns it). It returns its index, or -1.
func (x *expander) expandable(k *fun.KernelExp) int {
	for i, st := range k.Body.Stms {
		a, ok := st.Exp.(*AllocExp)
		if !ok {
			return -1
		}
		if x.canExpand(k, i, a) {
			return i
		}
	}
	return -1
}

func (x *expander) canExpand(k *fun.KernelExp, i int, a *AllocExp) bool {
	for _, v := range fun.FreeVars(a.Size, nil) {
		if v.Name == k.Var.Name {
			return false
		}
	}
	z := k.Body.Stms[i].Pat[0].Name.Name
	returned := false
	eachBody(k.Body, func(b *fun.Body) {
		for _, r := range b.Result {
			returned = returned || r.Name == z
		}
		// A loop's initial values name blocks too (an array's support).
		for _, s := range b.Stms {
			if l, ok := s.Exp.(*fun.LoopExp); ok {
				for _, y := range l.Init {
					returned = returned || y.Name == z
				}
			}
		}
	})
	return !returned
}

// eachBody calls f on b and on every body nested in it, depth first, in
// source order, as fun.Bodies does, but going from statement to statement
// rather than through every node: FUNMEM's one expression of its own,
// alloc, holds no body.
func eachBody(b *fun.Body, f func(*fun.Body)) {
	f(b)
	for _, s := range b.Stms {
		switch e := s.Exp.(type) {
		case *fun.IfExp:
			eachBody(e.Then, f)
			eachBody(e.Else, f)
		case *fun.RedomapExp:
			eachBody(e.Map, f)
			eachBody(e.Op, f)
		default:
			if c := fun.ExpBody(e); c != nil {
				eachBody(c, f)
			}
		}
	}
}

// expand is one step of MemoryExpand on the allocation at index i of the
// kernel's body: the allocation before the kernel, and the kernel with its
// types moved into the expanded block.
func (x *expander) expand(k *fun.KernelExp, i int) (*fun.Stm, *fun.KernelExp) {
	first := k.Body.Stms[i]
	z := first.Pat[0]
	se := first.Exp.(*AllocExp).Size
	y := fun.Var{Ident: k.Bound}
	thread := Sub(fun.Var{Ident: k.Var}, fun.Int(1)) // x − 1
	zx := x.names.fresh(z.Name.Name + "_exp")
	alloc := &fun.Stm{Let: first.Let, Pat: []*fun.Param{{Lparen: z.Lparen, Name: zx, Type: Mem()}},
		Exp: &AllocExp{Alloc: first.Exp.Pos(), Size: Mul(se, y)}}
	retype := func(t fun.Type) fun.Type {
		a := ArrayOf(t)
		if a == nil || a.Block.Name != z.Name.Name {
			return t
		}
		off, dims := a.Index.LMAD()
		l := &IndexFn{Pos: a.Index.Pos}
		switch x.layout {
		case CPU: // (x − 1)·se + se' + {(x_i : s_i)}
			l.Offset = Add(Mul(thread, se), off)
			l.Dims = dims
		default: // (x − 1) + se'·y + {(x_i : s_i·y)}
			l.Offset = Add(thread, Mul(off, y))
			for _, d := range dims {
				l.Dims = append(l.Dims, LDim{Elems: d.Elems, Stride: Mul(d.Stride, y)})
			}
			if mutant.On("expand-stride") { // mutant: the strides are not scaled by y (threads' arrays overlap)
				l.Dims = dims
			}
		}
		return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: &fun.Ident{NamePos: a.Block.NamePos, Name: zx.Name}, Index: l}}
	}
	rest := append(append([]*fun.Stm(nil), k.Body.Stms[:i]...), k.Body.Stms[i+1:]...)
	body := retypeBody(&fun.Body{Stms: rest, In: k.Body.In, Result: k.Body.Result}, retype)
	return alloc, &fun.KernelExp{Kernel: k.Kernel, Var: k.Var, Bound: k.Bound, Body: body}
}

// retypeBody rewrites the types of every binding in b.
func retypeBody(b *fun.Body, f func(fun.Type) fun.Type) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result}
	if len(b.Stms) == 0 {
		return out
	}
	// Simplify retypes every program it returns: the statements are
	// allocated together (copyStms).
	out.Stms = copyStms(b.Stms, func(p *fun.Param) fun.Param {
		return fun.Param{Lparen: p.Lparen, Name: p.Name, Type: f(p.Type)}
	})
	for i, st := range b.Stms {
		ns := out.Stms[i]
		switch e := st.Exp.(type) {
		case *fun.IfExp:
			ns.Exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: retypeBody(e.Then, f), Else: retypeBody(e.Else, f)}
		case *fun.KernelExp:
			ns.Exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: retypeBody(e.Body, f)}
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			ns.Exp = fun.WithParts(e, retypeParams(fun.ExpParams(e), f), retypeBody(fun.ExpBody(e), f))
		case *fun.RedomapExp:
			ns.Exp = fun.WithBodies(e, retypeParams(e.Params, f), []*fun.Body{retypeBody(e.Map, f), retypeBody(e.Op, f)})
		}
	}
	return out
}

// copyStms is new statements for ss, each with its original's let and
// expression and its pattern's parameters made by param, allocated
// together (three allocations, not one a statement and one a parameter:
// the passes that rebuild whole programs run on every program of a
// property campaign).
func copyStms(ss []*fun.Stm, param func(*fun.Param) fun.Param) []*fun.Stm {
	stms := make([]fun.Stm, len(ss))
	npat := 0
	for _, st := range ss {
		npat += len(st.Pat)
	}
	params := make([]fun.Param, npat)
	pats := make([]*fun.Param, npat)
	out := make([]*fun.Stm, len(ss))
	for i, st := range ss {
		ns := &stms[i]
		*ns = fun.Stm{Let: st.Let, Exp: st.Exp}
		if n := len(st.Pat); n > 0 {
			ns.Pat = pats[:n:n]
			for j, p := range st.Pat {
				params[j] = param(p)
				ns.Pat[j] = &params[j]
			}
			pats, params = pats[n:], params[n:]
		}
		out[i] = ns
	}
	return out
}

func retypeParams(ps []*fun.Param, f func(fun.Type) fun.Type) []*fun.Param {
	out := make([]*fun.Param, len(ps))
	for i, p := range ps {
		out[i] = &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: f(p.Type), Rparen: p.Rparen}
	}
	return out
}
