package imp

import (
	"strconv"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// FromFunmem is FunMemToImp over a whole well-typed FUNMEM program. Γ
// holds the patterns in scope (the paper's Γ holds every pattern of the
// program, which is ambiguous: a kernel's pattern may reuse a name its
// body binds), and array accesses apply their index functions symbolically: y[x1, …, xn]
// reads y_mem at L_y(x1, …, xn) = o + Σ (x_i − 1)·s_i (ERRATA M1). Slices
// and transposes become skip: their arrays exist only in Γ.
//
// Where the procedures need a reading (ERRATA.md): the if case declares
// the pattern's int and mem variables before the if and assigns them at
// the end of each branch (arrays need nothing), or, when a branch binds
// one of the pattern's names (FUN allows it), fresh variables the pattern
// takes after the if; COPY reads an element into
// a fresh int before writing it (IMP's write takes a scalar expression);
// iota and copy, derived forms, become the kernels they stand for; a
// program's inputs are ints and row-major arrays in blocks of their own,
// and its results are named by return, each array by its block and shape.
func FromFunmem(p *fun.Program) (*Program, error) {
	// The names the program binds, listed first so that the set of them
	// is made at its size; the walk looks for an array of too high a
	// rank as it goes (fun.CheckCompileRank, which walks every node of
	// the program, is asked for its error only when there is one).
	var names []*fun.Ident
	deep := false
	walkBindings(p, func(q *fun.Param) {
		names = append(names, q.Name)
		deep = deep || q.Type.Rank() > fun.MaxCompileRank
	}, func(x *fun.Ident) { names = append(names, x) })
	if deep {
		if err := fun.CheckCompileRank(p, "FunMemToImp"); err != nil {
			return nil, err
		}
	}
	// (The list counts a name bound twice twice: room for fresh names.)
	t := &translator{names: fun.NewNameSet(len(names)), bound: make([]int32, 0, len(names))}
	for _, x := range names {
		t.bind(x.Name)[0]++
	}
	gamma := &scope{names: t.names, types: make([]*fun.Type, len(t.bound), len(names))}
	for _, in := range p.Inputs {
		gamma.types[t.names.Index(in.Name.Name)] = &in.Type
	}
	out := &Program{File: p.File, RetPos: p.Body.In, Format: p.Format}
	for _, in := range p.Inputs {
		switch {
		case in.Type.IsScalar():
			out.Inputs = append(out.Inputs, &Input{Pos: in.Lparen, Name: in.Name, Elem: in.Type.Elem})
		case funmem.ArrayOf(in.Type) != nil:
			a := funmem.ArrayOf(in.Type)
			if !funmem.IsRowMajor(in.Type) {
				return nil, semantics.Errorf(in.Lparen, semantics.TypeError, "FunMemToImp", "input %s is not row-major (%s); an input must be laid out row-major from offset 0, R(…)", in.Name.Name, a.Index)
			}
			out.Inputs = append(out.Inputs, &Input{Pos: in.Lparen, Name: in.Name, Dims: vars(in.Type.Dims), Elem: in.Type.Elem, Block: a.Block})
		}
	}
	body, err := t.block(p.Body.Stms, gamma)
	if err != nil {
		return nil, err
	}
	out.Body = body
	res := p.Body.Result
	for i := 0; i < len(res); i++ {
		typ := gamma.get(res[i].Name)
		switch {
		case funmem.IsMem(typ) && i+1 < len(res) && funmem.ArrayOf(gamma.get(res[i+1].Name)) != nil:
			arr := gamma.get(res[i+1].Name)
			out.Return = append(out.Return, &Result{Name: res[i], Dims: vars(arr.Dims), Elem: arr.Elem})
			i++
		case typ.IsScalar():
			out.Return = append(out.Return, &Result{Name: res[i]})
		default:
			return nil, semantics.Errorf(res[i].NamePos, semantics.TypeError, "FunMemToImp", "result %s: IMP returns ints, floats and (block, array) pairs (T-MEM-PROG)", res[i].Name)
		}
	}
	return out, nil
}

type translator struct {
	// names holds the names the program binds and the fresh ones made: a
	// name is used when it is in the set. Γ (scope) finds its names by
	// their positions in it too. (A set and lists by position, rather
	// than two maps, one of them of types, made at the program's size
	// for every translation.)
	names *fun.NameSet
	bound []int32 // by position in names: how many times the program binds the name (0 for a fresh one)
	n     int
}

// bind puts x among the names (if it is not) and returns its count, a
// list of one.
func (t *translator) bind(x string) []int32 {
	i, added := t.names.Add(x)
	if added {
		t.bound = append(t.bound, 0)
	}
	return t.bound[i : i+1]
}

// bindings is how many times the program binds x.
func (t *translator) bindings(x string) int32 {
	if i := t.names.Index(x); i >= 0 {
		return t.bound[i]
	}
	return 0
}

func (t *translator) fresh(base string) *fun.Ident {
	for {
		t.n++
		name := base + strconv.Itoa(t.n)
		if !keywords[name] && !t.names.Has(name) {
			t.bind(name)
			return &fun.Ident{Name: name}
		}
	}
}

func vars(ids []*fun.Ident) []fun.SExp {
	out := make([]fun.SExp, len(ids))
	for i, d := range ids {
		out[i] = fun.Var{Ident: d}
	}
	return out
}

// eachStm calls f on every statement of b, nested bodies included, in
// the order fun.Stms does; it walks statements and their bodies
// (fun.ExpBodies) only, not every node of every expression as fun.Stms
// does (which a translation did for every nested let: a fifth of its
// time). FUN's and FUNMEM's expressions hold bodies only where
// fun.ExpBodies finds them (FUNMEM's extensions hold none), which
// TestEachStm checks against fun.Stms.
func eachStm(b *fun.Body, f func(*fun.Stm)) {
	for _, s := range b.Stms {
		f(s)
		for _, c := range fun.ExpBodies(s.Exp) {
			eachStm(c, f)
		}
	}
}

// walkBindings calls param on every binding of p (its inputs, the
// statements' patterns and the expressions' parameters: every *fun.Param
// of the program, which TestEachStm checks against fun.Inspect) and index
// on every index an expression binds, in the order of the statements.
func walkBindings(p *fun.Program, param func(*fun.Param), index func(*fun.Ident)) {
	for _, in := range p.Inputs {
		param(in)
	}
	eachStm(p.Body, func(s *fun.Stm) {
		for _, q := range s.Pat {
			param(q)
		}
		if x := fun.ExpIndex(s.Exp); x != nil {
			index(x)
		}
		for _, q := range fun.ExpParams(s.Exp) {
			param(q)
		}
	})
}

// apply is L(y1, …, yk) on 1-based indices, symbolically; with fewer
// indices than dimensions, the offset of the first element they select.
func apply(l *funmem.IndexFn, idx []fun.SExp) fun.SExp {
	off, dims := l.LMAD()
	return funmem.IndexOffset(off, idx, dims)
}

// scope is Γ: the types of the patterns in scope, by name, in one map
// for the whole translation. A nested body's bindings are undone when
// the body has been translated (undo, to a mark), as a copy of the
// enclosing scope for each body would leave the enclosing one as it was
// (copies were a tenth of the bytes the fun-funmem-imp campaign
// allocated).
//
// The names are the translator's (translator.names); a name's type is
// found by its position there, nil where the name is not in scope.
type scope struct {
	names *fun.NameSet
	types []*fun.Type // by position in names; a binding's own Type, not a copy
	log   []gammaWas  // what set changed, to undo
}

// gammaWas is a name's entry before set changed it.
type gammaWas struct {
	i   int32     // the name's position
	old *fun.Type // its type then (nil: not in scope)
}

// intType is the type of a kernel's, for's or redomap's index.
var intType fun.Type

// get is x's type (the zero Type where x is not in scope).
func (g *scope) get(x string) fun.Type {
	if i := g.names.Index(x); i >= 0 && i < len(g.types) && g.types[i] != nil {
		return *g.types[i]
	}
	return fun.Type{}
}

// has reports whether x is in scope.
func (g *scope) has(x string) bool {
	i := g.names.Index(x)
	return i >= 0 && i < len(g.types) && g.types[i] != nil
}

// set binds x to *typ (typ is a binding's, which no one changes).
func (g *scope) set(x string, typ *fun.Type) {
	i, _ := g.names.Add(x)
	for i >= len(g.types) {
		g.types = append(g.types, nil)
	}
	g.log = append(g.log, gammaWas{int32(i), g.types[i]})
	g.types[i] = typ
}

// mark is where a nested scope begins, for undo.
func (g *scope) mark() int { return len(g.log) }

// undo ends the nested scope begun at mark: the names bound since take
// their types before it again.
func (g *scope) undo(mark int) {
	for len(g.log) > mark {
		b := g.log[len(g.log)-1]
		g.log = g.log[:len(g.log)-1]
		g.types[b.i] = b.old
	}
}

// with binds the parameters ps.
func (g *scope) with(ps ...*fun.Param) {
	for _, p := range ps {
		g.set(p.Name.Name, &p.Type)
	}
}

// withDefault binds x to int where it is not in scope (a kernel's or a
// redomap's index; its type, where it has one, stays).
func (g *scope) withDefault(x *fun.Ident) {
	if !g.has(x.Name) {
		g.set(x.Name, &intType)
	}
}

// stms translates a sequence of statements in a scope nested in gamma
// (gamma is left as it is).
func (t *translator) stms(ss []*fun.Stm, gamma *scope) ([]Stmt, error) {
	mark := gamma.mark()
	defer gamma.undo(mark)
	return t.block(ss, gamma)
}

// block translates a sequence of statements in the scope g, binding
// their names in it.
func (t *translator) block(ss []*fun.Stm, g *scope) ([]Stmt, error) {
	// Room for two statements a let, what most translate to (declare),
	// rather than growing by doubling from nothing (nil for no lets).
	var out []Stmt
	if len(ss) > 0 {
		out = make([]Stmt, 0, 2*len(ss))
	}
	for _, s := range ss {
		ts, err := t.stm(s, g)
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
		for _, p := range s.Pat {
			g.set(p.Name.Name, &p.Type)
		}
	}
	return out, nil
}

// stm is FunMemToImp on one statement, in the scope gamma (which it
// leaves as it was).
func (t *translator) stm(s *fun.Stm, gamma *scope) ([]Stmt, error) {
	at := s.Let
	switch e := s.Exp.(type) {
	case *fun.SliceExp, *fun.TransposeExp:
		return []Stmt{&Skip{At: at}}, nil
	case *fun.ScalarExp:
		x := s.Pat[0].Name
		return declare(at, x, TypeOf(s.Pat[0].Type.Elem), e.X), nil
	case *funmem.AllocExp:
		x := s.Pat[0].Name
		return declared(at, x, Mem, Alloc{At: at, X: x, Size: e.Size}), nil
	case *fun.IndexExp:
		x := s.Pat[0].Name
		ty := gamma.get(e.Arr.Name)
		a := funmem.ArrayOf(ty)
		// The target's type says how the word is read: as y's elements.
		return declared(at, x, TypeOf(ty.Elem), Read{At: at, X: x, Y: a.Block, Index: apply(a.Index, vars(e.Idx))}), nil
	case *fun.IfExp:
		// FUN lets a branch bind a name of the if's own pattern (with any
		// type); IMP's environment is flat and a branch runs in it, so the
		// branches then set fresh variables declared before the if, and
		// the pattern's variables are declared after it: no branch sees a
		// variable of the pattern's names, and no assignment clobbers the
		// next one's source.
		names := map[string]bool{}
		for _, p := range s.Pat {
			names[p.Name.Name] = true
		}
		clash := bindsAny(names, e.Then, e.Else)
		var decls, tail1, tail2, after []Stmt
		for i, p := range s.Pat {
			typ, ok := impType(p.Type)
			if !ok {
				continue // an array: its block, offset and strides are in the pattern
			}
			x := p.Name
			if clash {
				x = t.fresh(p.Name.Name + "_")
				after = append(after, declare(at, p.Name, typ, fun.Var{Ident: x})...)
			}
			decls = append(decls, &Decl{At: at, X: x, Type: typ})
			tail1 = append(tail1, &Assign{At: at, X: x, SE: fun.Var{Ident: e.Then.Result[i]}})
			tail2 = append(tail2, &Assign{At: at, X: x, SE: fun.Var{Ident: e.Else.Result[i]}})
		}
		s1, err := t.stms(e.Then.Stms, gamma)
		if err != nil {
			return nil, err
		}
		s2, err := t.stms(e.Else.Stms, gamma)
		if err != nil {
			return nil, err
		}
		out := append(decls, &If{At: at, Cond: e.Cond, Then: append(s1, tail1...), Else: append(s2, tail2...)})
		return append(out, after...), nil
	case *fun.KernelExp:
		mark := gamma.mark()
		gamma.withDefault(e.Var)
		body, err := t.block(e.Body.Stms, gamma)
		if err != nil {
			gamma.undo(mark)
			return nil, err
		}
		x := e.Body.Result[0]
		xt := gamma.get(x.Name) // the body's result's type, in its scope
		gamma.undo(mark)
		if !madeInPlace(s.Pat[0], e, xt) {
			body = append(body, t.copy(s.Pat[0], fun.Var{Ident: e.Var}, x, xt)...)
		}
		return []Stmt{&Kernel{At: e.Kernel, X: e.Var, Bound: fun.Var{Ident: e.Bound}, Body: body}}, nil
	case *fun.IotaExp:
		// iota n ≡ kernel j <= n do in (j)
		a := funmem.ArrayOf(s.Pat[0].Type)
		j := t.fresh("j")
		w := &Write{At: at, X: a.Block, Index: apply(a.Index, []fun.SExp{fun.Var{Ident: j}}), Value: fun.Var{Ident: j}}
		return []Stmt{&Kernel{At: e.Keyword, X: j, Bound: fun.Var{Ident: e.N}, Body: []Stmt{w}}}, nil
	case *fun.CopyExp:
		// copy x ≡ kernel j1 <= z1 do … x[j1, …, jn]: one COPY per outer index.
		j := t.fresh("j")
		src := gamma.get(e.Arr.Name)
		return []Stmt{&Kernel{At: e.Keyword, X: j, Bound: fun.Var{Ident: src.Dims[0]},
			Body: t.copyFrom(s.Pat[0], fun.Var{Ident: j}, e.Arr, src)}}, nil
	}
	if out, ok, err := t.stmExt(s, gamma); ok {
		return out, err
	}
	return nil, semantics.Errorf(s.Let, semantics.TypeError, "FunMemToImp", "no case for %s", fun.PrintExp(s.Exp))
}

// madeInPlace reports whether a kernel's body result (of type ty) is
// already item x of the kernel's array, made there by an inner kernel of
// the body (funmem.Simplify's inPlace): then COPY would move each of its
// locations onto itself, which changes nothing, and is left out. The
// inner kernel writes every location the COPY touches in the same
// iteration, so no race is witnessed by the COPY alone.
func madeInPlace(px *fun.Param, e *fun.KernelExp, ty fun.Type) bool {
	r := e.Body.Result[0]
	if ty.IsScalar() || !funmem.IsItem(funmem.ArrayOf(ty), funmem.ArrayOf(px.Type), e.Var) {
		return false
	}
	for _, st := range e.Body.Stms {
		if _, ok := st.Exp.(*fun.KernelExp); ok && len(st.Pat) == 1 && st.Pat[0].Name.Name == r.Name {
			return true
		}
	}
	return false
}

// copy is COPY(p_x, x_idx, p_y): the kernel body's result y goes to item
// x_idx of the kernel's array p_x.
func (t *translator) copy(px *fun.Param, idx fun.SExp, y *fun.Ident, ty fun.Type) []Stmt {
	dst := funmem.ArrayOf(px.Type)
	if ty.IsScalar() {
		return []Stmt{&Write{At: px.Lparen, X: dst.Block, Index: apply(dst.Index, []fun.SExp{idx}), Value: fun.Var{Ident: y}}}
	}
	return t.elementwise(px, []fun.SExp{idx}, funmem.ArrayOf(ty), nil, ty.Dims)
}

// copyFrom copies item idx of the array x into item idx of p_x.
func (t *translator) copyFrom(px *fun.Param, idx fun.SExp, x *fun.Ident, tx fun.Type) []Stmt {
	return t.elementwise(px, []fun.SExp{idx}, funmem.ArrayOf(tx), []fun.SExp{idx}, tx.Dims[1:])
}

// elementwise is nested kernels over dims writing dst[dstIdx, j…] ←
// src[srcIdx, j…], through a fresh int: a word copy, which moves a
// float's bits unchanged (a heap word is a word).
func (t *translator) elementwise(px *fun.Param, dstIdx []fun.SExp, src *funmem.ArrayMem, srcIdx []fun.SExp, dims []*fun.Ident) []Stmt {
	dst := funmem.ArrayOf(px.Type)
	if len(dims) == 0 {
		v := t.fresh("t")
		return []Stmt{
			&Decl{At: px.Lparen, X: v, Type: Int},
			&Read{At: px.Lparen, X: v, Y: src.Block, Index: apply(src.Index, srcIdx)},
			&Write{At: px.Lparen, X: dst.Block, Index: apply(dst.Index, dstIdx), Value: fun.Var{Ident: v}},
		}
	}
	j := t.fresh("j")
	jv := fun.Var{Ident: j}
	srcJ := fun.SExp(jv)
	if mutant.On("imp-copy-order") { // mutant: copies the items in reverse order, dst[…, j] ← src[…, z+1−j]
		srcJ = funmem.Sub(funmem.Add(fun.Var{Ident: dims[0]}, fun.Int(1)), jv)
	}
	body := t.elementwise(px, append(append([]fun.SExp(nil), dstIdx...), jv), src, append(append([]fun.SExp(nil), srcIdx...), srcJ), dims[1:])
	return []Stmt{&Kernel{At: px.Lparen, X: j, Bound: fun.Var{Ident: dims[0]}, Body: body}}
}

// stmExt is FunMemToImp on an extension form, reporting whether s is one.
func (t *translator) stmExt(s *fun.Stm, gamma *scope) ([]Stmt, bool, error) {
	at := s.Let
	switch e := s.Exp.(type) {
	case *fun.AssertExp:
		x := s.Pat[0].Name
		return []Stmt{&Assert{At: e.Keyword, Cond: e.Cond, Msg: e.Msg},
			&Decl{At: at, X: x, Type: Int}, &Assign{At: at, X: x, SE: fun.Int(1)}}, true, nil
	case *fun.LoopExp:
		out, err := t.loop(s, e, gamma)
		return out, true, err
	case *fun.ReduceExp:
		out, err := t.fold(s, e.Params, e.Ne, e.Arr, e.Body, false, gamma)
		return out, true, err
	case *fun.ScanExp:
		out, err := t.fold(s, e.Params, e.Ne, e.Arr, e.Body, true, gamma)
		return out, true, err
	case *fun.FilterExp:
		out, err := t.filter(s, e, gamma)
		return out, true, err
	case *fun.RedomapExp:
		out, err := t.redomap(s, e, gamma)
		return out, true, err
	}
	return nil, false, nil
}

// impType is the IMP type of a FUNMEM int, float or mem binding; ok is
// false for an array, which lives in Γ only.
func impType(typ fun.Type) (Type, bool) {
	switch {
	case typ.IsScalar():
		return TypeOf(typ.Elem), true
	case funmem.IsMem(typ):
		return Mem, true
	}
	return Int, false
}

// declare is var x : τ; x <- se.
func declare(at fun.Pos, x *fun.Ident, typ Type, se fun.SExp) []Stmt {
	return declared(at, x, typ, Assign{At: at, X: x, SE: se})
}

// declared is var x : τ; s: the two statements and their list in one
// allocation, as the translation writes them for most lets.
func declared[S any, P interface {
	*S
	Stmt
}](at fun.Pos, x *fun.Ident, typ Type, s S) []Stmt {
	m := &struct {
		s [2]Stmt
		d Decl
		t S
	}{d: Decl{At: at, X: x, Type: typ}, t: s}
	m.s = [2]Stmt{&m.d, P(&m.t)}
	return m.s[:]
}

// loop: the loop-carried ints and blocks are variables declared before
// the for and assigned the initial values; each iteration computes the
// results into temporaries, then assigns them (a swap (a, b) -> (b, a)
// must not read a variable it overwrote); the pattern's variables take
// the final values after done.
func (t *translator) loop(s *fun.Stm, e *fun.LoopExp, gamma *scope) ([]Stmt, error) {
	at := s.Let
	// The parameters are IMP variables declared before the for, which
	// outlive the loop in IMP, not in FUN: a parameter whose name the
	// program binds elsewhere (perhaps with another type, in a branch or
	// a body IMP's checker would then refuse) gets a fresh name.
	ren := map[string]string{}
	for _, y := range e.Params {
		if t.bindings(y.Name.Name) > 1 {
			ren[y.Name.Name] = t.fresh(y.Name.Name + "_").Name
		}
	}
	if len(ren) > 0 {
		f := fun.All(fun.Renaming(ren))
		e = &fun.LoopExp{Loop: e.Loop, Params: fun.MapParams(e.Params, f, true), Lparen: e.Lparen, Init: e.Init, Rparen: e.Rparen,
			Var: e.Var, Bound: e.Bound, Body: fun.MapBody(e.Body, f)}
	}
	var out, tmps, assigns []Stmt
	var pat, fin []*fun.Ident // the pattern's variables, the parameters they take after done
	var typs []Type
	for j, y := range e.Params {
		typ, ok := impType(y.Type)
		if !ok {
			continue // an array: its support is among the parameters
		}
		out = append(out, declare(at, y.Name, typ, fun.Var{Ident: e.Init[j]})...)
		tmp := t.fresh(y.Name.Name + "_next")
		tmps = append(tmps, declare(at, tmp, typ, fun.Var{Ident: e.Body.Result[j]})...)
		assigns = append(assigns, &Assign{At: at, X: y.Name, SE: fun.Var{Ident: tmp}})
		if p := s.Pat[j]; p.Name.Name != y.Name.Name {
			pat, fin, typs = append(pat, p.Name), append(fin, y.Name), append(typs, typ)
		}
	}
	mark := gamma.mark()
	gamma.with(e.Params...)
	gamma.set(e.Var.Name, &intType)
	body, err := t.block(e.Body.Stms, gamma)
	gamma.undo(mark)
	if err != nil {
		return nil, err
	}
	body = append(append(body, tmps...), assigns...)
	out = append(out, &For{At: e.Loop, X: e.Var, Bound: fun.Var{Ident: e.Bound}, Body: body})
	return append(out, t.declareAll(at, pat, fin, typs)...), nil
}

// declareAll is var x_j : τ_j; x_j <- y_j for every j, as if at once. The
// names of a loop's pattern and of its parameters live in different
// scopes in FUN, so a pattern may take them in another order ((b, a) for
// the parameters (a, b)); one after the other, x_i <- y_i would then
// overwrite the y_j a later x_j reads, and all go through fresh
// temporaries.
func (t *translator) declareAll(at fun.Pos, xs, ys []*fun.Ident, typs []Type) []Stmt {
	clash := false
	for i, x := range xs {
		for _, y := range ys[i+1:] {
			clash = clash || x.Name == y.Name
		}
	}
	var out, tail []Stmt
	for j, x := range xs {
		y := ys[j]
		if clash {
			tmp := t.fresh(x.Name + "_")
			out = append(out, declare(at, tmp, typs[j], fun.Var{Ident: y})...)
			y = tmp
		}
		tail = append(tail, declare(at, x, typs[j], fun.Var{Ident: y})...)
	}
	return append(out, tail...)
}

// bindsAny reports whether a statement of the bodies, or of a body nested
// in them, declares an IMP variable of one of the names: a pattern's, or
// a loop's, fold's, filter's or redomap's parameter (the indices too, to
// be safe). FUN lets a body bind a name its enclosing let's pattern binds
// (no shadowing is along one path of scopes only), while IMP's variables
// are flat: a declaration in an if's branch or a for's body overwrites
// the variable of that name outside it, which the translation may still
// read (an if's pattern, a filter's counter).
func bindsAny(names map[string]bool, bodies ...*fun.Body) bool {
	found := false
	for _, b := range bodies {
		eachStm(b, func(s *fun.Stm) {
			if found {
				return
			}
			for _, q := range s.Pat {
				found = found || names[q.Name.Name]
			}
			for _, q := range fun.ExpParams(s.Exp) {
				found = found || names[q.Name.Name]
			}
			if x := fun.ExpIndex(s.Exp); x != nil {
				found = found || names[x.Name]
			}
		})
	}
	return found
}

// rowOf is the index function of row i of an array of index function l:
// the offset L(i) and the remaining dimensions.
func rowOf(l *funmem.IndexFn, i fun.SExp) (fun.SExp, []funmem.LDim) {
	_, dims := l.LMAD()
	return apply(l, []fun.SExp{i}), dims[1:]
}

// bindOperand binds an operand of a reduce, scan or filter (its group g
// among ps) to an array of block m, offset off and dimensions dims: for
// an int or a float, a read of the element at off; for an array, its
// supporting variables.
func bindOperand(at fun.Pos, ps []*fun.Param, g funmem.Group, m *fun.Ident, off fun.SExp, dims []funmem.LDim) []Stmt {
	p := ps[g.Operand]
	if !g.IsArray() {
		return declared(at, p.Name, TypeOf(p.Type.Elem), Read{At: at, X: p.Name, Y: m, Index: off})
	}
	out := declare(at, &fun.Ident{Name: g.Block}, Mem, fun.Var{Ident: m})
	out = append(out, declare(at, &fun.Ident{Name: g.Off}, Int, off)...)
	for j, st := range g.Strides {
		out = append(out, declare(at, &fun.Ident{Name: st}, Int, dims[j].Stride)...)
	}
	return out
}

// own is the variable a fold's combine part yields for the body's result
// y, of type typ: y itself when it is a or b or declared at the part's
// top level, else a fresh copy (IMP's checker asks for one of the part's
// own variables).
func (t *translator) own(at fun.Pos, body []Stmt, y *fun.Ident, typ Type, own ...*fun.Ident) ([]Stmt, *fun.Ident) {
	for _, x := range own {
		if x.Name == y.Name {
			return body, y
		}
	}
	for _, st := range body {
		if d, ok := st.(*Decl); ok && d.X.Name == y.Name {
			return body, y
		}
	}
	c := t.fresh(y.Name + "_")
	return append(body, declare(at, c, typ, fun.Var{Ident: y})...), c
}

// fold is reduce (scan false) and scan. Over ints: IMP's reduce or scan.
// Over arrays: a for that carries the accumulator's block, offset and
// strides, binds the operands' support, runs the operator body and takes
// its result's support as the next accumulator; a scan copies it into row
// i of its result, a reduce's pattern gets it after done.
func (t *translator) fold(s *fun.Stm, ps []*fun.Param, ne, arr *fun.Ident, body *fun.Body, scan bool, gamma *scope) ([]Stmt, error) {
	at := s.Let
	xt := gamma.get(arr.Name)
	xa := funmem.ArrayOf(xt)
	gs := funmem.Groups(ps)
	if xa == nil || len(gs) != 2 || len(body.Result) != 1 {
		return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "a fold over an array with two operands and one result, not %s", fun.PrintExp(s.Exp))
	}
	n := fun.Var{Ident: xt.Dims[0]}
	i := t.fresh("i")
	roff, rdims := rowOf(xa.Index, fun.Var{Ident: i})
	mark := gamma.mark()
	gamma.with(ps...)
	comb, err := t.block(body.Stms, gamma)
	c := body.Result[0]
	ct := gamma.get(c.Name) // the result's type, in the operator body's scope
	gamma.undo(mark)
	if err != nil {
		return nil, err
	}
	if !gs[0].IsArray() {
		// Over ints or floats: a, b, the yields and the target have the
		// type of xs's elements.
		a, b := ps[gs[0].Operand].Name, ps[gs[1].Operand].Name
		el := TypeOf(xt.Elem)
		v := t.fresh("v")
		elem := declared(at, v, el, Read{At: at, X: v, Y: xa.Block, Index: roff})
		comb, y := t.own(at, comb, c, el, a, b)
		f := Fold{Neutral: fun.Var{Ident: ne}, X: i, Bound: n, Body: elem, Yield: v, A: a, B: b, Combine: comb, Result: y}
		if scan {
			d := funmem.ArrayOf(s.Pat[0].Type)
			return []Stmt{&Scan{At: s.Exp.Pos(), Block: d.Block, Addr: apply(d.Index, []fun.SExp{fun.Var{Ident: i}}), Fold: f}}, nil
		}
		x := s.Pat[0].Name
		return []Stmt{&Decl{At: at, X: x, Type: el}, &Reduce{At: s.Exp.Pos(), Target: x, Fold: f}}, nil
	}
	return t.arrayFold(s, ps, gs, ne, i, n, xt.Dims[1:], nil, xa.Block, roff, rdims, comb, funmem.ArrayOf(ct), scan, gamma)
}

