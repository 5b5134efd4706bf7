package gpusim

import (
	"fmt"
	"math"

	"github.com/arraysem/arraysem/cuda"
)

// The compiled engine: a kernel and the __device__ functions it calls,
// compiled once a run to the code of a register machine (vm.go) that runs
// a thread as a loop over instructions, with the thread's variables in
// registers and its place in the code a program counter, so that a
// thread waiting at a barrier is only a saved counter (no goroutine), and
// the checks work on compact shadow memory (shadow.go). It computes what
// the tree walker of machine.go computes, in the same order, with the
// same messages: each statement spends its fuel where the walker's does,
// the accesses are checked in the walker's order, and every failure is
// reported by the walker's own code (the instruction that finds one calls
// it). What it cannot compile exactly, it refuses (errNotCompiled), and
// the launch runs in the tree walker: a construct the emitter does not
// produce (a variable declared with two types, used where it may not be
// declared, a string in a kernel, a recursive __device__ function, a
// function of the prelude it does not know).

// opcode is an instruction of the register machine.
type opcode uint8

const (
	opNop        opcode = iota // only the statements' fuel
	opConst                    // x[a] = k
	opNull                     // a = nullptr
	opMov                      // x[a] = x[b]
	opMovP                     // a = b (a pointer: region and offset)
	opAdd                      // x[a] = x[b] + x[c] (i64_add; and so on)
	opSub                      //
	opMul                      //
	opDiv                      //
	opMod                      //
	opAddK                     // x[a] = x[b] + k
	opSubK                     //
	opMulK                     //
	opNeg                      // x[a] = -x[b]
	opEq                       // x[a] = x[b] == x[c]
	opNe                       //
	opLt                       //
	opLe                       //
	opGt                       //
	opGe                       //
	opEqK                      // x[a] = x[b] == k
	opNeK                      //
	opLtK                      //
	opLeK                      //
	opGtK                      //
	opGeK                      //
	opAnd                      // x[a] = x[b] != 0 && x[c] != 0 (both evaluated)
	opOr                       //
	opNot                      // x[a] = x[b] == 0
	opPEq                      // x[a] = pointer b == pointer c
	opPNe                      //
	opFAdd                     // x[a] = x[b] + x[c] as doubles (their bits)
	opFSub                     //
	opFMul                     //
	opFDiv                     //
	opFNeg                     //
	opFEq                      // x[a] = x[b] == x[c] as doubles (IEEE)
	opFNe                      //
	opFLt                      //
	opFLe                      //
	opFGt                      //
	opFGe                      //
	opI2F                      // x[a] = (double)x[b]
	opF2I                      // x[a] = (int64_t)x[b], checked
	opF64Bits                  // x[a] = arraysem_f64_bits(x[b])
	opIntOk                    // x[a] = arraysem_f64_int_ok(x[b])
	opIsNaN                    // x[a] = arraysem_f64_isnan(x[b])
	opPtrAdd                   // a = pointer b + x[c]
	opJmp                      // pc = k
	opJz                       // if x[b] == 0 { pc = k }
	opJgt                      // if x[b] > x[c] { pc = k }
	opLoad                     // x[a] = pointer b [x[c]]
	opStore                    // pointer b [x[c]] = x[a]
	opTid                      // x[a] = threadIdx.x
	opBid                      // x[a] = blockIdx.x
	opBdim                     // x[a] = blockDim.x
	opGdim                     // x[a] = gridDim.x
	opShared                   // a = the block's __shared__ array aux.shared
	opCall                     // x[a] = aux.callee(aux.args…)
	opRet                      // return x[b] (a kernel's thread ends)
	opRetK                     // return k
	opEnd                      // a __device__ function ends without return
	opSync                     // __syncthreads
	opNative                   // a = aux.call's prelude function, the tree walker's code
	opTreeLevels               // x[a] = arraysem_tree_levels(x[b])
	opCeilDiv                  // x[a] = arraysem_ceil_div(x[b], x[c])
)

// instr is one instruction. tick is the number of statements that start
// here (their fuel is spent before the instruction runs); aux indexes the
// function's side table.
type instr struct {
	op      opcode
	a, b, c int32
	k       int64
	tick    int32
	aux     int32
}

