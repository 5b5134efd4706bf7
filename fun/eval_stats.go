package fun

import "github.com/arraysem/arraysem/semantics"

// Cost counters (semantics.Stats) at FUN, as the compiled big-step
// (compile*.go, parallel*.go) and the small-step (step_stats.go) count
// them:
//
//   - Ops: a scalar statement counts its operators (SExpOps; none for a
//     bare copy let (t : int) = v), x[y, …] one read, assert se one check
//     and the operators of se. A kernel counts one write per element it
//     stores (m items of c elements: m·c), iota n writes, copy a read and
//     a write per element. A reduce, scan or filter reads each row of its
//     array (a row of c elements: c reads); a scan, scanomap or filter
//     writes each element of the rows it stores. Slices and transposes
//     are views: nothing.
//   - Allocs, Words: the arrays made: a kernel's, iota's, copy's, a
//     scan's, a scanomap's (of m rows, made when the form starts), a
//     filter's (of the rows kept, made when it ends); words are elements.
//     Inputs, views and the values of if, loop, reduce and redomap are
//     not made.
//   - PeakWords: an array made lives until the body whose statement made
//     it ends: a kernel body's arrays die with its iteration (as a loop's,
//     a fold operator's, a map body's and an if branch's with theirs); the
//     program's live to its end. A form's own array lives while its
//     iterations run.
//   - Kernels: each kernel, reduce, scan, redomap, scanomap, filter, iota
//     and copy evaluated outside the bodies of the others (loops and ifs
//     do not hide a launch).
//
// The counts do not depend on --jobs: a parallel kernel's goroutines
// count into forks of the counters (semantics.Stats.Fork), joined when
// they end, with the peak an iteration would reach run in sequence.

// SExpOps is the number of operator applications in e: its binary and
// unary operators and built-in functions (ints and floats alike).
func SExpOps(e SExp) int64 {
	switch e := e.(type) {
	case *BinOp:
		return 1 + SExpOps(e.L) + SExpOps(e.R)
	case *UnOp:
		return 1 + SExpOps(e.X)
	case *Call:
		return 1 + SExpOps(e.Arg)
	}
	return 0
}

// elems is the number of elements of an array of the given shape (the
// product; 1 for a scalar's empty shape).
func elems(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		n *= d
	}
	return n
}

// launch counts the start of a parallel form depth forms deep (in their
// bodies): a launch at the top.
func launch(st *semantics.Stats, depth int) {
	if depth == 0 {
		st.Kernels++
	}
}

// atomicCosts counts a statement without a body that has run, giving vs
// (evalAtomic's forms, and the scalar, index and assert statements),
// depth parallel forms deep.
func atomicCosts(st *semantics.Stats, depth int, s *Stm, vs []semantics.Array) {
	switch e := s.Exp.(type) {
	case *ScalarExp:
		st.Ops += SExpOps(e.X)
	case *IndexExp:
		st.Ops++
	case *AssertExp:
		st.Ops += 1 + SExpOps(e.Cond)
	case *IotaExp: // kernel xi <= x do in (xi): a launch writing n elements
		launch(st, depth)
		n := int64(len(vs[0].Data))
		st.Alloc(n)
		st.Ops += n
	case *CopyExp: // kernels indexing x: a read and a write per element
		launch(st, depth)
		n := int64(len(vs[0].Data))
		st.Alloc(n)
		st.Ops += 2 * n
	}
}

// filterCosts counts a filter of xs that has ended, giving ys: the rows
// read, and the array of the rows kept, made and written.
func filterCosts(st *semantics.Stats, xs, ys semantics.Array) {
	st.Ops += int64(len(xs.Data))
	filterKept(st, ys)
}

// filterKept counts the array ys of the rows a filter kept: made and
// written.
func filterKept(st *semantics.Stats, ys semantics.Array) {
	kept := int64(len(ys.Data))
	st.Alloc(kept)
	st.Ops += kept
}
