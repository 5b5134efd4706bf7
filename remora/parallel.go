package remora

import (
	"sync"

	"github.com/arraysem/arraysem/semantics"
)

// Parallel maps. The big-step applies a function cell by cell where no
// flat loop or whole-frame evaluation applies (apply's general path).
// The cells are independent: evaluation has no effects, so a large map
// in a plain run (no rule counts) calls its cells on up to
// EvalOptions.Jobs goroutines, each over a contiguous range of cells in
// order, each with an evaluator of its own that runs sequentially (maps
// nested in a cell's call do not spread further). The outcome is the
// in-order one: where cells go wrong (a call's error, or a result cell
// whose shape is not the first cell's) the error is the first by index.

// defaultMinParallelCells is the number of cells from which a map's
// calls are spread over goroutines (Engines.MinParallelCells).
const defaultMinParallelCells = 1024

// mapWorkers is how many goroutines a map of n cells may use (1: in
// order).
func (ev *evaluator) mapWorkers(n int) int {
	least := ev.engines.MinParallelCells
	if least == 0 {
		least = defaultMinParallelCells
	}
	if ev.counter != nil || n < least {
		return 1
	}
	return min(semantics.Jobs(ev.jobs), n)
}

// callCells computes results[p] = call(cell p) for p in [0, n), with
// cell(p) the function and the arguments of cell p, on w goroutines, and
// checks that every result cell has the first's shape; the error is the
// first cell's by index that went wrong.
func (ev *evaluator) callCells(w, n int, results []*Value, cell func(p int, cur []*Value) *Func, nargs int, pos semantics.Pos) error {
	if onParallel := ev.engines.OnParallel; onParallel != nil {
		onParallel()
	}
	type outcome struct {
		errAt    int
		err      error
		panicked any
	}
	outcomes := make([]outcome, w)
	chunk := (n + w - 1) / w
	var wg sync.WaitGroup
	for k := range w {
		from, to := k*chunk, min((k+1)*chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			o := &outcomes[k]
			o.errAt = n
			defer func() {
				if r := recover(); r != nil {
					o.panicked = r
				}
			}()
			wev := &evaluator{jobs: 1, engines: ev.engines}
			cur := make([]*Value, nargs)
			for p := from; p < to; p++ {
				r, err := wev.call(cell(p, cur), cur, pos)
				if err != nil {
					o.errAt, o.err = p, err
					return
				}
				results[p] = r
			}
		}()
	}
	wg.Wait()
	errAt := n
	var err error
	for k := range outcomes {
		o := &outcomes[k]
		if o.panicked != nil {
			panic(o.panicked)
		}
		if o.err != nil && o.errAt < errAt {
			errAt, err = o.errAt, o.err
		}
	}
	// In order, cell p's shape is checked before cell p+1 is called.
	for p := 0; p < errAt; p++ {
		if !semantics.SameShape(results[p].Shape, results[0].Shape) {
			return cellShapes(pos, results[0], results[p])
		}
	}
	return err
}
