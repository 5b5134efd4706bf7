package cuda

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
)

// A scan on the host followed by a reduce of what it wrote (the running
// sums, then their sum: `scan ps[i − 1] … ; var total ; reduce total
// <- ne for j <= n do v <- ps[j − 1] …`) would go over the elements
// four times: the scan's partials and its writing pass each read the
// scan's input, and the reduce's partials read the running sums back.
// As a GPU library fuses a reduction into the kernel that produces its
// input, the scan's writing pass folds the reduce's elements too: the
// thread that makes element i's prefix evaluates the reduce's element i
// with the prefix in hand (its reads of the scan's block at i's address
// replaced by the prefix), and folds it into its own run of the
// reduce, which the block then combines in order (parfold.go's tree) into
// its partial; the reduce is then the one block folding those partials,
// from its neutral element. The running sums are read back from memory
// no more (the scan_reduce benchmark's 2.00× moved over the minimum
// becomes 1.50×, and five launches four).
//
// The pair fuses when the reduce's elements are the scan's: its bound is
// written as the scan's, and between the two there are only declarations
// of names neither the reduce's parts nor that bound mention; the
// reduce's element part only reads, and every read is of the scan's
// block at the scan's address (which is i or i ± an expression without
// i, so no two elements write one word, and the word the reduce reads is
// the prefix the scan wrote there), none of whose names the part binds;
// its combine reads nothing. Both are ints (a word read as a float would
// be the prefix's bits). A stuck state in the reduce's parts is then met
// while the scan writes: the program is stuck as the interpreter's is,
// the message may be another element's, as for any parallel fold.

// scanReduce is a reduce that a scan's writing pass folds (the pair
// found by scanReduceOf).
type scanReduce struct {
	r                  *imp.Reduce
	base               string // the reduce's functions' prefix
	elem, comb         *Func  // the element part (of the index and the prefix) and the combine
	elemArgs, combArgs []slot
	partials           string // the host's array of the blocks' partials (its blocks + 1 words)
	blocks             string // the host's count of them
}

// scanReduceOf is the reduce that the scan ss[i] fuses with (nil when
// none), for the host.
func scanReduceOf(ss []imp.Stmt, i int, ty scope) *imp.Reduce {
	sc, ok := ss[i].(*imp.Scan)
	if !ok || accType(ty, sc) != imp.Int || imp.NonAssociative(&sc.Fold) {
		return nil // a scan kept a left fold (seqfold.go) fuses with nothing
	}
	var declared []string
	at := ty.with() // the scope at the reduce
	for _, s := range ss[i+1:] {
		switch s := s.(type) {
		case *imp.Skip:
			continue
		case *imp.Decl:
			declared = append(declared, s.X.Name)
			at[s.X.Name] = s.Type
			continue
		case *imp.Reduce:
			if accType(at, s) == imp.Int && !imp.NonAssociative(&s.Fold) && fusable(sc, s, declared, at) {
				return s
			}
		}
		return nil
	}
	return nil
}

// fusable reports whether reduce r's elements are scan sc's prefixes
// (the conditions above), with the names declared between them.
func fusable(sc *imp.Scan, r *imp.Reduce, declared []string, ty scope) bool {
	fd := &r.Fold
	if fun.PrintSExp(fd.Bound) != fun.PrintSExp(sc.Bound) || !pure(fd.Body) || !pure(fd.Combine) || reads(fd.Combine) {
		return false
	}
	if !injective(sc.Addr, sc.X.Name) {
		return false
	}
	bound := map[string]bool{fd.X.Name: true}
	boundAnywhere(fd.Body, bound)
	// The reads' targets must be ints (a float's read would take the
	// prefix's bits).
	types := ty.with()
	imp.WalkStmts(fd.Body, func(s imp.Stmt) {
		d, isDecl := s.(*imp.Decl)
		if !isDecl {
			return
		}
		if d.Type != imp.Int {
			types[d.X.Name] = d.Type // (never an int again)
		} else if _, ok := types[d.X.Name]; !ok {
			types[d.X.Name] = imp.Int
		}
	})
	ok := true
	imp.WalkStmts(fd.Body, func(s imp.Stmt) {
		rd, isRead := s.(*imp.Read)
		if !isRead {
			return
		}
		if types[rd.X.Name] != imp.Int {
			ok = false
		}
		at := fun.RenameSExp(rd.Index, map[string]string{fd.X.Name: sc.X.Name})
		if rd.Y.Name != sc.Block.Name || fun.PrintSExp(at) != fun.PrintSExp(sc.Addr) {
			ok = false
		}
		for _, v := range fun.FreeVars(rd.Index, nil) {
			if v.Name != fd.X.Name && bound[v.Name] {
				ok = false
			}
		}
		if bound[rd.Y.Name] {
			ok = false
		}
	})
	if !ok {
		return false
	}
	// What the parts and the bound mention must be as the scan left it.
	names := map[string]bool{sc.Block.Name: true}
	for _, x := range referenced(append(append([]imp.Stmt{}, fd.Body...), fd.Combine...), scope{}) {
		names[x.name] = true
	}
	names[fd.Yield.Name], names[fd.Result.Name] = true, true
	for _, se := range []fun.SExp{fd.Bound, sc.Addr} {
		for _, v := range fun.FreeVars(se, nil) {
			names[v.Name] = true
		}
	}
	for _, d := range declared {
		if names[d] {
			return false
		}
	}
	return true
}

