package semantics

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

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
//
// Each goroutine appends to its own log at every write, so a log fills a
// cache line of its own (CacheLine).
type WriteLog struct {
	entries []logged
	_       [CacheLine - 24]byte
}

// CacheLine is the size of a cache line on the machines we run on, in
// bytes. What the goroutines of a parallel kernel write at every iteration
// (their frames, logs and counters) is kept at least this far apart:
// objects allocated side by side may share a line, and then each write
// takes the line from the other core (false sharing). FUNMEM's jobs row
// read 1.1× with its goroutines' logs side by side, 1.6× with them apart.
const CacheLine = 64

// Apart is a copy of s for one goroutine of a parallel kernel to write:
// with a cache line of spare capacity after its end, so that no other
// object's words share a line with its last ones.
func Apart[T any](s []T) []T {
	var t T
	spare := (CacheLine + int(unsafe.Sizeof(t)) - 1) / max(int(unsafe.Sizeof(t)), 1)
	return append(make([]T, 0, len(s)+spare), s...)
}

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

// DefaultParallelWindow is how many iterations a window holds for each
// goroutine. The goroutines meet at the end of each window: an error is
// looked for, and the logs start again (so they stay small and are
// reused). A run may choose another (the tests choose 3, so that errors
// come in later windows).
const DefaultParallelWindow int64 = 1 << 14

// ParallelIterations runs iterations 1 … n on len(logs) goroutines, in
// windows of window iterations a goroutine (DefaultParallelWindow when 0):
// within a window the goroutines take chunks of consecutive iterations in
// increasing order as each becomes free, so that a goroutine slowed by
// the machine does not hold the others at the window's end; run(k, i)
// runs iteration i on goroutine k, which notes its writes in logs[k]. It
// returns the first error by index (nil for none), after undoing the
// writes of the iterations after it (on heap h). A panic in an iteration
// is raised again here.
//
// Every chunk before the first error by index runs to its end: chunks are
// taken in order, a goroutine runs its chunks in order and stops at its
// first error, and a chunk is skipped only when it starts after an error
// already seen.
func ParallelIterations(h *Heap, n int64, logs []*WriteLog, window int64, run func(k int, i int64) error) error {
	w := len(logs)
	type outcome struct {
		errAt    int64
		err      error
		panicked any
		_        [CacheLine]byte // each goroutine writes its own
	}
	outcomes := make([]outcome, w)
	if window <= 0 {
		window = DefaultParallelWindow
	}
	chunk := max(window/chunksPerWindow, 1)
	window *= int64(w)
	for lo := int64(1); lo <= n; lo += window {
		hi := min(lo+window-1, n)
		var next atomic.Int64 // the first iteration of the next chunk
		var stop atomic.Int64 // the first iteration known to go wrong
		next.Store(lo)
		stop.Store(hi + 1)
		var wg sync.WaitGroup
		for k := range w {
			wg.Add(1)
			go func() {
				defer wg.Done()
				o := &outcomes[k]
				defer func() {
					if r := recover(); r != nil {
						o.panicked = r
						stop.Store(lo - 1)
					}
				}()
				logs[k].reset()
				for {
					from := next.Add(chunk) - chunk
					if from > hi || from >= stop.Load() {
						return
					}
					for i := from; i <= min(from+chunk-1, hi); i++ {
						if err := run(k, i); err != nil {
							o.errAt, o.err = i, err
							for s := stop.Load(); i < s && !stop.CompareAndSwap(s, i); s = stop.Load() {
							}
							return // its chunks to come are after i
						}
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

// chunksPerWindow is how many chunks a goroutine's share of a window is
// cut into for the goroutines to take (ParallelIterations): enough that
// the last one taken is short beside the window.
const chunksPerWindow = 16

// MinParallelCopy is the number of words from which a copy goes on
// several goroutines (CloneJobs, IMP's copy kernels): below it, starting
// them costs more than they save.
const MinParallelCopy = 1 << 16

// CloneJobs is a copy of s, made on up to Jobs(jobs) goroutines when s is
// large (each a range of it): a run's results copied out of its heap are
// a part of the run that a second core otherwise leaves to one (the
// copy's pages are first touched as it is written).
func CloneJobs(s []int64, jobs int) []int64 {
	if len(s) == 0 {
		return nil // as append([]int64(nil), s...)
	}
	out := make([]int64, len(s))
	w := 1
	if len(s) >= MinParallelCopy {
		w = Jobs(jobs)
	}
	if w <= 1 {
		copy(out, s)
		return out
	}
	var wg sync.WaitGroup
	for k := range w {
		lo, hi := len(s)*k/w, len(s)*(k+1)/w
		wg.Go(func() { copy(out[lo:hi], s[lo:hi]) })
	}
	wg.Wait()
	return out
}