// auxInfo is what an instruction needs beyond its registers: the
// positions of its statements (for running out of fuel), the expression
// or call it runs (for messages and the request statistics).
type auxInfo struct {
	ticks  []cuda.Pos
	e      cuda.Expr // an access's Index; a cast
	site   int32     // an access's index among the program's accesses
	call   *cuda.Call
	callee *fcode
	args   []argReg
	shared *cuda.Shared
	kind   kind // a native call's result
}

// argReg is an argument of a call: its register and kind.
type argReg struct {
	reg  int32
	kind kind
}

// fcode is a compiled function.
type fcode struct {
	fn     *cuda.Func
	code   []instr
	aux    []auxInfo
	nregs  int32    // its frame's registers
	params []argReg // where its parameters live
	frame  int32    // registers of its frame and the deepest chain of calls under it
}

// errNotCompiled is a construct the compiled engine leaves to the tree
// walker.
type errNotCompiled struct{ why string }

func (e errNotCompiled) Error() string { return "not compiled: " + e.why }

// compiler compiles the functions of one run.
type compiler struct {
	m     *machine
	funcs map[*cuda.Func]*fcode
	busy  map[*cuda.Func]bool // being compiled: a call back is recursion
	sites int32
	exprs []cuda.Expr // the accesses, by site
	fails map[*cuda.Func]error
}

func newCompiler(m *machine) *compiler {
	return &compiler{m: m, funcs: map[*cuda.Func]*fcode{}, busy: map[*cuda.Func]bool{}, fails: map[*cuda.Func]error{}}
}

// kernel is the compiled kernel fn, or nil and why not.
func (c *compiler) kernel(fn *cuda.Func) (*fcode, error) {
	if err := c.fails[fn]; err != nil {
		return nil, err
	}
	fc, err := c.function(fn)
	if err != nil {
		c.fails[fn] = err
		return nil, err
	}
	return fc, nil
}

// function compiles fn (a kernel or a __device__ function) once.
func (c *compiler) function(fn *cuda.Func) (fc *fcode, err error) {
	if fc := c.funcs[fn]; fc != nil {
		return fc, nil
	}
	if c.busy[fn] {
		return nil, errNotCompiled{fn.Name + " calls itself"}
	}
	c.busy[fn] = true
	defer func() {
		delete(c.busy, fn)
		if r := recover(); r != nil {
			e, ok := r.(errNotCompiled)
			if !ok {
				panic(r)
			}
			fc, err = nil, e
		}
	}()
	f := &fcomp{c: c, fc: &fcode{fn: fn}, vars: map[string]varSlot{}, declared: map[string]bool{}, loopVars: map[string]bool{}}
	f.slots()
	for _, p := range fn.Params {
		s := f.vars[p.Name]
		f.fc.params = append(f.fc.params, argReg{s.reg, s.kind})
		f.declared[p.Name] = true
	}
	f.stmts(fn.Body)
	f.flush()
	if fn.Device {
		f.emit(instr{op: opEnd})
	} else {
		f.emit(instr{op: opRetK})
	}
	f.fc.nregs = f.maxRegs
	f.fc.frame = f.maxRegs + f.deepest
	c.funcs[fn] = f.fc
	return f.fc, nil
}

// varSlot is a variable's registers (a block has two: p, then n).
type varSlot struct {
	reg  int32
	kind kind
}

// fcomp compiles one function.
type fcomp struct {
	c        *compiler
	fc       *fcode
	vars     map[string]varSlot
	declared map[string]bool // the variables surely declared here (the walker's lookup would find them)
	loopVars map[string]bool // the variables of the enclosing for loops
	nvars    int32           // registers of the variables; temporaries follow
	temp     int32           // the next free temporary
	maxRegs  int32
	deepest  int32 // the largest frame of a function it calls
	pending  []cuda.Pos
}

func refuse(format string, args ...any) {
	panic(errNotCompiled{fmt.Sprintf(format, args...)})
}

// kindOf is the kind of value a variable of type typ holds (the tree
// walker's Decl and convert agree on these types).
func kindOf(typ string) kind {
	switch typ {
	case "int64_t", "int":
		return kInt
	case "double":
		return kFloat
	case "arraysem_block":
		return kBlock
	case "int64_t *", "arraysem_error *":
		return kPtr
	}
	refuse("a variable of type %s", typ)
	return 0
}

