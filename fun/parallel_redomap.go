package fun

import (
	"slices"
	"sync"
	"sync/atomic"
)

// A redomap's map bodies in parallel (parallel.go does kernels). The map
// bodies of different elements are independent, as a kernel's iterations
// are; the operator steps are not (each takes the accumulator the one
// before made). So a large plain run takes the elements a window at a
// time: the window's map bodies run on up to w goroutines, each with its
// own copy of the frame, into a buffer indexed by element; then the
// operator folds the buffer in order, on the caller's frame. When a map
// body goes wrong, the elements before it are folded first, and their
// operator steps' error, if any, is the one reported: E-REDOMAP's order,
// map i then op i, meets it first. The values and errors are the
// sequential run's.

// mapWindow is the number of elements per goroutine a window holds:
// enough to keep the goroutines busy between folds, few enough that the
// buffer of map values stays small.
const mapWindow = 4096

// parallelMap runs elements 1 … n of a redomap whose map body is body
// (index in slot iv of fr) on w goroutines, handing each element's map
// value to combine in order.
// The goroutines count into forks of m's cost counters.
func parallelMap(m *machine, w int, fr []val, iv int, n int64, body *bodyCode, e *RedomapExp, combine func(i int64, f val) error) error {
	window := int64(w) * mapWindow
	buf := make([]val, min(window, n))
	for lo := int64(1); lo <= n; lo += window {
		hi := min(lo+window-1, n)
		stop, err := mapRange(m, w, fr, iv, lo, hi, body, e, buf)
		for i := lo; i < stop; i++ {
			if err := combine(i, buf[i-lo]); err != nil {
				return err
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// mapRange runs the map bodies of elements lo … hi on up to w goroutines
// into buf (element i at i-lo). It returns the first element whose map
// body went wrong, with its error, or hi+1 and nil.
func mapRange(m *machine, w int, fr []val, iv int, lo, hi int64, body *bodyCode, e *RedomapExp, buf []val) (int64, error) {
	n := hi - lo + 1
	w = int(min(int64(w), n))
	chunk := max(n/int64(w*chunksPerWorker), 1)
	type outcome struct {
		errAt    int64 // the element (from 0 in the range) that went wrong; n for none
		err      error
		panicked any
	}
	outcomes := make([]outcome, w)
	machines := make([]*machine, w)
	for k := range machines {
		machines[k] = m.worker()
	}
	var next atomic.Int64 // the first element of the next chunk
	var stop atomic.Int64 // chunks from here on need not run: an element before went wrong
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
				from := next.Add(chunk) - chunk
				if from >= n || from >= stop.Load() {
					return
				}
				for j := from; j < min(from+chunk, n); j++ {
					fr[iv] = intVal(lo + j)
					_, err := body.run(m, fr)
					if err == nil {
						err = mapArity(e, len(body.results))
					}
					if err != nil {
						o.errAt, o.err = j, err
						for s := stop.Load(); j < s && !stop.CompareAndSwap(s, j); s = stop.Load() {
						}
						return // the chunks left are after j
					}
					buf[j] = fr[body.results[0]]
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
	return lo + first.errAt, first.err
}