// arrayFold is a fold (a reduce or scan over arrays, a redomap or
// scanomap of arrays) whose accumulator is an array of sizes dims: a for
// i <= n carrying the accumulator's block, offset and strides, whose body
// runs pre (a redomap's map body), binds the operands' support (a from
// the accumulator, b from block bm at offset boff with dimensions bdims),
// runs the operator body comb and takes the support of its result ca as
// the next accumulator; a scan copies it into row i of its result, a
// reduce's pattern gets it after done.
func (t *translator) arrayFold(s *fun.Stm, ps []*fun.Param, gs []funmem.Group, ne, i *fun.Ident, n fun.SExp, dims []*fun.Ident,
	pre []Stmt, bm *fun.Ident, boff fun.SExp, bdims []funmem.LDim, comb []Stmt, ca *funmem.ArrayMem, scan bool, gamma *scope) ([]Stmt, error) {
	at := s.Let
	// Over arrays: the accumulator's support, from z, then from each result.
	za := funmem.ArrayOf(gamma.get(ne.Name))
	if za == nil || ca == nil {
		return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "the start and the result of %s are arrays", fun.PrintExp(s.Exp))
	}
	accm, acco := t.fresh("acc_mem"), t.fresh("acc_off")
	var accs []*fun.Ident
	for range gs[0].Strides {
		accs = append(accs, t.fresh("acc_stride"))
	}
	set := func(l *funmem.ArrayMem, decl bool) []Stmt {
		off, dims := l.Index.LMAD()
		var out []Stmt
		put := func(x *fun.Ident, typ Type, se fun.SExp) {
			if decl {
				out = append(out, &Decl{At: at, X: x, Type: typ})
			}
			out = append(out, &Assign{At: at, X: x, SE: se})
		}
		put(accm, Mem, fun.Var{Ident: l.Block})
		put(acco, Int, off)
		for j, st := range accs {
			put(st, Int, dims[j].Stride)
		}
		return out
	}
	out := set(za, true)
	acc := &funmem.IndexFn{Offset: fun.Var{Ident: acco}}
	for j, d := range dims {
		acc.Dims = append(acc.Dims, funmem.LDim{Elems: fun.Var{Ident: d}, Stride: fun.Var{Ident: accs[j]}})
	}
	accDims := make([]funmem.LDim, len(accs))
	for j, st := range accs {
		accDims[j] = funmem.LDim{Stride: fun.Var{Ident: st}}
	}
	loop := append(pre, bindOperand(at, ps, gs[0], accm, fun.Var{Ident: acco}, accDims)...)
	loop = append(loop, bindOperand(at, ps, gs[1], bm, boff, bdims)...)
	loop = append(append(loop, comb...), set(ca, false)...)
	if scan {
		loop = append(loop, t.elementwise(s.Pat[0], []fun.SExp{fun.Var{Ident: i}}, &funmem.ArrayMem{Block: accm, Index: acc}, nil, dims)...)
	}
	out = append(out, &For{At: s.Exp.Pos(), X: i, Bound: n, Body: loop})
	if scan {
		return out, nil
	}
	// The reduce's pattern: the accumulator and its support.
	pg := funmem.Groups(s.Pat)
	if len(pg) != 1 || !pg[0].IsArray() {
		return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "an array reduce binds its result with its support")
	}
	out = append(out, declare(at, &fun.Ident{Name: pg[0].Block}, Mem, fun.Var{Ident: accm})...)
	out = append(out, declare(at, &fun.Ident{Name: pg[0].Off}, Int, fun.Var{Ident: acco})...)
	for j, st := range pg[0].Strides {
		out = append(out, declare(at, &fun.Ident{Name: st}, Int, fun.Var{Ident: accs[j]})...)
	}
	return out, nil
}

