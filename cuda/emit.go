package cuda

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
)

// Options configure Emit.
type Options struct {
	// Defaults are input values compiled into the program (NAME → VALUE,
	// as `arraysem run --arg` takes them); the command line overrides them.
	Defaults map[string]string
}

// Emit translates a checked IMP program to CUDA. Its errors are of kind
// InputError, at the construct the emitter cannot translate: a statement
// IMP gains later. A name the emitter fails to give a C++
// variable, a bug of its own, is an error too (not an empty expression
// in the file).
func Emit(p *imp.Program, opts Options) (f *File, err error) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unbound)
			if !ok {
				panic(r)
			}
			f, err = nil, fmt.Errorf("cuda: internal error: the emitter gave IMP's %s (%s) no C++ variable in %s", u.s.name, typeName(u.s.t), p.File)
		}
	}()
	e := &emitter{p: p, names: map[string]int{}, out: &File{Source: filepath.Base(p.File), Format: p.Format},
		fuse: map[imp.Stmt]*imp.Reduce{}, fused: map[*imp.Reduce]*scanReduce{}}
	if err := e.checkScopes(); err != nil {
		return nil, err
	}
	for _, in := range p.Inputs {
		d := in.Name.Name
		for _, x := range in.Dims {
			d += "[" + fun.PrintSExp(x) + "]"
		}
		if in.Elem == semantics.FloatElem {
			d += ":float"
		}
		e.out.Inputs = append(e.out.Inputs, d)
	}
	for name, v := range opts.Defaults {
		e.out.Defaults = append(e.out.Defaults, name+"="+v)
	}
	sort.Strings(e.out.Defaults)
	e.main()
	return e.out, nil
}

type emitter struct {
	p *imp.Program
	// names holds every IMP name, reserved in every function: each
	// with its place in the order they were reserved (1, 2, …), so that a
	// function reserves those reserved before it was made (newFn).
	names   map[string]int
	out     *File
	kernels []*Func
	folds   int // parallel reduces and scans emitted so far, for their functions' names
	// fuse are the host's scans whose writing pass folds the reduce after
	// them, and fused those reduces, once the scan is emitted
	// (scanreduce.go).
	fuse  map[imp.Stmt]*imp.Reduce
	fused map[*imp.Reduce]*scanReduce
}

// fn is a C++ function being emitted, with the C++ names it has used.
type fn struct {
	// used holds the C++ names the function has taken (fresh); the IMP
	// names reserved when it was made (the first names of e.names) and
	// cppReserved are used too (isUsed), not copied into it.
	used map[string]bool
	// suffix is, for a base fresh has renamed, the last suffix it gave
	// it: base_1 … base_k are all used (the used names only grow), so
	// the next search starts after them.
	suffix map[string]int
	e      *emitter
	names  int
	bound  map[string]bool // IMP names already given a C++ variable
	device bool
	err    string // the error record (device) or "" (host)
	// A __device__ function (a part of a parallel reduce or scan) returns
	// ret when stuck, after clearing *ok, its thread's flag, so that the
	// kernel skips the rest of the thread's work but still meets the
	// block's barriers.
	ok  string
	ret Expr
	// coop is set in a kernel that runs a block per iteration (coop.go):
	// its reduces are the block's, its writes thread 0's.
	coop *coopKernel
}

// cppReserved are names an IMP variable must not take in C++: keywords,
// and what the prelude and CUDA define.
var cppReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`alignas alignof and and_eq asm auto bitand bitor bool break case catch char
	char16_t char32_t char8_t class compl concept const consteval constexpr constinit const_cast continue
	co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
	extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr
	operator or or_eq private protected public register reinterpret_cast requires return short signed
	sizeof static static_assert static_cast struct switch template this thread_local throw true try typedef
	typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq main malloc free
	printf errno threadIdx blockIdx blockDim gridDim dim3 int64_t uint64_t size_t INT64_MIN`) {
		cppReserved[w] = true
	}
}

func (e *emitter) newFn(device bool) *fn {
	return &fn{used: map[string]bool{}, e: e, names: len(e.names), bound: map[string]bool{}, device: device}
}

// reserve reserves the IMP name x in the functions made from now on.
func (e *emitter) reserve(x string) {
	if _, ok := e.names[x]; !ok {
		e.names[x] = len(e.names) + 1
	}
}

// isUsed reports whether the function has used the C++ name x: taken it,
// or had it reserved when it was made.
func (f *fn) isUsed(x string) bool {
	if f.used[x] || cppReserved[x] {
		return true
	}
	k, ok := f.e.names[x]
	return ok && k <= f.names
}

// fresh is a C++ name based on base that the function has not used.
func (f *fn) fresh(base string) string {
	name := base
	if f.isUsed(name) {
		if f.suffix == nil {
			f.suffix = map[string]int{}
		}
		i := f.suffix[base]
		for {
			i++
			name = base + "_" + strconv.Itoa(i)
			if !f.isUsed(name) {
				break
			}
		}
		f.suffix[base] = i
	}
	f.used[name] = true
	return name
}