// slots gives every variable of the function its registers: each name
// has one kind in the whole function, or the function is refused.
func (f *fcomp) slots() {
	add := func(name string, k kind) {
		if s, ok := f.vars[name]; ok {
			if s.kind != k {
				refuse("%s is declared with two types", name)
			}
			return
		}
		f.vars[name] = varSlot{f.nvars, k}
		f.nvars++
		if k == kBlock {
			f.nvars++
		}
	}
	for _, p := range f.fc.fn.Params {
		add(p.Name, kindOf(p.Type))
	}
	var walk func(ss []cuda.Stmt)
	walk = func(ss []cuda.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *cuda.Decl:
				add(s.Name, kindOf(s.Type))
			case *cuda.For:
				add(s.Var, kInt)
				walk(s.Body)
			case *cuda.If:
				walk(s.Then)
				walk(s.Else)
			case *cuda.Shared:
				add(s.Name, kPtr)
			}
		}
	}
	walk(f.fc.fn.Body)
	f.temp, f.maxRegs = f.nvars, f.nvars
}

// newTemp is a temporary register (two for a block).
func (f *fcomp) newTemp(k kind) int32 {
	r := f.temp
	f.temp++
	if k == kBlock {
		f.temp++
	}
	f.maxRegs = max(f.maxRegs, f.temp)
	return r
}

// emit appends an instruction, which spends the fuel of the statements
// begun since the last one.
func (f *fcomp) emit(in instr) int {
	if len(f.pending) > 0 {
		in.tick = int32(len(f.pending))
		if in.aux == 0 {
			in.aux = f.addAux(auxInfo{})
		}
		f.fc.aux[in.aux].ticks = f.pending
		f.pending = nil
	}
	f.fc.code = append(f.fc.code, in)
	return len(f.fc.code) - 1
}

// flush spends the pending statements' fuel before a jump target.
func (f *fcomp) flush() {
	if len(f.pending) > 0 {
		f.emit(instr{op: opNop})
	}
}

// addAux adds an entry to the side table; entry 0 is no entry.
func (f *fcomp) addAux(a auxInfo) int32 {
	if len(f.fc.aux) == 0 {
		f.fc.aux = append(f.fc.aux, auxInfo{})
	}
	f.fc.aux = append(f.fc.aux, a)
	return int32(len(f.fc.aux) - 1)
}

// here is the address of the next instruction (a jump target).
func (f *fcomp) here() int64 {
	f.flush()
	return int64(len(f.fc.code))
}

func (f *fcomp) stmts(ss []cuda.Stmt) {
	for _, s := range ss {
		f.stmt(s)
	}
}

// copyDeclared is the set of declared names, to restore after a branch.
func (f *fcomp) copyDeclared() map[string]bool {
	out := make(map[string]bool, len(f.declared))
	for k := range f.declared {
		out[k] = true
	}
	return out
}

