package fun

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// Pos is a source position.
type Pos = semantics.Pos

// Ident is an occurrence of a variable.
type Ident struct {
	NamePos Pos
	Name    string
}

// Pos is the position of the name.
func (x *Ident) Pos() Pos { return x.NamePos }

// End is the position just after the name. (The parser places a type's
// size variable at its '[', so that errors point at the [x]; End is then
// that of a name written there.)
func (x *Ident) End() Pos { return shift(x.NamePos, utf8.RuneCountInString(x.Name)) }

// shift is p moved n columns to the right; an unknown position stays
// unknown.
func shift(p Pos, n int) Pos {
	if !p.IsValid() {
		return p
	}
	p.Col += n
	return p
}

// parenBefore is the position of the '(' that opens the parentheses
// around x, when its outer span (parentheses included) starts at from
// and not at x; else none.
func parenBefore(x SExp, from Pos) Pos {
	if from == x.Pos() {
		return Pos{}
	}
	return from
}

// parenAfter is the position of the ')' that closes the parentheses
// around x, when its outer span ends at to and not at x's end; else none.
func parenAfter(x SExp, to Pos) Pos {
	if to == x.End() {
		return Pos{}
	}
	return shift(to, -1)
}

// after is the end of a node that ends in a one-character token at p
// when p is known, else end().
func after(p Pos, end func() Pos) Pos {
	if p.IsValid() {
		return shift(p, 1)
	}
	return end()
}

// Type is τ of Fig 1: int (no dimensions) or an array [x1]…[xn] whose sizes
// are variables of type int; with floats (an extension), float or
// [x1]…[xn]float.
type Type struct {
	Dims []*Ident
	// Elem is the scalar's or the elements' type: IntElem (the zero value,
	// so Type{} is int and Type{Dims: ds} an int array, as in the paper)
	// or FloatElem.
	Elem semantics.Elem
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

// IsInt reports whether t is int (the int scalar type).
func (t Type) IsInt() bool { return len(t.Dims) == 0 && t.Ext == nil && t.Elem == semantics.IntElem }

// IsScalar reports whether t is a scalar type, int or float.
func (t Type) IsScalar() bool { return len(t.Dims) == 0 && t.Ext == nil }

// Row is the type of t's rows: t without its outer dimension, with its
// element type (t must be an array type).
func (t Type) Row() Type { return Type{Dims: t.Dims[1:], Elem: t.Elem} }

// Same reports whether t and u have the same element type and the same
// sizes, by name (their annotations aside): FUN's type equality with
// floats.
func (t Type) Same(u Type) bool { return t.Elem == u.Elem && t.SameDims(u) }

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
	Rparen Pos // position of ')'
}

// Pos is the position of '('.
func (p *Param) Pos() Pos { return p.Lparen }

// End is the position just after ')'.
func (p *Param) End() Pos { return shift(p.Rparen, 1) }

// Program is a FUN program: optional input declarations (an extension,
// set with --arg) and a body.
type Program struct {
	File   string
	Inputs []*Param
	Body   *Body
	// Format, when not nil, is how the results print as the source
	// program's values (a program compiled from Remora): its text is the
	// header comment "-- results as …", and a run prints by it.
	Format *semantics.Format
}

// Body is b of Fig 1: statements, then in (x, …, x).
type Body struct {
	Stms   []*Stm
	In     Pos // position of 'in'
	Result []*Ident
	Rparen Pos // position of the ')' that closes the results
}

// Pos is the position of the body's first token: its first statement's
// let, or in.
func (b *Body) Pos() Pos {
	if len(b.Stms) > 0 {
		return b.Stms[0].Pos()
	}
	return b.In
}

// End is the position just after the ')' of in (…).
func (b *Body) End() Pos { return shift(b.Rparen, 1) }

// Stm is a statement let p … p = e.
type Stm struct {
	Let Pos
	Pat []*Param
	Exp Exp
}