// cname is the C++ name of a new binding of an IMP name in a function: the
// name itself the first time, when C++ allows it; otherwise a fresh one
// (fresh never returns an IMP name, as they are all reserved).
func (f *fn) cname(x string) string {
	ok := !cppReserved[x] && !strings.HasPrefix(x, "arraysem") && !strings.HasPrefix(x, "i64_") &&
		!strings.HasPrefix(x, "cuda") && !strings.HasPrefix(x, "_")
	var b strings.Builder
	for _, r := range x {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'):
			b.WriteRune(r)
		case r == '\'':
			b.WriteString("_prime")
			ok = false
		default:
			fmt.Fprintf(&b, "_u%04x", r)
			ok = false
		}
	}
	if ok && !f.bound[x] {
		f.bound[x] = true
		return x
	}
	return f.fresh(b.String() + "_")
}

// frame is a scope of IMP's environment that C++ must copy: the host
// program, a thread (a top-level kernel's iteration), or a loop iteration
// (a nested kernel's). Names a frame writes are its own variables, set
// from the enclosing frame's at its start, as E-IMP-KERNEL starts every
// iteration from the environment before the kernel.
type frame struct {
	parent *frame
	vars   map[slot]string // IMP variable (a name with a type) → C++ name
	// ty is IMP's scope at the statement being emitted (scope.go); a
	// frame that only passes parameters (a kernel's, a fold function's)
	// has none, as its children look names up.
	ty    scope
	owned []string // pointers of the blocks allocated in the frame, freed at its end
	// A for loop's body is a frame of its own (its index) that owns no
	// blocks: a block it allocates may outlive the iteration, so on the
	// host it is kept to the end (arraysem_keep) and in a thread it joins
	// the chain of its owner, freed when the owner ends.
	loop  bool
	chain string // the owner's chain of blocks allocated in its loops ("" while none)
}

// owner is the frame that owns the blocks fr allocates, and whether fr is
// inside a for loop of it.
func (fr *frame) owner() (*frame, bool) {
	inLoop := false
	for fr.loop && fr.parent != nil {
		inLoop = true
		fr = fr.parent
	}
	return fr, inLoop
}

// ctypeOf is the C++ type of an IMP type.
func ctypeOf(t imp.Type) string {
	switch t {
	case imp.Mem:
		return "arraysem_block"
	case imp.Float:
		return "double"
	}
	return "int64_t"
}

func zero(t string) Expr {
	switch t {
	case "arraysem_block":
		return nullBlock
	case "double":
		return floatZero
	}
	return num(0)
}

// The emitter never changes a node of the tree once made, so constants
// it writes often are each one node, shared: 0, 1 and 2 are most of the
// integers it writes (a few hundred a program).
var (
	smallInts = [...]Int{{V: 0}, {V: 1}, {V: 2}, {V: 3}, {V: 4}, {V: 5}, {V: 6}, {V: 7}}
	floatZero = &Float{V: 0}
	nullBlock = &InitList{Elems: []Expr{id("nullptr"), num(0)}}
)

func id(name string) *Ident             { return &Ident{Name: name} }
func call(f string, args ...Expr) *Call { return &Call{Fun: f, Args: args} }
func field(x string, f string) *Field   { return &Field{X: id(x), Name: f} }
func num(k int64) *Int {
	if k >= 0 && k < int64(len(smallInts)) {
		return &smallInts[k]
	}
	return &Int{V: k}
}
func bin(op string, l, r Expr) *Binary { return &Binary{Op: op, L: l, R: r} }
func str(s string) *Str                { return &Str{S: s} }
func do(x Expr) Stmt                   { return &ExprStmt{X: x} }
func set(l, r Expr) Stmt               { return &Assign{LHS: l, RHS: r} }

// site adds a message (a printf format of two long longs) and returns its
// index; pos and rule make it read as the interpreter's stuck states do.
// A statement the passes made has no position: its message names the
// program's file, never "-".
func (e *emitter) site(pos fun.Pos, rule, format string) int {
	if !pos.IsValid() {
		pos = fun.Pos{File: e.p.File}
	}
	var msg strings.Builder
	msg.Grow(len(pos.File) + len(rule) + len(format) + 28)
	writePos(&msg, pos)
	msg.WriteString(": ")
	writePct(&msg, rule)
	msg.WriteString(": ")
	msg.WriteString(format)
	e.out.Sites = append(e.out.Sites, msg.String())
	return len(e.out.Sites) - 1
}

// writePos writes pos.String() escaped for a site's format (pct), a
// file's position file:line:col without fmt.
func writePos(b *strings.Builder, pos fun.Pos) {
	if !pos.IsValid() {
		writePct(b, pos.String())
		return
	}
	if pos.File != "" {
		writePct(b, pos.File)
		b.WriteByte(':')
	}
	var buf [20]byte
	b.Write(strconv.AppendInt(buf[:0], int64(pos.Line), 10))
	b.WriteByte(':')
	b.Write(strconv.AppendInt(buf[:0], int64(pos.Col), 10))
}

// writePct writes s escaped for a site's format (pct).
func writePct(b *strings.Builder, s string) {
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			return
		}
		b.WriteString(s[:i+1])
		b.WriteByte('%')
		s = s[i+1:]
	}
}

// pct escapes text for a site's format.
func pct(s string) string { return strings.ReplaceAll(s, "%", "%%") }

