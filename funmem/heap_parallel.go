package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Parallel kernels in the heap semantics. E-MEM-KERNEL's iterations may
// run in any order. A kernel that cannot race (heaprace.go: it writes only
// its own rows of a destination no array it reads lives in) and whose
// body computes scalars (E-MEM-SCALAR, E-MEM-INDEX: no allocation, copy
// or nested form, which would write the heap or allocate labels whose
// numbers depend on the order) runs its iterations on up to
// HeapOptions.Jobs goroutines when it is large, each over a range of
// indices in order, in its own copy of the frame. Each iteration stores
// one word, its item; the outcome is the in-order one
// (semantics.ParallelIterations): where iterations go wrong the error is
// the first by index, and the items stored by the iterations after it,
// which the in-order run never starts, are undone. Only a plain run goes
// parallel: no trace, rule counts or cost counters.

// defaultMinParallelWork is the work (iterations × statements of the
// body) from which a kernel is spread over goroutines
// (HeapOptions.MinParallelWork).
const defaultMinParallelWork int64 = 8192

// scalarBody says whether kernel e's body may run on goroutines: scalar
// and index statements, giving a value its own statements or the index
// bind (an item of one word).
func scalarBody(e *fun.KernelExp) bool {
	b := e.Body
	if len(b.Stms) == 0 || len(b.Result) != 1 {
		return false
	}
	bound := map[string]bool{e.Var.Name: true}
	for _, s := range b.Stms {
		switch s.Exp.(type) {
		case *fun.ScalarExp, *fun.IndexExp:
		default:
			return false
		}
		for _, p := range s.Pat {
			bound[p.Name.Name] = true
		}
	}
	return bound[b.Result[0].Name]
}

// parallelWorkers is how many goroutines a kernel of n iterations whose
// body runs stms statements may use (1: run it in order).
func (m *heapMachine) parallelWorkers(n int64, stms int) int {
	if m.trace || m.stats != nil || m.opts.Counter != nil || !m.h.Plain() {
		return 1
	}
	jobs := semantics.Jobs(m.opts.Jobs)
	least := m.opts.MinParallelWork
	if least == 0 {
		least = defaultMinParallelWork
	}
	if jobs <= 1 || n < 2 || n*int64(stms) < least {
		return 1
	}
	return int(min(int64(jobs), n))
}

// parallelKernel runs iterations 1 … n of kernel k (body over frame fr,
// index in slot iv) on w goroutines, each with its own copy of fr (kept
// apart from the others': semantics.CacheLine).
func (m *heapMachine) parallelKernel(k *kernel, body *hbody, fr []Value, iv int, n int64, w int) error {
	if m.opts.OnParallel != nil {
		m.opts.OnParallel()
	}
	frames := make([][]Value, w)
	machines := make([]*heapMachine, w)
	logs := make([]*semantics.WriteLog, w)
	for j := range w {
		frames[j] = semantics.Apart(fr)
		machines[j] = &heapMachine{opts: m.opts, h: m.h}
		logs[j] = &semantics.WriteLog{}
	}
	return semantics.ParallelIterations(m.h, n, logs, m.opts.ParallelWindow, func(j int, i int64) error {
		wfr := frames[j]
		wfr[iv] = Value{Kind: IntVal, K: i}
		if i&semantics.PollMask == 0 { // Ctrl-C, as the kernel in order notices it
			if err := m.opts.Budget.Spend(0, k.s.Exp.Pos(), EMemKernel.Name); err != nil {
				return err
			}
		}
		if err := body.run(machines[j], wfr); err != nil {
			return err
		}
		if len(body.results) != 1 {
			return semantics.Stuckf(k.s.Pat[0].Lparen, EMemKernel.Name, "a kernel body returns one value, not %d", len(body.results))
		}
		v := &wfr[body.results[0]]
		if v.Kind == IntVal {
			// The word the item goes to, as storeValue finds it.
			if dst, err := k.dest.L.Index(i); err == nil && dst.Rank() == 0 {
				if b := m.h.Block(k.dest.Block); uint64(dst.Offset) < uint64(len(b)) {
					logs[j].Note(semantics.Loc{Block: k.dest.Block, Offset: dst.Offset}, b[dst.Offset], i)
				}
			}
		}
		return k.storeValue(m.h, i, v)
	})
}
