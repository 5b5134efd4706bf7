package cuda

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
)

// IMP's extensions (issue 14): for, assert, reduce and scan.
//
// for is a C++ for loop in the frame of the statement (I-FOR: what the
// body assigns persists), wherever it stands. assert is a stuck state of
// its own site (I-ASSERT, with the message). A reduce or a scan inside a
// thread (a kernel's body, or a part of a parallel fold) is a sequential
// loop of the thread, the left fold of I-REDUCE and I-SCAN. A reduce or a
// scan on the host is parallel (parfold.go): its element part and its
// combine part become __device__ functions, and kernels fold the elements
// keeping their order, so that only the associativity of the combine is
// assumed (as the interpreter's documentation allows), not its
// commutativity.

// ruleOf is the rule of a reduce or a scan, and its keyword.
func ruleOf(s imp.Stmt) (string, string) {
	if _, ok := s.(*imp.Scan); ok {
		return imp.IScan.Name, "scan"
	}
	return imp.IReduce.Name, "reduce"
}

// forLoop is I-FOR: the bound, checked, then the iterations in a frame
// that binds the index and writes through to the enclosing one.
func (e *emitter) forLoop(f *fn, fr *frame, s *imp.For) []Stmt {
	rule := imp.IFor.Name
	out, n := e.value(f, fr, s.Bound, rule, "bound")
	neg := e.site(s.At, rule, pct(fmt.Sprintf("for bound %s", fun.PrintSExp(s.Bound)))+" = %lld is negative")
	out = append(out, &If{Cond: bin("<", id(n), num(0)), Then: f.fail(neg, id(n), nil)})
	v := f.cname(s.X.Name)
	inner := fr.child([]slot{{s.X.Name, imp.Int}}, []string{v})
	inner.loop = true
	return append(out, &For{Var: v, From: num(1), Bound: id(n), Body: e.stmts(f, inner, s.Body)})
}

// assert is I-ASSERT: stuck with the message when the value is 0, as the
// interpreter words it.
func (e *emitter) assert(f *fn, fr *frame, s *imp.Assert) []Stmt {
	rule := imp.IAssert.Name
	out, k := e.value(f, fr, s.Cond, rule, "assertion")
	msg := fmt.Sprintf("assertion %s is 0", fun.PrintSExp(s.Cond))
	if s.Msg != "" {
		msg = s.Msg + " (" + msg + ")"
	}
	site := e.site(s.At, rule, pct(msg))
	return append(out, &If{Cond: bin("==", id(k), num(0)), Then: f.fail(site, nil, nil)})
}

// loopAlloc is E-IMP-ALLOC inside a for loop, whose blocks may outlive
// the iteration: on the host the block is kept until the program ends
// (arraysem_keep); in a thread it joins the chain of the frame that owns
// it, freed when that frame ends.
func (e *emitter) loopAlloc(f *fn, owner *frame, s *imp.Alloc, c, n string, neg, limit int) []Stmt {
	block := f.fresh("block")
	if f.device {
		if owner.chain == "" {
			owner.chain = f.fresh("chain")
		}
		oom := e.site(s.At, imp.EImpAlloc.Name, "the device heap has no room for %lld integers")
		return []Stmt{
			&If{Cond: bin("<", id(n), num(0)), Then: f.fail(neg, id(n), nil)},
			&If{Cond: bin(">", id(n), id("arraysem_max_block")), Then: f.fail(limit, id(n), id("arraysem_max_block"))},
			&Decl{Type: "int64_t *", Name: block, Init: call("arraysem_device_alloc_chain", id(n), id(owner.chain))},
			&If{Cond: bin("==", id(block), id("nullptr")), Then: f.fail(oom, id(n), nil)},
			set(id(owner.chain), id(block)),
			set(field(c, "p"), id(block)), set(field(c, "n"), id(n)),
		}
	}
	bytes := call("arraysem_alloc_bytes", id(n))
	return []Stmt{
		&Decl{Type: "int64_t *", Name: block, Init: id("nullptr")},
		do(call("arraysem_reserve", id(n), num(int64(neg)), num(int64(limit)))),
		cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(block)}}, bytes)),
		cudaCall("cudaMemset", call("cudaMemset", id(block), num(0), bytes)),
		do(call("arraysem_keep", id(block))),
		set(field(c, "p"), id(block)), set(field(c, "n"), id(n)),
	}
}

