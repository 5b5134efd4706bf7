package funmem

import "github.com/arraysem/arraysem/fun"

// The rewriting helpers below copy a tree, passing every occurrence of a
// variable (not its binders: pattern names and kernel indices) through f.
// Occurrences in types count: sizes, blocks and the variables of LMADs.
// FUNMEM binds each name once, so renaming needs no care for capture.

type identMap func(*fun.Ident) *fun.Ident

func mapSExp(e fun.SExp, f identMap) fun.SExp {
	return Substitute(e, func(x *fun.Ident) fun.SExp {
		if y := f(x); y != x {
			return fun.Var{Ident: y}
		}
		return nil
	})
}

func mapType(t fun.Type, f identMap) fun.Type {
	out := fun.Type{Ext: t.Ext}
	for _, d := range t.Dims {
		out.Dims = append(out.Dims, f(d))
	}
	if a := ArrayOf(t); a != nil {
		l := &IndexFn{Pos: a.Index.Pos}
		if a.Index.IsRowMajor() {
			for _, x := range a.Index.RowMajor {
				l.RowMajor = append(l.RowMajor, mapSExp(x, f))
			}
		} else {
			l.Offset = mapSExp(a.Index.Offset, f)
			for _, d := range a.Index.Dims {
				l.Dims = append(l.Dims, LDim{Elems: mapSExp(d.Elems, f), Stride: mapSExp(d.Stride, f)})
			}
		}
		out.Ext = &ArrayMem{Block: f(a.Block), Index: l}
	}
	return out
}

func mapParams(ps []*fun.Param, f identMap) []*fun.Param {
	out := make([]*fun.Param, len(ps))
	for i, p := range ps {
		out[i] = &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: mapType(p.Type, f)}
	}
	return out
}

func mapIdents(xs []*fun.Ident, f identMap) []*fun.Ident {
	out := make([]*fun.Ident, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

func mapExp(e fun.Exp, f identMap) fun.Exp {
	switch e := e.(type) {
	case *fun.ScalarExp:
		return &fun.ScalarExp{X: mapSExp(e.X, f)}
	case *AllocExp:
		return &AllocExp{Alloc: e.Alloc, Size: mapSExp(e.Size, f)}
	case *fun.IndexExp:
		return &fun.IndexExp{Arr: f(e.Arr), Idx: mapIdents(e.Idx, f)}
	case *fun.SliceExp:
		out := &fun.SliceExp{Arr: f(e.Arr)}
		for _, s := range e.Slices {
			out.Slices = append(out.Slices, fun.Slice{Off: f(s.Off), Size: f(s.Size)})
		}
		return out
	case *fun.TransposeExp:
		return &fun.TransposeExp{Keyword: e.Keyword, Arr: f(e.Arr)}
	case *fun.IotaExp:
		return &fun.IotaExp{Keyword: e.Keyword, N: f(e.N)}
	case *fun.CopyExp:
		return &fun.CopyExp{Keyword: e.Keyword, Arr: f(e.Arr)}
	case *fun.IfExp:
		return &fun.IfExp{If: e.If, Cond: f(e.Cond), Then: mapBody(e.Then, f), Else: mapBody(e.Else, f)}
	case *fun.KernelExp:
		return &fun.KernelExp{Kernel: e.Kernel, Var: e.Var, Bound: f(e.Bound), Body: mapBody(e.Body, f)}
	}
	return e
}

func mapStm(s *fun.Stm, f identMap) *fun.Stm {
	return &fun.Stm{Let: s.Let, Pat: mapParams(s.Pat, f), Exp: mapExp(s.Exp, f)}
}

func mapStms(ss []*fun.Stm, f identMap) []*fun.Stm {
	out := make([]*fun.Stm, len(ss))
	for i, s := range ss {
		out[i] = mapStm(s, f)
	}
	return out
}

func mapBody(b *fun.Body, f identMap) *fun.Body {
	return &fun.Body{Stms: mapStms(b.Stms, f), In: b.In, Result: mapIdents(b.Result, f)}
}

// renamer maps the names in m to fresh identifiers of the new names.
func renamer(m map[string]string) identMap {
	return func(x *fun.Ident) *fun.Ident {
		if y, ok := m[x.Name]; ok {
			return &fun.Ident{NamePos: x.NamePos, Name: y}
		}
		return x
	}
}

// uses counts the occurrences of variables in statements and results.
func uses(ss []*fun.Stm, result []*fun.Ident) map[string]int {
	n := map[string]int{}
	count := func(x *fun.Ident) *fun.Ident { n[x.Name]++; return x }
	mapStms(ss, count)
	mapIdents(result, count)
	return n
}
