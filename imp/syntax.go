package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Type is an IMP type: int or mem, and float (an extension).
type Type int

// The two types of Fig 11, and float (docs/imp.md, "Floats").
const (
	Int Type = iota
	Mem
	Float
)

// String is the type as programs write it.
func (t Type) String() string {
	switch t {
	case Mem:
		return "mem"
	case Float:
		return "float"
	}
	return "int"
}

// TypeOf is the scalar type of an element type: Int or Float.
func TypeOf(e semantics.Elem) Type {
	if e == semantics.FloatElem {
		return Float
	}
	return Int
}

// Elem is the element type of a scalar type (IntElem for Int, and for Mem).
func (t Type) Elem() semantics.Elem {
	if t == Float {
		return semantics.FloatElem
	}
	return semantics.IntElem
}

// Program is an IMP program: inputs, statements, and the results.
type Program struct {
	File   string
	Inputs []*Input
	Body   []Stmt
	Return []*Result
	RetPos fun.Pos
	// Format, when not nil, is how the results print as the source
	// program's values (fun.Program's Format, carried down).
	Format *semantics.Format
}

// Input declares a program input (an extension): an int or a float, or
// an array given by --arg placed row-major in a block of its own (a float
// array's elements as their bits, a heap word being a word):
//
//	input n : int;
//	input x : float;
//	input xs : [n] @ xs_mem;
//	input ys : [n]float @ ys_mem;
type Input struct {
	Pos   fun.Pos
	Name  *fun.Ident
	Dims  []fun.SExp     // nil for a scalar
	Elem  semantics.Elem // the scalar's or the elements' type
	Block *fun.Ident     // the block holding the array
}

// Result is one result of return: a variable, or a block read as a
// row-major array of the given shape and element type (zmem : [zsize],
// zmem : [zsize]float).
type Result struct {
	Name *fun.Ident
	Dims []fun.SExp     // nil for a scalar (its type is the variable's)
	Elem semantics.Elem // for an array: the elements' type
}

// Stmt is a statement s of Fig 11. Sequences s; s are slices of
// statements. Pos is the position of the statement's first token, End the
// position just after its last (go/ast's convention): [Pos, End) is the
// statement's source, without the ';' that follows it.
type Stmt interface {
	Pos() fun.Pos
	End() fun.Pos
	stmt()
}

// Skip is skip.
type Skip struct{ At fun.Pos }

// Decl is var x : τ.
type Decl struct {
	At      fun.Pos
	X       *fun.Ident
	Type    Type
	TypePos fun.Pos // position of int or mem
}

// Assign is x <- se (E-IMP-ASSIGN-INT, or E-IMP-ASSIGN-MEM when se is a
// block variable).
type Assign struct {
	At     fun.Pos
	X      *fun.Ident
	SE     fun.SExp
	Rparen fun.Pos // the outermost ')' around SE, when it is in parentheses
}

// Alloc is x <- alloc se.
type Alloc struct {
	At     fun.Pos
	X      *fun.Ident
	Size   fun.SExp
	Rparen fun.Pos // the outermost ')' around Size, when it is in parentheses
}

// Read is x <- y[se]. The word read is an int or a float as x is
// declared (a heap word is a word).
type Read struct {
	At     fun.Pos
	X, Y   *fun.Ident
	Index  fun.SExp
	Rbrack fun.Pos // position of ']'
}

// Write is x[se] <- se.
type Write struct {
	At     fun.Pos
	X      *fun.Ident
	Index  fun.SExp
	Value  fun.SExp
	Rparen fun.Pos // the outermost ')' around Value, when it is in parentheses
}

// If is if x then s else s fi.
type If struct {
	At         fun.Pos
	Cond       *fun.Ident
	Then, Else []Stmt
	Fi         fun.Pos // position of fi
}

// Kernel is kernel x <= se do s done.
type Kernel struct {
	At    fun.Pos
	X     *fun.Ident
	Bound fun.SExp
	Body  []Stmt
	Done  fun.Pos // position of done
}

// Pos is the position of the statement's first token.
func (s *Skip) Pos() fun.Pos   { return s.At }
func (s *Decl) Pos() fun.Pos   { return s.At }
func (s *Assign) Pos() fun.Pos { return s.At }
func (s *Alloc) Pos() fun.Pos  { return s.At }
func (s *Read) Pos() fun.Pos   { return s.At }
func (s *Write) Pos() fun.Pos  { return s.At }
func (s *If) Pos() fun.Pos     { return s.At }
func (s *Kernel) Pos() fun.Pos { return s.At }

// End is the position just after the statement's last token. (Statements
// a pass built, with no positions, have none.)
func (s *Skip) End() fun.Pos   { return shift(s.At, len("skip")) }
func (s *Decl) End() fun.Pos   { return shift(s.TypePos, len(s.Type.String())) }
func (s *Assign) End() fun.Pos { return after(s.Rparen, s.SE.End) }
func (s *Alloc) End() fun.Pos  { return after(s.Rparen, s.Size.End) }
func (s *Read) End() fun.Pos   { return shift(s.Rbrack, 1) }
func (s *Write) End() fun.Pos  { return after(s.Rparen, s.Value.End) }
func (s *If) End() fun.Pos     { return shift(s.Fi, len("fi")) }
func (s *Kernel) End() fun.Pos { return shift(s.Done, len("done")) }

