package gpusim

import (
	"fmt"

	"github.com/arraysem/arraysem/cuda"
)

// The compiled engine: a kernel, with the __device__ functions it calls
// inlined, compiled once a run to the code of a register machine (vm.go)
// that runs a thread as a loop over instructions, with the thread's
// variables in registers and its place in the code a program counter, so
// that a thread waiting at a barrier is only a saved counter (no
// goroutine), and the checks work on compact shadow memory (shadow.go).
// It computes what the tree walker of machine.go computes, in the same
// order, with the same messages: each statement spends its fuel where the
// walker's does, the accesses are checked in the walker's order, and
// every failure is reported by the walker's own code (the instruction
// that finds one calls it). What it cannot compile exactly, it refuses
// (errNotCompiled), and the launch runs in the tree walker: a construct
// the emitter does not produce (a variable declared with two types, used
// where it may not be declared, a string in a kernel, a recursive
// __device__ function, a function of the prelude it does not know).

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
	opJmp                      // pc = a
	opJz                       // if x[b] == 0 { pc = a }
	opJeq                      // if x[b] == x[c] { pc = a }
	opJne                      //
	opJlt                      //
	opJle                      //
	opJgt                      //
	opJge                      //
	opJeqK                     // if x[b] == k { pc = a }
	opJneK                     //
	opJltK                     //
	opJleK                     //
	opJgtK                     //
	opJgeK                     //
	opJNull                    // if pointer b is nullptr { pc = a }
	opJNotNull                 //
	opLoad                     // x[a] = pointer b [x[c]]
	opStore                    // pointer b [x[c]] = x[a]
	opTid                      // x[a] = threadIdx.x
	opBid                      // x[a] = blockIdx.x
	opBdim                     // x[a] = blockDim.x
	opGdim                     // x[a] = gridDim.x
	opShared                   // a = the block's __shared__ array aux.shared
	opRet                      // the thread returns
	opEnd                      // an inlined __device__ function ends without return
	opSync                     // __syncthreads
	opNative                   // a = aux.call's prelude function, the tree walker's code
	opTreeLevels               // x[a] = arraysem_tree_levels(x[b])
	opCeilDiv                  // x[a] = arraysem_ceil_div(x[b], x[c])
)

// instr is one instruction. tick is the number of statements that start
// here (their fuel is spent before the instruction runs); aux indexes the
// kernel's side table.
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
	site   int32     // an access's site (compiler.sites)
	call   *cuda.Call
	fn     *cuda.Func // an inlined function that ends without return
	args   []argReg
	shared *cuda.Shared
	kind   kind // a native call's result
}

// argReg is an argument of a call: its register and kind.
type argReg struct {
	reg  int32
	kind kind
}

// fcode is a compiled kernel.
type fcode struct {
	fn     *cuda.Func
	code   []instr
	aux    []auxInfo
	nregs  int32    // a thread's registers
	params []argReg // where its parameters live
}

// errNotCompiled is a construct the compiled engine leaves to the tree
// walker.
type errNotCompiled struct{ why string }

func (e errNotCompiled) Error() string { return "not compiled: " + e.why }

// maxCode bounds a kernel's instructions (inlining a __device__ function
// at each call copies it).
const maxCode = 1 << 20

// compiler compiles the kernels of one run.
type compiler struct {
	m     *machine
	funcs map[*cuda.Func]*fcode
	fails map[*cuda.Func]error
	// The accesses by site (the statistics count a thread's executions
	// of each, wherever a __device__ function is inlined).
	sites map[*cuda.Index]int32
}

func newCompiler(m *machine) *compiler {
	return &compiler{m: m, funcs: map[*cuda.Func]*fcode{}, fails: map[*cuda.Func]error{}, sites: map[*cuda.Index]int32{}}
}

