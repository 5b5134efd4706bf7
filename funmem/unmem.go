package funmem

import "github.com/arraysem/arraysem/fun"

// Unmem is Fig 9: it turns a FUNMEM program into FUN by reading mem as
// int, dropping the memory annotations of array types, and reading
// alloc se as 0. The value-based semantics of FUNMEM is FUN's semantics of
// the result (§3.3).
func Unmem(p *fun.Program) *fun.Program {
	out := &fun.Program{File: p.File, Body: unmemBody(p.Body)}
	for _, in := range p.Inputs {
		out.Inputs = append(out.Inputs, unmemParam(in))
	}
	return out
}

func unmemParam(p *fun.Param) *fun.Param {
	return &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.Type{Dims: p.Type.Dims}} // mem ⇒ int, [x]@m→L ⇒ [x]
}

func unmemBody(b *fun.Body) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result}
	for _, s := range b.Stms {
		ns := &fun.Stm{Let: s.Let, Exp: s.Exp}
		for _, p := range s.Pat {
			ns.Pat = append(ns.Pat, unmemParam(p))
		}
		switch e := s.Exp.(type) {
		case *AllocExp:
			ns.Exp = &fun.ScalarExp{X: &fun.Const{ValuePos: e.Alloc, Value: 0}} // alloc se ⇒ 0
		case *fun.IfExp:
			ns.Exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: unmemBody(e.Then), Else: unmemBody(e.Else)}
		case *fun.KernelExp:
			ns.Exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: unmemBody(e.Body)}
		}
		out.Stms = append(out.Stms, ns)
	}
	return out
}

// MemInputs lists the names of a program's mem inputs: the value-based
// semantics sets them to 0, the heap-based one to fresh blocks.
func MemInputs(p *fun.Program) []string {
	var names []string
	for _, in := range p.Inputs {
		if IsMem(in.Type) {
			names = append(names, in.Name.Name)
		}
	}
	return names
}
