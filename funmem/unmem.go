package funmem

import "github.com/arraysem/arraysem/fun"

// Unmem is Fig 9: it turns a FUNMEM program into FUN by reading mem as
// int, dropping the memory annotations of array types, and reading
// alloc se as 0, and dropping the supporting variables the extension
// forms bind at run time (binding them to 0). The value-based semantics of FUNMEM is FUN's semantics of
// the result (§3.3).
func Unmem(p *fun.Program) *fun.Program {
	return &fun.Program{File: p.File, Inputs: unmemInputs(p), Body: unmemBody(p.Body), Format: p.Format}
}

// unmemInputs is p's inputs un-memmed.
func unmemInputs(p *fun.Program) []*fun.Param {
	var out []*fun.Param
	for _, in := range p.Inputs {
		out = append(out, unmemParam(in))
	}
	return out
}

// valueInputs are the un-memmed inputs but the memory blocks: the inputs
// that are given values.
func valueInputs(p *fun.Program) []*fun.Param {
	var out []*fun.Param
	for _, in := range p.Inputs {
		if !IsMem(in.Type) {
			out = append(out, unmemParam(in))
		}
	}
	return out
}

func unmemParam(p *fun.Param) *fun.Param {
	q := unmemParamValue(p)
	return &q
}

func unmemParamValue(p *fun.Param) fun.Param {
	return fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.Type{Dims: p.Type.Dims, Elem: p.Type.Elem}} // mem ⇒ int, [x]@m→L ⇒ [x], [x]float@m→L ⇒ [x]float
}

func unmemBody(b *fun.Body) *fun.Body {
	out := &fun.Body{In: b.In, Result: b.Result, Rparen: b.Rparen}
	if len(b.Stms) == 0 {
		return out
	}
	// The value-based semantics un-mems every program it runs: the
	// statements are allocated together (copyStms).
	news := copyStms(b.Stms, unmemParamValue)
	// The new statements are the body's list, unless a statement is
	// followed by zeros (after): the list is copied then.
	out.Stms = news
	copied := false
	for i, s := range b.Stms {
		ns := news[i]
		var after []*fun.Stm
		switch e := s.Exp.(type) {
		case *AllocExp:
			ns.Exp = zeroExp(e.Alloc) // alloc se ⇒ 0
		case *fun.IfExp:
			ns.Exp = &fun.IfExp{If: e.If, Cond: e.Cond, Then: unmemBody(e.Then), Else: unmemBody(e.Else)}
		case *fun.KernelExp:
			ns.Exp = &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: unmemBody(e.Body)}
		case *fun.LoopExp:
			// The supporting parameters are ordinary ints (mem ⇒ int): the
			// initial values and results list them.
			ns.Exp = fun.WithParts(e, unmemParams(e.Params), unmemBody(e.Body))
		case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			ps, b := unmemOperands(fun.ExpParams(e), fun.ExpBody(e))
			ns.Exp = fun.WithParts(e, ps, b)
			if _, ok := e.(*fun.ReduceExp); ok {
				ns.Pat, after = unmemGroups(s.Pat)
			}
		case *fun.RedomapExp:
			ps, op := unmemOperands(e.Params, e.Op)
			ns.Exp = fun.WithBodies(e, ps, []*fun.Body{unmemBody(e.Map), op})
			if !e.Scan {
				ns.Pat, after = unmemGroups(s.Pat)
			}
		}
		if len(after) > 0 && !copied {
			out.Stms = append(make([]*fun.Stm, 0, len(news)+len(after)), news[:i+1]...)
			copied = true
		} else if copied {
			out.Stms = append(out.Stms, ns)
		}
		out.Stms = append(out.Stms, after...)
	}
	return out
}

// zeroExp is the scalar expression 0 at pos, made in one allocation.
func zeroExp(pos fun.Pos) *fun.ScalarExp {
	z := &struct {
		e fun.ScalarExp
		k fun.Const
	}{k: fun.Const{ValuePos: pos, Value: 0}}
	z.e.X = &z.k
	return &z.e
}

// anySupportForm reports whether some parameter could be an array in
// support form (Groups): one whose LMAD is not written R(…). When none
// is, every parameter is an operand of its own.
func anySupportForm(ps []*fun.Param) bool {
	for _, p := range ps {
		if a := ArrayOf(p.Type); a != nil && !a.Index.IsRowMajor() {
			return true
		}
	}
	return false
}

// unmemParamsOrNil is unmemParams, nil for no parameters (as appending
// them one by one gives).
func unmemParamsOrNil(ps []*fun.Param) []*fun.Param {
	if len(ps) == 0 {
		return nil
	}
	return unmemParams(ps)
}

func unmemParams(ps []*fun.Param) []*fun.Param {
	out := make([]*fun.Param, len(ps))
	for i, p := range ps {
		out[i] = unmemParam(p)
	}
	return out
}

// unmemGroups drops the supporting variables of support groups
// (groups.go), which FUN's forms do not bind, and binds them to 0 after
// (as a block is 0): they only describe memory, so that no value depends
// on them, but a Support may copy them into other ints.
func unmemGroups(ps []*fun.Param) ([]*fun.Param, []*fun.Stm) {
	if !anySupportForm(ps) { // no group has support: every parameter is kept
		return unmemParamsOrNil(ps), nil
	}
	supp := supportNames(Groups(ps))
	var keep []*fun.Param
	var zeros []*fun.Stm
	for _, p := range ps {
		if supp[p.Name.Name] {
			z := &struct {
				s   fun.Stm
				q   fun.Param
				pat [1]*fun.Param
			}{q: fun.Param{Lparen: p.Lparen, Name: p.Name, Type: fun.Type{}, Rparen: p.Rparen}}
			z.pat[0] = &z.q
			z.s = fun.Stm{Let: p.Lparen, Pat: z.pat[:], Exp: zeroExp(p.Lparen)}
			zeros = append(zeros, &z.s)
			continue
		}
		keep = append(keep, unmemParam(p))
	}
	return keep, zeros
}

// unmemOperands is unmemGroups for the operands of a reduce, scan,
// filter or redomap: the zeros go at the top of the (operator) body.
func unmemOperands(ps []*fun.Param, b *fun.Body) ([]*fun.Param, *fun.Body) {
	keep, zeros := unmemGroups(ps)
	nb := unmemBody(b)
	nb.Stms = append(zeros, nb.Stms...)
	return keep, nb
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
