package dynamic

import (
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// All is the cell rank "all": the whole argument is one cell, so the
// argument's frame is always scalar.
const All = -1

// Expr is a term of the dialect.
//
// A term parsed from source spans [At(), End()), go/ast's convention (End
// is the position just after its last character): the s-expression it
// was read from (the Pos and End of semantics.SExp), so the text there
// reads as that one s-expression. Sugar that makes several terms of one
// form gives each made term the span of the form it came from:
// (rerank (r …) f) and #r(r …)f are a Lam whose body is an App of f to
// Vars, the Lam, App and Vars spanning the form; a frame or an array of
// literals folded into one Lit, or frames of frames merged into one
// Frame, span the outer form. A Let is the exception to children lying
// within their parents: it spans its binding, the (x e) of a let form,
// the (define …) of a body or file, or, for a body's sequence, the
// expression whose value is dropped (its Val, spanning the same); its
// Body is what follows, outside the span. Terms built after parsing (by
// a reduction) keep a Pos but may have no End (the zero Pos, not
// IsValid).
type Expr interface {
	At() semantics.Pos
	End() semantics.Pos
	exprNode()
}

// Var is a variable.
type Var struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Name   string
}

// Prim is a primitive of the basis named in the program.
type Prim struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Def    *PrimDef
}

// Lit is an array value: a literal, or a value the small-step substituted
// or computed. Its atoms may be functions (*Func) and boxes.
type Lit struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	V      *remora.Value
}

// Frame is [e …] with the given dimensions: the elements are the cells, in
// row-major order, of an array of shape Dims ++ (their shape).
type Frame struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Dims   []int64
	Elems  []Expr
}

// Param is a λ parameter and the rank of the cells it takes (All for any).
type Param struct {
	Name string
	Rank int
}

// Lam is (λ ((x r) …) e).
type Lam struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Params []Param
	Body   Expr
}

// App is (e e …): application, lifted over the frames of the function
// array and of the arguments.
type App struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Fn     Expr
	Args   []Expr
	// Shape is (apply/shape S f a …)'s S: the shape of the result when
	// the application's frame is empty, which nothing computed could
	// tell (ERRATA R10); nil for a plain application.
	Shape Expr
}

// Let is (let ((x e)) body), and what define elaborates to: the value is
// bound whole, as (λ ((x all)) body) applied to it would. With X empty it
// is (begin e body), a body's sequence: e is computed (its errors are
// the program's) and its value dropped, as Racket's bodies do.
type Let struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	X      string
	Val    Expr
	Body   Expr
}

// Rec is a body's functions that refer to themselves or to each other
// (the library's define is Racket's: a function is in scope in its own
// body and in the functions before it), then the rest of the body. Each
// definition's value is a λ on a cycle of references (parseBody makes the
// other definitions lets), so binding them computes nothing. Body sees
// every name of the group; so does each λ, through its unrolling
// (rec.go): the λ whose body is the group again around the λ's own body,
// which is how both semantics give a recursive name its value.
//
// A Rec spans its first definition, as a Let spans its one; its values
// span their own (define …) forms.
type Rec struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	Defs   []Def
	Body   Expr
	// unrolled is what each name stands for in Body: shared by every
	// Rec of the same definitions (the Recs inside the unrolled λs), so
	// that unrolling builds no more than one λ per definition.
	unrolled []Expr
}

// Def is one definition of a Rec: its name, the (define …) it spans, and
// its value.
type Def struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	X      string
	Val    Expr
}

// Unbox is (unbox x e body): body with x bound to the contents of the box
// e. On an array of boxes it lifts, as a function of a scalar cell would.
type Unbox struct {
	Pos    semantics.Pos
	EndPos semantics.Pos
	X      string
	Box    Expr
	Body   Expr
}

// At is where the term starts.
func (e *Var) At() semantics.Pos   { return e.Pos }
func (e *Prim) At() semantics.Pos  { return e.Pos }
func (e *Lit) At() semantics.Pos   { return e.Pos }
func (e *Frame) At() semantics.Pos { return e.Pos }
func (e *Lam) At() semantics.Pos   { return e.Pos }
func (e *App) At() semantics.Pos   { return e.Pos }
func (e *Let) At() semantics.Pos   { return e.Pos }
func (e *Unbox) At() semantics.Pos { return e.Pos }
func (e *Rec) At() semantics.Pos   { return e.Pos }

// End is the position just after the term's source (see Expr), or the
// zero Pos when the term has none.
func (e *Var) End() semantics.Pos   { return e.EndPos }
func (e *Prim) End() semantics.Pos  { return e.EndPos }
func (e *Lit) End() semantics.Pos   { return e.EndPos }
func (e *Frame) End() semantics.Pos { return e.EndPos }
func (e *Lam) End() semantics.Pos   { return e.EndPos }
func (e *App) End() semantics.Pos   { return e.EndPos }
func (e *Let) End() semantics.Pos   { return e.EndPos }
func (e *Unbox) End() semantics.Pos { return e.EndPos }
func (e *Rec) End() semantics.Pos   { return e.EndPos }

func (*Var) exprNode()   {}
func (*Prim) exprNode()  {}
func (*Lit) exprNode()   {}
func (*Frame) exprNode() {}
func (*Lam) exprNode()   {}
func (*App) exprNode()   {}
func (*Let) exprNode()   {}
func (*Unbox) exprNode() {}
func (*Rec) exprNode()   {}

// Program is a file of the dialect: each expression is one result, with
// the top-level definitions before it bound around it.
type Program struct {
	File  string
	Exprs []Expr
}
