package cuda

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
)

// A reduce on the host whose elements each fold a row (the sum of a
// matrix's row sums: reduce over i of (reduce over row i), which fusion
// makes of a kernel of row sums and a reduce of them) runs, as a
// parallel fold (parfold.go), an element per thread: a warp's 32 lanes
// sum 32 rows, words a row apart, so every lane's load is a sector of its
// own. Futhark's kernel extraction distributes such a fold's map from its
// reduction (a segmented reduction of the rows, then the reduce of their
// results); the emitter does the same when the rows are long: the host
// evaluates the first inner reduce's bound and, when it is at least a
// warp's 32 elements, runs the elements as a kernel that writes each to
// a block of the fold's length (a block per element, coop.go, whose
// threads read the row's consecutive words), then the reduce over that
// block; otherwise the parallel fold as it is. The block is the
// emitter's, not the program's (cudaMalloc'd and freed on the host, not
// counted against the interpreter's heap, as the parallel fold's
// partials are not).
//
// The reduce qualifies when its element part only reads (no write,
// allocation or scan, pure), its folds are ones a block can share
// (coopable), and nothing can get stuck outside the element part: the
// neutral element, the bound, the first inner reduce's bound and every
// statement of the combine part. Then the split computes what the fold
// does (elements only read, so evaluating them all first changes no
// value) and gets stuck only where an element does, as a kernel's
// iteration does: the exit status is the fold's.

// fissionBound is the least row at which a reduce's elements are split
// off into a kernel: a warp's elements.
const fissionBound = 32

// fission is a host reduce split as above, or nil when it does not
// qualify.
func (e *emitter) fission(h *fn, fr *frame, s *imp.Reduce) []Stmt {
	fd := &s.Fold
	first, ok := coopable(fd.Body)
	if !ok || first == nil || !pure(fd.Body) || !cannotFail(fd.Combine) ||
		fun.CanFail(fd.Neutral) || fun.CanFail(fd.Bound) || fun.CanFail(first.Bound) {
		return nil
	}
	bound := map[string]bool{fd.X.Name: true}
	boundAnywhere(fd.Body, bound)
	for _, v := range fun.FreeVars(first.Bound, nil) {
		if bound[v.Name] || fr.ty[v.Name] != imp.Int {
			return nil
		}
		if _, ok := fr.find(fr.slot(v.Name)); !ok {
			return nil
		}
	}
	for _, v := range fun.FreeVars(fd.Bound, nil) {
		if _, ok := fr.find(fr.slot(v.Name)); !ok {
			return nil
		}
	}
	t := accType(fr.ty, s)
	// The IMP names of the emitter's block and of the reduce's element.
	block, elem := e.freshName("fission_block"), e.freshName("fission_element")
	at := s.At
	ident := func(name string) *fun.Ident { return &fun.Ident{NamePos: at, Name: name} }
	offset := &fun.BinOp{OpPos: at, Op: semantics.Sub, L: fun.Var{Ident: ident(fd.X.Name)}, R: &fun.Const{ValuePos: at, Value: 1}}
	kernelBody := append(append([]imp.Stmt(nil), fd.Body...),
		&imp.Write{At: at, X: ident(block), Index: offset, Value: fun.Var{Ident: ident(fd.Yield.Name)}})
	k := &imp.Kernel{At: at, X: fd.X, Bound: fd.Bound, Body: kernelBody, Done: fd.Done}
	r := &imp.Reduce{At: at, Target: s.Target, Fold: *fd}
	r.Body = []imp.Stmt{
		&imp.Decl{At: at, X: ident(elem), Type: t, TypePos: at},
		&imp.Read{At: at, X: ident(elem), Y: ident(block), Index: offset},
	}
	r.Yield = ident(elem)

	n, rows := h.fresh("fission_n"), h.fresh("fission_rows")
	outer := fr.ty
	fr.ty = outer.with(slot{block, imp.Mem})
	cb, o := h.cname(block), h.fresh("fission_words")
	fr.vars[slot{block, imp.Mem}] = cb
	split := []Stmt{
		&Decl{Type: "int64_t *", Name: o, Init: id("nullptr")},
		cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(o)}}, call("arraysem_alloc_bytes", id(n)))),
		&Decl{Type: ctypeOf(imp.Mem), Name: cb, Init: zero(ctypeOf(imp.Mem))},
		set(field(cb, "p"), id(o)),
		set(field(cb, "n"), id(n)),
	}
	split = append(split, e.launch(h, fr, k)...)
	split = append(split, e.parFold(h, fr, r, &r.Fold)...)
	split = append(split, cudaCall("cudaFree", call("cudaFree", id(o))))
	fr.ty = outer
	delete(fr.vars, slot{block, imp.Mem})
	return []Stmt{
		&Comment{Text: fmt.Sprintf("the elements of the reduce at %s, when its rows are long, as a kernel (cuda/fission.go)", s.At)},
		&Decl{Type: "int64_t", Name: n, Init: e.sexp(fr, fd.Bound)},
		&Decl{Type: "int64_t", Name: rows, Init: e.sexp(fr, first.Bound)},
		&If{Cond: bin("&&", bin(">", id(n), num(0)), bin(">=", id(rows), num(fissionBound))),
			Then: split,
			Else: e.parFold(h, fr, s, fd)},
	}
}

// freshName is an IMP name no statement of the program uses, reserved.
func (e *emitter) freshName(base string) string {
	for i := 1; ; i++ {
		name := fmt.Sprintf("%s_%d", base, i)
		if _, ok := e.names[name]; !ok {
			e.reserve(name)
			return name
		}
	}
}

// cannotFail reports whether statements are declarations and assignments
// of expressions that cannot get stuck (a fold's combine part that no
// element order can make fail).
func cannotFail(ss []imp.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *imp.Decl, *imp.Skip:
		case *imp.Assign:
			if fun.CanFail(s.SE) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
