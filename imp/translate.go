package imp

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/mutant"
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
// the end of each branch (arrays need nothing); COPY reads an element into
// a fresh int before writing it (IMP's write takes a scalar expression);
// iota and copy, derived forms, become the kernels they stand for; a
// program's inputs are ints and row-major arrays in blocks of their own,
// and its results are named by return, each array by its block and shape.
func FromFunmem(p *fun.Program) (*Program, error) {
	t := &translator{used: map[string]bool{}}
	gamma := map[string]fun.Type{}
	for _, in := range p.Inputs {
		gamma[in.Name.Name] = in.Type
		t.used[in.Name.Name] = true
	}
	fun.Stms(p.Body, func(s *fun.Stm) {
		for _, q := range s.Pat {
			t.used[q.Name.Name] = true
		}
		if k, ok := s.Exp.(*fun.KernelExp); ok {
			t.used[k.Var.Name] = true
		}
	})
	out := &Program{File: p.File, RetPos: p.Body.In}
	for _, in := range p.Inputs {
		switch {
		case in.Type.IsInt():
			out.Inputs = append(out.Inputs, &Input{Pos: in.Lparen, Name: in.Name})
		case funmem.ArrayOf(in.Type) != nil:
			a := funmem.ArrayOf(in.Type)
			if !funmem.IsRowMajor(in.Type) {
				return nil, fmt.Errorf("%s: input %s is not row-major (%s); an input must be laid out row-major from offset 0, R(…)", in.Lparen, in.Name.Name, a.Index)
			}
			out.Inputs = append(out.Inputs, &Input{Pos: in.Lparen, Name: in.Name, Dims: vars(in.Type.Dims), Block: a.Block})
		}
	}
	body, gamma, err := t.stms(p.Body.Stms, gamma)
	if err != nil {
		return nil, err
	}
	out.Body = body
	res := p.Body.Result
	for i := 0; i < len(res); i++ {
		typ := gamma[res[i].Name]
		switch {
		case funmem.IsMem(typ) && i+1 < len(res) && funmem.ArrayOf(gamma[res[i+1].Name]) != nil:
			arr := gamma[res[i+1].Name]
			out.Return = append(out.Return, &Result{Name: res[i], Dims: vars(arr.Dims)})
			i++
		case typ.IsInt():
			out.Return = append(out.Return, &Result{Name: res[i]})
		default:
			return nil, fmt.Errorf("%s: result %s: IMP returns ints and (block, array) pairs (T-MEM-PROG)", res[i].NamePos, res[i].Name)
		}
	}
	return out, nil
}

type translator struct {
	used map[string]bool
	n    int
}