// fail is a stuck state: on the host the program stops; a thread records
// it and returns.
func (f *fn) fail(site int, a, b Expr) []Stmt {
	if a == nil {
		a = num(0)
	}
	if b == nil {
		b = num(0)
	}
	if f.device {
		trap := []Stmt{do(call("arraysem_trap", id(f.err), num(int64(site)), a, b)), &Return{Value: f.ret}}
		if f.ok != "" {
			trap = append([]Stmt{set(&Index{X: id(f.ok), I: num(0)}, num(0))}, trap...)
		}
		return trap
	}
	return []Stmt{do(call("arraysem_fail", num(int64(site)), a, b))}
}

func cudaCall(what string, c *Call) Stmt { return do(call("arraysem_cuda", c, str(what))) }

// sexp translates a scalar expression: +, -, * and unary - wrap through
// the prelude's i64_ functions, / and % through total versions whose
// divisors checks has checked (and the checked operators through the
// same functions, whose overflow checks has checked); floats' operators and functions go
// through its f64_ ones (float.go).
func (e *emitter) sexp(fr *frame, se fun.SExp) Expr {
	switch se := se.(type) {
	case *fun.Const:
		return num(se.Value)
	case *fun.FloatConst:
		return floatLit(se.Value)
	case *fun.Call:
		return e.callExpr(fr, se)
	case fun.Var:
		c := fr.lookup(se.Name)
		return id(c)
	case *fun.UnOp:
		if stype(fr.ty, se.X) == imp.Float {
			return &Unary{Op: "-", X: e.sexp(fr, se.X)}
		}
		return call("i64_neg", e.sexp(fr, se.X))
	case *fun.BinOp:
		l, r := e.sexp(fr, se.L), e.sexp(fr, se.R)
		if f, ok := f64Ops[se.Op]; ok && stype(fr.ty, se.L) == imp.Float {
			return call(f, l, r)
		}
		switch se.Op.Unchecked() { // a checked operator's overflow is checked before (checks)
		case semantics.Add:
			return call("i64_add", l, r)
		case semantics.Sub:
			return call("i64_sub", l, r)
		case semantics.Mul:
			return call("i64_mul", l, r)
		case semantics.Div:
			return call("i64_div", l, r)
		case semantics.Mod:
			return call("i64_mod", l, r)
		}
		return bin(se.Op.String(), l, r)
	}
	return num(0)
}

// checks are the stuck states of an expression, in the interpreter's
// order of evaluation (left operand first, operands before the operator),
// with its messages: an int division or remainder by zero, a checked
// operator's overflow, and int(se) of a NaN or a float outside int64
// (float division by zero is no error).
func (e *emitter) checks(f *fn, fr *frame, se fun.SExp, rule string) []Stmt {
	switch se := se.(type) {
	case *fun.UnOp:
		return e.checks(f, fr, se.X, rule)
	case *fun.Call:
		out := e.checks(f, fr, se.Arg, rule)
		if se.Func == semantics.ToInt {
			out = append(out, e.intChecks(f, fr, se, rule)...)
		}
		return out
	case *fun.BinOp:
		out := append(e.checks(f, fr, se.L, rule), e.checks(f, fr, se.R, rule)...)
		w := se.Op.Unchecked()
		if (w == semantics.Div || w == semantics.Mod) && stype(fr.ty, se.L) == imp.Int {
			site := e.site(se.OpPos, rule, pct(fmt.Sprintf("%v in %s", semantics.ErrDivZero{Op: w}, fun.PrintSExp(se))))
			out = append(out, &If{Cond: bin("==", e.sexp(fr, se.R), num(0)), Then: f.fail(site, nil, nil)})
		}
		if se.Op.IsChecked() {
			// The interpreter's ErrOverflow, its operands printed by %lld.
			msg := pct(semantics.ErrOverflow{Op: w}.Error())
			msg = strings.Replace(msg, "0 "+w.String()+" 0", "%lld "+w.String()+" %lld", 1)
			site := e.site(se.OpPos, rule, msg)
			l, r := e.sexp(fr, se.L), e.sexp(fr, se.R)
			out = append(out, &If{Cond: call(overflows[w], l, r), Then: f.fail(site, l, r)})
		}
		return out
	}
	return nil
}

// overflows are the prelude's tests of the checked operators: whether
// the exact result of the wrapping operator is not an int64.
var overflows = map[semantics.Op]string{
	semantics.Add: "i64_add_overflows", semantics.Sub: "i64_sub_overflows",
	semantics.Mul: "i64_mul_overflows", semantics.Div: "i64_div_overflows",
}

// value evaluates an expression into a fresh temporary (an int64_t, or a
// double for a float) after its checks.
func (e *emitter) value(f *fn, fr *frame, se fun.SExp, rule, base string) ([]Stmt, string) {
	out := e.checks(f, fr, se, rule)
	t := f.fresh(base)
	return append(out, &Decl{Type: ctypeOf(stype(fr.ty, se)), Name: t, Init: e.sexp(fr, se)}), t
}

// block is the ⊥ check of a block variable (E-IMP-READ, E-IMP-WRITE and
// return are stuck on ⊥).
func (e *emitter) block(f *fn, fr *frame, x *fun.Ident, rule string) ([]Stmt, string) {
	c := fr.lookup(x.Name)
	site := e.site(x.NamePos, rule, pct("memory block "+x.Name+" is ⊥ (declared, never allocated or assigned)"))
	return []Stmt{&If{Cond: bin("==", field(c, "p"), id("nullptr")), Then: f.fail(site, nil, nil)}}, c
}