// foldStart evaluates a fold's neutral element and bound, in the
// interpreter's order, and checks the bound.
func (e *emitter) foldStart(f *fn, fr *frame, s imp.Stmt, fd *imp.Fold) ([]Stmt, string, string) {
	rule, kw := ruleOf(s)
	out, ne := e.value(f, fr, fd.Neutral, rule, "neutral")
	more, n := e.value(f, fr, fd.Bound, rule, "bound")
	out = append(out, more...)
	neg := e.site(s.Pos(), rule, pct(fmt.Sprintf("%s bound %s", kw, fun.PrintSExp(fd.Bound)))+" = %lld is negative")
	return append(out, &If{Cond: bin("<", id(n), num(0)), Then: f.fail(neg, id(n), nil)}), ne, n
}

// seqFold is a reduce or a scan in a thread: the left fold, element i
// then its combine, for i = 1 … n (I-REDUCE, I-SCAN).
func (e *emitter) seqFold(f *fn, fr *frame, s imp.Stmt, fd *imp.Fold) []Stmt {
	out, ne, n := e.foldStart(f, fr, s, fd)
	t := accType(fr.ty, s)
	acc := f.fresh("acc")
	out = append(out, &Decl{Type: ctypeOf(t), Name: acc, Init: id(ne)})
	v := f.cname(fd.X.Name)
	el, decls := e.newFrame(f, fr, []slot{{fd.X.Name, imp.Int}}, []string{v}, fd.Body)
	body := e.body(f, el, decls, fd.Body)
	y := f.fresh("y")
	yc := el.lookup(fd.Yield.Name)
	body = append(body, &Decl{Type: ctypeOf(t), Name: y, Init: id(yc)})
	a, b := f.cname(fd.A.Name), f.cname(fd.B.Name)
	comb, decls := e.newFrame(f, fr, []slot{{fd.A.Name, t}, {fd.B.Name, t}}, []string{a, b}, fd.Combine)
	decls = append([]Stmt{&Decl{Type: ctypeOf(t), Name: a, Init: id(acc)}, &Decl{Type: ctypeOf(t), Name: b, Init: id(y)}}, decls...)
	body = append(body, e.body(f, comb, decls, fd.Combine)...)
	c := comb.lookup(fd.Result.Name)
	body = append(body, set(id(acc), id(c)))
	if sc, ok := s.(*imp.Scan); ok {
		at := fr.child([]slot{{fd.X.Name, imp.Int}}, []string{v})
		at.loop = true
		body = append(body, e.scanWrite(f, at, sc, word(t, id(acc)))...)
	}
	out = append(out, &For{Var: v, From: num(1), Bound: id(n), Body: body})
	if r, ok := s.(*imp.Reduce); ok {
		x := fr.lookup(r.Target.Name)
		out = append(out, set(id(x), id(acc)))
	}
	return out
}

// scanWrite writes a scan's accumulator, as its heap word w, at its
// address (fr binds the index), with I-SCAN's checks: the block is not ⊥,
// the offset is inside.
func (e *emitter) scanWrite(f *fn, fr *frame, sc *imp.Scan, w Expr) []Stmt {
	rule := imp.IScan.Name
	out, cm := e.block(f, fr, sc.Block, rule)
	more, off := e.value(f, fr, sc.Addr, rule, "offset")
	out = append(out, more...)
	out = append(out, e.bounds(f, sc.At, rule, sc.Block.Name, cm, off)...)
	return append(out, set(&Index{X: field(cm, "p"), I: id(off)}, w))
}

