package remora

import "github.com/arraysem/arraysem/semantics"

// Expr is a term of the typed core (Fig 5). Every Expr denotes an array:
// following §4.2 of the compiler paper, an atom in expression position (a
// number, a λ, a Tλ, an Iλ, a PACK) stands for the scalar array holding it,
// so Fig 5's split between expressions e and array elements l is carried by
// types (an atom's type is the scalar array type of its atom type) rather
// than by two syntactic classes.
//
// The checker fills in the annotations the semantics needs (Fig 6 keeps
// every term's type): App.Type, Frame.Type, Lam.Ret, Pack.Type.
//
// A term parsed from source spans [At(), End()), go/ast's convention (End
// is the position just after its last character): the s-expression it
// was elaborated from (the Pos and End of semantics.SExp), so the text
// there reads as that one s-expression. Sugar that makes several terms of
// one form gives each made term the span of the form it came from:
// f{τ … | ι …} is a TApp around an IApp, both spanning f{…}; (define
// (f{t … | i …} [x τ] …) body …) is a Let whose value is an ILam around a
// TLam around a Lam, all spanning the define; a frame of literals folded
// into one Lit spans the frame. A Let is the exception to children lying
// within their parents: it spans its binding, [x e] or [x τ e] of a let
// form or the (define …) of a body or file, where its errors are
// reported, and its Body is what follows that binding, outside the span.
// Terms built after parsing (by the checker's elaboration, or a reduction)
// keep a Pos but may have no End (the zero Pos, not IsValid).
type Expr interface {
	At() semantics.Pos
	End() semantics.Pos
	exprNode()
}

// Var is a variable x; variables are bound to arrays.
type Var struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Name   string
}

// Prim is a primitive operator π of the basis.
type Prim struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Def    *PrimDef
}

// Lit is a value: a literal (1, 2.5, #t, #\c, "str", [1 2 3]) or the result
// of a reduction, in the flat representation of Value.
type Lit struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	V      *Value
}

// Frame is the array literal [l …]^ι of Fig 5, written [e …],
// (frame [dims] e …) or (array [dims] e …): a frame of shape Dims whose
// cells are the elements. Type is the type of the whole frame, filled in by
// the checker (an empty frame needs it for its cell shape and atom type).
type Frame struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Dims   []int64
	Elems  []Expr
	Cell   Type // the cells' type, written for an empty frame; else from the checker
	Type   *Arr
}

// Param is a term parameter with its cell type.
type Param struct {
	Name string
	Type Type
}

// Lam is the function (λ [(x τ) …] e), written (fn ([x τ] …) e). Ret, the
// result cell type, is filled in by the checker.
type Lam struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Params []Param
	Body   Expr
	Ret    *Arr
}

// TLam is the type abstraction (Tλ [x …] e), written (t-fn (x …) e).
type TLam struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Vars   []string
	Body   Expr
}

// ILam is the index abstraction (Iλ [(x γ) …] e), written (i-fn (x …) e),
// where a name starting with @ is of sort Shape.
type ILam struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Vars   []string
	Body   Expr
}

// App is the application (e e′ …). Type is its type (from the checker).
type App struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Fn     Expr
	Args   []Expr
	Type   *Arr
}

// TApp is the type application (T-APP e τ …), written (t-app e τ …) or
// e{τ … | }.
type TApp struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Fn     Expr
	Args   []Type
}

// IApp is the index application (I-APP e ι …), written (i-app e ι …) or
// e{ | ι …}.
type IApp struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Fn     Expr
	Args   []Index
}

// Pack is the dependent sum (PACK ι … e)^τ, written (box (ι …) τ e) with τ
// a Sigma type.
type Pack struct {
	Pos     semantics.Pos
	EndPos  semantics.Pos
	Indices []Index
	Body    Expr
	Type    *Sigma
}

// Unpack is (UNPACK (⟨x … | y⟩ = e) e′), written (unbox e (y x …) e′): it
// binds the index variables x … to the box's witnesses and y to its
// contents.
type Unpack struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	IVars  []string
	X      string
	Box    Expr
	Body   Expr
}

// Let is (let [x e] body), which the checker elaborates to the β-redex
// ((λ [(x τ)] body) e) where τ is e's type; T is an optional annotation.
type Let struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	X      string
	T      Type
	Val    Expr
	Body   Expr
}

// LiftDim is (lift [d e] body) of the typed dialect (docs/remora.md): e is an
// int, d is bound to its value as a Nat index in body, and the result is
// the box (PACK d body) of type Σ[d] τ where τ is body's type. It is how a
// run-time integer becomes a shape (iota with a run-time size).
type LiftDim struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	D      string
	N      Expr
	Body   Expr
	Type   *Sigma // filled in by the checker
}

// Reify is (reify-dimension ι) or (reify-shape ι): an index as a term.
type Reify struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Index  Index
}

// Reshape is (reshape [ι …] e): e's atoms in row-major order seen at a new
// shape with as many atoms.
type Reshape struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Shape  Shape
	E      Expr
	Type   *Arr // filled in by the checker
}