func (e *emitter) stmts(f *fn, fr *frame, ss []imp.Stmt) []Stmt {
	var out []Stmt
	for i, s := range ss {
		if !f.device {
			if r := scanReduceOf(ss, i, fr.ty); r != nil {
				e.fuse[s] = r
			}
		}
		out = append(out, &Comment{Text: strings.ReplaceAll(firstLine(s), "\n", " ")})
		out = append(out, e.stmt(f, fr, s)...)
	}
	return out
}

func firstLine(s imp.Stmt) string {
	switch s := s.(type) {
	case *imp.If:
		return "if " + s.Cond.Name + " then … else … fi (" + s.At.String() + ")"
	case *imp.Kernel:
		return "kernel " + s.X.Name + " <= " + fun.PrintSExp(s.Bound) + " do … done (" + s.At.String() + ")"
	case *imp.For:
		return "for " + s.X.Name + " <= " + fun.PrintSExp(s.Bound) + " do … done (" + s.At.String() + ")"
	case *imp.Reduce:
		return "reduce " + s.Target.Name + " <- " + fun.PrintSExp(s.Neutral) + " for " + s.X.Name + " <= " + fun.PrintSExp(s.Bound) + " do … done (" + s.At.String() + ")"
	case *imp.Scan:
		return "scan " + s.Block.Name + "[" + fun.PrintSExp(s.Addr) + "] <- " + fun.PrintSExp(s.Neutral) + " for " + s.X.Name + " <= " + fun.PrintSExp(s.Bound) + " do … done (" + s.At.String() + ")"
	}
	return stmtLine(s)
}

// stmtLine is imp.PrintStmt(s) for a statement without a body, written
// in one builder of about its size: PrintStmt's builder grown by
// doubling, then its fields split and joined again (whitespace made
// single spaces), were most of what the comments cost, and only an
// assertion's message can hold whitespace to collapse (TestStmtLine).
func stmtLine(s imp.Stmt) string {
	var b strings.Builder
	b.Grow(48)
	switch s := s.(type) {
	case *imp.Skip:
		return "skip"
	case *imp.Decl:
		b.WriteString("var ")
		b.WriteString(s.X.Name)
		b.WriteString(" : ")
		b.WriteString(s.Type.String())
	case *imp.Assign:
		b.WriteString(s.X.Name)
		b.WriteString(" <- ")
		fun.WriteSExp(&b, s.SE)
	case *imp.Alloc:
		b.WriteString(s.X.Name)
		b.WriteString(" <- alloc ")
		fun.WriteSExp(&b, s.Size)
	case *imp.Read:
		b.WriteString(s.X.Name)
		b.WriteString(" <- ")
		b.WriteString(s.Y.Name)
		b.WriteByte('[')
		fun.WriteSExp(&b, s.Index)
		b.WriteByte(']')
	case *imp.Write:
		b.WriteString(s.X.Name)
		b.WriteByte('[')
		fun.WriteSExp(&b, s.Index)
		b.WriteString("] <- ")
		fun.WriteSExp(&b, s.Value)
	default: // an assertion, and what IMP gains later
		return imp.PrintStmt(s)
	}
	line := b.String()
	if !singleSpaced(line) {
		return strings.Join(strings.Fields(line), " ")
	}
	return line
}

// singleSpaced reports whether strings.Fields and a join with single
// spaces leave s as it is: its only white space is single ASCII spaces
// between other characters.
func singleSpaced(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if s[i+1] == ' ' {
				return false
			}
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += n - 1
		case c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		}
	}
	return true
}