// kernel is the compiled kernel fn, or nil and why not.
func (c *compiler) kernel(fn *cuda.Func) (fc *fcode, err error) {
	if fc := c.funcs[fn]; fc != nil {
		return fc, nil
	}
	if err := c.fails[fn]; err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(errNotCompiled)
			if !ok {
				panic(r)
			}
			fc, err = nil, e
			c.fails[fn] = e
		}
	}()
	fc = &fcode{fn: fn}
	k := &kcomp{c: c, fc: fc, inlining: map[*cuda.Func]bool{fn: true}}
	f := k.function(fn, 0)
	for _, p := range fn.Params {
		s := f.vars[p.Name]
		fc.params = append(fc.params, argReg{s.reg, s.kind})
		f.declared[p.Name] = true
	}
	f.stmts(fn.Body)
	k.emit(instr{op: opRet})
	fc.nregs = k.maxRegs
	if len(fc.aux) == 0 {
		fc.aux = append(fc.aux, auxInfo{})
	}
	dropDeadStores(fc)
	c.funcs[fn] = fc
	return fc, nil
}

// kcomp is a kernel being compiled: its code, and what the functions
// inlined in it share.
type kcomp struct {
	c        *compiler
	fc       *fcode
	inlining map[*cuda.Func]bool // the functions being compiled (a call of one is recursion)
	maxRegs  int32
	pending  []cuda.Pos // statements begun, whose fuel the next instruction spends
	// lastDef is the instruction that last made a temporary, its only
	// use to come: a move of it right after can make the instruction
	// write the move's register instead; label is the first instruction
	// after the last jump target.
	lastDef, label int
}

// varSlot is a variable's registers (a block has two: p, then n).
type varSlot struct {
	reg  int32
	kind kind
}

// fcomp compiles one function's body: the kernel's, or an inlined
// __device__ function's (its variables in registers of their own).
type fcomp struct {
	*kcomp
	fn       *cuda.Func
	vars     map[string]varSlot
	declared map[string]bool // the variables surely declared here (the walker's lookup would find them)
	loopVars map[string]bool // the variables of the enclosing for loops
	nvars    int32           // its registers end here; temporaries follow
	temp     int32           // the next free temporary
	ret      *inlined        // the call being inlined (nil in the kernel's body)
}

// inlined is a __device__ call compiled in place: where its value goes,
// the jumps of its returns.
type inlined struct {
	call  *cuda.Call
	dst   int32
	exits []int
}

