package funmem

import "github.com/arraysem/arraysem/fun"

// Unmem is Fig 9: it turns a FUNMEM program into FUN by reading mem as
// int, dropping the memory annotations of array types, and reading
// alloc se as 0, and dropping the supporting variables the extension
// forms bind at run time (binding them to 0). The value-based semantics of FUNMEM is FUN's semantics of
// the result (§3.3).
func Unmem(p *fun.Program) *fun.Program {
	a := newUnmemArena(p.Body)
	return &fun.Program{File: p.File, Inputs: unmemInputs(p), Body: a.body(p.Body), Format: p.Format}
}

// An unmemArena holds the nodes of one un-memmed tree, counted before
// it is built (count), so that the value-based semantics, which un-mems
// every program it runs, allocates a few lists rather than each node. A
// list that runs out (it cannot, but for a form Unmem does not count)
// gives way to allocating.
type unmemArena struct {
	stms    []fun.Stm
	stmPtrs []*fun.Stm
	params  []fun.Param
	pats    []*fun.Param
	bodies  []fun.Body
	ifs     []fun.IfExp
	kernels []fun.KernelExp
	zeros   []zeroScalar
}

// zeroScalar is the scalar expression 0 and its constant.
type zeroScalar struct {
	e fun.ScalarExp
	k fun.Const
}

// newUnmemArena is an arena for the tree Unmem makes of b.
func newUnmemArena(b *fun.Body) *unmemArena {
	var n unmemCounts
	n.body(b)
	return &unmemArena{
		stms:    make([]fun.Stm, n.stms),
		stmPtrs: make([]*fun.Stm, n.stms),
		params:  make([]fun.Param, n.params),
		pats:    make([]*fun.Param, n.params),
		bodies:  make([]fun.Body, n.bodies),
		ifs:     make([]fun.IfExp, n.ifs),
		kernels: make([]fun.KernelExp, n.kernels),
		zeros:   make([]zeroScalar, n.zeros),
	}
}

// unmemCounts are the nodes of each kind Unmem makes of a tree (a
// reduce's pattern twice, once for its groups), but for support groups'
// zeros and the forms' nodes (fun.WithParts).
type unmemCounts struct {
	stms, params, bodies, ifs, kernels, zeros int
}

func (n *unmemCounts) body(b *fun.Body) {
	n.bodies++
	n.stms += len(b.Stms)
	for _, s := range b.Stms {
		n.params += len(s.Pat)
		switch e := s.Exp.(type) {
		case *AllocExp:
			n.zeros++
		case *fun.IfExp:
			n.ifs++
			n.body(e.Then)
			n.body(e.Else)
		case *fun.KernelExp:
			n.kernels++
			n.body(e.Body)
		case *fun.LoopExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			n.params += len(fun.ExpParams(e))
			if _, ok := e.(*fun.ReduceExp); ok {
				n.params += len(s.Pat) // its pattern's groups
			}
			n.body(fun.ExpBody(e))
		case *fun.RedomapExp:
			n.params += len(e.Params)
			if !e.Scan {
				n.params += len(s.Pat)
			}
			n.body(e.Map)
			n.body(e.Op)
		}
	}
}

// take is the next node of l, or a new one when l has run out.
func take[T any](l *[]T) *T {
	if len(*l) == 0 {
		return new(T)
	}
	x := &(*l)[0]
	*l = (*l)[1:]
	return x
}

// takeN is the next n nodes of l (a list that cannot grow into what
// follows them), or new ones when l has too few.
func takeN[T any](l *[]T, n int) []T {
	if len(*l) < n {
		return make([]T, n)
	}
	xs := (*l)[:n:n]
	*l = (*l)[n:]
	return xs
}

// param is p un-memmed.
func (a *unmemArena) param(p *fun.Param) *fun.Param {
	q := take(&a.params)
	*q = unmemParamValue(p)
	return q
}