// foldFn is a kernel or device function of a parallel fold being built:
// the captured names are its parameters.
type foldFn struct {
	g    *fn
	f    *Func
	vars *frame // captured IMP variables → the parameters
}

// newFoldFn starts a __global__ or __device__ function of a fold with the
// error record and, for a device function, its thread's flag.
func (e *emitter) newFoldFn(name string, global bool) *foldFn {
	g := e.newFn(true)
	g.err = g.fresh("err")
	k := &foldFn{g: g, f: &Func{Global: global, Device: !global, Result: "void", Name: name,
		Params: []Param{{Type: "arraysem_error *", Name: g.err}}}, vars: &frame{vars: map[slot]string{}}}
	if !global {
		g.ok = g.fresh("ok")
		g.ret = num(0)
		k.f.Result = "int64_t"
		k.f.Params = append(k.f.Params, Param{Type: "int64_t *", Name: g.ok})
	}
	return k
}

// param adds an int64_t parameter of the fold's own (a count, a pointer).
func (k *foldFn) param(typ, base string) string {
	c := k.g.fresh(base)
	k.f.Params = append(k.f.Params, Param{Type: typ, Name: c})
	return c
}

// capture makes the captured variables parameters, passed by value
// (writes to them stay the thread's own), skipping the ones skip binds.
func (e *emitter) capture(k *foldFn, captured []slot, skip map[slot]bool) []slot {
	var used []slot
	for _, x := range captured {
		if skip[x] {
			continue
		}
		c := k.g.cname(x.name)
		k.vars.vars[x] = c
		k.f.Params = append(k.f.Params, Param{Type: ctypeOf(x.t), Name: c})
		used = append(used, x)
	}
	return used
}

// args are the captured variables as a function's frame passes them.
func args(fr *frame, vars []slot) []Expr {
	out := make([]Expr, len(vars))
	for i, x := range vars {
		out[i] = id(fr.must(x))
	}
	return out
}

// partFn is a fold's element part (binds: the index) or combine part
// (binds: the accumulator and the element, of type t) as a __device__
// function returning its yield; the captured names it may use come after
// binds. The fold's kernels keep accumulators and yields as heap words (a
// float's bits), so a float part takes and returns words.
func (e *emitter) partFn(name string, ty scope, captured []slot, binds []slot, accs bool, t imp.Type, body []imp.Stmt, yield *fun.Ident) (*Func, []slot) {
	k := e.newFoldFn(name, false)
	skip := map[slot]bool{}
	var cs []string
	var unpack []Stmt
	for _, x := range binds {
		c := k.g.cname(x.name)
		cs = append(cs, c)
		skip[x] = true
		if accs && t == imp.Float {
			w := k.g.fresh(c + "_word")
			k.f.Params = append(k.f.Params, Param{Type: "int64_t", Name: w})
			unpack = append(unpack, &Decl{Type: "double", Name: c, Init: fromWord(t, id(w))})
			continue
		}
		k.f.Params = append(k.f.Params, Param{Type: "int64_t", Name: c})
	}
	used := e.capture(k, captured, skip)
	for i, x := range binds {
		k.vars.vars[x] = cs[i]
	}
	inner := &frame{parent: k.vars, vars: map[slot]string{}, ty: ty.with(binds...)}
	var seen []slot
	for x := range k.vars.vars {
		seen = append(seen, x)
	}
	var decls []Stmt
	for _, x := range written(body, inner.ty, seen...) {
		c := k.g.cname(x.name)
		inner.vars[x] = c
		decls = append(decls, &Decl{Type: ctypeOf(x.t), Name: c, Init: zero(ctypeOf(x.t))})
	}
	k.f.Body = append(unpack, e.body(k.g, inner, decls, body)...)
	y := inner.lookup(yield.Name)
	k.f.Body = append(k.f.Body, &Return{Value: word(t, id(y))})
	return k.f, used
}

