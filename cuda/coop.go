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
	res       string       // __shared__ words: a reduce's result, for every thread
	resDecl   *Shared      // res's declaration: one word, or a word a column (columns)
	hostItems string       // the host's variable passed as items
	// columns are the reduces folded for every iteration of the kernel
	// around them at once (columnReduce).
	columns map[*imp.Reduce]*columns
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
	c.resDecl = &Shared{Name: c.res, Size: 1}
	return []Stmt{
		&Shared{Name: k.tile, Size: tileWords},
		&Shared{Name: k.valid, Size: tileWords},
		&Shared{Name: k.part, Size: 1024},
		&Shared{Name: k.has, Size: 1024},
		&Shared{Name: k.ok, Size: 1024},
		c.resDecl,
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
// then reads (I-REDUCE's value). A reduce of a kernel's iterations
// (columnReduce) is folded for B of them at once (columnFold).
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
	k.comb, k.combArgs, k.fr = comb.Name, combArgs, fr
	if col := c.columns[s]; col != nil {
		return append(out, e.columnFold(f, fr, s, k, col, elem.Name, elemArgs, ne, n)...)
	}
	k.out = &out
	first := k.decl("first", num(0))
	per := k.decl("per", call("arraysem_ceil_div", id(n), call("i64_mul", id(k.b), id(c.items))))
	total, has := k.blockFold(first, n, per, c.items, reads(fd.Body), func(el string) ([]Stmt, Expr) {
		y := f.fresh("element")
		return []Stmt{&Decl{Type: "int64_t", Name: y, Init: k.call(elem.Name, []Expr{call("i64_add", id(el), num(1))}, elemArgs)}}, id(y)
	})
	res := &Index{X: id(c.res), I: num(0)}
	x := fr.lookup(s.Target.Name)
	return append(out,
		&If{Cond: bin("==", id(k.t), num(0)), Then: []Stmt{
			set(res, word(t, id(ne))),
			&If{Cond: bin("!=", id(has), num(0)), Then: []Stmt{
				&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{set(res, k.combine(word(t, id(ne)), id(total)))}},
			}},
		}},
		barrier(),
		set(id(x), fromWord(t, res)))
}

// A kernel inside a block per iteration's body whose iterations each
// fold the same elements but for their index (the matrix product's
// kernel j <= m, each iteration the dot product of a row of a with
// column j of b) runs as a loop of every thread, the iterations one after
// the other, each a fold of the block. Their elements then are read a
// column at a time: consecutive threads read words m apart, a sector
// each for a small m. Instead the block folds B columns at once (all m
// when m ≤ B), in the first iteration of each B, as Futhark or CUB's
// segmented reductions would read the matrix: element k of column j is
// position (k − 1)·m + j − 1 of the flat p·m elements, and the block runs
// over them in their order. With c the chunk's columns (min(B, the
// columns left), the chunk's column l being the kernel's base + l):
//
//   - the first S = B − B mod c threads fold: thread t folds column
//     t mod c + 1, in group t div c of the G = B div c groups, and a group
//     folds a contiguous range of per × items elements of every column
//     (in per rounds of items elements), so each thread's part of a
//     column is contiguous and its fold keeps the order;
//   - in a round the block evaluates the round's G × items × c elements
//     into the tile striped, position q = g·items·c + o·c + l − 1 being
//     element o of group g's round in column l, so that consecutive
//     threads evaluate consecutive positions of the flat elements in runs
//     of items × c (b's rows as they lie); then each thread combines its
//     column's items elements of the round, in order;
//   - the groups' accumulators of a column are combined in a tree by
//     interleaved addressing (at the level of stride s, group g, a
//     multiple of 2s, combines its own with group g + s's, left with
//     right), which keeps the order for any G, leaving column l's fold
//     in thread l − 1's slot, which combines the neutral element on the
//     left and leaves the result in shared memory, where each of the
//     chunk's iterations of the kernel reads its own.
//
// An iteration may fold the later ones' columns because nothing
// before the reduce in the kernel's body can change what it folds: only
// declarations come before it, and its neutral element and bound do not
// mention the index (every iteration starts from the same values, the
// enclosing frame's); its parts are pure. The results wait in shared
// words (a word a column of the chunk, B of them) until each iteration
// reads its own: no kernel may follow the reduce in the body, as its
// columns would take them. A stuck element is the
// program's stuck state whichever iteration would have met it first, as
// for the elements of any parallel fold.

// columns is a reduce that columnFold folds for every iteration of the
// kernel around it.
type columns struct {
	name  string // the kernel's index, in IMP
	index string // the kernel's index's C++ variable
	count string // the kernel's bound's C++ variable
}