// function starts compiling fn's body with its registers from base.
func (k *kcomp) function(fn *cuda.Func, base int32) *fcomp {
	f := &fcomp{kcomp: k, fn: fn, vars: map[string]varSlot{}, declared: map[string]bool{}, loopVars: map[string]bool{}, nvars: base}
	f.slots()
	return f
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
	for _, p := range f.fn.Params {
		if _, ok := f.vars[p.Name]; ok {
			refuse("%s has two parameters %s", f.fn.Name, p.Name)
		}
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
	walk(f.fn.Body)
	f.temp = f.nvars
	f.maxRegs = max(f.maxRegs, f.nvars)
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
func (k *kcomp) emit(in instr) int {
	if len(k.pending) > 0 {
		in.tick = int32(len(k.pending))
		if in.aux == 0 {
			in.aux = k.addAux(auxInfo{})
		}
		k.fc.aux[in.aux].ticks = k.pending
		k.pending = nil
	}
	if len(k.fc.code) >= maxCode {
		refuse("more than %d instructions", maxCode)
	}
	k.fc.code = append(k.fc.code, in)
	return len(k.fc.code) - 1
}

// def emits an instruction that makes temporary a (of kind k).
func (f *fcomp) def(in instr, k kind) opnd {
	f.lastDef = f.emit(in)
	return opnd{kind: k, reg: in.a}
}

// addAux adds an entry to the side table; entry 0 is no entry.
func (k *kcomp) addAux(a auxInfo) int32 {
	if len(k.fc.aux) == 0 {
		k.fc.aux = append(k.fc.aux, auxInfo{})
	}
	k.fc.aux = append(k.fc.aux, a)
	return int32(len(k.fc.aux) - 1)
}

// here is the address of the next instruction, a jump target (the
// pending statements spend their fuel before it).
func (k *kcomp) here() int32 {
	if len(k.pending) > 0 {
		k.emit(instr{op: opNop})
	}
	k.label = len(k.fc.code)
	return int32(k.label)
}

// patch makes the jump at i go to the next instruction.
func (k *kcomp) patch(i int) { k.fc.code[i].a = k.here() }

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
			f.set(v, x)
		} else {
			f.zero(v)
		}
		f.declared[s.Name] = true
	case *cuda.Assign:
		f.assign(s)
	case *cuda.ExprStmt:
		f.expr(s.X)
	case *cuda.If:
		jz := f.branchUnless(s.Cond)
		before := f.copyDeclared()
		f.stmts(s.Then)
		then := f.declared
		var jmp int
		if len(s.Else) > 0 {
			jmp = f.emit(instr{op: opJmp})
		}
		f.patch(jz)
		f.declared = before
		if len(s.Else) > 0 {
			f.stmts(s.Else)
			f.patch(jmp)
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
		f.move(v.reg, f.intExpr(s.From))
		f.declared[s.Var] = true
		before := f.copyDeclared()
		top := f.here()
		f.temp = f.nvars
		bound := f.intExpr(s.Bound)
		var exit int
		if bound.cst {
			exit = f.emit(instr{op: opJgtK, b: v.reg, k: bound.k})
		} else {
			exit = f.emit(instr{op: opJgt, b: v.reg, c: bound.reg})
		}
		f.pending = append(f.pending, s.Pos)
		f.loopVars[s.Var] = true
		f.stmts(s.Body)
		delete(f.loopVars, s.Var)
		f.emit(instr{op: opAddK, a: v.reg, b: v.reg, k: 1})
		f.emit(instr{op: opJmp, a: top})
		f.patch(exit)
		f.declared = before
	case *cuda.Shared:
		if f.loopVars[s.Name] {
			refuse("%s redeclares a loop's variable", s.Name)
		}
		f.emit(instr{op: opShared, a: f.vars[s.Name].reg, aux: f.addAux(auxInfo{shared: s})})
		f.declared[s.Name] = true
	case *cuda.Return:
		if f.ret == nil {
			// The kernel's thread ends (a value is evaluated only).
			if s.Value != nil {
				f.expr(s.Value)
			}
			f.emit(instr{op: opRet})
			return
		}
		x := cInt(0)
		if s.Value != nil {
			x = f.expr(s.Value)
		}
		if x.kind != kInt {
			refuse("%s returns a value that is not an integer", f.fn.Name)
		}
		f.move(f.ret.dst, x)
		f.ret.exits = append(f.ret.exits, f.emit(instr{op: opJmp}))
	default:
		refuse("a statement %T", s)
	}
}

