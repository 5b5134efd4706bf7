package funmem

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
)

// MemType is the annotation of the type mem (a memory block).
type MemType struct{}

// Format renders mem.
func (MemType) Format(string) string { return "mem" }

// ArrayMem is the annotation of an array type [x]…[x] @ m -> L: the block
// the array lives in and its index function.
type ArrayMem struct {
	Block *fun.Ident
	Index *IndexFn
}

// Bodiless says that an array's annotation holds no statement (a block
// and an LMAD of scalar expressions): fun.Stms and fun.Bodies need not
// walk it.
func (a *ArrayMem) Bodiless() {}

// Format renders [n][k] @ m -> L.
func (a *ArrayMem) Format(dims string) string {
	return dims + " @ " + a.Block.Name + " -> " + a.Index.String()
}

// IndexFn is an LMAD of Fig 6, se + {(se : se) …}: an offset and, per
// dimension, (elements : stride). The paper writes variables for the
// elements and strides; we allow scalar expressions, as MemoryExpand and
// slicing produce them. R(x1, …, xn), the row-major LMAD, is kept as
// written (RowMajor) and expanded by LMAD.
type IndexFn struct {
	Pos      fun.Pos
	Offset   fun.SExp
	Dims     []LDim
	RowMajor []fun.SExp // non-nil for R(…)
}

// LDim is (elements : stride).
type LDim struct{ Elems, Stride fun.SExp }

// IsRowMajor reports whether the index function was written R(…).
func (l *IndexFn) IsRowMajor() bool { return l.RowMajor != nil }

// Rank is the number of dimensions.
func (l *IndexFn) Rank() int {
	if l.IsRowMajor() {
		return len(l.RowMajor)
	}
	return len(l.Dims)
}

// LMAD returns the index function as offset and dimensions, expanding
// R(x1, …, xn) to 0 + {(x1 : x2·…·xn) … (xn : 1)}.
func (l *IndexFn) LMAD() (fun.SExp, []LDim) {
	if !l.IsRowMajor() {
		return l.Offset, l.Dims
	}
	// The dimensions and the constants 0 and 1 in one allocation: the
	// checker and the heap semantics expand R(…) at every array type.
	var (
		dims      []LDim
		zero, one *fun.Const
	)
	switch n := len(l.RowMajor); {
	case n == 1:
		b := &struct {
			zero, one fun.Const
			dims      [1]LDim
		}{zero: fun.Const{Value: 0}, one: fun.Const{Value: 1}}
		dims, zero, one = b.dims[:], &b.zero, &b.one
	case n == 2:
		b := &struct {
			zero, one fun.Const
			dims      [2]LDim
		}{zero: fun.Const{Value: 0}, one: fun.Const{Value: 1}}
		dims, zero, one = b.dims[:], &b.zero, &b.one
	default:
		dims, zero, one = make([]LDim, n), &fun.Const{Value: 0}, &fun.Const{Value: 1}
	}
	var stride fun.SExp = one
	for i := len(l.RowMajor) - 1; i >= 0; i-- {
		dims[i] = LDim{Elems: l.RowMajor[i], Stride: stride}
		if i > 0 { // no dimension has the first one's size in its stride
			stride = Mul(l.RowMajor[i], stride)
		}
	}
	return zero, dims
}

// String renders the index function as written.
func (l *IndexFn) String() string {
	if l.IsRowMajor() {
		parts := make([]string, len(l.RowMajor))
		for i, x := range l.RowMajor {
			parts[i] = fun.PrintSExp(x)
		}
		return "R(" + strings.Join(parts, ", ") + ")"
	}
	parts := make([]string, len(l.Dims))
	for i, d := range l.Dims {
		parts[i] = "(" + fun.PrintSExp(d.Elems) + " : " + fun.PrintSExp(d.Stride) + ")"
	}
	off := fun.PrintSExp(l.Offset)
	if b, ok := l.Offset.(*fun.BinOp); ok && b.Op.Prec() <= 4 {
		off = "(" + off + ")" // so that "+ {" is not read into the offset
	}
	return off + " + {" + strings.Join(parts, " ") + "}"
}

// AllocExp is alloc se: a fresh, zeroed memory block of se integers.
type AllocExp struct {
	Alloc  fun.Pos
	Size   fun.SExp
	Rparen fun.Pos // the outermost ')' around Size, when it is in parentheses
}

// Pos is the position of alloc.
func (e *AllocExp) Pos() fun.Pos { return e.Alloc }

// End is the position just after the size.
func (e *AllocExp) End() fun.Pos {
	if e.Rparen.IsValid() {
		return fun.Pos{File: e.Rparen.File, Line: e.Rparen.Line, Col: e.Rparen.Col + 1}
	}
	return e.Size.End()
}

// ExpNode marks AllocExp as an expression.
func (*AllocExp) ExpNode() {}

// String renders alloc se.
func (e *AllocExp) String() string { return "alloc " + fun.PrintSExp(e.Size) }

// Mem is the FUNMEM type mem.
func Mem() fun.Type { return fun.Type{Ext: MemType{}} }

// IsMem reports whether t is mem.
func IsMem(t fun.Type) bool { _, ok := t.Ext.(MemType); return ok }

// ArrayOf returns an array type's memory annotation, or nil.
func ArrayOf(t fun.Type) *ArrayMem { a, _ := t.Ext.(*ArrayMem); return a }

// Scalar expression builders that keep their result in canonical
// polynomial form (Canon), folding constants so that generated LMADs stay
// readable. FUN's plain constructors (fun.Int, fun.Named, fun.Binary)
// build what they are given.

// Add is a + b.
func Add(a, b fun.SExp) fun.SExp { return binop(a, b, '+') }

// Mul is a · b.
func Mul(a, b fun.SExp) fun.SExp { return binop(a, b, '*') }

// Sub is a − b.
func Sub(a, b fun.SExp) fun.SExp { return binop(a, b, '-') }