// columnReduce is the reduce of a kernel's body that columnFold can fold
// for all its iterations at once: the body's first statement but for
// declarations, whose neutral element and bound do not mention the
// index, and after which the body has no kernel (whose own columns'
// results would take the shared words the later iterations read theirs
// from); nil when there is none.
func columnReduce(k *imp.Kernel) *imp.Reduce {
	for i, s := range k.Body {
		switch s := s.(type) {
		case *imp.Skip:
		case *imp.Decl:
			if s.X.Name == k.X.Name {
				return nil
			}
		case *imp.Reduce:
			if imp.NonAssociative(&s.Fold) {
				return nil // its columns' partials combine as a tree (seqfold.go)
			}
			for _, se := range []fun.SExp{s.Neutral, s.Bound} {
				for _, v := range fun.FreeVars(se, nil) {
					if v.Name == k.X.Name {
						return nil
					}
				}
			}
			if hasKernel(k.Body[i+1:]) {
				return nil
			}
			return s
		default:
			return nil
		}
	}
	return nil
}

// hasKernel reports whether statements hold a kernel, at any depth.
func hasKernel(ss []imp.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Kernel:
			return true
		case *imp.If:
			if hasKernel(s.Then) || hasKernel(s.Else) {
				return true
			}
		case *imp.For:
			if hasKernel(s.Body) {
				return true
			}
		}
	}
	return false
}

// columnsOf notes the reduce of a kernel inside the body (the thread's
// loop over its iterations: v the index, n the bound) that columnFold
// folds.
func (c *coopKernel) columnsOf(k *imp.Kernel, n, v string) {
	r := columnReduce(k)
	if r == nil {
		return
	}
	if c.columns == nil {
		c.columns = map[*imp.Reduce]*columns{}
	}
	c.columns[r] = &columns{name: k.X.Name, index: v, count: n}
	c.resDecl.Size = 1024
}