// injective reports whether an address is x, x + se or x − se with se
// free of x.
func injective(a fun.SExp, x string) bool {
	if v, ok := a.(fun.Var); ok {
		return v.Name == x
	}
	b, ok := a.(*fun.BinOp)
	if !ok || (b.Op.String() != "+" && b.Op.String() != "-") {
		return false
	}
	for _, v := range fun.FreeVars(b.R, nil) {
		if v.Name == x {
			return false
		}
	}
	return injective(b.L, x)
}

// prefixed is a reduce's element part with its reads of the scan's
// block made assignments of the prefix, w.
func prefixed(ss []imp.Stmt, w *fun.Ident) []imp.Stmt {
	out := make([]imp.Stmt, len(ss))
	for i, s := range ss {
		switch s := s.(type) {
		case *imp.Read:
			out[i] = &imp.Assign{At: s.At, X: s.X, SE: fun.Var{Ident: w}}
		case *imp.If:
			c := *s
			c.Then, c.Else = prefixed(s.Then, w), prefixed(s.Else, w)
			out[i] = &c
		case *imp.For:
			c := *s
			c.Body = prefixed(s.Body, w)
			out[i] = &c
		case *imp.Reduce:
			c := *s
			c.Body, c.Combine = prefixed(s.Body, w), prefixed(s.Combine, w)
			out[i] = &c
		default:
			out[i] = s
		}
	}
	return out
}

// startScanReduce makes the fused reduce's functions (its element part
// taking the index and the prefix) and declares the host's array of its
// blocks' partials, before the scan.
func (e *emitter) startScanReduce(h *fn, fr *frame, r *imp.Reduce) (*scanReduce, []Stmt) {
	fd := &r.Fold
	captured := foldCaptures(fr, r, fd)
	e.folds++
	sr := &scanReduce{r: r, base: fmt.Sprintf("arraysem_reduce_%d", e.folds)}
	// (A name of the host's, so no IMP name: the part's own.)
	w := &fun.Ident{Name: h.fresh("prefix")}
	sr.elem, sr.elemArgs = e.partFn(sr.base+"_element", fr.ty, captured, []slot{{fd.X.Name, imp.Int}, {w.Name, imp.Int}}, false, imp.Int, prefixed(fd.Body, w), fd.Yield)
	sr.comb, sr.combArgs = e.partFn(sr.base+"_combine", fr.ty, captured, []slot{{fd.A.Name, imp.Int}, {fd.B.Name, imp.Int}}, true, imp.Int, fd.Combine, fd.Result)
	e.kernels = append(e.kernels, sr.elem, sr.comb)
	sr.partials, sr.blocks = h.fresh("partials"), h.fresh("blocks")
	return sr, []Stmt{
		&Decl{Type: "int64_t *", Name: sr.partials, Init: id("nullptr")},
		&Decl{Type: "int64_t", Name: sr.blocks, Init: num(0)},
	}
}