func (e *emitter) stmt(f *fn, fr *frame, s imp.Stmt) []Stmt {
	switch s := s.(type) {
	case *imp.Skip:
		return nil
	case *imp.Decl:
		fr.ty[s.X.Name] = s.Type
		c := fr.lookup(s.X.Name)
		switch s.Type {
		case imp.Mem:
			return []Stmt{set(field(c, "p"), id("nullptr")), set(field(c, "n"), num(0))}
		case imp.Float:
			return []Stmt{set(id(c), floatZero)}
		}
		return []Stmt{set(id(c), num(0))}
	case *imp.Assign:
		c := fr.lookup(s.X.Name)
		if y, ok := s.SE.(fun.Var); ok && fr.ty[y.Name] == imp.Mem {
			cy := fr.lookup(y.Name)
			return []Stmt{set(id(c), id(cy))}
		}
		return append(e.checks(f, fr, s.SE, imp.EImpAssignInt.Name), set(id(c), e.sexp(fr, s.SE)))
	case *imp.Alloc:
		return e.alloc(f, fr, s)
	case *imp.Read:
		rule := imp.EImpRead.Name
		out, cy := e.block(f, fr, s.Y, rule)
		more, off := e.value(f, fr, s.Index, rule, "offset")
		out = append(out, more...)
		out = append(out, e.bounds(f, s.At, rule, s.Y.Name, cy, off)...)
		cx := fr.lookup(s.X.Name)
		at := &Binary{Op: "+", L: field(cy, "p"), R: id(off)}
		// The word is read as x is declared (a float: its bits).
		t := fr.ty[s.X.Name]
		if f.device {
			return append(out, set(id(cx), fromWord(t, &Index{X: field(cy, "p"), I: id(off)})))
		}
		if t == imp.Float {
			w := f.fresh("word")
			return append(out, &Decl{Type: "int64_t", Name: w, Init: num(0)},
				cudaCall("cudaMemcpy", call("cudaMemcpy", &Unary{Op: "&", X: id(w)}, at, &Sizeof{Type: "int64_t"}, id("cudaMemcpyDeviceToHost"))),
				set(id(cx), fromWord(t, id(w))))
		}
		return append(out, cudaCall("cudaMemcpy", call("cudaMemcpy", &Unary{Op: "&", X: id(cx)}, at, &Sizeof{Type: "int64_t"}, id("cudaMemcpyDeviceToHost"))))
	case *imp.Write:
		rule := imp.EImpWrite.Name
		out, cx := e.block(f, fr, s.X, rule)
		more, off := e.value(f, fr, s.Index, rule, "offset")
		out = append(out, more...)
		more, v := e.wordValue(f, fr, s.Value, rule, "value")
		out = append(out, more...)
		out = append(out, e.bounds(f, s.At, rule, s.X.Name, cx, off)...)
		if f.coop != nil {
			return append(out, f.coop.store(&Index{X: field(cx, "p"), I: id(off)}, id(v))...)
		}
		if f.device {
			return append(out, set(&Index{X: field(cx, "p"), I: id(off)}, id(v)))
		}
		at := &Binary{Op: "+", L: field(cx, "p"), R: id(off)}
		return append(out, cudaCall("cudaMemcpy", call("cudaMemcpy", at, &Unary{Op: "&", X: id(v)}, &Sizeof{Type: "int64_t"}, id("cudaMemcpyHostToDevice"))))
	case *imp.If:
		// Each branch is a scope of its own (its declarations end at fi)
		// in the frame's variables.
		c := fr.lookup(s.Cond.Name)
		outer := fr.ty
		fr.ty = outer.enter(s.Then)
		then := e.stmts(f, fr, s.Then)
		fr.ty = outer.enter(s.Else)
		els := e.stmts(f, fr, s.Else)
		fr.ty = outer
		return []Stmt{&If{Cond: bin("!=", id(c), num(0)), Then: then, Else: els}}
	case *imp.Kernel:
		if f.device {
			return e.loop(f, fr, s)
		}
		return e.launch(f, fr, s)
	case *imp.For:
		return e.forLoop(f, fr, s)
	case *imp.Assert:
		return e.assert(f, fr, s)
	case *imp.Reduce:
		if !f.device && f.coop == nil && imp.NonAssociative(&s.Fold) {
			return e.oneThread(f, fr, s, &s.Fold) // seqfold.go
		}
		if sr := e.fused[s]; sr != nil {
			return e.scanReduced(f, fr, sr)
		}
		if f.coop != nil {
			return e.coopFold(f, fr, s)
		}
		if f.device {
			return e.seqFold(f, fr, s, &s.Fold)
		}
		if out := e.fission(f, fr, s); out != nil {
			return out
		}
		return e.parFold(f, fr, s, &s.Fold)
	case *imp.Scan:
		if f.device {
			return e.seqFold(f, fr, s, &s.Fold)
		}
		if imp.NonAssociative(&s.Fold) {
			return e.oneThread(f, fr, s, &s.Fold) // seqfold.go
		}
		return e.parFold(f, fr, s, &s.Fold)
	}
	panic(fmt.Sprintf("cuda: no translation of IMP statement %T (checkScopes refuses it)", s))
}

// bounds is the heap's check of an offset against its block.
func (e *emitter) bounds(f *fn, at fun.Pos, rule, name, block, off string) []Stmt {
	site := e.site(at, rule, pct(name)+": offset %lld is outside its block of size %lld")
	cond := bin("||", bin("<", id(off), num(0)), bin(">=", id(off), field(block, "n")))
	return []Stmt{&If{Cond: cond, Then: f.fail(site, id(off), field(block, "n"))}}
}

// alloc is E-IMP-ALLOC: a zeroed block. The host allocates device memory
// and sets it to zero; a thread allocates from the device heap and frees
// the block at the end of its frame, since nothing a kernel iteration
// binds outlives it.
func (e *emitter) alloc(f *fn, fr *frame, s *imp.Alloc) []Stmt {
	rule := imp.EImpAlloc.Name
	out, n := e.value(f, fr, s.Size, rule, "size")
	neg := e.site(s.At, rule, "allocation of negative size %lld")
	limit := e.site(s.At, rule, "allocation of %lld integers exceeds the interpreter's heap limit of %lld")
	c := fr.lookup(s.X.Name)
	owner, inLoop := fr.owner()
	if inLoop {
		return append(out, e.loopAlloc(f, owner, s, c, n, neg, limit)...)
	}
	owned := f.fresh("block")
	owner.owned = append(owner.owned, owned)
	if f.device {
		oom := e.site(s.At, rule, "the device heap has no room for %lld integers")
		out = append(out,
			&If{Cond: bin("<", id(n), num(0)), Then: f.fail(neg, id(n), nil)},
			&If{Cond: bin(">", id(n), id("arraysem_max_block")), Then: f.fail(limit, id(n), id("arraysem_max_block"))},
			set(id(owned), call("arraysem_device_alloc", id(n))),
			&If{Cond: bin("==", id(owned), id("nullptr")), Then: f.fail(oom, id(n), nil)})
	} else {
		bytes := call("arraysem_alloc_bytes", id(n))
		out = append(out,
			do(call("arraysem_reserve", id(n), num(int64(neg)), num(int64(limit)))),
			cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(owned)}}, bytes)),
			cudaCall("cudaMemset", call("cudaMemset", id(owned), num(0), bytes)))
	}
	return append(out, set(field(c, "p"), id(owned)), set(field(c, "n"), id(n)))
}