func (f *fcomp) stmt(s cuda.Stmt) {
	f.temp = f.nvars
	f.pending = append(f.pending, cuda.StmtPos(s))
	switch s := s.(type) {
	case *cuda.Comment:
	case *cuda.Decl:
		if f.loopVars[s.Name] {
			refuse("%s redeclares a loop's variable", s.Name)
		}
		v := f.vars[s.Name]
		if l, ok := s.Init.(*cuda.InitList); ok {
			if s.Type != "arraysem_block" || len(l.Elems) != 2 {
				refuse("an initialiser list of %s", s.Type)
			}
			p, n := f.expr(l.Elems[0]), f.expr(l.Elems[1])
			if p.kind != kPtr || n.kind != kInt {
				refuse("a block of other kinds")
			}
			f.move(v.reg, p)
			f.move(v.reg+1, n)
		} else if s.Init != nil {
			x := f.expr(s.Init)
			if x.kind != v.kind {
				refuse("%s initialised with another kind of value", s.Name)
			}
			f.move(v.reg, x)
			if v.kind == kBlock {
				f.emit(instr{op: opMov, a: v.reg + 1, b: x.reg + 1})
			}
		} else {
			f.zero(v)
		}
		f.declared[s.Name] = true
	case *cuda.Assign:
		f.assign(s)
	case *cuda.ExprStmt:
		f.expr(s.X)
	case *cuda.If:
		cond := f.reg(f.intExpr(s.Cond))
		jz := f.emit(instr{op: opJz, b: cond})
		before := f.copyDeclared()
		f.stmts(s.Then)
		then := f.declared
		var jmp int
		if len(s.Else) > 0 {
			jmp = f.emit(instr{op: opJmp})
		}
		f.fc.code[jz].k = f.here()
		f.declared = before
		if len(s.Else) > 0 {
			f.stmts(s.Else)
			f.fc.code[jmp].k = f.here()
		}
		for k := range f.declared {
			if !then[k] {
				delete(f.declared, k)
			}
		}
	case *cuda.For:
		if f.loopVars[s.Var] {
			refuse("%s redeclares a loop's variable", s.Var)
		}
		v := f.vars[s.Var]
		from := f.intExpr(s.From)
		f.move(v.reg, from)
		f.declared[s.Var] = true
		before := f.copyDeclared()
		top := f.here()
		f.temp = f.nvars
		bound := f.reg(f.intExpr(s.Bound))
		exit := f.emit(instr{op: opJgt, b: v.reg, c: bound})
		f.pending = append(f.pending, s.Pos)
		f.loopVars[s.Var] = true
		f.stmts(s.Body)
		delete(f.loopVars, s.Var)
		f.emit(instr{op: opAddK, a: v.reg, b: v.reg, k: 1})
		f.emit(instr{op: opJmp, k: top})
		f.fc.code[exit].k = f.here()
		f.declared = before
	case *cuda.Shared:
		if f.loopVars[s.Name] {
			refuse("%s redeclares a loop's variable", s.Name)
		}
		f.emit(instr{op: opShared, a: f.vars[s.Name].reg, aux: f.addAux(auxInfo{shared: s})})
		f.declared[s.Name] = true
	case *cuda.Return:
		if f.fc.fn.Device {
			if s.Value == nil {
				f.emit(instr{op: opRetK})
				return
			}
			x := f.expr(s.Value)
			if x.kind != kInt {
				refuse("%s returns a value that is not an integer", f.fc.fn.Name)
			}
			if x.cst {
				f.emit(instr{op: opRetK, k: x.k})
				return
			}
			f.emit(instr{op: opRet, b: x.reg})
			return
		}
		if s.Value != nil {
			f.expr(s.Value)
		}
		f.emit(instr{op: opRetK})
	default:
		refuse("a statement %T", s)
	}
}

// zero sets a variable to its type's zero (a declaration without value).
func (f *fcomp) zero(v varSlot) {
	switch v.kind {
	case kPtr:
		f.emit(instr{op: opNull, a: v.reg})
	case kBlock:
		f.emit(instr{op: opNull, a: v.reg})
		f.emit(instr{op: opConst, a: v.reg + 1})
	default:
		f.emit(instr{op: opConst, a: v.reg})
	}
}

func (f *fcomp) assign(s *cuda.Assign) {
	r := f.expr(s.RHS)
	switch l := s.LHS.(type) {
	case *cuda.Ident:
		v := f.variable(l.Name)
		if v.kind != r.kind {
			refuse("assignment of another kind of value to %s", l.Name)
		}
		f.move(v.reg, r)
		if v.kind == kBlock {
			f.emit(instr{op: opMov, a: v.reg + 1, b: r.reg + 1})
		}
	case *cuda.Field:
		x, ok := l.X.(*cuda.Ident)
		if !ok {
			refuse("assignment to a field of an expression")
		}
		v := f.variable(x.Name)
		if v.kind != kBlock {
			refuse("a field of a non-block")
		}
		switch {
		case l.Name == "p" && r.kind == kPtr:
			f.move(v.reg, r)
		case l.Name == "n" && r.kind == kInt:
			f.move(v.reg+1, r)
		default:
			refuse("assignment to field %s", l.Name)
		}
	case *cuda.Index:
		if r.kind != kInt {
			refuse("a store of a non-integer")
		}
		val := f.reg(r)
		p := f.expr(l.X)
		i := f.intExpr(l.I)
		if p.kind != kPtr {
			refuse("indexing a non-pointer")
		}
		f.emit(instr{op: opStore, a: val, b: f.reg(p), c: f.reg(i), aux: f.access(l)})
	default:
		refuse("an assignment")
	}
}

