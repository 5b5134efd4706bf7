package funmem

import (
	"fmt"
	"strconv"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
)

// Transform is TransformProgram: it translates a well-typed FUN program
// into FUNMEM. Every array a kernel (or iota, copy) makes gets a fresh
// block and a row-major LMAD; slices and transposes get derived LMADs in
// the same block; an if returns the supporting information of its arrays;
// and each array result is copied into a block of its own, row-major, and
// returned with it. Array inputs (an extension) live row-major in blocks of
// their own, which become mem inputs.
//
// Where the procedures need a reading (ERRATA.md): Support's block
// variable is bound as mem, not int; each branch returns its value after
// its support; strides that are not variables are bound by let as the
// offset is; and a program returns each array with its block.
func Transform(p *fun.Program) *fun.Program {
	p, used := renameKeywords(p)
	t := &transformer{names: used}
	out := &fun.Program{File: p.File, Format: p.Format}
	gamma := &typeEnv{}
	for _, in := range p.Inputs {
		if in.Type.IsScalar() {
			out.Inputs = append(out.Inputs, in)
			gamma.set(in.Name.Name, in.Type)
		}
	}
	for _, in := range p.Inputs {
		if !in.Type.IsScalar() {
			m := t.names.fresh(in.Name.Name + "_mem")
			mt := &fun.Param{Lparen: in.Lparen, Name: m, Type: Mem()}
			at := &fun.Param{Lparen: in.Lparen, Name: in.Name, Type: rowMajorIn(in.Type, m)}
			out.Inputs = append(out.Inputs, mt, at)
			gamma.set(at.Name.Name, at.Type)
		}
	}
	stms, gamma := t.stms(p.Body.Stms, gamma)
	body := &fun.Body{Stms: stms, In: p.Body.In}
	for _, x := range p.Body.Result {
		tx := gamma.get(x.Name)
		if ArrayOf(tx) == nil {
			body.Result = append(body.Result, x)
			continue
		}
		// s_alloc; s_lin: a row-major copy in a block of its own.
		m := t.names.fresh(x.Name + "_res_mem")
		y := t.names.fresh(x.Name + "_res")
		body.Stms = append(body.Stms,
			&fun.Stm{Pat: []*fun.Param{{Name: m, Type: Mem()}}, Exp: &AllocExp{Size: product(tx.Dims)}},
			&fun.Stm{Pat: []*fun.Param{{Name: y, Type: rowMajorIn(tx, m)}}, Exp: &fun.CopyExp{Arr: x}})
		body.Result = append(body.Result, m, y)
	}
	out.Body = body
	return out
}

type transformer struct{ names *names }

// A typeEnv is Γ as Transform grows it: the types a body binds, over
// those of the scope around it (up), so that a body's Γ is not a copy of
// the enclosing one.
type typeEnv struct {
	up *typeEnv
	// binds are g's bindings in order, a later one of a name shadowing
	// an earlier: a body binds names as it goes and asks for few (the
	// arrays it slices, its if's results), so a list costs less than a
	// map for every body.
	binds []typeBind
}

// A typeBind is x : t.
type typeBind struct {
	x string
	t fun.Type
}

// get is x's type, the innermost binding's (the zero type when none).
func (g *typeEnv) get(x string) fun.Type {
	for e := g; e != nil; e = e.up {
		for i := len(e.binds) - 1; i >= 0; i-- {
			if e.binds[i].x == x {
				return e.binds[i].t
			}
		}
	}
	return fun.Type{}
}

// set binds x to t in g.
func (g *typeEnv) set(x string, t fun.Type) { g.binds = append(g.binds, typeBind{x, t}) }

// child is the Γ of a body in g's scope, which g's later bindings do not
// change: g is not bound to again while the child is used.
func (g *typeEnv) child() *typeEnv { return &typeEnv{up: g} }

// rowMajorIn is [z1]…[zn] @ m -> R(z1, …, zn), with t's element type.
func rowMajorIn(t fun.Type, m *fun.Ident) fun.Type {
	sizes := make([]fun.SExp, len(t.Dims))
	for i, d := range t.Dims {
		sizes[i] = fun.Var{Ident: d}
	}
	return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: m, Index: &IndexFn{RowMajor: sizes}}}
}

// product is ∏ z_i.
func product(dims []*fun.Ident) fun.SExp {
	var p fun.SExp = fun.Int(1)
	for _, d := range dims {
		p = Mul(p, fun.Var{Ident: d})
	}
	return p
}

