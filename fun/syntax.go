package fun

import (
	"slices"

	"github.com/arraysem/arraysem/semantics"
)

// Pos is a source position.
type Pos = semantics.Pos

// Ident is an occurrence of a variable.
type Ident struct {
	NamePos Pos
	Name    string
}

// Type is τ of Fig 1: int (no dimensions) or an array [x1]…[xn] whose sizes
// are variables of type int.
type Type struct {
	Dims []*Ident
	// Ext is the annotation a language extending FUN adds to a type: in
	// FUNMEM (§3), the type mem, or an array's memory block and index
	// function. FUN's own types have none, and its checker refuses any.
	Ext TypeExt
}

// TypeExt is an extension's annotation of a Type.
type TypeExt interface {
	// Format renders the whole type, given its dimensions as FUN writes
	// them ("" for none).
	Format(dims string) string
}

// IsInt reports whether t is int.
func (t Type) IsInt() bool { return len(t.Dims) == 0 && t.Ext == nil }

// Rank is the number of dimensions.
func (t Type) Rank() int { return len(t.Dims) }

// SameDims reports whether t and u have the same sizes, by name (their
// annotations aside): FUN's type equality.
func (t Type) SameDims(u Type) bool {
	return slices.EqualFunc(t.Dims, u.Dims, func(x, y *Ident) bool { return x.Name == y.Name })
}

// Param is a binding (x : τ) of a pattern or an input declaration.
type Param struct {
	Lparen Pos // position of '('
	Name   *Ident
	Type   Type
}

// Program is a FUN program: optional input declarations (an extension,
// set with --arg) and a body.
type Program struct {
	File   string
	Inputs []*Param
	Body   *Body
}

// Body is b of Fig 1: statements, then in (x, …, x).
type Body struct {
	Stms   []*Stm
	In     Pos // position of 'in'
	Result []*Ident
}

// Stm is a statement let p … p = e.
type Stm struct {
	Let Pos
	Pat []*Param
	Exp Exp
}

// Exp is an expression e of Fig 1 (or a derived form of §2). Languages
// extending FUN add expressions of their own (FUNMEM's alloc); FUN's
// checker and evaluators refuse those.
type Exp interface {
	Pos() Pos
	ExpNode()
}

// ScalarExp is a scalar expression used as an expression.
type ScalarExp struct{ X SExp }

// IndexExp is x[y1, …, yn].
type IndexExp struct {
	Arr *Ident
	Idx []*Ident
}

// SliceExp is x[o1 : s1, …, on : sn].
type SliceExp struct {
	Arr    *Ident
	Slices []Slice
}

// Slice is one offset:size pair of a SliceExp.
type Slice struct{ Off, Size *Ident }

// TransposeExp is transpose x.
type TransposeExp struct {
	Keyword Pos
	Arr     *Ident
}

// IfExp is if x then b else b.
type IfExp struct {
	If         Pos
	Cond       *Ident
	Then, Else *Body
}

// KernelExp is kernel x <= y do b.
type KernelExp struct {
	Kernel Pos
	Var    *Ident
	Bound  *Ident
	Body   *Body
}

// IotaExp is the derived form iota x ≡ kernel xi <= x do in (xi).
type IotaExp struct {
	Keyword Pos
	N       *Ident
}

// CopyExp is the derived form copy x, nested kernels that index x.
type CopyExp struct {
	Keyword Pos
	Arr     *Ident
}

// Pos returns the position of the expression's first token.
func (e *ScalarExp) Pos() Pos    { return e.X.Pos() }
func (e *IndexExp) Pos() Pos     { return e.Arr.NamePos }
func (e *SliceExp) Pos() Pos     { return e.Arr.NamePos }
func (e *TransposeExp) Pos() Pos { return e.Keyword }
func (e *IfExp) Pos() Pos        { return e.If }
func (e *KernelExp) Pos() Pos    { return e.Kernel }
func (e *IotaExp) Pos() Pos      { return e.Keyword }
func (e *CopyExp) Pos() Pos      { return e.Keyword }

// ExpNode marks the expression forms.
func (*ScalarExp) ExpNode()    {}
func (*IndexExp) ExpNode()     {}
func (*SliceExp) ExpNode()     {}
func (*TransposeExp) ExpNode() {}
func (*IfExp) ExpNode()        {}
func (*KernelExp) ExpNode()    {}
func (*IotaExp) ExpNode()      {}
func (*CopyExp) ExpNode()      {}

// SExp is a scalar expression se: a constant, a variable or an operator.
type SExp interface {
	Pos() Pos
	sexp()
}

// Const is an integer constant k.
type Const struct {
	ValuePos Pos
	Value    int64
}

// Var is a variable used in a scalar expression.
type Var struct{ *Ident }

// BinOp is se ⊕ se.
type BinOp struct {
	OpPos Pos
	Op    semantics.Op
	L, R  SExp
}

// UnOp is a unary operator applied to se (only negation).
type UnOp struct {
	OpPos Pos
	Op    semantics.Op
	X     SExp
}

// Pos returns the position of the scalar expression's first token (each
// scalar expression form has one).
func (e *Const) Pos() Pos { return e.ValuePos }
func (e Var) Pos() Pos    { return e.NamePos }
func (e *BinOp) Pos() Pos { return e.L.Pos() }
func (e *UnOp) Pos() Pos  { return e.OpPos }

func (*Const) sexp() {}
func (Var) sexp()    {}
func (*BinOp) sexp() {}
func (*UnOp) sexp()  {}

// FreeVars appends the variables of a scalar expression to acc.
func FreeVars(e SExp, acc []*Ident) []*Ident {
	switch e := e.(type) {
	case Var:
		return append(acc, e.Ident)
	case *BinOp:
		return FreeVars(e.R, FreeVars(e.L, acc))
	case *UnOp:
		return FreeVars(e.X, acc)
	}
	return acc
}