// access is the side-table entry of an access (its site for the
// statistics).
func (f *fcomp) access(e *cuda.Index) int32 {
	site := f.c.sites
	f.c.sites++
	f.c.exprs = append(f.c.exprs, e)
	return f.addAux(auxInfo{e: e, site: site})
}

// variable is a declared variable's slot.
func (f *fcomp) variable(name string) varSlot {
	v, ok := f.vars[name]
	if !ok || !f.declared[name] {
		refuse("%s may be used before its declaration", name)
	}
	return v
}

// opnd is an expression's value: in a register, or a constant.
type opnd struct {
	kind kind
	reg  int32
	cst  bool
	k    int64
}

// reg puts an operand in a register.
func (f *fcomp) reg(o opnd) int32 {
	if !o.cst {
		return o.reg
	}
	r := f.newTemp(o.kind)
	if o.kind == kPtr {
		f.emit(instr{op: opNull, a: r})
	} else {
		f.emit(instr{op: opConst, a: r, k: o.k})
	}
	return r
}

// move sets register dst to an operand (a block's n is the caller's).
func (f *fcomp) move(dst int32, o opnd) {
	switch {
	case o.cst && o.kind == kPtr:
		f.emit(instr{op: opNull, a: dst})
	case o.cst:
		f.emit(instr{op: opConst, a: dst, k: o.k})
	case o.kind == kPtr || o.kind == kBlock:
		f.emit(instr{op: opMovP, a: dst, b: o.reg})
	default:
		f.emit(instr{op: opMov, a: dst, b: o.reg})
	}
}

func (f *fcomp) intExpr(e cuda.Expr) opnd {
	x := f.expr(e)
	if x.kind != kInt {
		refuse("%s is not an integer", cuda.ExprString(e))
	}
	return x
}

func cInt(k int64) opnd { return opnd{kind: kInt, cst: true, k: k} }

// op3 emits x[a] = x[b] op x[c] into a new temporary.
func (f *fcomp) op3(op opcode, k kind, b, c int32) opnd {
	r := f.newTemp(k)
	f.emit(instr{op: op, a: r, b: b, c: c})
	return opnd{kind: k, reg: r}
}

// arith is an integer operation, with a constant right operand folded
// into the instruction where there is a form for it.
func (f *fcomp) arith(op opcode, l, r opnd) opnd {
	if r.cst {
		withK := map[opcode]opcode{opAdd: opAddK, opSub: opSubK, opMul: opMulK, opEq: opEqK, opNe: opNeK, opLt: opLtK, opLe: opLeK, opGt: opGtK, opGe: opGeK}
		if kop, ok := withK[op]; ok {
			a := f.newTemp(kInt)
			f.emit(instr{op: kop, a: a, b: f.reg(l), k: r.k})
			return opnd{kind: kInt, reg: a}
		}
	}
	lr := f.reg(l)
	return f.op3(op, kInt, lr, f.reg(r))
}