// filter: a for over the rows with a counter, the pattern's k, and an
// if that copies each kept row to row k of the result. The result's LMAD
// is applied to k as it counts, so it may not depend on k but through its
// sizes (a row-major one does not).
func (t *translator) filter(s *fun.Stm, e *fun.FilterExp, gamma *scope) ([]Stmt, error) {
	at := s.Let
	xt := gamma.get(e.Arr.Name)
	xa := funmem.ArrayOf(xt)
	gs := funmem.Groups(e.Params)
	if xa == nil || len(gs) != 1 || len(s.Pat) != 2 || len(e.Body.Result) != 1 {
		return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "a filter over an array with one operand and one result, not %s", fun.PrintExp(s.Exp))
	}
	k, ys := s.Pat[0].Name, s.Pat[1]
	d := funmem.ArrayOf(ys.Type)
	off, dims := d.Index.LMAD()
	exprs := []fun.SExp{off}
	for _, dd := range dims {
		exprs = append(exprs, dd.Stride)
	}
	for _, x := range exprs {
		for _, v := range fun.FreeVars(x, nil) {
			if v.Name == k.Name {
				return nil, semantics.Errorf(ys.Lparen, semantics.TypeError, "FunMemToImp", "the LMAD %s of the filter's result depends on its size %s, known only after the rows are kept", d.Index, k.Name)
			}
		}
	}
	i := t.fresh("i")
	roff, rdims := rowOf(xa.Index, fun.Var{Ident: i})
	op := e.Params[gs[0].Operand]
	loop := bindOperand(at, e.Params, gs[0], xa.Block, roff, rdims)
	mark := gamma.mark()
	gamma.with(e.Params...)
	body, err := t.block(e.Body.Stms, gamma)
	gamma.undo(mark)
	if err != nil {
		return nil, err
	}
	loop = append(loop, body...)
	// The counter is k itself, unless the body binds the name k (FUN
	// allows it: k is not in the body's scope): then a fresh variable,
	// lest the body's declaration reset the count, and k takes it after
	// done.
	cnt := k
	if bindsAny(map[string]bool{k.Name: true}, e.Body) {
		cnt = t.fresh(k.Name + "_count")
	}
	kv := fun.Var{Ident: cnt}
	keep := []Stmt{&Assign{At: at, X: cnt, SE: funmem.Add(kv, fun.Int(1))}}
	if !gs[0].IsArray() {
		keep = append(keep, &Write{At: at, X: d.Block, Index: apply(d.Index, []fun.SExp{kv}), Value: fun.Var{Ident: op.Name}})
	} else {
		keep = append(keep, t.elementwise(ys, []fun.SExp{kv}, funmem.ArrayOf(op.Type), nil, xt.Dims[1:])...)
	}
	loop = append(loop, &If{At: at, Cond: e.Body.Result[0], Then: keep, Else: []Stmt{&Skip{At: at}}})
	out := declare(at, cnt, Int, fun.Int(0))
	out = append(out, &For{At: e.Keyword, X: i, Bound: fun.Var{Ident: xt.Dims[0]}, Body: loop})
	if cnt != k {
		out = append(out, declare(at, k, Int, kv)...)
	}
	return out, nil
}

