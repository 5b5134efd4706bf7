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
// scan on the host is parallel (parFold): its element part and its
// combine part become __device__ functions, and kernels fold the elements
// in three levels, each keeping the elements' order, so that only the
// associativity of the combine is assumed (as the interpreter's
// documentation allows), not its commutativity:
//
//  1. each thread folds a contiguous chunk of elements in order (the
//     first element is the start, no neutral element in between);
//  2. a block combines its threads' partials in a tree in shared memory:
//     at level l, thread t (a multiple of 2^l) combines its partial with
//     that of thread t + 2^(l-1), left with right, the levels separated
//     by __syncthreads; threads without elements take no part, so the
//     neutral element is never combined in the middle;
//  3. one block combines the blocks' partials the same way, and the
//     neutral element is combined once, on the left: ne ⊕ (y1 ⊕ … ⊕ yn),
//     which associativity makes the left fold's ((ne ⊕ y1) ⊕ …) ⊕ yn.
//
// A scan keeps its elements' yields in a scratch array; level 3 turns the
// blocks' partials into the blocks' prefixes (ne ⊕ the partials before,
// by a Hillis–Steele scan in shared memory), and a last kernel gives each
// thread its prefix (its block's, ⊕ the threads' totals before it, by the
// same scan) and has it fold its chunk again from the scratch array,
// writing each prefix at its address. The elements run once each, so
// element parts that write memory behave as the interpreter's do.

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

// foldKernel is a kernel of a parallel fold: the shared arrays of the
// block's partials and its threads' flags, and calls of the parts.
type foldKernel struct {
	*foldFn
	e           *emitter
	part, ok, t string
	comb        string
	combArgs    []slot
	first, last string
}

// newFoldKernel starts a kernel: its shared arrays, t (the thread's index
// in its block), its flag set.
func (e *emitter) newFoldKernel(name string, comb string, combArgs []slot) *foldKernel {
	k := &foldKernel{foldFn: e.newFoldFn(name, true), e: e, comb: comb, combArgs: combArgs}
	k.part, k.ok, k.t = k.g.fresh("partial"), k.g.fresh("flag"), k.g.fresh("t")
	k.f.Body = []Stmt{
		&Shared{Name: k.part, Size: 1024},
		&Shared{Name: k.ok, Size: 1024},
		&Decl{Type: "int64_t", Name: k.t, Init: &Cast{Type: "int64_t", X: &Field{X: id("threadIdx"), Name: "x"}}},
		set(&Index{X: id(k.ok), I: id(k.t)}, num(1)),
	}
	return k
}

func (k *foldKernel) add(ss ...Stmt) { k.f.Body = append(k.f.Body, ss...) }

// flag is the thread's flag, not 0 while it is not stuck.
func (k *foldKernel) flag() Expr { return &Index{X: id(k.ok), I: id(k.t)} }

// call is a call of a part: the record, the thread's flag, the bound
// values, the captured names.
func (k *foldKernel) call(name string, bound []Expr, captured []slot) Expr {
	a := append([]Expr{id(k.g.err), bin("+", id(k.ok), id(k.t))}, bound...)
	return call(name, append(a, args(k.vars, captured)...)...)
}

// combine is a ⊕ b.
func (k *foldKernel) combine(a, b Expr) Expr {
	return k.call(k.comb, []Expr{a, b}, k.combArgs)
}

// blockStart is blockIdx.x * blockDim.x.
func blockStart() Expr {
	return call("i64_mul", &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}}, &Cast{Type: "int64_t", X: &Field{X: id("blockDim"), Name: "x"}})
}