func (f *fcomp) expr(e cuda.Expr) opnd {
	switch e := e.(type) {
	case *cuda.Int:
		return cInt(e.V)
	case *cuda.Float:
		return opnd{kind: kFloat, cst: true, k: int64(math.Float64bits(e.V))}
	case *cuda.Ident:
		switch e.Name {
		case "nullptr":
			return opnd{kind: kPtr, cst: true}
		case "INT64_MIN":
			return cInt(-1 << 63)
		case "cudaSuccess":
			return cInt(0)
		case "cudaMemcpyHostToDevice":
			return cInt(1)
		case "cudaMemcpyDeviceToHost":
			return cInt(2)
		case "arraysem_max_block":
			return cInt(1 << 28)
		case "arraysem_heap_default":
			return cInt(1 << 31)
		case "arraysem_threads_per_block":
			return cInt(int64(f.c.m.opts.Block))
		case "arraysem_inputs", "arraysem_defaults", "arraysem_sites":
			refuse("a string in a kernel")
		}
		v := f.variable(e.Name)
		return opnd{kind: v.kind, reg: v.reg}
	case *cuda.Field:
		if x, ok := e.X.(*cuda.Ident); ok && e.Name == "x" {
			op := map[string]opcode{"threadIdx": opTid, "blockIdx": opBid, "blockDim": opBdim, "gridDim": opGdim}[x.Name]
			if op != 0 {
				r := f.newTemp(kInt)
				f.emit(instr{op: op, a: r})
				return opnd{kind: kInt, reg: r}
			}
		}
		v := f.expr(e.X)
		if v.kind != kBlock || v.cst {
			refuse("field %s of a non-block", e.Name)
		}
		switch e.Name {
		case "p":
			return opnd{kind: kPtr, reg: v.reg}
		case "n":
			return opnd{kind: kInt, reg: v.reg + 1}
		}
		refuse("field %s", e.Name)
	case *cuda.Index:
		p := f.expr(e.X)
		i := f.intExpr(e.I)
		if p.kind != kPtr {
			refuse("indexing a non-pointer")
		}
		pr := f.reg(p)
		ir := f.reg(i)
		a := f.newTemp(kInt)
		f.emit(instr{op: opLoad, a: a, b: pr, c: ir, aux: f.access(e)})
		return opnd{kind: kInt, reg: a}
	case *cuda.Call:
		return f.call(e)
	case *cuda.Binary:
		l := f.expr(e.L)
		if e.Op == "+" {
			if l.kind != kPtr {
				refuse("+ of a non-pointer")
			}
			lr := f.reg(l)
			r := f.intExpr(e.R)
			a := f.newTemp(kPtr)
			f.emit(instr{op: opPtrAdd, a: a, b: lr, c: f.reg(r)})
			return opnd{kind: kPtr, reg: a}
		}
		r := f.expr(e.R)
		if l.kind == kPtr && r.kind == kPtr && (e.Op == "==" || e.Op == "!=") {
			lr := f.reg(l)
			return f.op3(map[string]opcode{"==": opPEq, "!=": opPNe}[e.Op], kInt, lr, f.reg(r))
		}
		if l.kind == kFloat || r.kind == kFloat {
			op, ok := map[string]opcode{"==": opFEq, "!=": opFNe, "<": opFLt, "<=": opFLe, ">": opFGt, ">=": opFGe}[e.Op]
			if l.kind != kFloat || r.kind != kFloat || !ok {
				refuse("%s on doubles", e.Op)
			}
			lr := f.reg(l)
			return f.op3(op, kInt, lr, f.reg(r))
		}
		if l.kind != kInt || r.kind != kInt {
			refuse("%s of non-integers", e.Op)
		}
		op, ok := map[string]opcode{"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe, "&&": opAnd, "||": opOr}[e.Op]
		if !ok {
			refuse("operator %s", e.Op)
		}
		return f.arith(op, l, r)
	case *cuda.Unary:
		switch e.Op {
		case "-":
			x := f.expr(e.X)
			switch x.kind {
			case kFloat:
				return f.op3(opFNeg, kFloat, f.reg(x), 0)
			case kInt:
				return f.op3(opNeg, kInt, f.reg(x), 0)
			}
		case "!":
			x := f.intExpr(e.X)
			return f.op3(opNot, kInt, f.reg(x), 0)
		}
		refuse("unary %s", e.Op)
	case *cuda.Cast:
		x := f.expr(e.X)
		switch {
		case e.Type == "int64_t" && x.kind == kFloat:
			a := f.newTemp(kInt)
			f.emit(instr{op: opF2I, a: a, b: f.reg(x), aux: f.addAux(auxInfo{e: e})})
			return opnd{kind: kInt, reg: a}
		case e.Type == "int64_t" && x.kind == kInt:
			return x
		case e.Type == "double" && x.kind == kInt:
			return f.op3(opI2F, kFloat, f.reg(x), 0)
		}
		refuse("cast to %s", e.Type)
	case *cuda.Sizeof:
		if e.Type == "arraysem_error" {
			return cInt(24)
		}
		return cInt(8)
	}
	refuse("expression %s", cuda.ExprString(e))
	return opnd{}
}

// intFuncs are the prelude's functions of integers to an integer that
// the machine runs itself; floatOps its double arithmetic.
var (
	intFuncs = map[string]opcode{"i64_add": opAdd, "i64_sub": opSub, "i64_mul": opMul, "i64_div": opDiv, "i64_mod": opMod, "arraysem_ceil_div": opCeilDiv}
	floatOps = map[string]opcode{"f64_add": opFAdd, "f64_sub": opFSub, "f64_mul": opFMul, "f64_div": opFDiv}
	// nativeKinds are the results of the other functions a thread may
	// call (deviceBuiltin runs them): the i64_ functions the tree walker
	// knows are found by asking it (isI64).
	nativeKinds = map[string]kind{
		"f64_sqrt": kFloat, "f64_exp": kFloat, "f64_log": kFloat, "f64_sin": kFloat, "f64_cos": kFloat,
		"arraysem_f64_from_bits": kFloat, "arraysem_tree_levels": kInt,
		"arraysem_device_alloc_chain": kPtr, "arraysem_device_free_chain": kInt, "arraysem_trap": kInt,
		"arraysem_device_alloc": kPtr, "arraysem_device_free": kInt,
	}
)

// isI64 tells whether the tree walker's i64 runs f (a function of
// integers to an integer).
func isI64(f string) bool {
	_, ok := i64(f, func(int) int64 { return 1 }, func(int) {})
	return ok
}

func (f *fcomp) call(c *cuda.Call) opnd {
	if c.Fun == "__syncthreads" {
		f.emit(instr{op: opSync, aux: f.addAux(auxInfo{call: c})})
		return cInt(0)
	}
	if fn := f.c.m.prog.funcs[c.Fun]; fn != nil && fn.Device {
		callee, err := f.c.function(fn)
		if err != nil {
			panic(err)
		}
		if len(c.Args) != len(fn.Params) {
			refuse("%s with %d arguments", c.Fun, len(c.Args))
		}
		var args []argReg
		for i, a := range c.Args {
			x := f.expr(a)
			if x.kind != callee.params[i].kind {
				refuse("an argument of another kind to %s", c.Fun)
			}
			args = append(args, argReg{f.reg(x), x.kind})
		}
		f.deepest = max(f.deepest, callee.frame)
		a := f.newTemp(kInt)
		f.emit(instr{op: opCall, a: a, aux: f.addAux(auxInfo{call: c, callee: callee, args: args})})
		return opnd{kind: kInt, reg: a}
	}
	// A prelude function: every argument first, as callArgs evaluates
	// them.
	args := make([]opnd, len(c.Args))
	for i, a := range c.Args {
		args[i] = f.expr(a)
	}
	kinds := func(k kind, n int) bool {
		if len(args) != n {
			return false
		}
		for _, a := range args {
			if a.kind != k {
				return false
			}
		}
		return true
	}
	switch {
	case c.Fun == "i64_neg" && kinds(kInt, 1):
		return f.op3(opNeg, kInt, f.reg(args[0]), 0)
	case intFuncs[c.Fun] != 0 && kinds(kInt, 2):
		op := intFuncs[c.Fun]
		if op == opCeilDiv {
			l := f.reg(args[0])
			a := f.newTemp(kInt)
			f.emit(instr{op: op, a: a, b: l, c: f.reg(args[1]), aux: f.addAux(auxInfo{call: c})})
			return opnd{kind: kInt, reg: a}
		}
		return f.arith(op, args[0], args[1])
	case floatOps[c.Fun] != 0 && kinds(kFloat, 2):
		l := f.reg(args[0])
		return f.op3(floatOps[c.Fun], kFloat, l, f.reg(args[1]))
	case c.Fun == "arraysem_f64_bits" && kinds(kFloat, 1):
		return f.op3(opF64Bits, kInt, f.reg(args[0]), 0)
	case c.Fun == "arraysem_f64_int_ok" && kinds(kFloat, 1):
		return f.op3(opIntOk, kInt, f.reg(args[0]), 0)
	case c.Fun == "arraysem_f64_isnan" && kinds(kFloat, 1):
		return f.op3(opIsNaN, kInt, f.reg(args[0]), 0)
	case c.Fun == "arraysem_tree_levels" && kinds(kInt, 1):
		return f.op3(opTreeLevels, kInt, f.reg(args[0]), 0)
	}
	k, ok := nativeKinds[c.Fun]
	if !ok && isI64(c.Fun) {
		k, ok = kInt, true
	}
	if !ok {
		refuse("a call of %s", c.Fun)
	}
	var regs []argReg
	for _, a := range args {
		if a.kind == kStr {
			refuse("a string argument")
		}
		regs = append(regs, argReg{f.reg(a), a.kind})
	}
	a := f.newTemp(k)
	f.emit(instr{op: opNative, a: a, aux: f.addAux(auxInfo{call: c, args: regs, kind: k})})
	return opnd{kind: k, reg: a}
}