// redomap is redomap and scanomap: a fold whose element part is the map
// body. Over ints or floats, IMP's reduce or scan, with the translated
// map body as the element part, yielding its result (for i <= n do map
// yield y combine a, b do op yield c); over arrays, the for of arrayFold
// with the map body first in each iteration, b bound to its result's
// support. In that for, the map and operator bodies share one scope (IMP
// is flat where FUN has two), so the map body's names that the operator
// body binds too are renamed.
func (t *translator) redomap(s *fun.Stm, e *fun.RedomapExp, gamma *scope) ([]Stmt, error) {
	at := s.Let
	gs := funmem.Groups(e.Params)
	if len(gs) != 2 || len(e.Map.Result) != 1 || len(e.Op.Result) != 1 || len(s.Pat) == 0 {
		return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "a %s with two operands, one element and one result, not %s", fun.RedomapWord(e), fun.PrintExp(s.Exp))
	}
	n := fun.Var{Ident: e.Bound}
	i := e.Var
	tau := e.Params[gs[0].Operand].Type
	m := e.Map
	mark := gamma.mark()
	if gs[0].IsArray() {
		m, i = t.apart(m, i, e.Op, e.Params)
		gamma.set(i.Name, &intType)
	} else {
		gamma.withDefault(i)
	}
	elem, err := t.block(m.Stms, gamma)
	y, c := m.Result[0], e.Op.Result[0]
	yt := gamma.get(y.Name) // the element's type, in the map body's scope
	gamma.undo(mark)
	if err != nil {
		return nil, err
	}
	gamma.with(e.Params...)
	comb, err := t.block(e.Op.Stms, gamma)
	ct := gamma.get(c.Name) // the result's type, in the operator body's scope
	gamma.undo(mark)
	if err != nil {
		return nil, err
	}
	if !gs[0].IsArray() {
		a, b := e.Params[gs[0].Operand].Name, e.Params[gs[1].Operand].Name
		el := TypeOf(tau.Elem)
		elem, y := t.own(at, elem, y, el, i)
		comb, r := t.own(at, comb, c, el, a, b)
		f := Fold{Neutral: fun.Var{Ident: e.Ne}, X: i, Bound: n, Body: elem, Yield: y, A: a, B: b, Combine: comb, Result: r}
		if e.Scan {
			d := funmem.ArrayOf(s.Pat[0].Type)
			if d == nil {
				return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "a scanomap binds an array")
			}
			return []Stmt{&Scan{At: e.Keyword, Block: d.Block, Addr: apply(d.Index, []fun.SExp{fun.Var{Ident: i}}), Fold: f}}, nil
		}
		x := s.Pat[0].Name
		return []Stmt{&Decl{At: at, X: x, Type: el}, &Reduce{At: e.Keyword, Target: x, Fold: f}}, nil
	}
	fa := funmem.ArrayOf(yt)
	if fa == nil {
		return nil, semantics.Errorf(at, semantics.TypeError, "FunMemToImp", "the map body of %s gives an array", fun.PrintExp(s.Exp))
	}
	boff, bdims := fa.Index.LMAD()
	return t.arrayFold(s, e.Params, gs, e.Ne, i, n, tau.Dims, elem, fa.Block, boff, bdims, comb, funmem.ArrayOf(ct), e.Scan, gamma)
}