// shift is p moved n columns to the right; an unknown position stays
// unknown.
func shift(p fun.Pos, n int) fun.Pos {
	if !p.IsValid() {
		return p
	}
	p.Col += n
	return p
}

// after is the end of a statement that ends in a ')' at p, when there is
// one, else end().
func after(p fun.Pos, end func() fun.Pos) fun.Pos {
	if p.IsValid() {
		return shift(p, 1)
	}
	return end()
}

func (*Skip) stmt()   {}
func (*Decl) stmt()   {}
func (*Assign) stmt() {}
func (*Alloc) stmt()  {}
func (*Read) stmt()   {}
func (*Write) stmt()  {}
func (*If) stmt()     {}
func (*Kernel) stmt() {}

// The statements below are extensions of Fig 11 (issue 14): a sequential
// loop, an assertion, and a reduction and a scan whose element parts are
// independent iterations, as a kernel's are, and whose combine part is an
// associative operator, so that a parallel implementation may run it as a
// tree. Their rules are I-FOR, I-ASSERT, I-REDUCE and I-SCAN (Figure
// "extension"), and check --paper refuses them.

// For is for x <= se do s done: s runs for x = 1 … E(se), one iteration
// after the other, in the environment of the loop (I-FOR).
type For struct {
	At    fun.Pos
	X     *fun.Ident
	Bound fun.SExp
	Body  []Stmt
	Done  fun.Pos // position of done
}

// Assert is assert se "message": stuck in I-ASSERT, with the message,
// when se is 0. The message is optional.
type Assert struct {
	At     fun.Pos
	Cond   fun.SExp
	Rparen fun.Pos // the outermost ')' around Cond, when it is in parentheses
	Msg    string  // the message, unquoted ("" when there is none)
	MsgEnd fun.Pos // just after the message's closing quote (invalid without a message)
}

// Fold is what reduce and scan share:
//
//	<- ne for x <= se do s1 yield y combine a, b do s2 yield c done
//
// The accumulator starts at ne; for x = 1 … E(se), the element part s1
// yields y, then the combine part s2, with a the accumulator and b the
// element, yields c, the next accumulator.
type Fold struct {
	Neutral fun.SExp
	X       *fun.Ident // the element index, bound to 1 … E(Bound) in Body
	Bound   fun.SExp
	Body    []Stmt     // the element part s1
	Yield   *fun.Ident // y, an int variable of the element part
	A, B    *fun.Ident // the accumulator and the element, in Combine
	Combine []Stmt     // the combine part s2
	Result  *fun.Ident // c, an int variable of the combine part
	Done    fun.Pos    // position of done
}

// Reduce is reduce x <- ne for i <= se do s1 yield y combine a, b do s2
// yield c done: x, an int declared before, gets the left fold of the
// elements (I-REDUCE).
type Reduce struct {
	At     fun.Pos
	Target *fun.Ident
	Fold
}

// Scan is scan m[se] <- ne for i <= se do s1 yield y combine a, b do s2
// yield c done: the inclusive scan, which after element i writes the
// accumulator to block m at offset se (which may mention i) (I-SCAN).
type Scan struct {
	At    fun.Pos
	Block *fun.Ident
	Addr  fun.SExp
	Fold
}

func (s *For) Pos() fun.Pos    { return s.At }
func (s *Assert) Pos() fun.Pos { return s.At }
func (s *Reduce) Pos() fun.Pos { return s.At }
func (s *Scan) Pos() fun.Pos   { return s.At }

func (s *For) End() fun.Pos { return shift(s.Done, len("done")) }
func (s *Assert) End() fun.Pos {
	if s.MsgEnd.IsValid() {
		return s.MsgEnd
	}
	return after(s.Rparen, s.Cond.End)
}
func (s *Reduce) End() fun.Pos { return shift(s.Done, len("done")) }
func (s *Scan) End() fun.Pos   { return shift(s.Done, len("done")) }

func (*For) stmt()    {}
func (*Assert) stmt() {}
func (*Reduce) stmt() {}
func (*Scan) stmt()   {}

// folds gives the fold of a reduce or a scan.
func folds(s Stmt) (*Fold, bool) {
	switch s := s.(type) {
	case *Reduce:
		return &s.Fold, true
	case *Scan:
		return &s.Fold, true
	}
	return nil, false
}

// WalkStmts calls f on every statement of ss and of the statements
// nested in them, in order.
func WalkStmts(ss []Stmt, f func(Stmt)) {
	for _, s := range ss {
		f(s)
		switch s := s.(type) {
		case *If:
			WalkStmts(s.Then, f)
			WalkStmts(s.Else, f)
		case *Kernel:
			WalkStmts(s.Body, f)
		case *For:
			WalkStmts(s.Body, f)
		case *Reduce:
			WalkStmts(s.Body, f)
			WalkStmts(s.Combine, f)
		case *Scan:
			WalkStmts(s.Body, f)
			WalkStmts(s.Combine, f)
		}
	}
}