func (t *translator) fresh(base string) *fun.Ident {
	for {
		t.n++
		name := fmt.Sprintf("%s%d", base, t.n)
		if !t.used[name] && !keywords[name] {
			t.used[name] = true
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

// apply is L(y1, …, yk) on 1-based indices, symbolically; with fewer
// indices than dimensions, the offset of the first element they select.
func apply(l *funmem.IndexFn, idx []fun.SExp) fun.SExp {
	off, dims := l.LMAD()
	for i, y := range idx {
		off = funmem.Add(off, funmem.Mul(funmem.Sub(y, fun.Int(1)), dims[i].Stride))
	}
	return off
}

// stms translates a sequence of statements in the scope gamma, and
// returns the scope after them.
func (t *translator) stms(ss []*fun.Stm, gamma map[string]fun.Type) ([]Stmt, map[string]fun.Type, error) {
	g := make(map[string]fun.Type, len(gamma))
	for k, v := range gamma {
		g[k] = v
	}
	var out []Stmt
	for _, s := range ss {
		ts, err := t.stm(s, g)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, ts...)
		for _, p := range s.Pat {
			g[p.Name.Name] = p.Type
		}
	}
	return out, g, nil
}

// stm is FunMemToImp on one statement, in the scope gamma.
func (t *translator) stm(s *fun.Stm, gamma map[string]fun.Type) ([]Stmt, error) {
	at := s.Let
	switch e := s.Exp.(type) {
	case *fun.SliceExp, *fun.TransposeExp:
		return []Stmt{&Skip{At: at}}, nil
	case *fun.ScalarExp:
		x := s.Pat[0].Name
		return []Stmt{&Decl{At: at, X: x, Type: Int}, &Assign{At: at, X: x, SE: e.X}}, nil
	case *funmem.AllocExp:
		x := s.Pat[0].Name
		return []Stmt{&Decl{At: at, X: x, Type: Mem}, &Alloc{At: at, X: x, Size: e.Size}}, nil
	case *fun.IndexExp:
		x := s.Pat[0].Name
		a := funmem.ArrayOf(gamma[e.Arr.Name])
		return []Stmt{&Decl{At: at, X: x, Type: Int}, &Read{At: at, X: x, Y: a.Block, Index: apply(a.Index, vars(e.Idx))}}, nil
	case *fun.IfExp:
		// FUN lets a branch bind a name of the if's own pattern; IMP's
		// environment is flat, so the branch's results then go through
		// fresh variables, lest one assignment clobber the next's source.
		clash := false
		bound := map[string]bool{}
		fun.Stms(&fun.Body{Stms: append(append([]*fun.Stm(nil), e.Then.Stms...), e.Else.Stms...)}, func(st *fun.Stm) {
			for _, q := range st.Pat {
				bound[q.Name.Name] = true
			}
		})
		for _, p := range s.Pat {
			clash = clash || bound[p.Name.Name]
		}
		var decls, tail1, tail2 []Stmt
		assign := func(tail []Stmt, x *fun.Ident, y *fun.Ident, typ Type) []Stmt {
			if !clash {
				return append(tail, &Assign{At: at, X: x, SE: fun.Var{Ident: y}})
			}
			tmp := t.fresh(x.Name + "_")
			return append([]Stmt{&Decl{At: at, X: tmp, Type: typ}, &Assign{At: at, X: tmp, SE: fun.Var{Ident: y}}},
				append(tail, &Assign{At: at, X: x, SE: fun.Var{Ident: tmp}})...)
		}
		for i, p := range s.Pat {
			var typ Type
			switch {
			case p.Type.IsInt():
				typ = Int
			case funmem.IsMem(p.Type):
				typ = Mem
			default:
				continue // an array: its block, offset and strides are in the pattern
			}
			decls = append(decls, &Decl{At: at, X: p.Name, Type: typ})
			tail1 = assign(tail1, p.Name, e.Then.Result[i], typ)
			tail2 = assign(tail2, p.Name, e.Else.Result[i], typ)
		}
		s1, _, err := t.stms(e.Then.Stms, gamma)
		if err != nil {
			return nil, err
		}
		s2, _, err := t.stms(e.Else.Stms, gamma)
		if err != nil {
			return nil, err
		}
		return append(decls, &If{At: at, Cond: e.Cond, Then: append(s1, tail1...), Else: append(s2, tail2...)}), nil
	case *fun.KernelExp:
		inner := map[string]fun.Type{e.Var.Name: {}}
		for k, v := range gamma {
			inner[k] = v
		}
		body, inner, err := t.stms(e.Body.Stms, inner)
		if err != nil {
			return nil, err
		}
		x := e.Body.Result[0]
		body = append(body, t.copy(s.Pat[0], fun.Var{Ident: e.Var}, x, inner[x.Name])...)
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
		src := gamma[e.Arr.Name]
		return []Stmt{&Kernel{At: e.Keyword, X: j, Bound: fun.Var{Ident: src.Dims[0]},
			Body: t.copyFrom(s.Pat[0], fun.Var{Ident: j}, e.Arr, src)}}, nil
	}
	return nil, fmt.Errorf("%s: FunMemToImp: no case for %s", s.Let, fun.PrintExp(s.Exp))
}

// copy is COPY(p_x, x_idx, p_y): the kernel body's result y goes to item
// x_idx of the kernel's array p_x.
func (t *translator) copy(px *fun.Param, idx fun.SExp, y *fun.Ident, ty fun.Type) []Stmt {
	dst := funmem.ArrayOf(px.Type)
	if ty.IsInt() {
		return []Stmt{&Write{At: px.Lparen, X: dst.Block, Index: apply(dst.Index, []fun.SExp{idx}), Value: fun.Var{Ident: y}}}
	}
	return t.elementwise(px, []fun.SExp{idx}, funmem.ArrayOf(ty), nil, ty.Dims)
}

// copyFrom copies item idx of the array x into item idx of p_x.
func (t *translator) copyFrom(px *fun.Param, idx fun.SExp, x *fun.Ident, tx fun.Type) []Stmt {
	return t.elementwise(px, []fun.SExp{idx}, funmem.ArrayOf(tx), []fun.SExp{idx}, tx.Dims[1:])
}

// elementwise is nested kernels over dims writing dst[dstIdx, j…] ←
// src[srcIdx, j…], through a fresh int.
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