// newFrame declares a frame's variables: binds (a kernel's index, a fold
// part's index, or a combine's accumulator and element), with the C++
// names cs bound in the frame, and the names body writes, as copies of
// the enclosing frame's (or zero, ⊥ for blocks): nothing a thread assigns
// survives it.
func (e *emitter) newFrame(f *fn, parent *frame, binds []slot, cs []string, body []imp.Stmt) (*frame, []Stmt) {
	fr := parent.child(binds, cs)
	var out []Stmt
	for _, x := range written(body, fr.ty, binds...) {
		c := f.cname(x.name)
		init := zero(ctypeOf(x.t))
		if outer, ok := parent.find(x); ok {
			init = id(outer)
		}
		fr.vars[x] = c
		out = append(out, &Decl{Type: ctypeOf(x.t), Name: c, Init: init})
	}
	return fr, out
}

// body emits a frame's statements, with its allocations' pointers declared
// first and freed last.
func (e *emitter) body(f *fn, fr *frame, decls []Stmt, ss []imp.Stmt) []Stmt {
	code := e.stmts(f, fr, ss)
	out := decls
	for _, o := range fr.owned {
		out = append(out, &Decl{Type: "int64_t *", Name: o, Init: id("nullptr")})
	}
	if fr.chain != "" {
		out = append(out, &Decl{Type: "int64_t *", Name: fr.chain, Init: id("nullptr")})
	}
	out = append(out, code...)
	for _, o := range fr.owned {
		out = append(out, do(call("arraysem_device_free", id(o))))
	}
	if fr.chain != "" {
		out = append(out, do(call("arraysem_device_free_chain", id(fr.chain))))
	}
	return out
}

// bound evaluates a kernel's bound and checks it is not negative.
func (e *emitter) bound(f *fn, fr *frame, k *imp.Kernel) ([]Stmt, string) {
	rule := imp.EImpKernel.Name
	out, n := e.value(f, fr, k.Bound, rule, "bound")
	neg := e.site(k.At, rule, pct("kernel bound "+fun.PrintSExp(k.Bound))+" = %lld is negative")
	return append(out, &If{Cond: bin("<", id(n), num(0)), Then: f.fail(neg, id(n), nil)}), n
}

// loop is a kernel inside a thread: the thread runs its iterations.
func (e *emitter) loop(f *fn, fr *frame, k *imp.Kernel) []Stmt {
	out, n := e.bound(f, fr, k)
	v := f.cname(k.X.Name)
	if f.coop != nil {
		f.coop.columnsOf(k, n, v)
	}
	inner, decls := e.newFrame(f, fr, []slot{{k.X.Name, imp.Int}}, []string{v}, k.Body)
	return append(out, &For{Var: v, From: num(1), Bound: id(n), Body: e.body(f, inner, decls, k.Body)})
}

// launch is a top-level kernel: a __global__ function of one thread per
// iteration, launched with enough blocks, then checked; or, when its
// body folds in a way a block can share (coop.go) and the fold is long,
// a block per iteration.
func (e *emitter) launch(host *fn, fr *frame, k *imp.Kernel) []Stmt {
	out, n := e.bound(host, fr, k)
	name, args := e.kernelFunc(host, fr, k, n, nil)
	where := k.At.String() + ": kernel " + k.X.Name
	var run []Stmt = []Stmt{&Launch{Kernel: name, Grid: call("arraysem_grid", id(n)), Block: id("arraysem_threads_per_block"), Args: args}}
	if alt := e.coopLaunch(host, fr, k, n); alt != nil {
		run = alt(run)
	}
	out = append(out, &If{Cond: bin(">", id(n), num(0)), Then: append(run,
		do(call("arraysem_sync", id(host.err), str(where))),
	)})
	return out
}

