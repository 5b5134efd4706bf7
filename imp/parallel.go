package imp

import (
	"slices"
	"sync"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Parallel kernels. E-IMP-KERNEL runs a kernel's iterations in any order;
// the big-step runs them one after the other. A kernel whose iterations
// the race-freedom plan (racefree.go) proves independent (no location one
// writes is read or written by another) and whose body is straight-line
// code over the environment and the heap (declarations, assignments,
// reads, writes, asserts, ifs and fors: no allocation, nested kernel or
// fold) runs its
// iterations on up to Options.Jobs goroutines when it is large, each
// over a contiguous range of indices in order, in its own copy of the
// environment and its own compilation of the body (the compiled body's
// hoisted sums keep per-start caches, which goroutines may not share).
//
// The outcome is the sequential one. The words the iterations write are
// distinct, and no iteration reads what another writes, so every
// iteration computes what it computes in order. Where iterations go
// wrong, the error is the first by index, as in order; the iterations
// after it, which the sequential run never starts, have their writes
// undone from a log each goroutine keeps (a word's old value: race
// freedom makes it the value before the kernel). The environment after
// the kernel is the one before it, as the sequential run restores it.
// Only a plain run goes parallel: no trace, rule counts or cost counters,
// whose records would need the iterations' order.

// minParallelWork is the work (iterations × statements of the body) from
// which a kernel is spread over goroutines (a variable for tests).
var minParallelWork int64 = 8192

// parallelizable says whether a kernel's body may run on goroutines:
// code over the environment and the heap's words, with ifs and fors. An
// allocation (whose label depends on the order of allocations), a nested
// kernel or fold (which may push a race tracker on the heap) keeps the
// kernel in order.
func parallelizable(body []Stmt) bool {
	for _, s := range body {
		switch s := s.(type) {
		case *Decl, *Assign, *Read, *Write, *Assert, *Skip:
		case *If:
			if !parallelizable(s.Then) && len(s.Then) > 0 || !parallelizable(s.Else) && len(s.Else) > 0 {
				return false
			}
		case *For:
			if !parallelizable(s.Body) && len(s.Body) > 0 {
				return false
			}
		default:
			return false
		}
	}
	return len(body) > 0
}

// undoWrite is a word a worker wrote: where, what it held before, and the
// iteration that wrote it.
type undoWrite struct {
	loc  semantics.Loc
	old  int64
	iter int64
}

// parallelWorkers is how many goroutines kernel c of n iterations may use
// (1: run it in order).
func (m *machine) parallelWorkers(c *cstmt, n int64) int {
	if !c.par || m.opts.Trace != nil || len(m.logs) > 0 || m.stats != nil || m.counter != nil || !m.h.Plain() {
		return 1
	}
	jobs := semantics.Jobs(m.opts.Jobs)
	if jobs <= 1 || n < 2 || n*int64(len(c.body)) < minParallelWork {
		return 1
	}
	return int(min(int64(jobs), n))
}

// worker is a machine for one goroutine of kernel c: m's heap and slots,
// its own environment (a copy of m's) and its own compilation of the
// kernel's body, whose copy of c it gives too.
func (m *machine) worker(c *cstmt, s *Kernel) (*machine, *cstmt) {
	w := &machine{opts: m.opts, h: m.h, names: m.names, slots: m.slots, env: slices.Clone(m.env), undo: make([]undoWrite, 0, min(parallelWindow, 1<<14))}
	w.intLookup = func(x *fun.Ident, rule string) (int64, error) {
		sl := w.lookup(x)
		return intOf(x, sl.v, sl.ok, rule)
	}
	w.numLookup = func(x *fun.Ident, rule string) (semantics.Num, error) {
		sl := w.lookup(x)
		return numOf(x, sl.v, sl.ok, rule)
	}
	wc := *c
	wc.epoch, wc.buf = 0, make([]slot, len(c.buf))
	w.inScope(&wc, nil, func() { wc.body = w.inLoop(&wc, s.Body) })
	wc.epoch++ // its one start
	return w, &wc
}

// parallelWindow is how many iterations each goroutine runs before all
// meet: an error is looked for, and the logs of written words start
// again, once per window (so the logs stay small and are reused). A
// variable for tests.
var parallelWindow int64 = 1 << 14

// parallelKernel runs iterations 1 … n of kernel c (s) on w goroutines;
// m's environment is as it was when it returns.
func (m *machine) parallelKernel(c *cstmt, s *Kernel, n int64, w int) error {
	if m.onParallel != nil {
		m.onParallel()
	}
	type outcome struct {
		errAt    int64 // the iteration that went wrong; 0 for none
		err      error
		panicked any
	}
	outcomes := make([]outcome, w)
	workers := make([]*machine, w)
	bodies := make([]*cstmt, w)
	for k := range workers {
		workers[k], bodies[k] = m.worker(c, s)
		workers[k].save(bodies[k].save, bodies[k].buf)
	}
	window := int64(w) * parallelWindow
	for lo := int64(1); lo <= n; lo += window {
		hi := min(lo+window-1, n)
		chunk := (hi - lo + int64(w)) / int64(w)
		var wg sync.WaitGroup
		for k := range w {
			from, to := lo+int64(k)*chunk, min(lo+int64(k+1)*chunk-1, hi)
			wg.Add(1)
			go func() {
				defer wg.Done()
				wm, wc, o := workers[k], bodies[k], &outcomes[k]
				defer func() {
					if r := recover(); r != nil {
						o.panicked = r
					}
				}()
				wm.undo = wm.undo[:0]
				for i := from; i <= to; i++ {
					wm.iter = i
					wm.env[wc.x] = slot{v: Value{K: i}, ok: true}
					if err := wm.run(wc.body); err != nil {
						o.errAt, o.err = i, err
						return
					}
					wm.restoreKeep(wc)
				}
			}()
		}
		wg.Wait()
		var first *outcome
		for k := range outcomes {
			o := &outcomes[k]
			if o.panicked != nil {
				panic(o.panicked)
			}
			if o.err != nil && (first == nil || o.errAt < first.errAt) {
				first = o
			}
		}
		if first != nil {
			// The iterations after the first that went wrong never
			// started: their words get back what they held.
			for _, wm := range workers {
				u := wm.undo
				for j := len(u) - 1; j >= 0; j-- {
					if u[j].iter > first.errAt {
						m.h.Block(u[j].loc.Block)[u[j].loc.Offset] = u[j].old
					}
				}
			}
			return first.err
		}
	}
	m.counter.Hit(EImpKernel.Name)
	return nil
}
