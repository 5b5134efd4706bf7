package imp

import "github.com/arraysem/arraysem/fun"

// Type is an IMP type: int or mem.
type Type int

// The two types of Fig 11.
const (
	Int Type = iota
	Mem
)

func (t Type) String() string {
	if t == Mem {
		return "mem"
	}
	return "int"
}

// Program is an IMP program: inputs, statements, and the results.
type Program struct {
	File   string
	Inputs []*Input
	Body   []Stmt
	Return []*Result
	RetPos fun.Pos
}

// Input declares a program input (an extension): an int, or an array
// given by --arg placed row-major in a block of its own:
//
//	input n : int;
//	input xs : [n] @ xs_mem;
type Input struct {
	Pos   fun.Pos
	Name  *fun.Ident
	Dims  []fun.SExp // nil for an int
	Block *fun.Ident // the block holding the array
}

// Result is one result of return: a variable, or a block read as a
// row-major array of the given shape (zmem : [zsize]).
type Result struct {
	Name *fun.Ident
	Dims []fun.SExp // nil for an int
}

// Stmt is a statement s of Fig 11. Sequences s; s are slices of
// statements.
type Stmt interface {
	Pos() fun.Pos
	stmt()
}

// Skip is skip.
type Skip struct{ At fun.Pos }

// Decl is var x : τ.
type Decl struct {
	At   fun.Pos
	X    *fun.Ident
	Type Type
}

// Assign is x <- se (E-IMP-ASSIGN-INT, or E-IMP-ASSIGN-MEM when se is a
// block variable).
type Assign struct {
	At fun.Pos
	X  *fun.Ident
	SE fun.SExp
}

// Alloc is x <- alloc se.
type Alloc struct {
	At   fun.Pos
	X    *fun.Ident
	Size fun.SExp
}

// Read is x <- y[se].
type Read struct {
	At    fun.Pos
	X, Y  *fun.Ident
	Index fun.SExp
}

// Write is x[se] <- se.
type Write struct {
	At    fun.Pos
	X     *fun.Ident
	Index fun.SExp
	Value fun.SExp
}

// If is if x then s else s fi.
type If struct {
	At         fun.Pos
	Cond       *fun.Ident
	Then, Else []Stmt
}

// Kernel is kernel x <= se do s done.
type Kernel struct {
	At    fun.Pos
	X     *fun.Ident
	Bound fun.SExp
	Body  []Stmt
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

func (*Skip) stmt()   {}
func (*Decl) stmt()   {}
func (*Assign) stmt() {}
func (*Alloc) stmt()  {}
func (*Read) stmt()   {}
func (*Write) stmt()  {}
func (*If) stmt()     {}
func (*Kernel) stmt() {}