// chunk folds the thread's chunk of elements first … last (of count,
// chunk elements a thread; elem gives element i) into acc, in order, the
// first element being the start, and stores acc as the thread's partial.
func (k *foldKernel) chunk(count, chunk Expr, elem func(i string) ([]Stmt, Expr)) string {
	g := k.g
	gt, first, last, acc, i, y := g.fresh("g"), g.fresh("first"), g.fresh("last"), g.fresh("acc"), g.fresh("i"), g.fresh("y")
	k.first, k.last = first, last
	pre, ye := elem(i)
	k.add(
		&Decl{Type: "int64_t", Name: gt, Init: call("i64_add", blockStart(), id(k.t))},
		&Decl{Type: "int64_t", Name: first, Init: call("i64_add", call("i64_mul", id(gt), chunk), num(1))},
		&Decl{Type: "int64_t", Name: last, Init: call("i64_add", call("i64_mul", id(gt), chunk), chunk)},
		&If{Cond: bin(">", id(last), count), Then: []Stmt{set(id(last), count)}},
		&Decl{Type: "int64_t", Name: acc, Init: num(0)},
		&For{Var: i, From: id(first), Bound: id(last), Body: []Stmt{
			&If{Cond: bin("!=", k.flag(), num(0)), Then: append(pre,
				&Decl{Type: "int64_t", Name: y, Init: ye},
				&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
					&If{Cond: bin("==", id(i), id(first)), Then: []Stmt{set(id(acc), id(y))},
						Else: []Stmt{set(id(acc), k.combine(id(acc), id(y)))}},
				}})},
		}},
		set(&Index{X: id(k.part), I: id(k.t)}, id(acc)),
		do(call("__syncthreads")),
	)
	return acc
}

// active is the number of the block's threads that have elements (a
// prefix of the block): users, the threads with elements in the launch,
// less the threads of the blocks before, at most blockDim.x.
func (k *foldKernel) active(users Expr) string {
	a := k.g.fresh("active")
	dim := &Cast{Type: "int64_t", X: &Field{X: id("blockDim"), Name: "x"}}
	k.add(&Decl{Type: "int64_t", Name: a, Init: call("i64_sub", users, blockStart())},
		&If{Cond: bin(">", id(a), dim), Then: []Stmt{set(id(a), dim)}})
	return a
}

// levels is a loop over the levels of a tree over active threads, with
// stride 2^(level-1); body gives each level's statements.
func (k *foldKernel) levels(active string, body func(stride string) []Stmt) {
	g := k.g
	levels, stride, level := g.fresh("levels"), g.fresh("stride"), g.fresh("level")
	k.add(&Decl{Type: "int64_t", Name: levels, Init: call("arraysem_tree_levels", id(active))},
		&Decl{Type: "int64_t", Name: stride, Init: num(1)},
		&For{Var: level, From: num(1), Bound: id(levels), Body: append(body(stride),
			set(id(stride), call("i64_mul", id(stride), num(2))))})
}

// tree combines the partials of the active threads into partial[0]: at
// each level, thread t, a multiple of twice the stride, combines its
// partial (left) with that of t + stride (right), when t + stride is
// active; a barrier ends each level. No other thread touches the two
// partials in that level, so the levels are race free.
func (k *foldKernel) tree(active string) {
	k.levels(active, func(stride string) []Stmt {
		right := call("i64_add", id(k.t), id(stride))
		return []Stmt{
			&If{Cond: bin("==", call("i64_mod", id(k.t), call("i64_mul", id(stride), num(2))), num(0)), Then: []Stmt{
				&If{Cond: bin("<", right, id(active)), Then: []Stmt{
					&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
						set(&Index{X: id(k.part), I: id(k.t)}, k.combine(&Index{X: id(k.part), I: id(k.t)}, &Index{X: id(k.part), I: right})),
					}},
				}},
			}},
			do(call("__syncthreads")),
		}
	})
}