// Map is (MAP [F] ([x τ e] …) body), the explicit map of the compiler
// IR (§4.3 "Explicitize" of "Remora Compiler — A Master's Project", and the MAP form
// of §5.5 of "The semantics of rank polymorphism"): every argument e has
// the frame F followed by its parameter's cell type τ, and body runs once
// per position of F with each x bound to that position's cell. The
// results are stacked in the frame F. With the empty frame it is a let.
// Explicitize makes every implicit lift one; the source dialect does not
// read MAP (only the IR language, remora/ir, does). Type is filled in by
// the checker.
type Map struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Frame  Shape
	Params []Param // the cells' types
	Args   []Expr
	Body   Expr
	Type   *Arr
}

// Rep is (REP [F] e) of the compiler IR: the array e replicated over the
// frame F, of type [t F ++ S] when e : [t S] (§5.5's REPLICATE, which
// grows a cell by a frame; a cell inside a frame is replicated by a Rep in
// a Map's body). Type is filled in by the checker.
type Rep struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Frame  Shape
	E      Expr
	Type   *Arr
}

// At is where the term starts: its Pos.
func (e *Var) At() semantics.Pos     { return e.Pos }
func (e *Prim) At() semantics.Pos    { return e.Pos }
func (e *Lit) At() semantics.Pos     { return e.Pos }
func (e *Frame) At() semantics.Pos   { return e.Pos }
func (e *Lam) At() semantics.Pos     { return e.Pos }
func (e *TLam) At() semantics.Pos    { return e.Pos }
func (e *ILam) At() semantics.Pos    { return e.Pos }
func (e *App) At() semantics.Pos     { return e.Pos }
func (e *TApp) At() semantics.Pos    { return e.Pos }
func (e *IApp) At() semantics.Pos    { return e.Pos }
func (e *Pack) At() semantics.Pos    { return e.Pos }
func (e *Unpack) At() semantics.Pos  { return e.Pos }
func (e *Let) At() semantics.Pos     { return e.Pos }
func (e *LiftDim) At() semantics.Pos { return e.Pos }
func (e *Reify) At() semantics.Pos   { return e.Pos }
func (e *Reshape) At() semantics.Pos { return e.Pos }
func (e *Map) At() semantics.Pos     { return e.Pos }
func (e *Rep) At() semantics.Pos     { return e.Pos }

// End is the position just after the term's source (see Expr), or the
// zero Pos when the term has none.
func (e *Var) End() semantics.Pos     { return e.EndPos }
func (e *Prim) End() semantics.Pos    { return e.EndPos }
func (e *Lit) End() semantics.Pos     { return e.EndPos }
func (e *Frame) End() semantics.Pos   { return e.EndPos }
func (e *Lam) End() semantics.Pos     { return e.EndPos }
func (e *TLam) End() semantics.Pos    { return e.EndPos }
func (e *ILam) End() semantics.Pos    { return e.EndPos }
func (e *App) End() semantics.Pos     { return e.EndPos }
func (e *TApp) End() semantics.Pos    { return e.EndPos }
func (e *IApp) End() semantics.Pos    { return e.EndPos }
func (e *Pack) End() semantics.Pos    { return e.EndPos }
func (e *Unpack) End() semantics.Pos  { return e.EndPos }
func (e *Let) End() semantics.Pos     { return e.EndPos }
func (e *LiftDim) End() semantics.Pos { return e.EndPos }
func (e *Reify) End() semantics.Pos   { return e.EndPos }
func (e *Reshape) End() semantics.Pos { return e.EndPos }
func (e *Map) End() semantics.Pos     { return e.EndPos }
func (e *Rep) End() semantics.Pos     { return e.EndPos }

func (*Var) exprNode()     {}
func (*Prim) exprNode()    {}
func (*Lit) exprNode()     {}
func (*Frame) exprNode()   {}
func (*Lam) exprNode()     {}
func (*TLam) exprNode()    {}
func (*ILam) exprNode()    {}
func (*App) exprNode()     {}
func (*TApp) exprNode()    {}
func (*IApp) exprNode()    {}
func (*Pack) exprNode()    {}
func (*Unpack) exprNode()  {}
func (*Let) exprNode()     {}
func (*LiftDim) exprNode() {}
func (*Reify) exprNode()   {}
func (*Reshape) exprNode() {}
func (*Map) exprNode()     {}
func (*Rep) exprNode()     {}

// Program is a file of the typed dialect: its top-level definitions
// (already nested as lets around each expression) and the expressions
// whose values it prints, in order.
type Program struct {
	File  string
	Exprs []Expr
	Types []*Arr // the expressions' types, from the checker
	// Source is the dialect a program was elaborated from ("" for the
	// typed dialect's own): one elaborated from the dynamic dialect
	// prints its values as that dialect does (SourceLines), here and at
	// every level compiled from it. Open marks its results that are boxes
	// standing for arrays whose shapes the dialect computes at run time:
	// the dialect prints their contents. Rational marks its results that
	// are the dialect's exact rationals, held as ints whose last axis
	// (of 2) is a numerator and a denominator, printed n/d.
	Source   string
	Open     []bool
	Rational []bool
}
