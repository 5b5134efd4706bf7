package cuda

import "github.com/arraysem/arraysem/semantics"

// Pos is a position in a .cu file (gpu-sim fills it when it parses; the
// emitter leaves it zero).
type Pos struct{ Line, Col int }

// File is one emitted program: after the fixed prelude, the message of
// every site where the program can get stuck, the declarations of its
// inputs, the inputs compiled in, and its functions (kernels, then main).
type File struct {
	Source   string   // the IMP program's file, for the header comment
	Sites    []string // printf formats taking two long longs
	Inputs   []string // "n" for an int input, "xs[n]" for an array
	Defaults []string // NAME=VALUE, overridden by the command line
	// Format, when not nil, is how the results print as the source
	// program's values (imp.Program's Format): its text is the table
	// arraysem_format, which main's arraysem_print_source reads.
	Format *semantics.Format
	Funcs  []*Func
}

// Func is a __global__ kernel, a __device__ function (a part of a
// reduce or a scan, returning its yield: Device, Result "int64_t") or a
// host function (main).
type Func struct {
	Pos    Pos
	Global bool
	Device bool   // __device__ static
	Result string // "void", "int" or "int64_t"
	Name   string
	Params []Param
	Body   []Stmt
}

// Param is a function parameter.
type Param struct {
	Type string // one of the types of Types
	Name string
}

// Types are the types the subset has.
var Types = []string{"int64_t", "int64_t *", "arraysem_block", "arraysem_error *", "int", "char **", "double"}

// Stmt is a statement.
type Stmt interface{ stmtPos() Pos }

// Decl is TYPE NAME = INIT; (INIT may be nil, or an InitList).
type Decl struct {
	Pos  Pos
	Type string
	Name string
	Init Expr
}

// Assign is LHS = RHS;.
type Assign struct {
	Pos      Pos
	LHS, RHS Expr
}

// ExprStmt is a call as a statement.
type ExprStmt struct {
	Pos Pos
	X   Expr
}

// If is if (COND) { THEN } else { ELSE } (no else when ELSE is empty).
type If struct {
	Pos        Pos
	Cond       Expr
	Then, Else []Stmt
}

// For is for (int64_t VAR = FROM; VAR <= BOUND; VAR++) { BODY }: an IMP
// kernel nested in a thread, an IMP for, a sequential reduce or scan
// (iterations 1..bound), or a thread's share of a parallel one.
type For struct {
	Pos         Pos
	Var         string
	From, Bound Expr
	Body        []Stmt
}

// Shared is __shared__ int64_t NAME[SIZE];: an array in the shared
// memory of the thread's block (one per block, uninitialised).
type Shared struct {
	Pos  Pos
	Name string
	Size int64
}

// Return is return; or return VALUE;.
type Return struct {
	Pos   Pos
	Value Expr
}

// Launch is ARRAYSEM_LAUNCH(KERNEL, GRID, BLOCK, ARGS...); (SYNC: the
// kernel waits at __syncthreads, ARRAYSEM_LAUNCH_SYNC).
type Launch struct {
	Pos         Pos
	Sync        bool
	Kernel      string
	Grid, Block Expr
	Args        []Expr
}

// Comment is a // line, for the reader.
type Comment struct {
	Pos  Pos
	Text string
}

func (s *Decl) stmtPos() Pos     { return s.Pos }
func (s *Assign) stmtPos() Pos   { return s.Pos }
func (s *ExprStmt) stmtPos() Pos { return s.Pos }
func (s *If) stmtPos() Pos       { return s.Pos }
func (s *For) stmtPos() Pos      { return s.Pos }
func (s *Return) stmtPos() Pos   { return s.Pos }
func (s *Shared) stmtPos() Pos   { return s.Pos }
func (s *Launch) stmtPos() Pos   { return s.Pos }
func (s *Comment) stmtPos() Pos  { return s.Pos }

// StmtPos is the position of a statement.
func StmtPos(s Stmt) Pos { return s.stmtPos() }

// Expr is an expression.
type Expr interface{ exprPos() Pos }

// Int is an integer literal.
type Int struct {
	Pos Pos
	V   int64
}

// Float is a float literal (a double), finite: the emitter writes the
// other floats through arraysem_f64_from_bits.
type Float struct {
	Pos Pos
	V   float64
}

// Ident is a variable, or one of nullptr, INT64_MIN, cudaSuccess,
// cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost.
type Ident struct {
	Pos  Pos
	Name string
}

// Str is a string literal.
type Str struct {
	Pos Pos
	S   string
}

// Field is X.NAME (a block's p and n, threadIdx.x, …).
type Field struct {
	Pos  Pos
	X    Expr
	Name string
}

// Index is X[I].
type Index struct {
	Pos  Pos
	X, I Expr
}

// Call is FUN(ARGS...).
type Call struct {
	Pos  Pos
	Fun  string
	Args []Expr
}

// Binary is (L OP R): comparisons (of two ints or two doubles), && and
// ||, and + on a pointer (all integer arithmetic goes through the i64_
// functions of the prelude, all float arithmetic through its f64_ ones).
type Binary struct {
	Pos  Pos
	Op   string
	L, R Expr
}

// Unary is OP X: -, ! or & (address of); - of a double flips its sign.
type Unary struct {
	Pos Pos
	Op  string
	X   Expr
}

// Cast is (TYPE)X, for TYPE int64_t, double or void **: (double)k is
// float(k); (int64_t)x of a double truncates, after the emitter's check
// that x is in int64's range.
type Cast struct {
	Pos  Pos
	Type string
	X    Expr
}

// Sizeof is sizeof(TYPE).
type Sizeof struct {
	Pos  Pos
	Type string
}

// InitList is {A, B}, the initialiser of a block.
type InitList struct {
	Pos   Pos
	Elems []Expr
}

func (e *Int) exprPos() Pos      { return e.Pos }
func (e *Float) exprPos() Pos    { return e.Pos }
func (e *Ident) exprPos() Pos    { return e.Pos }
func (e *Str) exprPos() Pos      { return e.Pos }
func (e *Field) exprPos() Pos    { return e.Pos }
func (e *Index) exprPos() Pos    { return e.Pos }
func (e *Call) exprPos() Pos     { return e.Pos }
func (e *Binary) exprPos() Pos   { return e.Pos }
func (e *Unary) exprPos() Pos    { return e.Pos }
func (e *Cast) exprPos() Pos     { return e.Pos }
func (e *Sizeof) exprPos() Pos   { return e.Pos }
func (e *InitList) exprPos() Pos { return e.Pos }

// ExprPos is the position of an expression.
func ExprPos(e Expr) Pos { return e.exprPos() }
