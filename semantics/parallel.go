package semantics

import "sync"

// Parallel kernels with the sequential outcome. A big-step may run a
// kernel's iterations on several goroutines when the iterations are
// independent: no word one writes is read or written by another (racefree,
// eq 4, proved before the kernel starts). Each goroutine then computes
// what it computes in order. What differs is where iterations go wrong:
// in order, the first error by index ends the kernel and the iterations
// after it never start. ParallelIterations gives that error, and has the
// writes of the iterations after it undone from logs the goroutines keep
// (WriteLog): race freedom makes a word's old value its value before the
// kernel.

// WriteLog is the words a goroutine of a parallel kernel wrote: where,
// what each held before, and the iteration that wrote it.
type WriteLog struct{ entries []logged }

type logged struct {
	loc  Loc
	old  int64
	iter int64
}

// Note records that iteration iter is about to write loc, which holds
// old.
func (l *WriteLog) Note(loc Loc, old, iter int64) {
	l.entries = append(l.entries, logged{loc, old, iter})
}

// Undo gives back their old values to the words written by iterations
// after iteration after, newest first.
func (l *WriteLog) Undo(h *Heap, after int64) {
	for j := len(l.entries) - 1; j >= 0; j-- {
		if e := l.entries[j]; e.iter > after {
			h.Block(e.loc.Block)[e.loc.Offset] = e.old
		}
	}
}

// reset empties the log, keeping its memory.
func (l *WriteLog) reset() { l.entries = l.entries[:0] }

// DefaultParallelWindow is how many iterations each goroutine runs
// before all meet: an error is looked for, and the logs start again, once
// per window (so they stay small and are reused). A run may choose
// another (the tests choose 3, so that errors come in later windows).
const DefaultParallelWindow int64 = 1 << 14

// ParallelIterations runs iterations 1 … n on len(logs) goroutines, in
// windows of window iterations a goroutine (DefaultParallelWindow when 0),
// goroutine k over a contiguous range of each window in order:
// run(k, i) runs iteration i on goroutine k, which notes its writes in
// logs[k]. It returns the first error by index (nil for none), after
// undoing the writes of the iterations after it (on heap h). A panic in
// an iteration is raised again here.
func ParallelIterations(h *Heap, n int64, logs []*WriteLog, window int64, run func(k int, i int64) error) error {
	w := len(logs)
	type outcome struct {
		errAt    int64
		err      error
		panicked any
	}
	outcomes := make([]outcome, w)
	if window <= 0 {
		window = DefaultParallelWindow
	}
	window *= int64(w)
	for lo := int64(1); lo <= n; lo += window {
		hi := min(lo+window-1, n)
		chunk := (hi - lo + int64(w)) / int64(w)
		var wg sync.WaitGroup
		for k := range w {
			from, to := lo+int64(k)*chunk, min(lo+int64(k+1)*chunk-1, hi)
			wg.Add(1)
			go func() {
				defer wg.Done()
				o := &outcomes[k]
				defer func() {
					if r := recover(); r != nil {
						o.panicked = r
					}
				}()
				logs[k].reset()
				for i := from; i <= to; i++ {
					if err := run(k, i); err != nil {
						o.errAt, o.err = i, err
						return
					}
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
			for _, l := range logs {
				l.Undo(h, first.errAt)
			}
			return first.err
		}
	}
	return nil
}
