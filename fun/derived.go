package fun

import (
	"fmt"

	"github.com/arraysem/arraysem/semantics"
)

// ExpandDerived rewrites the derived forms of §2 into core FUN:
//
//	iota x ≡ kernel xi <= x do in (xi)
//	copy x ≡ kernel y1 <= z1 do … kernel yn <= zn do in (x[y1, …, yn])
//
// where z1 … zn are the sizes of x's type. The paper's copy is not in
// A-normal form (an index expression stands where in (…) wants variables);
// the expansion binds each index and each inner kernel with let (see
// ERRATA.md). The program must be well typed; fresh names avoid every name
// the program uses.
func ExpandDerived(p *Program) *Program {
	x := &expander{used: map[string]bool{}, types: map[string]Type{}}
	x.collect(p)
	out := &Program{File: p.File, Inputs: p.Inputs, Format: p.Format}
	for _, in := range p.Inputs {
		x.types[in.Name.Name] = in.Type
	}
	out.Body = x.body(p.Body)
	return out
}

type expander struct {
	used  map[string]bool
	types map[string]Type // names are bound once, so one flat map serves
	n     int
}

func (x *expander) collect(p *Program) {
	// The binders: inputs, patterns, kernel indices.
	Inspect(p, func(n Node) bool {
		switch n := n.(type) {
		case *Param:
			x.used[n.Name.Name] = true
		case *KernelExp:
			x.used[n.Var.Name] = true
		case *LoopExp:
			x.used[n.Var.Name] = true
		case *RedomapExp:
			x.used[n.Var.Name] = true
		}
		return true
	})
}

func (x *expander) fresh(base string) *Ident {
	for {
		x.n++
		name := fmt.Sprintf("%s_%d", base, x.n)
		if !x.used[name] && !IsKeyword(name) {
			x.used[name] = true
			return &Ident{Name: name}
		}
	}
}

func (x *expander) body(b *Body) *Body {
	out := &Body{In: b.In, Result: b.Result}
	for _, s := range b.Stms {
		ns := &Stm{Let: s.Let, Pat: s.Pat, Exp: s.Exp}
		switch e := s.Exp.(type) {
		case *IfExp:
			ns.Exp = &IfExp{If: e.If, Cond: e.Cond, Then: x.body(e.Then), Else: x.body(e.Else)}
		case *KernelExp:
			x.types[e.Var.Name] = Type{}
			ns.Exp = &KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: x.body(e.Body)}
		case *LoopExp:
			x.params(e.Params)
			x.types[e.Var.Name] = Type{}
			c := *e
			c.Body = x.body(e.Body)
			ns.Exp = &c
		case *ReduceExp:
			x.params(e.Params)
			c := *e
			c.Body = x.body(e.Body)
			ns.Exp = &c
		case *ScanExp:
			x.params(e.Params)
			c := *e
			c.Body = x.body(e.Body)
			ns.Exp = &c
		case *FilterExp:
			x.params(e.Params)
			c := *e
			c.Body = x.body(e.Body)
			ns.Exp = &c
		case *RedomapExp:
			// The map body first: its names may be the operator body's
			// or parameters' too (the two are scopes of their own), and
			// the flat map must hold the parameters' types in the latter.
			x.types[e.Var.Name] = Type{}
			c := *e
			c.Map = x.body(e.Map)
			x.params(e.Params)
			c.Op = x.body(e.Op)
			ns.Exp = &c
		case *IotaExp:
			xi := x.fresh("i")
			ns.Exp = &KernelExp{Kernel: e.Keyword, Var: xi, Bound: e.N, Body: &Body{Result: []*Ident{xi}}}
		case *CopyExp:
			t := x.types[e.Arr.Name]
			ns.Exp = x.copyKernel(e.Keyword, e.Arr, t.Dims, t.Elem, nil)
		}
		for _, q := range s.Pat {
			x.types[q.Name.Name] = q.Type
		}
		out.Stms = append(out.Stms, ns)
	}
	return out
}

// params records the types of the parameters of a loop, reduce, scan,
// filter or redomap, in scope in its body (where a copy may index them).
func (x *expander) params(ps []*Param) {
	for _, q := range ps {
		x.types[q.Name.Name] = q.Type
	}
}

// CopyKernel is the kernel copy arr (of the given dims and element type)
// expands to, at pos: kernel j1 <= n1 do … in (arr[j1, …]), its fresh
// names none of used, to which it adds them.
func CopyKernel(pos Pos, arr *Ident, dims []*Ident, elem semantics.Elem, used map[string]bool) *KernelExp {
	x := &expander{used: used}
	return x.copyKernel(pos, arr, dims, elem, nil)
}

// copyKernel builds kernel y <= z1 do … over the remaining dims, indexing
// arr with the indices bound so far.
func (x *expander) copyKernel(pos Pos, arr *Ident, dims []*Ident, elem semantics.Elem, idx []*Ident) *KernelExp {
	y := x.fresh("j")
	idx = append(append([]*Ident(nil), idx...), y)
	t := x.fresh("t")
	var inner *Stm
	if len(dims) == 1 {
		inner = &Stm{Pat: []*Param{{Name: t, Type: Type{Elem: elem}}}, Exp: &IndexExp{Arr: arr, Idx: idx}}
	} else {
		inner = &Stm{Pat: []*Param{{Name: t, Type: Type{Dims: dims[1:], Elem: elem}}}, Exp: x.copyKernel(pos, arr, dims[1:], elem, idx)}
	}
	return &KernelExp{Kernel: pos, Var: y, Bound: dims[0], Body: &Body{Stms: []*Stm{inner}, Result: []*Ident{t}}}
}