// Pos is the position of let.
func (s *Stm) Pos() Pos { return s.Let }

// End is the position just after the statement's expression.
func (s *Stm) End() Pos { return s.Exp.End() }

// Exp is an expression e of Fig 1 (or a derived form of §2). Languages
// extending FUN add expressions of their own (FUNMEM's alloc); FUN's
// checker and evaluators refuse those.
//
// Pos is the position of the expression's first token, End the position
// just after its last (go/ast's convention); [Pos, End) is the
// expression's source.
type Exp interface {
	Pos() Pos
	End() Pos
	ExpNode()
}

// ScalarExp is a scalar expression used as an expression.
type ScalarExp struct {
	X SExp
	// Lparen and Rparen are the outermost parentheses around the whole of
	// X, if it is written in parentheses (X's own span leaves them out).
	Lparen, Rparen Pos
}

// IndexExp is x[y1, …, yn].
type IndexExp struct {
	Arr    *Ident
	Idx    []*Ident
	Rbrack Pos // position of ']'
}

// SliceExp is x[o1 : s1, …, on : sn].
type SliceExp struct {
	Arr    *Ident
	Slices []Slice
	Rbrack Pos // position of ']'
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
func (e *ScalarExp) Pos() Pos {
	if e.Lparen.IsValid() {
		return e.Lparen
	}
	return e.X.Pos()
}
func (e *IndexExp) Pos() Pos     { return e.Arr.NamePos }
func (e *SliceExp) Pos() Pos     { return e.Arr.NamePos }
func (e *TransposeExp) Pos() Pos { return e.Keyword }
func (e *IfExp) Pos() Pos        { return e.If }
func (e *KernelExp) Pos() Pos    { return e.Kernel }
func (e *IotaExp) Pos() Pos      { return e.Keyword }
func (e *CopyExp) Pos() Pos      { return e.Keyword }

// End returns the position just after the expression's last token.
func (e *ScalarExp) End() Pos    { return after(e.Rparen, e.X.End) }
func (e *IndexExp) End() Pos     { return after(e.Rbrack, e.lastIdent) }
func (e *SliceExp) End() Pos     { return after(e.Rbrack, e.lastIdent) }
func (e *TransposeExp) End() Pos { return e.Arr.End() }
func (e *IfExp) End() Pos        { return e.Else.End() }
func (e *KernelExp) End() Pos    { return e.Body.End() }
func (e *IotaExp) End() Pos      { return e.N.End() }
func (e *CopyExp) End() Pos      { return e.Arr.End() }

// lastIdent is the end of an index expression the parser did not make
// (no ']' known): its last identifier's.
func (e *IndexExp) lastIdent() Pos {
	if len(e.Idx) == 0 {
		return e.Arr.End()
	}
	return e.Idx[len(e.Idx)-1].End()
}

func (e *SliceExp) lastIdent() Pos {
	if len(e.Slices) == 0 {
		return e.Arr.End()
	}
	return e.Slices[len(e.Slices)-1].Size.End()
}

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
// [Pos, End) is its source, without the parentheses around the whole of it
// (an operator's span includes those around its operands).
type SExp interface {
	Pos() Pos
	End() Pos
	sexp()
}

// Const is an integer constant k.
type Const struct {
	ValuePos Pos // position of the first digit, or of the '-' of -k
	Value    int64
	ValueEnd Pos // position just after the last digit
}

// Var is a variable used in a scalar expression.
type Var struct{ *Ident }

// BinOp is se ⊕ se.
type BinOp struct {
	OpPos Pos
	Op    semantics.Op
	L, R  SExp
	// Lparen is the outermost '(' around L and Rparen the outermost ')'
	// around R, when they are written in parentheses.
	Lparen, Rparen Pos
}

// UnOp is a unary operator applied to se (only negation).
type UnOp struct {
	OpPos  Pos
	Op     semantics.Op
	X      SExp
	Rparen Pos // the outermost ')' around X, when it is in parentheses
}

// Pos returns the position of the scalar expression's first token (each
// scalar expression form has one).
func (e *Const) Pos() Pos { return e.ValuePos }
func (e Var) Pos() Pos    { return e.NamePos }
func (e *BinOp) Pos() Pos {
	if e.Lparen.IsValid() {
		return e.Lparen
	}
	return e.L.Pos()
}
func (e *UnOp) Pos() Pos { return e.OpPos }

// End returns the position just after the scalar expression's last token.
// A constant the parser did not make ends where its digits, printed,
// would.
func (e *Const) End() Pos {
	if e.ValueEnd.IsValid() {
		return e.ValueEnd
	}
	return shift(e.ValuePos, len(strconv.FormatInt(e.Value, 10)))
}
func (e *BinOp) End() Pos { return after(e.Rparen, e.R.End) }
func (e *UnOp) End() Pos  { return after(e.Rparen, e.X.End) }

func (*Const) sexp() {}
func (Var) sexp()    {}
func (*BinOp) sexp() {}
func (*UnOp) sexp()  {}

// EachVar calls f on each variable of a scalar expression, left to
// right, as FreeVars lists them (without making the list).
func EachVar(e SExp, f func(x *Ident)) {
	switch e := e.(type) {
	case Var:
		f(e.Ident)
	case *BinOp:
		EachVar(e.L, f)
		EachVar(e.R, f)
	case *UnOp:
		EachVar(e.X, f)
	case *Call:
		EachVar(e.Arg, f)
	}
}

// FreeVars appends the variables of a scalar expression to acc, in
// EachVar's order.
func FreeVars(e SExp, acc []*Ident) []*Ident {
	EachVar(e, func(x *Ident) { acc = append(acc, x) })
	return acc
}

// The extension forms (docs/fun.md, "Extensions"): a sequential loop with
// loop-carried parameters, reduce and scan (left folds), filter and
// assert. They are not in the paper's Fig 1; the checker's Paper mode
// refuses them. Their parameters are bindings (*Param) like a pattern's,
// so that FUNMEM can annotate their types with memory as it does
// patterns'.

// LoopExp is loop (y1 : τ1) … (yn : τn) = (x1, …, xn) for i <= t do b: the
// sequential loop of size-slicing's Fig 2. The parameters start as the
// initial values x1 … xn; iteration i = 1 … E(t) runs b with them bound,
// and b's results are their next values. A parameter's type may name an
// int parameter as its size (an existential size, as T-IF's pattern may).
type LoopExp struct {
	Loop   Pos      // position of loop
	Params []*Param // the loop-carried parameters y1 … yn
	Lparen Pos      // position of the '(' before the initial values
	Init   []*Ident // the initial values x1 … xn
	Rparen Pos      // position of the ')' after them
	Var    *Ident   // the index i
	Bound  *Ident   // the bound t
	Body   *Body
}

// ReduceExp is reduce (a : τ) (b : τ) = z over xs do body: the left fold
// ((z ⊕ x1) ⊕ x2) … ⊕ xn of the rows of xs, where body computes a ⊕ b.
type ReduceExp struct {
	Keyword Pos      // position of reduce
	Params  []*Param // the operator's operands a and b (two)
	Ne      *Ident   // z, the start (a neutral element of ⊕)
	Arr     *Ident   // xs
	Body    *Body
}

// ScanExp is scan (a : τ) (b : τ) = z over xs do body: the inclusive
// scan, whose row i is z ⊕ x1 ⊕ … ⊕ xi, folded left to right.
type ScanExp struct {
	Keyword Pos      // position of scan
	Params  []*Param // the operator's operands a and b (two)
	Ne      *Ident   // z
	Arr     *Ident   // xs
	Body    *Body
}

// FilterExp is filter (x : τ) over xs do body: the rows x of xs for which
// body's one int result is not 0, in order, with their number (the size,
// known only at run time, that the pattern binds first).
type FilterExp struct {
	Keyword Pos      // position of filter
	Params  []*Param // the row x (one)
	Arr     *Ident   // xs
	Body    *Body
}

// AssertExp is assert se "message": 1 when se is not 0, else the program
// is stuck (E-ASSERT) with the message. The message is optional.
type AssertExp struct {
	Keyword Pos // position of assert
	Cond    SExp
	// Lparen and Rparen are the outermost parentheses around the whole of
	// Cond, if it is written in parentheses (Cond's own span leaves them
	// out).
	Lparen, Rparen Pos
	HasMsg         bool   // whether a message is written
	Msg            string // the message, unquoted
	MsgPos, MsgEnd Pos    // the span of the message's literal, quotes included
}

// Pos returns the position of the extension form's keyword.
func (e *LoopExp) Pos() Pos   { return e.Loop }
func (e *ReduceExp) Pos() Pos { return e.Keyword }
func (e *ScanExp) Pos() Pos   { return e.Keyword }
func (e *FilterExp) Pos() Pos { return e.Keyword }
func (e *AssertExp) Pos() Pos { return e.Keyword }

// End returns the position just after the form's body.
func (e *LoopExp) End() Pos   { return e.Body.End() }
func (e *ReduceExp) End() Pos { return e.Body.End() }
func (e *ScanExp) End() Pos   { return e.Body.End() }
func (e *FilterExp) End() Pos { return e.Body.End() }

// End is the position just after the message, or after the condition
// when there is none (or the message's literal has no known position).
func (e *AssertExp) End() Pos {
	if e.HasMsg && e.MsgEnd.IsValid() {
		return e.MsgEnd
	}
	return after(e.Rparen, e.Cond.End)
}

// ExpNode marks the extension forms as expressions.
func (*LoopExp) ExpNode()   {}
func (*ReduceExp) ExpNode() {}
func (*ScanExp) ExpNode()   {}
func (*FilterExp) ExpNode() {}
func (*AssertExp) ExpNode() {}

// RedomapExp is the composition of a reduce (or a scan) with a map, which
// fusion makes (redomap2 of Fig 14 of "A T2 Graph-Reduction Approach To
// Fusion"; scanomap is its scan):
//
//	redomap (a : τ) (b : τ) = z for i <= n do map combine op
//	scanomap (a : τ) (b : τ) = z for i <= n do map combine op
//
// Map computes the element f(i), its one result of type τ, with the index
// i bound to 1 … n; Op computes a ⊕ b. redomap is the left fold
// ((z ⊕ f(1)) ⊕ f(2)) … ⊕ f(n) (E-REDOMAP), scanomap the inclusive scan
// whose row i is z ⊕ f(1) ⊕ … ⊕ f(i) (E-SCANOMAP): reduce ⊕ z (map f
// (iota n)) and scan ⊕ z (map f (iota n)) without the array of the f(i).
// f(i) is computed just before it is combined (map 1, op 1, map 2, …),
// at every level. The map body sees i, not a and b; the operator body a
// and b, not i: each is a scope of its own (docs/fun.md, "redomap and
// scanomap").
type RedomapExp struct {
	Keyword Pos      // position of redomap or scanomap
	Scan    bool     // scanomap
	Params  []*Param // the operator's operands a and b (two)
	Ne      *Ident   // z
	Var     *Ident   // the index i
	Bound   *Ident   // n
	Map     *Body    // f(i)
	Combine Pos      // position of combine
	Op      *Body    // a ⊕ b
}

// Pos returns the position of redomap or scanomap.
func (e *RedomapExp) Pos() Pos { return e.Keyword }

// End returns the position just after the operator's body.
func (e *RedomapExp) End() Pos { return e.Op.End() }

// ExpNode marks RedomapExp as an expression.
func (*RedomapExp) ExpNode() {}