// zero is the scalar expression 0 at pos.
func (a *unmemArena) zero(pos fun.Pos) *fun.ScalarExp {
	z := take(&a.zeros)
	z.k = fun.Const{ValuePos: pos, Value: 0}
	z.e.X = &z.k
	return &z.e
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

// body is b un-memmed.
func (a *unmemArena) body(b *fun.Body) *fun.Body {
	out := take(&a.bodies)
	*out = fun.Body{In: b.In, Result: b.Result, Rparen: b.Rparen}
	if len(b.Stms) == 0 {
		return out
	}
	// The new statements are the body's list, unless a statement is
	// followed by zeros (after): the list is copied then.
	news := a.copyStms(b.Stms)
	out.Stms = news
	copied := false
	for i, s := range b.Stms {
		ns := news[i]
		var after []*fun.Stm
		switch e := s.Exp.(type) {
		case *AllocExp:
			ns.Exp = a.zero(e.Alloc) // alloc se ⇒ 0
		case *fun.IfExp:
			x := take(&a.ifs)
			*x = fun.IfExp{If: e.If, Cond: e.Cond, Then: a.body(e.Then), Else: a.body(e.Else)}
			ns.Exp = x
		case *fun.KernelExp:
			k := take(&a.kernels)
			*k = fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: e.Bound, Body: a.body(e.Body)}
			ns.Exp = k
		case *fun.LoopExp:
			// The supporting parameters are ordinary ints (mem ⇒ int): the
			// initial values and results list them.
			ns.Exp = fun.WithParts(e, a.paramList(e.Params), a.body(e.Body))
		case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
			ps, b := a.operands(fun.ExpParams(e), fun.ExpBody(e))
			ns.Exp = fun.WithParts(e, ps, b)
			if _, ok := e.(*fun.ReduceExp); ok {
				ns.Pat, after = a.groups(s.Pat)
			}
		case *fun.RedomapExp:
			ps, op := a.operands(e.Params, e.Op)
			ns.Exp = fun.WithBodies(e, ps, []*fun.Body{a.body(e.Map), op})
			if !e.Scan {
				ns.Pat, after = a.groups(s.Pat)
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

// copyStms is copies of ss with their patterns un-memmed (a pattern
// of no parameters is nil).
func (a *unmemArena) copyStms(ss []*fun.Stm) []*fun.Stm {
	stms := takeN(&a.stms, len(ss))
	out := takeN(&a.stmPtrs, len(ss))
	for i, st := range ss {
		ns := &stms[i]
		*ns = fun.Stm{Let: st.Let, Exp: st.Exp}
		if n := len(st.Pat); n > 0 {
			ns.Pat = takeN(&a.pats, n)
			params := takeN(&a.params, n)
			for j, p := range st.Pat {
				params[j] = unmemParamValue(p)
				ns.Pat[j] = &params[j]
			}
		}
		out[i] = ns
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

// paramsOrNil is paramList, nil for no parameters (as appending
// them one by one gives).
func (a *unmemArena) paramsOrNil(ps []*fun.Param) []*fun.Param {
	if len(ps) == 0 {
		return nil
	}
	return a.paramList(ps)
}

// paramList is ps un-memmed.
func (a *unmemArena) paramList(ps []*fun.Param) []*fun.Param {
	out := takeN(&a.pats, len(ps))
	for i, p := range ps {
		out[i] = a.param(p)
	}
	return out
}

// groups drops the supporting variables of support groups
// (groups.go), which FUN's forms do not bind, and binds them to 0 after
// (as a block is 0): they only describe memory, so that no value depends
// on them, but a Support may copy them into other ints.
func (a *unmemArena) groups(ps []*fun.Param) ([]*fun.Param, []*fun.Stm) {
	if !anySupportForm(ps) { // no group has support: every parameter is kept
		return a.paramsOrNil(ps), nil
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
		keep = append(keep, a.param(p))
	}
	return keep, zeros
}

// operands is groups for the operands of a reduce, scan, filter or
// redomap: the zeros go at the top of the (operator) body.
func (a *unmemArena) operands(ps []*fun.Param, b *fun.Body) ([]*fun.Param, *fun.Body) {
	keep, zeros := a.groups(ps)
	nb := a.body(b)
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