// branchUnless compiles an if's condition and a jump, to patch, taken
// when it is 0: one instruction that compares and jumps where the
// condition is a comparison of integers.
func (f *fcomp) branchUnless(cond cuda.Expr) int {
	if b, ok := cond.(*cuda.Binary); ok {
		neg, ok := map[string]opcode{"==": opJne, "!=": opJeq, "<": opJge, "<=": opJgt, ">": opJle, ">=": opJlt}[b.Op]
		if ok {
			l := f.expr(b.L)
			r := f.expr(b.R)
			if l.kind == kPtr && r.kind == kPtr && r.cst && (b.Op == "==" || b.Op == "!=") {
				// p == nullptr, as pointers compare: no region, offset 0.
				op := opJNotNull
				if b.Op == "!=" {
					op = opJNull
				}
				return f.emit(instr{op: op, b: f.reg(l)})
			}
			if l.kind == kInt && r.kind == kInt {
				if r.cst {
					return f.emit(instr{op: neg + opJeqK - opJeq, b: f.reg(l), k: r.k})
				}
				lr := f.reg(l)
				return f.emit(instr{op: neg, b: lr, c: f.reg(r)})
			}
			return f.emit(instr{op: opJz, b: f.reg(f.compare(b, l, r))})
		}
	}
	return f.emit(instr{op: opJz, b: f.reg(f.intExpr(cond))})
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

// set sets a variable to a value of its kind.
func (f *fcomp) set(v varSlot, x opnd) {
	f.move(v.reg, x)
	if v.kind == kBlock {
		f.emit(instr{op: opMov, a: v.reg + 1, b: x.reg + 1})
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
		f.set(v, r)
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
		pr := f.reg(p)
		f.emit(instr{op: opStore, a: val, b: pr, c: f.reg(i), aux: f.access(l)})
	default:
		refuse("an assignment")
	}
}

// access is the side-table entry of an access (its site for the
// statistics).
func (f *fcomp) access(e *cuda.Index) int32 {
	site, ok := f.c.sites[e]
	if !ok {
		site = int32(len(f.c.sites))
		f.c.sites[e] = site
	}
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

// move sets register dst to an operand (a block's n is the caller's). A
// temporary the last instruction made is made in dst instead.
func (f *fcomp) move(dst int32, o opnd) {
	n := len(f.fc.code)
	switch {
	case o.cst && o.kind == kPtr:
		f.emit(instr{op: opNull, a: dst})
	case o.cst:
		f.emit(instr{op: opConst, a: dst, k: o.k})
	case o.kind != kBlock && o.reg >= f.nvars && f.lastDef == n-1 && f.label < n && f.fc.code[n-1].a == o.reg && len(f.pending) == 0:
		f.fc.code[n-1].a = dst
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

// op3 makes x[a] = x[b] op x[c] in a new temporary.
func (f *fcomp) op3(op opcode, k kind, b, c int32) opnd {
	return f.def(instr{op: op, a: f.newTemp(k), b: b, c: c}, k)
}

// withK are the operations with a form for a constant right operand.
var withK = map[opcode]opcode{opAdd: opAddK, opSub: opSubK, opMul: opMulK, opEq: opEqK, opNe: opNeK, opLt: opLtK, opLe: opLeK, opGt: opGtK, opGe: opGeK}

// arith is an integer operation, with a constant right operand folded
// into the instruction where there is a form for it.
func (f *fcomp) arith(op opcode, l, r opnd) opnd {
	if kop, ok := withK[op]; ok && r.cst {
		lr := f.reg(l)
		return f.def(instr{op: kop, a: f.newTemp(kInt), b: lr, k: r.k}, kInt)
	}
	lr := f.reg(l)
	return f.op3(op, kInt, lr, f.reg(r))
}

// compare is a comparison (or && or ||) of two evaluated operands, as
// the walker's Binary has it: of pointers, doubles or integers.
func (f *fcomp) compare(e *cuda.Binary, l, r opnd) opnd {
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
}

func (f *fcomp) expr(e cuda.Expr) opnd {
	switch e := e.(type) {
	case *cuda.Int:
		return cInt(e.V)
	case *cuda.Float:
		return opnd{kind: kFloat, cst: true, k: fbits(e.V)}
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
				return f.def(instr{op: op, a: f.newTemp(kInt)}, kInt)
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
		return f.def(instr{op: opLoad, a: f.newTemp(kInt), b: pr, c: ir, aux: f.access(e)}, kInt)
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
			return f.def(instr{op: opPtrAdd, a: f.newTemp(kPtr), b: lr, c: f.reg(r)}, kPtr)
		}
		return f.compare(e, l, f.expr(e.R))
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
			xr := f.reg(x)
			return f.def(instr{op: opF2I, a: f.newTemp(kInt), b: xr, aux: f.addAux(auxInfo{e: e})}, kInt)
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

// intFuncs are the prelude's functions of two integers to an integer
// that the machine runs itself; floatOps its double arithmetic.
var (
	intFuncs = map[string]opcode{"i64_add": opAdd, "i64_sub": opSub, "i64_mul": opMul, "i64_div": opDiv, "i64_mod": opMod, "arraysem_ceil_div": opCeilDiv}
	floatOps = map[string]opcode{"f64_add": opFAdd, "f64_sub": opFSub, "f64_mul": opFMul, "f64_div": opFDiv}
	// nativeKinds are the results of the other functions a thread may
	// call (deviceBuiltin runs them); the i64_ functions the tree walker
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
		return f.inline(c, fn)
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
	case intFuncs[c.Fun] == opCeilDiv && kinds(kInt, 2):
		l := f.reg(args[0])
		r := f.reg(args[1])
		return f.def(instr{op: opCeilDiv, a: f.newTemp(kInt), b: l, c: r, aux: f.addAux(auxInfo{call: c})}, kInt)
	case intFuncs[c.Fun] != 0 && kinds(kInt, 2):
		return f.arith(intFuncs[c.Fun], args[0], args[1])
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
	return f.def(instr{op: opNative, a: f.newTemp(k), aux: f.addAux(auxInfo{call: c, args: regs, kind: k})}, k)
}

// inline compiles a call of a __device__ function in place, as the
// walker's callDevice runs it: the arguments in order, bound to the
// parameters in a scope of the function's own (registers above the
// caller's live ones), the body, its returns jumping to the end with the
// call's value.
func (f *fcomp) inline(c *cuda.Call, fn *cuda.Func) opnd {
	if f.inlining[fn] {
		refuse("%s calls itself", fn.Name)
	}
	if len(c.Args) != len(fn.Params) {
		refuse("%s with %d arguments", c.Fun, len(c.Args))
	}
	args := make([]opnd, len(c.Args))
	for i, a := range c.Args {
		args[i] = f.expr(a)
		if args[i].kind != kindOf(fn.Params[i].Type) {
			refuse("an argument of another kind to %s", c.Fun)
		}
	}
	dst := f.newTemp(kInt)
	g := f.function(fn, f.temp)
	set := setNames(fn.Body)
	for i, p := range fn.Params {
		v := g.vars[p.Name]
		g.declared[p.Name] = true
		if !args[i].cst && !set[p.Name] {
			// A parameter the body never sets is the argument's register.
			g.vars[p.Name] = varSlot{args[i].reg, args[i].kind}
			continue
		}
		if args[i].kind == kBlock {
			f.emit(instr{op: opMovP, a: v.reg, b: args[i].reg})
			f.emit(instr{op: opMov, a: v.reg + 1, b: args[i].reg + 1})
		} else {
			f.move(v.reg, args[i])
		}
	}
	g.ret = &inlined{call: c, dst: dst}
	f.inlining[fn] = true
	g.stmts(fn.Body)
	delete(f.inlining, fn)
	f.emit(instr{op: opEnd, aux: f.addAux(auxInfo{call: c, fn: fn})})
	for _, j := range g.ret.exits {
		f.patch(j)
	}
	f.here()
	return opnd{kind: kInt, reg: dst}
}

// regs are the registers an instruction reads and the one it writes (-1:
// none); pure tells that writing is all it does (it cannot fail).
func regs(in *instr, aux []auxInfo) (reads []int32, write int32, pure bool) {
	switch in.op {
	case opConst, opNull, opTid, opBid, opBdim, opGdim:
		return nil, in.a, true
	case opMov, opMovP, opAddK, opSubK, opMulK, opNeg, opEqK, opNeK, opLtK, opLeK, opGtK, opGeK, opNot,
		opFNeg, opI2F, opF64Bits, opIntOk, opIsNaN:
		return []int32{in.b}, in.a, true
	case opAdd, opSub, opMul, opDiv, opMod, opEq, opNe, opLt, opLe, opGt, opGe, opAnd, opOr, opPEq, opPNe,
		opFAdd, opFSub, opFMul, opFDiv, opFEq, opFNe, opFLt, opFLe, opFGt, opFGe, opPtrAdd:
		return []int32{in.b, in.c}, in.a, true
	case opF2I, opTreeLevels:
		return []int32{in.b}, in.a, false
	case opLoad, opCeilDiv:
		return []int32{in.b, in.c}, in.a, false
	case opShared:
		return nil, in.a, false
	case opNative:
		for _, a := range aux[in.aux].args {
			reads = append(reads, a.reg)
			if a.kind == kBlock {
				reads = append(reads, a.reg+1)
			}
		}
		return reads, in.a, false
	case opStore:
		return []int32{in.a, in.b, in.c}, -1, false
	case opJz, opJeqK, opJneK, opJltK, opJleK, opJgtK, opJgeK, opJNull, opJNotNull:
		return []int32{in.b}, -1, false
	case opJeq, opJne, opJlt, opJle, opJgt, opJge:
		return []int32{in.b, in.c}, -1, false
	}
	return nil, -1, false
}

// jumps tells whether an instruction may go elsewhere than the next.
func jumps(op opcode) bool {
	return op >= opJmp && op <= opJNotNull || op == opRet || op == opEnd || op == opSync
}

// dropDeadStores removes the instructions that only write a register
// the code writes again, in the same straight line, before it reads it
// (the emitter declares every variable with 0 and sets it again): nothing
// can see the value, so only their statements' fuel stays, spent by the
// next instruction, before it, as the walker spends it.
func dropDeadStores(fc *fcode) {
	code := fc.code
	target := make([]bool, len(code)+1)
	for _, in := range code {
		if in.op >= opJmp && in.op <= opJNotNull {
			target[in.a] = true
		}
	}
	dead := make([]bool, len(code))
	overwritten := map[int32]bool{}
	for i := len(code) - 1; i >= 0; i-- {
		in := &code[i]
		if jumps(in.op) || target[i+1] {
			clear(overwritten)
		}
		reads, w, pure := regs(in, fc.aux)
		if w >= 0 {
			if pure && overwritten[w] {
				dead[i] = true
				continue
			}
			overwritten[w] = true
		}
		for _, r := range reads {
			delete(overwritten, r)
		}
	}
	// The survivors, with the fuel of the dead before them; new places.
	place := make([]int32, len(code)+1)
	out := code[:0]
	var ticks []cuda.Pos
	for i := range code {
		place[i] = int32(len(out))
		in := code[i]
		if in.tick > 0 {
			ticks = append(ticks, fc.aux[in.aux].ticks...)
		}
		if dead[i] {
			continue
		}
		if len(ticks) > int(in.tick) {
			if in.aux == 0 {
				fc.aux = append(fc.aux, auxInfo{})
				in.aux = int32(len(fc.aux) - 1)
			}
			fc.aux[in.aux].ticks = ticks
			in.tick = int32(len(ticks))
		}
		ticks = nil
		out = append(out, in)
	}
	place[len(code)] = int32(len(out))
	for i := range out {
		if out[i].op >= opJmp && out[i].op <= opJNotNull {
			out[i].a = place[out[i].a]
		}
	}
	fc.code = out
}

// setNames are the variables a body declares or sets.
func setNames(ss []cuda.Stmt) map[string]bool {
	out := map[string]bool{}
	var walk func(ss []cuda.Stmt)
	walk = func(ss []cuda.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *cuda.Decl:
				out[s.Name] = true
			case *cuda.Shared:
				out[s.Name] = true
			case *cuda.Assign:
				switch l := s.LHS.(type) {
				case *cuda.Ident:
					out[l.Name] = true
				case *cuda.Field:
					if x, ok := l.X.(*cuda.Ident); ok {
						out[x.Name] = true
					}
				}
			case *cuda.For:
				out[s.Var] = true
				walk(s.Body)
			case *cuda.If:
				walk(s.Then)
				walk(s.Else)
			}
		}
	}
	walk(ss)
	return out
}