// kernelFunc is a top-level kernel's __global__ function, of one thread
// per iteration, or with coop (coop.go) of one block per iteration, and
// the arguments its launch passes (n is the bound's variable; a block per
// iteration also takes the elements a thread folds a round, items).
func (e *emitter) kernelFunc(host *fn, fr *frame, k *imp.Kernel, n string, coop *coopKernel) (string, []Expr) {
	g := e.newFn(true)
	g.err = g.fresh("err")
	bnd := g.fresh("bound")
	name := fmt.Sprintf("arraysem_kernel_%d", len(e.kernels)+1)
	if coop != nil {
		name += "_blocks"
	}
	kf := &Func{Global: true, Result: "void", Name: name,
		Params: []Param{{Type: "arraysem_error *", Name: g.err}, {Type: "int64_t", Name: bnd}}}
	args := []Expr{id(host.err), id(n)}
	var prologue []Stmt
	if coop != nil {
		prologue = coop.start(e, g, kf)
		args = append(args, id(coop.hostItems))
	}
	// The thread's parameters: the enclosing variables its body
	// mentions, passed by value, so the thread's writes stay its own.
	kindex := slot{k.X.Name, imp.Int}
	bodyScope := fr.ty.with(kindex)
	params := &frame{vars: map[slot]string{}}
	for _, x := range referenced(k.Body, bodyScope, kindex) {
		if outer, ok := fr.find(x); ok {
			c := g.cname(x.name)
			params.vars[x] = c
			kf.Params = append(kf.Params, Param{Type: ctypeOf(x.t), Name: c})
			args = append(args, id(outer))
		}
	}
	v := g.cname(k.X.Name)
	// Thread i of the launch runs iteration i + 1: IMP's kernels count
	// from 1.
	index := call("i64_add", call("i64_add", call("i64_mul", &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}},
		&Cast{Type: "int64_t", X: &Field{X: id("blockDim"), Name: "x"}}), &Cast{Type: "int64_t", X: &Field{X: id("threadIdx"), Name: "x"}}), num(1))
	if coop != nil {
		// Block b runs iteration b + 1, all its threads.
		index = call("i64_add", &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}}, num(1))
	}
	inner := &frame{parent: params, vars: map[slot]string{kindex: v}, ty: bodyScope}
	var decls []Stmt
	for _, x := range written(k.Body, bodyScope, kindex) {
		if _, ok := params.vars[x]; ok {
			continue
		}
		c := g.cname(x.name)
		inner.vars[x] = c
		decls = append(decls, &Decl{Type: ctypeOf(x.t), Name: c, Init: zero(ctypeOf(x.t))})
	}
	kf.Body = append(prologue,
		&Decl{Type: "int64_t", Name: v, Init: index},
		&If{Cond: bin(">", id(v), id(bnd)), Then: []Stmt{&Return{}}})
	kf.Body = append(kf.Body, e.body(g, inner, decls, k.Body)...)
	e.kernels = append(e.kernels, kf)
	return name, args
}

// main is the host program: inputs, the statements outside kernels,
// results, and the frees.
func (e *emitter) main() {
	h := e.newFn(false)
	argc, argv := h.fresh("argc"), h.fresh("argv")
	h.err = h.fresh("err")
	fr := &frame{vars: map[slot]string{}, ty: scope{}}
	var decls, body []Stmt
	declare := func(x slot) string {
		if c, ok := fr.vars[x]; ok {
			return c
		}
		c := h.cname(x.name)
		fr.vars[x] = c
		decls = append(decls, &Decl{Type: ctypeOf(x.t), Name: c, Init: zero(ctypeOf(x.t))})
		return c
	}
	var frees []Stmt
	for _, in := range e.p.Inputs {
		if in.Dims == nil {
			fr.ty[in.Name.Name] = imp.TypeOf(in.Elem)
			c := declare(fr.slot(in.Name.Name))
			get := "arraysem_input_int"
			if in.Elem == semantics.FloatElem {
				get = "arraysem_input_float"
			}
			body = append(body, set(id(c), call(get, str(in.Name.Name))))
			continue
		}
		fr.ty[in.Block.Name] = imp.Mem
		c := declare(fr.slot(in.Block.Name))
		o := h.fresh("input")
		decls = append(decls, &Decl{Type: "int64_t *", Name: o, Init: id("nullptr")})
		body = append(body,
			set(field(c, "n"), call("arraysem_input_len", str(in.Name.Name))),
			cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(o)}}, call("arraysem_alloc_bytes", field(c, "n")))),
			cudaCall("cudaMemcpy", call("cudaMemcpy", id(o), call("arraysem_input_data", str(in.Name.Name)), call("arraysem_copy_bytes", field(c, "n")), id("cudaMemcpyHostToDevice"))),
			set(field(c, "p"), id(o)))
		frees = append(frees, cudaCall("cudaFree", call("cudaFree", id(o))))
	}
	hostWrites := written(e.p.Body, fr.ty)
	for _, x := range hostWrites {
		declare(x)
	}
	body = append(body, e.heap(fr, hostWrites)...)
	body = append(body, e.stmts(h, fr, e.p.Body)...)
	body = append(body, &Comment{Text: "return: every result is checked before any is printed"})
	// A program with a result format keeps its results and prints them
	// as its source does; else each prints as arraysem run prints it.
	verb := "arraysem_print_"
	if e.p.Format != nil {
		verb = "arraysem_keep_"
	}
	var prints []Stmt
	for _, r := range e.p.Return {
		c := fr.lookup(r.Name.Name)
		if r.Dims == nil {
			print := verb + "int"
			if fr.ty[r.Name.Name] == imp.Float {
				print = verb + "float"
			}
			prints = append(prints, do(call(print, id(c))))
			continue
		}
		const rule = "return"
		out, _ := e.block(h, fr, r.Name, rule)
		dims := []Expr{}
		for _, d := range r.Dims {
			more, t := e.value(h, fr, d, rule, "dim")
			out = append(out, more...)
			dims = append(dims, id(t))
		}
		neg := e.site(r.Name.NamePos, rule, "size %lld is negative")
		big := e.site(r.Name.NamePos, rule, "an array of more than %lld elements exceeds the interpreter's limit")
		count := h.fresh("count")
		out = append(out, &Decl{Type: "int64_t", Name: count, Init: call("arraysem_count", append([]Expr{num(int64(neg)), num(int64(big)), num(int64(len(dims)))}, dims...)...)})
		small := e.site(r.Name.NamePos, rule, pct(fmt.Sprintf("block %s", r.Name.Name))+" holds %lld integers, fewer than the %lld of its shape")
		out = append(out, &If{Cond: bin("<", field(c, "n"), id(count)), Then: h.fail(small, field(c, "n"), id(count))})
		buf := h.fresh("result")
		out = append(out,
			&Decl{Type: "int64_t *", Name: buf, Init: call("arraysem_host_buffer", id(count))},
			cudaCall("cudaMemcpy", call("cudaMemcpy", id(buf), field(c, "p"), call("arraysem_copy_bytes", id(count)), id("cudaMemcpyDeviceToHost"))))
		body = append(body, out...)
		print := verb + "array"
		if r.Elem == semantics.FloatElem {
			print = verb + "float_array"
		}
		prints = append(prints, do(call(print, append([]Expr{id(buf), num(int64(len(dims)))}, dims...)...)))
	}
	if e.p.Format != nil {
		prints = append(prints, do(call("arraysem_print_source", id("arraysem_format"), id("arraysem_graphic"))))
	}
	body = append(body, prints...)
	for _, o := range fr.owned {
		decls = append(decls, &Decl{Type: "int64_t *", Name: o, Init: id("nullptr")})
		frees = append(frees, cudaCall("cudaFree", call("cudaFree", id(o))))
	}
	start := []Stmt{
		do(call("arraysem_start", id(argc), id(argv), id("arraysem_inputs"), id("arraysem_defaults"), id("arraysem_sites"))),
		&Decl{Type: "arraysem_error *", Name: h.err, Init: id("nullptr")},
		cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(h.err)}}, &Sizeof{Type: "arraysem_error"})),
		cudaCall("cudaMemset", call("cudaMemset", id(h.err), num(0), &Sizeof{Type: "arraysem_error"})),
	}
	all := append(start, decls...)
	all = append(all, body...)
	all = append(all, frees...)
	all = append(all, cudaCall("cudaFree", call("cudaFree", id(h.err))), do(call("arraysem_finish")), &Return{Value: num(0)})
	m := &Func{Result: "int", Name: "main", Params: []Param{{Type: "int", Name: argc}, {Type: "char **", Name: argv}}, Body: all}
	e.out.Funcs = append(append(e.out.Funcs, e.kernels...), m)
}

