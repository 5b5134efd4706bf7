package cuda

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
)

// A kernel whose iterations each fold many elements (the sums of a
// matrix's rows: kernel i <= n do reduce over row i) gives each thread a
// row to fold alone, one element after the other: a warp's 32 lanes read
// 32 rows, words a row apart, so every lane's load is a sector of its
// own (uncoalesced), however the rows lie. A GPU library gives each row
// to a block, whose threads read the row's consecutive words
// (NVIDIA CUB's segmented reduction). The emitter does the same when it
// can: beside the kernel of a thread per iteration, it emits one of a
// block per iteration, in which every thread of the block runs the
// iteration's body, the same values in each (it depends only on the
// iteration and the host's values), but for the reduces, which the block
// folds together as a parallel reduce's block does (parfold.go: the
// elements striped over the threads, each thread's run, a tree; the
// result given to every thread through shared memory), and the writes,
// which thread 0 alone makes, between barriers (so that every thread
// reads what it wrote, and none reads a location as it is written). The
// host launches the block version when the first reduce's bound, which
// it can evaluate, is at least a warp's 32 elements, and the thread
// version otherwise.
//
// A body qualifies when it allocates nothing, has no scan, and its
// reduces' element and combine parts only read (pure): then the threads
// of a block run the same statements on the same values, and meet the
// same barriers. A stuck state outside the parts is every thread's, so
// they all return; in a part only the thread's, which clears its flag
// and keeps the barriers, as in a parallel fold.

// coopKernel is a kernel of a block per iteration being emitted.
type coopKernel struct {
	k         *blockKernel // its shared arrays, t and B
	items     string       // the kernel's parameter: elements a thread folds a round
	res       string       // a __shared__ word: a reduce's result, for every thread
	hostItems string       // the host's variable passed as items
}

// start declares the kernel's shared arrays and items, marks its
// function as a block per iteration's, and returns its first statements.
func (c *coopKernel) start(e *emitter, g *fn, kf *Func) []Stmt {
	g.coop = c
	c.items = g.fresh("items")
	kf.Params = append(kf.Params, Param{Type: "int64_t", Name: c.items})
	k := &blockKernel{foldFn: &foldFn{g: g, f: kf, vars: &frame{vars: map[slot]string{}}}, e: e}
	k.tile, k.valid, k.part, k.has, k.ok = g.fresh("tile"), g.fresh("valid"), g.fresh("partial"), g.fresh("has"), g.fresh("flag")
	k.t, k.b = g.fresh("t"), g.fresh("b")
	c.k, c.res = k, g.fresh("result")
	return []Stmt{
		&Shared{Name: k.tile, Size: tileWords},
		&Shared{Name: k.valid, Size: tileWords},
		&Shared{Name: k.part, Size: 1024},
		&Shared{Name: k.has, Size: 1024},
		&Shared{Name: k.ok, Size: 1024},
		&Shared{Name: c.res, Size: 1},
		&Decl{Type: "int64_t", Name: k.t, Init: &Cast{Type: "int64_t", X: &Field{X: id("threadIdx"), Name: "x"}}},
		&Decl{Type: "int64_t", Name: k.b, Init: &Cast{Type: "int64_t", X: &Field{X: id("blockDim"), Name: "x"}}},
		set(&Index{X: id(k.ok), I: id(k.t)}, num(1)),
	}
}

// store is a write of the block: thread 0's, between barriers.
func (c *coopKernel) store(dst, v Expr) []Stmt {
	return []Stmt{
		barrier(),
		&If{Cond: bin("==", id(c.k.t), num(0)), Then: []Stmt{set(dst, v)}},
		barrier(),
	}
}

