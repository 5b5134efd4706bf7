package imp

import (
	"github.com/arraysem/arraysem/semantics"
)

// Parallel kernels. E-IMP-KERNEL runs a kernel's iterations in any order;
// the big-step runs them one after the other. A kernel whose iterations
// the race-freedom plan (racefree.go) proves independent (no location one
// writes is read or written by another) and whose body works on the
// environment and the heap's words (declarations, assignments, reads,
// writes, asserts, ifs and fors: no allocation, nested kernel or fold)
// runs its iterations on up to Options.Jobs goroutines when it is large,
// each over a contiguous range of indices in order, in its own copy of
// the environment and its own compilation of the body (the compiled
// body's hoisted sums keep per-start caches, which goroutines may not
// share).
//
// The outcome is the sequential one (semantics.ParallelIterations): the
// first error by index, the writes of the iterations after it undone.
// The environment after the kernel is the one before it, as the
// sequential run restores it. Only a plain run goes parallel: no trace,
// rule counts or cost counters, whose records would need the iterations'
// order.

// DefaultMinParallelWork is the work (iterations × statements of the
// body) from which a kernel is spread over goroutines, unless a run sets
// its own (Options.MinParallelWork).
const DefaultMinParallelWork = 8192

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

// parallelWorkers is how many goroutines kernel c of n iterations may use
// (1: run it in order).
func (m *machine) parallelWorkers(c *cstmt, n int64) int {
	if !c.par || m.opts.Trace != nil || len(m.logs) > 0 || m.stats != nil || m.counter != nil || !m.h.Plain() {
		return 1
	}
	jobs := semantics.Jobs(m.opts.Jobs)
	minWork := m.opts.MinParallelWork
	if minWork <= 0 {
		minWork = DefaultMinParallelWork
	}
	if jobs <= 1 || n < 2 || n*int64(len(c.body)) < minWork {
		return 1
	}
	return int(min(int64(jobs), n))
}

// worker is a machine for one goroutine of kernel c: m's heap and slots,
// its own environment (a copy of m's) and its own compilation of the
// kernel's body, whose copy of c it gives too.
//
// What the goroutine writes at every iteration (the machine's iteration,
// the environment, the body's buffers) is allocated apart from the other
// goroutines' (semantics.CacheLine).
func (m *machine) worker(c *cstmt, s *Kernel) (*machine, *cstmt) {
	ws := &struct {
		m machine
		c cstmt
		e cext
		_ [semantics.CacheLine]byte
	}{m: machine{opts: m.opts, h: m.h, names: m.names, slots: m.slots, env: semantics.Apart(m.env), undo: &semantics.WriteLog{}}, c: *c}
	w, wc := &ws.m, &ws.c
	ws.e = *c.cext // the worker's own body, buffers and starts
	wc.cext = &ws.e
	w.lookups()
	wc.epoch, wc.buf = 0, semantics.Apart(make([]slot, len(c.buf)))
	w.inScope(wc, nil, func() { wc.body = w.inLoop(wc, s.Body, true) })
	wc.epoch++ // its one start
	return w, wc
}

// parallelKernel runs iterations 1 … n of kernel c (s) on w goroutines
// (semantics.ParallelIterations); m's environment is as it was when it
// returns.
func (m *machine) parallelKernel(c *cstmt, s *Kernel, n int64, w int) error {
	if m.onParallel != nil {
		m.onParallel()
	}
	workers := make([]*machine, w)
	bodies := make([]*cstmt, w)
	logs := make([]*semantics.WriteLog, w)
	for k := range workers {
		workers[k], bodies[k] = m.worker(c, s)
		workers[k].save(bodies[k].save, bodies[k].buf)
		logs[k] = workers[k].undo
	}
	err := semantics.ParallelIterations(m.h, n, logs, m.opts.ParallelWindow, func(k int, i int64) error {
		wm, wc := workers[k], bodies[k]
		wm.iter = i
		wm.env[wc.x].setNum(semantics.IntNum(i))
		if err := wm.poll(i, s); err != nil {
			return err
		}
		if err := wm.run(wc.body); err != nil {
			return err
		}
		wm.restoreKeep(wc)
		return nil
	})
	if err == nil {
		m.counter.Hit(EImpKernel.Name)
	}
	return err
}