// apart renames, in a map body m of index i, the names it binds (i too)
// that the operator body op or its parameters ps bind too, so that the two
// bodies can share one IMP scope (and op cannot reset the for's index).
// Every occurrence of such a name in m is the map body's own binding's
// (FUN binds a name once along a path of scopes, and op's names are not
// in scope around the redomap), so all are renamed. It returns the map
// body and its index.
func (t *translator) apart(m *fun.Body, i *fun.Ident, op *fun.Body, ps []*fun.Param) (*fun.Body, *fun.Ident) {
	theirs := map[string]bool{}
	for _, p := range ps {
		theirs[p.Name.Name] = true
	}
	eachStm(op, func(s *fun.Stm) {
		for _, q := range append(append([]*fun.Param(nil), s.Pat...), fun.ExpParams(s.Exp)...) {
			theirs[q.Name.Name] = true
		}
		if x := fun.ExpIndex(s.Exp); x != nil {
			theirs[x.Name] = true
		}
	})
	ren := map[string]string{}
	if theirs[i.Name] {
		ren[i.Name] = t.fresh(i.Name + "_").Name
	}
	eachStm(m, func(s *fun.Stm) {
		names := append(append([]*fun.Param(nil), s.Pat...), fun.ExpParams(s.Exp)...)
		for _, q := range names {
			if theirs[q.Name.Name] && ren[q.Name.Name] == "" {
				ren[q.Name.Name] = t.fresh(q.Name.Name + "_").Name
			}
		}
		if x := fun.ExpIndex(s.Exp); x != nil && theirs[x.Name] && ren[x.Name] == "" {
			ren[x.Name] = t.fresh(x.Name + "_").Name
		}
	})
	if len(ren) == 0 {
		return m, i
	}
	f := fun.All(fun.Renaming(ren))
	return fun.MapBody(m, f), f(i, true)
}