// stms is TransformStms: each statement in turn, Γ growing as it goes.
func (t *transformer) stms(ss []*fun.Stm, gamma *typeEnv) ([]*fun.Stm, *typeEnv) {
	g := gamma.child()
	npat := 0
	for _, s := range ss {
		npat += len(s.Pat)
	}
	// Room for the statements and bindings as given, and as many more
	// (a fresh array's allocation, an if's support).
	g.binds = make([]typeBind, 0, 2*npat)
	var out []*fun.Stm // nil for no statements, as appending none gives
	if len(ss) > 0 {
		out = make([]*fun.Stm, 0, 2*len(ss))
	}
	for _, s := range ss {
		switch s.Exp.(type) {
		case *fun.ScalarExp, *fun.IndexExp: // TransformStm keeps them as they are
			for _, p := range s.Pat {
				g.set(p.Name.Name, p.Type)
			}
			out = append(out, s)
			continue
		}
		for _, ns := range t.stm(s, g) {
			for _, p := range ns.Pat {
				g.set(p.Name.Name, p.Type)
			}
			out = append(out, ns)
		}
	}
	return out, g
}

// stm is TransformStm.
func (t *transformer) stm(s *fun.Stm, gamma *typeEnv) []*fun.Stm {
	with := func(p *fun.Param, typ fun.Type) *fun.Param {
		return &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: typ}
	}
	switch e := s.Exp.(type) {
	case *fun.ScalarExp, *fun.IndexExp:
		return []*fun.Stm{s}

	case *fun.SliceExp:
		a := ArrayOf(gamma.get(e.Arr.Name))
		typ := fun.Type{Dims: s.Pat[0].Type.Dims, Elem: s.Pat[0].Type.Elem, Ext: &ArrayMem{Block: a.Block, Index: SliceF(a.Index, e.Slices)}}
		return []*fun.Stm{{Let: s.Let, Pat: []*fun.Param{with(s.Pat[0], typ)}, Exp: e}}

	case *fun.TransposeExp:
		a := ArrayOf(gamma.get(e.Arr.Name))
		off, dims := a.Index.LMAD()
		typ := fun.Type{Dims: s.Pat[0].Type.Dims, Elem: s.Pat[0].Type.Elem, Ext: &ArrayMem{Block: a.Block, Index: &IndexFn{Offset: off, Dims: []LDim{dims[1], dims[0]}}}}
		return []*fun.Stm{{Let: s.Let, Pat: []*fun.Param{with(s.Pat[0], typ)}, Exp: e}}

	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp:
		// A fresh array: s_alloc, then the statement with p' in a new block.
		exp := s.Exp
		if k, ok := e.(*fun.KernelExp); ok {
			inner := gamma.child()
			inner.set(k.Var.Name, fun.Type{})
			stms, _ := t.stms(k.Body.Stms, inner)
			exp = &fun.KernelExp{Kernel: k.Kernel, Var: k.Var, Bound: k.Bound, Body: &fun.Body{Stms: stms, In: k.Body.In, Result: k.Body.Result}}
		}
		p := s.Pat[0]
		m := t.names.fresh(p.Name.Name + "_mem")
		alloc := &fun.Stm{Let: s.Let, Pat: []*fun.Param{{Lparen: p.Lparen, Name: m, Type: Mem()}}, Exp: &AllocExp{Alloc: s.Let, Size: product(p.Type.Dims)}}
		return []*fun.Stm{alloc, {Let: s.Let, Pat: []*fun.Param{with(p, rowMajorIn(p.Type, m))}, Exp: exp}}

	case *fun.IfExp:
		thenStms, gThen := t.stms(e.Then.Stms, gamma)
		elseStms, gElse := t.stms(e.Else.Stms, gamma)
		var pat []*fun.Param
		var xres, yres []*fun.Ident
		for i, z := range s.Pat {
			xi, yi := e.Then.Result[i], e.Else.Result[i]
			sx, xsupp := t.support(gThen.get(xi.Name))
			sy, ysupp := t.support(gElse.get(yi.Name))
			thenStms = append(thenStms, sx...)
			elseStms = append(elseStms, sy...)
			// One pattern variable per supporting variable: the block
			// (of type mem), the offset and the strides. The sizes are the
			// FUN pattern's own (ERRATA.md).
			var pi, supp []*fun.Param
			for j, x := range xsupp {
				r := t.names.fresh(z.Name.Name + "_" + x.role)
				typ := fun.Type{}
				if j == 0 {
					typ = Mem()
				}
				supp = append(supp, &fun.Param{Lparen: z.Lparen, Name: r, Type: typ})
				xres, yres = append(xres, x.id), append(yres, ysupp[j].id)
			}
			pi = append(pi, supp...)
			typ := z.Type
			if len(supp) > 0 {
				typ = supportedType(z.Type, supp)
			}
			pat = append(pat, append(pi, with(z, typ))...)
			xres, yres = append(xres, xi), append(yres, yi)
		}
		return []*fun.Stm{{Let: s.Let, Pat: pat, Exp: &fun.IfExp{If: e.If, Cond: e.Cond,
			Then: &fun.Body{Stms: thenStms, In: e.Then.In, Result: xres},
			Else: &fun.Body{Stms: elseStms, In: e.Else.In, Result: yres}}}}
	}
	if out := t.stmExt(s, gamma); out != nil {
		return out
	}
	panic(fmt.Sprintf("funmem.Transform: unexpected expression %T (is the program well typed?)", s.Exp))
}

// suppVar is one piece of supporting information and its role.
type suppVar struct {
	id   *fun.Ident
	role string // "mem", "off", "stride1", …
}