// heap raises the device heap before the first launch when a kernel
// allocates inside its threads. In-kernel malloc draws on a heap of 8 MiB
// by default, which CUDA lets a program raise only before it launches a
// kernel that allocates, so the whole program's need is computed here,
// after the inputs are bound: the most that the threads of one launch can
// hold at once (launches run one after another, and a thread frees its
// blocks before it ends), each thread holding at most one block per alloc
// statement of its body. A kernel whose bound or sizes the emitter cannot
// evaluate here (they depend on anything but int inputs nothing assigns,
// or on the thread's own names) counts as arraysem_heap_default, the
// interpreter's whole heap. hostWrites are the host's variables the
// program's body writes (written).
func (e *emitter) heap(fr *frame, hostWrites []slot) []Stmt {
	fixed := map[string]bool{}
	for _, in := range e.p.Inputs {
		if in.Dims == nil {
			fixed[in.Name.Name] = true
		}
	}
	for _, x := range hostWrites {
		delete(fixed, x.name)
	}
	for _, x := range hostForVars(e.p.Body, nil) {
		delete(fixed, x)
	}
	var need Expr = num(0)
	var known, unknown []string
	for _, k := range parsIn(e.p.Body, nil) {
		loopy := false
		var sizes []fun.SExp
		for _, b := range k.bodies {
			sizes = allocSizes(b, sizes, false, &loopy)
		}
		if len(sizes) == 0 {
			continue
		}
		bound := map[string]bool{}
		for _, x := range k.binds {
			bound[x] = true
		}
		for _, b := range k.bodies {
			boundAnywhere(b, bound)
		}
		ok := func(se fun.SExp) bool {
			for _, x := range fun.FreeVars(se, nil) {
				if !fixed[x.Name] || bound[x.Name] {
					return false
				}
			}
			return true
		}
		// A block allocated in a for loop of a thread lives until the
		// thread's frame ends: how many there are, only the thread knows.
		all := ok(k.bound) && !loopy
		for _, se := range sizes {
			all = all && ok(se)
		}
		where := k.name + " (" + k.at.String() + ")"
		if all {
			// Only now are the sizes known to be the host's names.
			var per Expr = num(0)
			for _, se := range sizes {
				per = call("arraysem_heap_thread", per, e.sexp(fr, se))
			}
			need = call("arraysem_heap_kernel", need, e.sexp(fr, k.bound), per)
			known = append(known, where)
		} else {
			need = call("arraysem_heap_kernel", need, num(1), id("arraysem_heap_default"))
			unknown = append(unknown, where)
		}
	}
	if len(known)+len(unknown) == 0 {
		return nil
	}
	var out []Stmt
	if len(known) > 0 {
		out = append(out, &Comment{Text: "the device heap: the blocks the threads of kernel " + strings.Join(known, ", ") + " allocate, from their bound and sizes"})
	}
	if len(unknown) > 0 {
		out = append(out, &Comment{Text: "the device heap: kernel " + strings.Join(unknown, ", ") + " allocates blocks whose sizes are known only in its threads: arraysem_heap_default"})
	}
	return append(out, do(call("arraysem_heap_limit", need)))
}
