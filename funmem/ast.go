package funmem

import "github.com/arraysem/arraysem/fun"

// FUNMEM's nodes in FUN's trees, alloc expressions and memory
// annotations, implement fun.Extension and fun's mappers, so that fun's
// tree tools (Inspect, MapProgram, the copies) reach inside them:
// occurrences in types count (sizes, blocks and the variables of LMADs).
// FUNMEM binds each name once, so renaming needs no care for capture.
//
// A node that missed a method would be a leaf to the tools, silently: the
// assertions below make that a compile error.
var (
	_ fun.Extension  = (*AllocExp)(nil)
	_ fun.ExpMapper  = (*AllocExp)(nil)
	_ fun.Extension  = (*ArrayMem)(nil)
	_ fun.TypeMapper = (*ArrayMem)(nil)
)

// Children is the size of the block.
func (e *AllocExp) Children() []fun.Node { return []fun.Node{e.Size} }

// MapIdents copies alloc se, passing the variables of se through f.
func (e *AllocExp) MapIdents(f fun.IdentFunc) fun.Exp {
	return &AllocExp{Alloc: e.Alloc, Size: fun.MapSExp(e.Size, f), Rparen: e.Rparen}
}

// Children are the block and the scalar expressions of the LMAD, as
// written.
func (a *ArrayMem) Children() []fun.Node {
	out := []fun.Node{a.Block}
	for _, x := range a.Index.RowMajor {
		out = append(out, x)
	}
	if a.Index.Offset != nil {
		out = append(out, a.Index.Offset)
	}
	for _, d := range a.Index.Dims {
		out = append(out, d.Elems, d.Stride)
	}
	return out
}

// MapIdents copies the annotation, passing the block and the variables
// of the LMAD through f.
func (a *ArrayMem) MapIdents(f fun.IdentFunc) fun.TypeExt {
	l := &IndexFn{Pos: a.Index.Pos}
	if a.Index.IsRowMajor() {
		for _, x := range a.Index.RowMajor {
			l.RowMajor = append(l.RowMajor, fun.MapSExp(x, f))
		}
	} else {
		l.Offset = fun.MapSExp(a.Index.Offset, f)
		for _, d := range a.Index.Dims {
			l.Dims = append(l.Dims, LDim{Elems: fun.MapSExp(d.Elems, f), Stride: fun.MapSExp(d.Stride, f)})
		}
	}
	return &ArrayMem{Block: f(a.Block, false), Index: l}
}