// support is Support(τ): for an array [x1]…[xn] @ m -> se + {(x1 : s1) …},
// statements binding the offset and the strides to fresh variables, and
// the supporting variables m, offset, s1 … sn. (The sizes x1 … xn are
// supported by the FUN pattern itself.) Binding every stride, variable or
// not, keeps the substitution S of T-MEM-RESULT a function even when one
// variable plays two roles, as k does in R(n, k) = 0 + {(n : k) (k : 1)}.
func (t *transformer) support(typ fun.Type) ([]*fun.Stm, []suppVar) {
	a := ArrayOf(typ)
	if a == nil {
		return nil, nil
	}
	off, dims := a.Index.LMAD()
	var stms []*fun.Stm
	bind := func(e fun.SExp, base string) *fun.Ident {
		y := t.names.fresh(base)
		stms = append(stms, &fun.Stm{Pat: []*fun.Param{{Name: y, Type: fun.Type{}}}, Exp: &fun.ScalarExp{X: e}})
		return y
	}
	if mutant.On("if-support") { // mutant: Support leaves out the offset (the if's pattern gets offset 0)
		off = fun.Int(0)
	}
	supp := []suppVar{{id: a.Block, role: "mem"}, {id: bind(off, a.Block.Name+"_off"), role: "off"}}
	for i, d := range dims {
		role := fmt.Sprintf("stride%d", i+1)
		supp = append(supp, suppVar{id: bind(d.Stride, a.Block.Name+"_"+role), role: role})
	}
	return stms, supp
}

// supportedType is the if pattern's type of an array of t's sizes and
// element type in terms of its supporting variables: [x1]…[xn] @ m -> off
// + {(x1 : s1) …}.
func supportedType(t fun.Type, supp []*fun.Param) fun.Type {
	l := &IndexFn{Offset: fun.Var{Ident: supp[1].Name}}
	for i, d := range t.Dims {
		l.Dims = append(l.Dims, LDim{Elems: fun.Var{Ident: d}, Stride: fun.Var{Ident: supp[2+i].Name}})
	}
	return fun.Type{Dims: t.Dims, Elem: t.Elem, Ext: &ArrayMem{Block: supp[0].Name, Index: l}}
}

// renameKeywords renames the variables of a FUN program whose names are
// FUNMEM's keywords (mem, alloc), so that the translation parses back;
// used is newNames of the program it gives (the one it gathered, when it
// renames nothing: gathering them is a tenth of Transform).
func renameKeywords(p *fun.Program) (q *fun.Program, used *names) {
	n := newNames(p)
	var ren map[string]string
	for i, k := 0, n.used.Len(); i < k; i++ { // the program's names (fresh adds more)
		if name := n.used.Name(i); keywords[name] {
			if ren == nil {
				ren = map[string]string{}
			}
			ren[name] = n.fresh(name + "_").Name
		}
	}
	if len(ren) == 0 {
		return p, n
	}
	q = fun.MapProgram(p, fun.All(fun.Renaming(ren)))
	return q, newNames(q)
}

// names is a supply of fresh variable names.
type names struct {
	used *fun.NameSet
	// from, when not nil, is the program whose names are to be put in
	// used before the first fresh name is made (lazyNames).
	from *fun.Program
}

// lazyNames is newNames(p), the names of p gathered when the first fresh
// name is asked for: MemoryExpand makes none for a program it has nothing
// to expand (most of a property campaign's), and gathering them was a
// seventh of its time. p must not change until then (a pass does not
// change its input).
func lazyNames(p *fun.Program) *names { return &names{from: p} }

func newNames(p *fun.Program) *names {
	// The binders are counted first, so that the set is made its size
	// once rather than grown as it fills.
	k := len(p.Inputs) + 8 // and a few fresh names
	eachBody(p.Body, func(b *fun.Body) {
		for _, s := range b.Stms {
			k += len(s.Pat) + len(fun.ExpParams(s.Exp))
			if fun.ExpIndex(s.Exp) != nil {
				k++
			}
		}
	})
	n := &names{used: fun.NewNameSet(k)}
	for _, in := range p.Inputs {
		n.used.Add(in.Name.Name)
	}
	// From statement to statement (eachBody), not through every node.
	eachBody(p.Body, func(b *fun.Body) {
		for _, s := range b.Stms {
			for _, q := range s.Pat {
				n.used.Add(q.Name.Name)
			}
			if x := fun.ExpIndex(s.Exp); x != nil {
				n.used.Add(x.Name)
			}
			for _, q := range fun.ExpParams(s.Exp) {
				n.used.Add(q.Name.Name)
			}
		}
	})
	return n
}

func (n *names) fresh(base string) *fun.Ident {
	if n.from != nil {
		n.used, n.from = newNames(n.from).used, nil
	}
	name := base
	for i := 2; n.used.Has(name) || keywords[name]; i++ {
		name = base + strconv.Itoa(i)
	}
	n.used.Add(name)
	return &fun.Ident{Name: name}
}