// fold makes the scan's writing kernel k fold the reduce: the thread's
// run of the reduce's elements, declared now; also (blockScan's) folds
// each prefix's element into it; finish combines the block's runs and
// has thread 0 write the block's partial. The kernel's parameters gain
// the partials and the reduce's captured names (more: the launch's
// arguments for them).
func (sr *scanReduce) fold(e *emitter, fr *frame, k *blockKernel) (also func(el string, v Expr) []Stmt, finish func(), more []Expr) {
	partials := k.param("int64_t *", "reduce_partials")
	skip := map[slot]bool{}
	for x := range k.vars.vars {
		skip[x] = true
	}
	var union []slot
	for _, x := range append(append([]slot{}, sr.elemArgs...), sr.combArgs...) {
		if !skip[x] {
			skip[x] = true
			union = append(union, x)
		}
	}
	used := e.capture(k.foldFn, union, nil)
	more = append([]Expr{id(sr.partials)}, args(fr, used)...)
	kr := *k
	kr.comb, kr.combArgs = sr.comb.Name, sr.combArgs
	acc, accHas := k.decl("reduce_acc", num(0)), k.decl("reduce_acc_has", num(0))
	also = func(el string, v Expr) []Stmt {
		y := k.g.fresh("reduce_element")
		return []Stmt{
			&Decl{Type: "int64_t", Name: y, Init: k.call(sr.elem.Name, []Expr{call("i64_add", id(el), num(1)), v}, sr.elemArgs)},
			&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{kr.accumulate(acc, accHas, id(y))}},
		}
	}
	finish = func() {
		kr.tree(true)
		kr.add(kr.slotted(acc, accHas)...)
		kr.add(kr.reduceTree()...)
		blockIdx := &Cast{Type: "int64_t", X: &Field{X: id("blockIdx"), Name: "x"}}
		total := kr.decl("reduce_total", num(0))
		kr.add(&If{Cond: bin("==", id(kr.t), num(0)), Then: []Stmt{
			&If{Cond: bin("!=", &Index{X: id(kr.has), I: num(0)}, num(0)), Then: []Stmt{set(id(total), &Index{X: id(kr.part), I: num(0)})}},
			set(&Index{X: id(partials), I: blockIdx}, id(total)),
		}})
	}
	return also, finish, more
}

// hostScratch allocates the partials on the host, in the scan's body
// (blocks: the scan's count of blocks).
func (sr *scanReduce) hostScratch(blocks string) []Stmt {
	return []Stmt{
		set(id(sr.blocks), id(blocks)),
		cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(sr.partials)}}, call("arraysem_alloc_bytes", call("i64_add", id(blocks), num(1))))),
	}
}

// scanReduced is the fused reduce where it stands: its neutral element and
// bound (I-REDUCE's checks), then one block folding the partials the
// scan's blocks wrote, from the neutral element.
func (e *emitter) scanReduced(h *fn, fr *frame, sr *scanReduce) []Stmt {
	r := sr.r
	out, ne, n := e.foldStart(h, fr, r, &r.Fold)
	k2, k2Args := e.totalKernel(sr.base, sr.comb, sr.combArgs, foldCaptures(fr, r, &r.Fold))
	where := r.At.String() + ": reduce"
	items, fb := h.fresh("items"), h.fresh("fold_block")
	x := fr.lookup(r.Target.Name)
	body := []Stmt{
		&Decl{Type: "int64_t", Name: items, Init: call("arraysem_fold_items")},
		&Decl{Type: "int64_t", Name: fb, Init: call("arraysem_fold_block", id(sr.blocks))},
		&Launch{Sync: true, Kernel: k2.f.Name, Grid: num(1), Block: id(fb),
			Args: append([]Expr{id(h.err), id(sr.blocks), id(items), id(sr.partials), id(ne)}, args(fr, k2Args)...)},
		do(call("arraysem_sync", id(h.err), str(where))),
		cudaCall("cudaMemcpy", call("cudaMemcpy", &Unary{Op: "&", X: id(x)}, bin("+", id(sr.partials), id(sr.blocks)), &Sizeof{Type: "int64_t"}, id("cudaMemcpyDeviceToHost"))),
		cudaCall("cudaFree", call("cudaFree", id(sr.partials))),
	}
	return append(out, &If{Cond: bin(">", id(n), num(0)), Then: body, Else: []Stmt{set(id(x), id(ne))}})
}