// coopFold is a reduce of a block per iteration's body: the block's fold
// of its elements, from the neutral element, whose result every thread
// then reads (I-REDUCE's value).
func (e *emitter) coopFold(f *fn, fr *frame, s *imp.Reduce) []Stmt {
	fd := &s.Fold
	out, ne, n := e.foldStart(f, fr, s, fd)
	t := accType(fr.ty, s)
	captured := foldCaptures(fr, s, fd) // parfold.go
	e.folds++
	base := fmt.Sprintf("arraysem_reduce_%d", e.folds)
	elem, elemArgs := e.partFn(base+"_element", fr.ty, captured, []slot{{fd.X.Name, imp.Int}}, false, t, fd.Body, fd.Yield)
	comb, combArgs := e.partFn(base+"_combine", fr.ty, captured, []slot{{fd.A.Name, t}, {fd.B.Name, t}}, true, t, fd.Combine, fd.Result)
	e.kernels = append(e.kernels, elem, comb)
	c := f.coop
	k := *c.k
	k.comb, k.combArgs, k.out, k.fr = comb.Name, combArgs, &out, fr
	first := k.decl("first", num(0))
	per := k.decl("per", call("arraysem_ceil_div", id(n), call("i64_mul", id(k.b), id(c.items))))
	total, has := k.blockFold(first, n, per, c.items, reads(fd.Body), func(el string) ([]Stmt, Expr) {
		y := f.fresh("element")
		return []Stmt{&Decl{Type: "int64_t", Name: y, Init: k.call(elem.Name, []Expr{call("i64_add", id(el), num(1))}, elemArgs)}}, id(y)
	})
	res := &Index{X: id(c.res), I: num(0)}
	x := fr.lookup(s.Target.Name)
	out = append(out,
		&If{Cond: bin("==", id(k.t), num(0)), Then: []Stmt{
			set(res, word(t, id(ne))),
			&If{Cond: bin("!=", id(has), num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{set(res, k.combine(word(t, id(ne)), id(total)))}},
			}},
		}},
		barrier(),
		set(id(x), fromWord(t, res)))
	return out
}

// coopLaunch is, for a top-level kernel that a block per iteration can
// run, what wraps the launch of its thread version (run) in the host's
// choice between the two; nil when the kernel does not qualify or the
// host cannot evaluate its first reduce's bound.
func (e *emitter) coopLaunch(host *fn, fr *frame, k *imp.Kernel, n string) func(run []Stmt) []Stmt {
	first, ok := coopable(k.Body)
	if !ok || first == nil || fun.CanFail(first.Bound) {
		return nil
	}
	bound := map[string]bool{k.X.Name: true}
	boundAnywhere(k.Body, bound)
	for _, v := range fun.FreeVars(first.Bound, nil) {
		if bound[v.Name] {
			return nil
		}
		if _, ok := fr.find(fr.slot(v.Name)); !ok || fr.ty[v.Name] != imp.Int {
			return nil
		}
	}
	c := &coopKernel{hostItems: host.fresh("items")}
	name, args := e.kernelFunc(host, fr, k, n, c)
	fb, blk := host.fresh("fold_bound"), host.fresh("fold_block")
	return func(run []Stmt) []Stmt {
		return []Stmt{
			&Decl{Type: "int64_t", Name: fb, Init: e.sexp(fr, first.Bound)},
			&If{Cond: bin(">=", id(fb), num(32)),
				Then: []Stmt{
					&Decl{Type: "int64_t", Name: c.hostItems, Init: call("arraysem_fold_items")},
					&Decl{Type: "int64_t", Name: blk, Init: call("arraysem_fold_block", id(fb))},
					&Launch{Sync: true, Kernel: name, Grid: call("arraysem_blocks", id(n)), Block: id(blk), Args: args},
				},
				Else: run},
		}
	}
}

// coopable reports whether a kernel's body qualifies for a block per
// iteration, and its first reduce (nil when it has none).
func coopable(ss []imp.Stmt) (*imp.Reduce, bool) {
	var first *imp.Reduce
	var walk func(ss []imp.Stmt) bool
	walk = func(ss []imp.Stmt) bool {
		for _, s := range ss {
			switch s := s.(type) {
			case *imp.Alloc, *imp.Scan:
				return false
			case *imp.Reduce:
				if !pure(s.Body) || !pure(s.Combine) {
					return false
				}
				if first == nil {
					first = s
				}
			case *imp.If:
				if !walk(s.Then) || !walk(s.Else) {
					return false
				}
			case *imp.For:
				if !walk(s.Body) {
					return false
				}
			case *imp.Kernel:
				if !walk(s.Body) {
					return false
				}
			}
		}
		return true
	}
	ok := walk(ss)
	return first, ok
}