// scan makes partial[t] the combination of the partials 0 … t of the
// active threads (Hillis and Steele): at each level, thread t ≥ stride
// reads the partial of t - stride, and after a barrier combines it on the
// left of its own; a second barrier ends the level.
func (k *foldKernel) scan(active string) {
	k.levels(active, func(stride string) []Stmt {
		left, has := k.g.fresh("left"), k.g.fresh("has")
		return []Stmt{
			&Decl{Type: "int64_t", Name: left, Init: num(0)},
			&Decl{Type: "int64_t", Name: has, Init: num(0)},
			&If{Cond: bin(">=", id(k.t), id(stride)), Then: []Stmt{
				&If{Cond: bin("<", id(k.t), id(active)), Then: []Stmt{
					set(id(left), &Index{X: id(k.part), I: call("i64_sub", id(k.t), id(stride))}),
					set(id(has), num(1)),
				}},
			}},
			do(call("__syncthreads")),
			&If{Cond: bin("!=", id(has), num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
					set(&Index{X: id(k.part), I: id(k.t)}, k.combine(id(left), &Index{X: id(k.part), I: id(k.t)})),
				}},
			}},
			do(call("__syncthreads")),
		}
	})
}

// parFold is a reduce or a scan on the host: the parallel fold described
// at the top of this file.
func (e *emitter) parFold(h *fn, fr *frame, s imp.Stmt, fd *imp.Fold) []Stmt {
	rule, kw := ruleOf(s)
	out, ne, n := e.foldStart(h, fr, s, fd)
	sc, isScan := s.(*imp.Scan)
	// The names the parts (and a scan's address) mention that the host
	// has: every function of the fold takes them.
	t := accType(fr.ty, s)
	r := newRefs()
	r.fold(fr.ty, s, fd)
	var captured []slot
	for _, x := range r.acc {
		if _, ok := fr.find(x); ok {
			captured = append(captured, x)
		}
	}
	e.folds++
	base := fmt.Sprintf("arraysem_%s_%d", kw, e.folds)
	elem, elemArgs := e.partFn(base+"_element", fr.ty, captured, []slot{{fd.X.Name, imp.Int}}, false, t, fd.Body, fd.Yield)
	comb, combArgs := e.partFn(base+"_combine", fr.ty, captured, []slot{{fd.A.Name, t}, {fd.B.Name, t}}, true, t, fd.Combine, fd.Result)
	e.kernels = append(e.kernels, elem, comb)
	where := s.Pos().String() + ": " + kw

	// Level 1 and 2: the elements, folded by each thread, then in a tree
	// by each block; a scan keeps each element's yield.
	k1 := e.newFoldKernel(base+"_blocks", comb.Name, combArgs)
	count1, chunk1, users1, partials1 := k1.param("int64_t", "count"), k1.param("int64_t", "chunk"), k1.param("int64_t", "users"), k1.param("int64_t *", "partials")
	ys1 := ""
	if isScan {
		ys1 = k1.param("int64_t *", "ys")
	}
	k1Args := e.capture(k1.foldFn, captured, nil)
	k1.chunk(id(count1), id(chunk1), func(i string) ([]Stmt, Expr) {
		y := k1.g.fresh("element")
		pre := []Stmt{&Decl{Type: "int64_t", Name: y, Init: k1.call(elem.Name, []Expr{id(i)}, elemArgs)}}
		if isScan {
			pre = append(pre, &If{Cond: bin("!=", k1.flag(), num(0)), Then: []Stmt{set(&Index{X: id(ys1), I: call("i64_sub", id(i), num(1))}, id(y))}})
		}
		return pre, id(y)
	})
	k1.tree(k1.active(id(users1)))
	k1.add(&If{Cond: bin("==", id(k1.t), num(0)), Then: []Stmt{
		set(&Index{X: id(partials1), I: &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}}}, &Index{X: id(k1.part), I: num(0)}),
	}})

	// Level 3, one block: the blocks' partials (at most one a thread),
	// into the total (reduce) or the blocks' prefixes (scan).
	k2name := base + "_total"
	if isScan {
		k2name = base + "_prefixes"
	}
	k2 := e.newFoldKernel(k2name, comb.Name, combArgs)
	count2, partials2, ne2 := k2.param("int64_t", "count"), k2.param("int64_t *", "partials"), k2.param("int64_t", "neutral")
	k2Args := e.capture(k2.foldFn, captured, nil)
	k2.chunk(id(count2), num(1), func(i string) ([]Stmt, Expr) {
		return nil, &Index{X: id(partials2), I: call("i64_sub", id(i), num(1))}
	})
	active2 := k2.active(id(count2))
	if !isScan {
		k2.tree(active2)
		k2.add(&If{Cond: bin("==", id(k2.t), num(0)), Then: []Stmt{
			&If{Cond: bin("!=", k2.flag(), num(0)), Then: []Stmt{
				set(&Index{X: id(partials2), I: id(count2)}, k2.combine(id(ne2), &Index{X: id(k2.part), I: num(0)})),
			}},
		}})
	} else {
		k2.scan(active2)
		prefix := k2.g.fresh("prefix")
		k2.add(&If{Cond: bin("<", id(k2.t), id(active2)), Then: []Stmt{
			&Decl{Type: "int64_t", Name: prefix, Init: id(ne2)},
			&If{Cond: bin(">", id(k2.t), num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k2.flag(), num(0)), Then: []Stmt{
					set(id(prefix), k2.combine(id(prefix), &Index{X: id(k2.part), I: call("i64_sub", id(k2.t), num(1))})),
				}},
			}},
			set(&Index{X: id(partials2), I: id(k2.t)}, id(prefix)),
		}})
	}

	var k3 *foldKernel
	var k3Args []slot
	if isScan {
		// Level 4: each thread's prefix, then its chunk again, writing.
		k3 = e.newFoldKernel(base+"_write", comb.Name, combArgs)
		count3, chunk3, users3, prefixes3, ys3 := k3.param("int64_t", "count"), k3.param("int64_t", "chunk"), k3.param("int64_t", "users"), k3.param("int64_t *", "prefixes"), k3.param("int64_t *", "ys")
		k3Args = e.capture(k3.foldFn, captured, nil)
		k3.chunk(id(count3), id(chunk3), func(i string) ([]Stmt, Expr) {
			return nil, &Index{X: id(ys3), I: call("i64_sub", id(i), num(1))}
		})
		active3 := k3.active(id(users3))
		k3.scan(active3)
		g := k3.g
		run, i, y := g.fresh("run"), g.fresh("i"), g.fresh("y")
		v := g.cname(fd.X.Name)
		at := &frame{parent: k3.vars, vars: map[slot]string{{fd.X.Name, imp.Int}: v}, ty: fr.ty.with(slot{fd.X.Name, imp.Int}), loop: true}
		write := append([]Stmt{&Decl{Type: "int64_t", Name: v, Init: id(i)}}, e.scanWrite(g, at, sc, id(run))...)
		k3.add(&If{Cond: bin("<", id(k3.t), id(active3)), Then: []Stmt{
			&Decl{Type: "int64_t", Name: run, Init: &Index{X: id(prefixes3), I: &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}}}},
			&If{Cond: bin(">", id(k3.t), num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k3.flag(), num(0)), Then: []Stmt{
					set(id(run), k3.combine(id(run), &Index{X: id(k3.part), I: call("i64_sub", id(k3.t), num(1))})),
				}},
			}},
			&For{Var: i, From: id(k3.first), Bound: id(k3.last), Body: []Stmt{
				&If{Cond: bin("!=", k3.flag(), num(0)), Then: []Stmt{
					&Decl{Type: "int64_t", Name: y, Init: &Index{X: id(ys3), I: call("i64_sub", id(i), num(1))}},
					set(id(run), k3.combine(id(run), id(y))),
					&If{Cond: bin("!=", k3.flag(), num(0)), Then: write},
				}},
			}},
		}})
	}
	e.kernels = append(e.kernels, k1.f, k2.f)
	if k3 != nil {
		e.kernels = append(e.kernels, k3.f)
	}

	// The host: sizes, scratch memory, the launches, each checked.
	chunk, users, blocks, partials := h.fresh("chunk"), h.fresh("users"), h.fresh("blocks"), h.fresh("partials")
	tpb := &Cast{Type: "int64_t", X: id("arraysem_threads_per_block")}
	launch := func(k *foldKernel, grid Expr, own []Expr, capt []slot) []Stmt {
		return []Stmt{
			&Launch{Sync: true, Kernel: k.f.Name, Grid: grid, Block: id("arraysem_threads_per_block"), Args: append(append([]Expr{id(h.err)}, own...), args(fr, capt)...)},
			do(call("arraysem_sync", id(h.err), str(where))),
		}
	}
	scratch := func(p string, size Expr) []Stmt {
		return []Stmt{
			&Decl{Type: "int64_t *", Name: p, Init: id("nullptr")},
			cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(p)}}, call("arraysem_alloc_bytes", size))),
		}
	}
	body := []Stmt{
		&Decl{Type: "int64_t", Name: chunk, Init: call("arraysem_fold_chunk", id(n))},
		&Decl{Type: "int64_t", Name: users, Init: call("arraysem_ceil_div", id(n), id(chunk))},
		&Decl{Type: "int64_t", Name: blocks, Init: call("arraysem_ceil_div", id(users), tpb)},
	}
	body = append(body, scratch(partials, call("i64_add", id(blocks), num(1)))...)
	ys := ""
	if isScan {
		// The yields' scratch array: a scan of more elements than the
		// interpreter's heap holds cannot write them all.
		big := e.site(s.Pos(), rule, "a scan of %lld elements exceeds the interpreter's heap limit of %lld")
		body = append(body, &If{Cond: bin(">", id(n), id("arraysem_max_block")), Then: h.fail(big, id(n), id("arraysem_max_block"))})
		ys = h.fresh("ys")
		body = append(body, scratch(ys, id(n))...)
	}
	own1 := []Expr{id(n), id(chunk), id(users), id(partials)}
	if isScan {
		own1 = append(own1, id(ys))
	}
	body = append(body, launch(k1, id(blocks), own1, k1Args)...)
	body = append(body, launch(k2, num(1), []Expr{id(blocks), id(partials), word(t, id(ne))}, k2Args)...)
	if isScan {
		body = append(body, launch(k3, id(blocks), []Expr{id(n), id(chunk), id(users), id(partials), id(ys)}, k3Args)...)
		body = append(body, cudaCall("cudaFree", call("cudaFree", id(ys))))
	} else {
		x := fr.lookup(s.(*imp.Reduce).Target.Name)
		dst := x
		if t == imp.Float {
			dst = h.fresh("word")
			body = append(body, &Decl{Type: "int64_t", Name: dst, Init: num(0)})
		}
		body = append(body, cudaCall("cudaMemcpy", call("cudaMemcpy", &Unary{Op: "&", X: id(dst)}, bin("+", id(partials), id(blocks)), &Sizeof{Type: "int64_t"}, id("cudaMemcpyDeviceToHost"))))
		if t == imp.Float {
			body = append(body, set(id(x), fromWord(t, id(dst))))
		}
	}
	body = append(body, cudaCall("cudaFree", call("cudaFree", id(partials))))
	var none []Stmt
	if !isScan {
		x := fr.lookup(s.(*imp.Reduce).Target.Name)
		none = []Stmt{set(id(x), id(ne))}
	}
	return append(out, &If{Cond: bin(">", id(n), num(0)), Then: body, Else: none})
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
	for _, x := range written(ss, scope{}) {
		acc[x.name] = true
	}
	for _, s := range ss {
		switch s := s.(type) {
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