// columnFold is a reduce of a kernel's iterations (columns) folded by
// the block for B of them at once, in the first iteration of each B
// (the kernel's iteration j with (j − 1) mod B = 0 folds columns j …
// min(j + B − 1, m)), each iteration then reading its own result; k is
// the block with the reduce's combine, elem the element part.
func (e *emitter) columnFold(f *fn, fr *frame, s *imp.Reduce, k blockKernel, col *columns, elem string, elemArgs []slot, ne, n string) []Stmt {
	t := accType(fr.ty, s)
	c := f.coop
	g := k.g
	var out []Stmt
	k.out = &out
	items := c.items
	// The chunk's columns: base + 1 … base + m.
	base := k.decl("column_base", call("i64_sub", id(col.index), num(1)))
	m := k.decl("columns", call("i64_sub", id(col.count), id(base)))
	k.add(&If{Cond: bin(">", id(m), id(k.b)), Then: []Stmt{set(id(m), id(k.b))}})
	groups := k.decl("groups", call("i64_div", id(k.b), id(m)))
	busy := k.decl("busy", call("i64_mul", id(groups), id(m)))
	group := k.decl("group", call("i64_div", id(k.t), id(m)))
	lane := k.decl("lane", call("i64_mod", id(k.t), id(m)))
	column := k.decl("column", call("i64_add", call("i64_add", id(base), id(lane)), num(1)))
	// The combines of the thread's column take it as the kernel's index.
	k.fr = fr.child([]slot{{col.name, imp.Int}}, []string{column})
	first := k.decl("first", num(0))
	per := k.decl("per", call("arraysem_ceil_div", id(n), call("i64_mul", id(groups), id(items))))
	span := k.decl("span", call("i64_mul", id(items), id(m)))
	end := k.end(first, n)
	acc, accHas := k.decl("acc", num(0)), k.decl("acc_has", num(0))
	tile := func(x Expr) Expr { return &Index{X: id(k.tile), I: x} }
	valid := func(x Expr) Expr { return &Index{X: id(k.valid), I: x} }
	k.add(k.loop(id(per), func(r string) []Stmt {
		load := k.loop(id(items), func(kk string) []Stmt {
			p, pg, po, el, pc, y := g.fresh("p"), g.fresh("pg"), g.fresh("po"), g.fresh("e"), g.fresh("pc"), g.fresh("y")
			ke := k
			ke.fr = fr.child([]slot{{col.name, imp.Int}}, []string{pc})
			return []Stmt{
				&Decl{Type: "int64_t", Name: p, Init: call("i64_add", call("i64_mul", call("i64_sub", id(kk), num(1)), id(k.b)), id(k.t))},
				&If{Cond: bin("<", id(p), call("i64_mul", id(groups), id(span))), Then: []Stmt{
					&Decl{Type: "int64_t", Name: pg, Init: call("i64_div", id(p), id(span))},
					&Decl{Type: "int64_t", Name: po, Init: call("i64_mod", id(p), id(span))},
					&Decl{Type: "int64_t", Name: el, Init: k.at(first, per, items, id(pg), id(r), call("i64_div", id(po), id(m)))},
					&Decl{Type: "int64_t", Name: pc, Init: call("i64_add", call("i64_add", id(base), call("i64_mod", id(po), id(m))), num(1))},
					&If{Cond: bin("<", id(el), id(end)), Then: []Stmt{
						&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
							&Decl{Type: "int64_t", Name: y, Init: ke.call(elem, []Expr{call("i64_add", id(el), num(1))}, elemArgs)},
							&If{Cond: bin("!=", k.flag(), num(0)),
								Then: []Stmt{set(tile(id(p)), id(y)), set(valid(id(p)), num(1))},
								Else: []Stmt{set(valid(id(p)), num(0))}},
						}, Else: []Stmt{set(valid(id(p)), num(0))}},
					}},
				}},
			}
		})
		use := k.loop(id(items), func(o string) []Stmt {
			el, q := g.fresh("e"), g.fresh("q")
			return []Stmt{
				&Decl{Type: "int64_t", Name: el, Init: k.at(first, per, items, id(group), id(r), call("i64_sub", id(o), num(1)))},
				&If{Cond: bin("<", id(el), id(end)), Then: []Stmt{
					&Decl{Type: "int64_t", Name: q, Init: call("i64_add", call("i64_add", call("i64_mul", id(group), id(span)),
						call("i64_mul", call("i64_sub", id(o), num(1)), id(m))), id(lane))},
					&If{Cond: bin("!=", valid(id(q)), num(0)), Then: []Stmt{
						&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{k.accumulate(acc, accHas, tile(id(q)))}},
					}},
				}},
			}
		})
		// (The next round's loads write the slots the threads read.)
		return []Stmt{load, barrier(), &If{Cond: bin("<", id(k.t), id(busy)), Then: []Stmt{use}}, barrier()}
	}))
	part := func(x Expr) Expr { return &Index{X: id(k.part), I: x} }
	has := func(x Expr) Expr { return &Index{X: id(k.has), I: x} }
	k.add(&If{Cond: bin("<", id(k.t), id(busy)), Then: []Stmt{set(part(id(k.t)), id(acc)), set(has(id(k.t)), id(accHas))}}, barrier())
	levels := k.decl("levels", call("arraysem_tree_levels", id(groups)))
	stride := k.decl("stride", num(1))
	k.add(k.loop(id(levels), func(string) []Stmt {
		right := g.fresh("right")
		return []Stmt{
			&If{Cond: bin("<", id(k.t), id(busy)), Then: []Stmt{
				&If{Cond: bin("==", call("i64_mod", id(group), call("i64_mul", id(stride), num(2))), num(0)), Then: []Stmt{
					&If{Cond: bin("<", call("i64_add", id(group), id(stride)), id(groups)), Then: []Stmt{
						&Decl{Type: "int64_t", Name: right, Init: call("i64_add", id(k.t), call("i64_mul", id(stride), id(m)))},
						&If{Cond: bin("!=", has(id(right)), num(0)), Then: []Stmt{
							&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{
								&If{Cond: bin("!=", has(id(k.t)), num(0)),
									Then: []Stmt{set(part(id(k.t)), k.combine(part(id(k.t)), part(id(right))))},
									Else: []Stmt{set(part(id(k.t)), part(id(right))), set(has(id(k.t)), num(1))}},
							}},
						}},
					}},
				}},
			}},
			barrier(),
			set(id(stride), call("i64_mul", id(stride), num(2))),
		}
	}))
	res := func(x Expr) Expr { return &Index{X: id(c.res), I: x} }
	k.add(&If{Cond: bin("<", id(k.t), id(m)), Then: []Stmt{
		set(res(id(k.t)), word(t, id(ne))),
		&If{Cond: bin("!=", has(id(k.t)), num(0)), Then: []Stmt{
			&If{Cond: bin("!=", k.flag(), num(0)), Then: []Stmt{set(res(id(k.t)), k.combine(word(t, id(ne)), part(id(k.t))))}},
		}},
	}}, barrier())
	x := fr.lookup(s.Target.Name)
	at := call("i64_mod", call("i64_sub", id(col.index), num(1)), id(k.b))
	return []Stmt{
		&If{Cond: bin("==", at, num(0)), Then: out},
		set(id(x), fromWord(t, res(at))),
	}
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
				if !pure(s.Body) || !pure(s.Combine) || imp.NonAssociative(&s.Fold) {
					return false // a block folds it as a tree (seqfold.go)
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
