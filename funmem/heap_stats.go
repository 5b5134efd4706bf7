package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Cost counters (semantics.Stats) of the heap-based semantics, as the
// compiled big-step (heapcompile*.go), the tree walker (heap.go) and the
// small-step (step.go) count them:
//
//   - Ops: each heap word read or written (semantics.Heap.Count): an
//     E-MEM-INDEX read, a kernel's store of an int (a write) or of an
//     array (a memcpy: a read and a write per element), iota's writes,
//     copy's reads and writes, a fold's or filter's int rows read (an
//     array row is bound by reference: none), the rows a scan, scanomap
//     or filter stores; and a scalar statement's operators, an
//     assertion's check and operators. LMAD arithmetic counts nothing.
//   - Allocs, Words: each alloc se evaluated, of E(se) words; the inputs'
//     blocks are not counted.
//   - PeakWords: a block lives while its variable is in scope: until the
//     body whose statement allocated it ends (a kernel iteration, a loop
//     iteration, a fold's operator step, a map body, an if branch), or
//     the program does.
//   - Kernels: each kernel, reduce, scan, filter, redomap, scanomap, iota
//     and copy evaluated outside the bodies of the others.
//
// The value-based semantics is FUN's big-step on the unmem'd program
// (Fig 9), and counts as FUN does.

// atomicCosts counts a statement without a body that has run, giving vs,
// depth parallel forms deep (its heap words are counted by the heap).
func atomicCosts(st *semantics.Stats, depth int, h *semantics.Heap, s *fun.Stm, vs []Value) {
	switch e := s.Exp.(type) {
	case *fun.ScalarExp:
		st.Ops += fun.SExpOps(e.X)
	case *fun.AssertExp:
		st.Ops += 1 + fun.SExpOps(e.Cond)
	case *AllocExp:
		st.Alloc(int64(len(h.Block(vs[0].Block))))
	case *fun.IotaExp, *fun.CopyExp:
		launch(st, depth)
	}
}

// launch counts the start of a parallel form depth forms deep: a launch
// at the top.
func launch(st *semantics.Stats, depth int) {
	if depth == 0 {
		st.Kernels++
	}
}

// parallel reports whether e is a parallel form with a body (a kernel,
// reduce, scan, filter, redomap or scanomap; not a loop).
func parallel(e fun.Exp) bool {
	switch e.(type) {
	case *fun.KernelExp, *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp, *fun.RedomapExp:
		return true
	}
	return false
}
