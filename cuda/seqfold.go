package cuda

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
)

// A reduce or scan whose combine part is one operation that is not
// associative (a - b, a / b, a < b: imp.NonAssociative) has one result,
// the left fold of I-REDUCE and I-SCAN; a parallel fold (parfold.go, and
// a block's cooperative fold, coop.go) combines its elements as a tree,
// which for such an operation computes something else. The rules assume
// a combine part associative without checking it, so the emitter cannot
// know it of every fold; where it can see that it is not, it keeps the
// left fold: the fold runs in one thread (its sequential loop, seqFold),
// launched as a kernel of one iteration, whose reduce leaves its
// accumulator in a word of the emitter's for the host to read. A scan
// writes its block itself. Slow, but the interpreter's answer; the other
// folds run in parallel, as before.

// oneThread is the host reduce or scan s run as a kernel of one thread.
func (e *emitter) oneThread(h *fn, fr *frame, s imp.Stmt, fd *imp.Fold) []Stmt {
	at := s.Pos()
	ident := func(name string) *fun.Ident { return &fun.Ident{NamePos: at, Name: name} }
	one := &fun.Const{ValuePos: at, Value: 1}
	comment := &Comment{Text: fmt.Sprintf("the %s at %s combines with an operation that is not associative: its left fold, in one thread (cuda/seqfold.go)", keyword(s), at)}
	thread := ident(e.freshName("seq_thread"))
	r, isReduce := s.(*imp.Reduce)
	if !isReduce {
		k := &imp.Kernel{At: at, X: thread, Bound: one, Body: []imp.Stmt{s}, Done: fd.Done}
		return append([]Stmt{comment}, e.launch(h, fr, k)...)
	}
	block, acc := e.freshName("seq_block"), e.freshName("seq_acc")
	first := &fun.Const{ValuePos: at, Value: 0}
	k := &imp.Kernel{At: at, X: thread, Bound: one, Done: fd.Done, Body: []imp.Stmt{
		&imp.Decl{At: at, X: ident(acc), Type: accType(fr.ty, r), TypePos: at},
		&imp.Reduce{At: at, Target: ident(acc), Fold: *fd},
		&imp.Write{At: at, X: ident(block), Index: first, Value: fun.Var{Ident: ident(acc)}},
	}}
	outer := fr.ty
	fr.ty = outer.with(slot{block, imp.Mem})
	cb, words := h.cname(block), h.fresh("seq_word")
	fr.vars[slot{block, imp.Mem}] = cb
	out := []Stmt{comment,
		&Decl{Type: "int64_t *", Name: words, Init: id("nullptr")},
		cudaCall("cudaMalloc", call("cudaMalloc", &Cast{Type: "void **", X: &Unary{Op: "&", X: id(words)}}, call("arraysem_alloc_bytes", num(1)))),
		&Decl{Type: ctypeOf(imp.Mem), Name: cb, Init: zero(ctypeOf(imp.Mem))},
		set(field(cb, "p"), id(words)),
		set(field(cb, "n"), num(1)),
	}
	out = append(out, e.launch(h, fr, k)...)
	out = append(out, e.stmt(h, fr, &imp.Read{At: at, X: r.Target, Y: ident(block), Index: first})...)
	out = append(out, cudaCall("cudaFree", call("cudaFree", id(words))))
	fr.ty = outer
	delete(fr.vars, slot{block, imp.Mem})
	return out
}

// keyword is reduce or scan.
func keyword(s imp.Stmt) string {
	_, k := ruleOf(s)
	return k
}