// par is a statement the host launches: a kernel, or a reduce or a scan
// (whose threads run its element and combine parts).
type par struct {
	at     fun.Pos
	name   string // for the heap's comment
	bound  fun.SExp
	binds  []string // the names its threads bind
	bodies [][]imp.Stmt
}

// parsIn are the launches of a body at its own level (inside ifs and for
// loops, not inside kernels).
func parsIn(ss []imp.Stmt, acc []par) []par {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Kernel:
			acc = append(acc, par{s.At, s.X.Name, s.Bound, []string{s.X.Name}, [][]imp.Stmt{s.Body}})
		case *imp.If:
			acc = parsIn(s.Else, parsIn(s.Then, acc))
		case *imp.For:
			acc = parsIn(s.Body, acc)
		case *imp.Reduce:
			acc = append(acc, foldPar(s, &s.Fold))
		case *imp.Scan:
			acc = append(acc, foldPar(s, &s.Fold))
		}
	}
	return acc
}

func foldPar(s imp.Stmt, f *imp.Fold) par {
	_, kw := ruleOf(s)
	return par{s.Pos(), f.X.Name + " of a " + kw, f.Bound, []string{f.X.Name, f.A.Name, f.B.Name}, [][]imp.Stmt{f.Body, f.Combine}}
}

// hostForVars are the indices of the host's for loops: a kernel's bound
// that mentions one is not the input of that name.
func hostForVars(ss []imp.Stmt, acc []string) []string {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.If:
			acc = hostForVars(s.Else, hostForVars(s.Then, acc))
		case *imp.For:
			acc = hostForVars(s.Body, append(acc, s.X.Name))
		}
	}
	return acc
}

// allocSizes are the sizes of the alloc statements of a thread's body, at
// any depth; loopy is set when one is inside a for loop.
func allocSizes(ss []imp.Stmt, acc []fun.SExp, inFor bool, loopy *bool) []fun.SExp {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Alloc:
			acc = append(acc, s.Size)
			*loopy = *loopy || inFor
		case *imp.If:
			acc = allocSizes(s.Else, allocSizes(s.Then, acc, inFor, loopy), inFor, loopy)
		case *imp.Kernel:
			acc = allocSizes(s.Body, acc, inFor, loopy)
		case *imp.For:
			acc = allocSizes(s.Body, acc, true, loopy)
		case *imp.Reduce:
			acc = allocSizes(s.Combine, allocSizes(s.Body, acc, inFor, loopy), inFor, loopy)
		case *imp.Scan:
			acc = allocSizes(s.Combine, allocSizes(s.Body, acc, inFor, loopy), inFor, loopy)
		}
	}
	return acc
}

// boundAnywhere adds every name a thread's body binds at any depth (what
// written finds at each level, and the names nested loops and folds
// bind): a size that mentions one may differ in a thread from its value
// on the host.
func boundAnywhere(ss []imp.Stmt, acc map[string]bool) {
	for _, s := range ss {
		switch s := s.(type) {
		// What written finds at this level (the levels below add theirs).
		case *imp.Decl:
			acc[s.X.Name] = true
		case *imp.Assign:
			acc[s.X.Name] = true
		case *imp.Alloc:
			acc[s.X.Name] = true
		case *imp.Read:
			acc[s.X.Name] = true
		case *imp.Reduce:
			acc[s.Target.Name] = true
		case *imp.If:
			boundAnywhere(s.Then, acc)
			boundAnywhere(s.Else, acc)
		case *imp.For:
			acc[s.X.Name] = true
			boundAnywhere(s.Body, acc)
		}
	}
	for _, k := range parsIn(ss, nil) {
		for _, x := range k.binds {
			acc[x] = true
		}
		for _, b := range k.bodies {
			boundAnywhere(b, acc)
		}
	}
}
