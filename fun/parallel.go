package fun

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Parallel kernels. The iterations of a kernel are independent: a body
// reads the environment it starts in, binds only its own variables, and
// arrays are values, so iteration i's value does not depend on when the
// others run. A large kernel of a plain run (no derivation, no rule
// counts: those are built in order) therefore runs its iterations on up
// to EvalOptions.Jobs goroutines, each with its own copy of the frame,
// taking chunks of consecutive iterations in increasing order and writing
// item i at its own place of the stack. The result is the sequential
// one: items are stacked by index, and when iterations go wrong the error
// is that of the first by index (the one a sequential run meets), since
// every chunk before it runs to its end. Kernels nested in a parallel one
// run sequentially on their goroutine.

// DefaultMinParallelWork is the work (iterations × statements per
// iteration) under which a kernel stays on one goroutine, unless a run
// sets its own (EvalOptions.MinParallelWork): starting goroutines and
// copying frames costs a few microseconds, a statement tens of
// nanoseconds.
const DefaultMinParallelWork = 4096

// chunksPerWorker is how many chunks each goroutine gets on average, so
// that one slow chunk (a body whose work depends on the index) does not
// leave the others idle.
const chunksPerWorker = 8

// workers is the number of goroutines a kernel of n iterations of a body
// of the given weight runs on.
func (m *machine) workers(n int64, weight int) int {
	if m.jobs <= 1 || !m.plain || n < 2 || n*int64(weight) < m.minWork {
		return 1
	}
	return int(min(int64(m.jobs), n))
}

// parallelKernel runs iterations 1 … n of a kernel's body on w goroutines,
// from the frame fr (index variable in slot iv), into st; a returned error
// is the first iteration's by index, and mis the first item that did not
// fit.
func parallelKernel(m *machine, w int, fr []val, iv int, n int64, body *bodyCode, e *KernelExp, st *stacker, mis *misfit) error {
	mises := make([]misfit, w) // each goroutine's first misfit
	for k := range mises {
		mises[k] = noMisfit()
	}
	_, err := parallelBody(m, w, fr, iv, 1, n, body,
		func(results int) error { return kernelArity(e, results) },
		func(k int, i int64, v *val) {
			if !st.put(i, v) {
				mises[k].note(i, v)
			}
		})
	for k := range mises {
		if mises[k].at >= 0 {
			mis.note(mises[k].at, &mises[k].v)
		}
	}
	return err
}

// parallelBody runs body for j = 0 … n-1, with the index variable (slot iv
// of fr) base + j, on w goroutines, each with its own copy of the frame,
// taking chunks of consecutive j in increasing order; arity checks the
// body's results, and store(k, j, v) keeps goroutine k's value of j. It
// returns the first j by index that went wrong with its error (every
// chunk before it has run to its end), or n and nil.
//
// The goroutines' machines are m's workers: their cost counters are
// joined into m's when all have ended.
func parallelBody(m *machine, w int, fr []val, iv int, base, n int64, body *bodyCode, arity func(int) error, store func(k int, j int64, v *val)) (int64, error) {
	w = int(min(int64(w), n))
	chunk := max(n/int64(w*chunksPerWorker), 1)
	type outcome struct {
		errAt    int64 // the j that went wrong; n for none
		err      error
		panicked any
	}
	outcomes := make([]outcome, w)
	machines := make([]*machine, w)
	for k := range machines {
		machines[k] = m.worker()
	}
	var next atomic.Int64 // the first j of the next chunk
	var stop atomic.Int64 // chunks from here on need not run: a j before went wrong
	stop.Store(n)
	var wg sync.WaitGroup
	for k := range outcomes {
		o := &outcomes[k]
		o.errAt = n
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					o.panicked = p
					stop.Store(-1)
				}
			}()
			m := machines[k]
			fr := slices.Clone(fr)
			for {
				lo := next.Add(chunk) - chunk
				if lo >= n || lo >= stop.Load() {
					return
				}
				for j := lo; j < min(lo+chunk, n); j++ {
					fr[iv] = intVal(base + j)
					_, err := body.run(m, fr)
					if err == nil {
						err = arity(len(body.results))
					}
					if err != nil {
						o.errAt, o.err = j, err
						for s := stop.Load(); j < s && !stop.CompareAndSwap(s, j); s = stop.Load() {
						}
						return // the chunks left are after j
					}
					store(k, j, &fr[body.results[0]])
				}
			}
		}()
	}
	wg.Wait()
	m.join(machines)
	first := &outcomes[0]
	for k := range outcomes {
		o := &outcomes[k]
		if o.panicked != nil {
			panic(o.panicked) // a bug in the evaluator: as it would have panicked sequentially
		}
		if o.errAt < first.errAt {
			first = o
		}
	}
	return first.errAt, first.err
}
