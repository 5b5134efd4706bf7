package semantics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKernelTrace checks the trace's two forms against a reference of
// one read set and one write set per iteration: a kernel whose
// iterations run in order (the flat form: all the same size, the same
// size but the last, sizes that start to differ), one that turns to an
// out-of-order schedule part way (the flat form turned into sets), and
// the same through a tracker, whose Start and accesses feed it.
func TestKernelTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for run := range 600 {
		iters := 1 + rng.IntN(40)
		uniform := run%3 == 0               // every iteration the same size
		differFrom := 1 + rng.IntN(iters+1) // the first iteration whose size may differ
		outOfOrder := run%4 == 1            // later iterations revisited
		viaTracker := run%2 == 0
		ref := make([]IterAccess, iters)
		var tr *KernelTrace
		var tk *Tracker
		var h *Heap
		if viaTracker {
			h = &Heap{}
			h.Alloc(1 << 20)
			tk = NewTracker(true)
			tk.TraceOnly = true // accesses are random: this test is not about races
			tk.Expect(int64(iters))
			h.Push(tk)
			tr = tk.Trace
		} else {
			tr = NewKernelTrace(int64(iters), 1, 1)
		}
		nr, nw := rng.IntN(4), rng.IntN(3)
		access := func(it int, write bool) {
			loc := Loc{1, rng.Int64N(1 << 20)}
			switch {
			case viaTracker && write:
				if err := h.Write(loc, 1); err != nil {
					t.Fatal(err)
				}
			case viaTracker:
				if _, err := h.Read(loc); err != nil {
					t.Fatal(err)
				}
			case write:
				tr.Write(loc)
			default:
				tr.Read(loc)
			}
			if write {
				ref[it-1].Writes = append(ref[it-1].Writes, loc)
			} else {
				ref[it-1].Reads = append(ref[it-1].Reads, loc)
			}
		}
		start := func(it int) {
			if viaTracker {
				tk.Start(int64(it))
			} else {
				tr.Next()
			}
		}
		for it := 1; it <= iters; it++ {
			start(it)
			r, w := nr, nw
			if !uniform && it >= differFrom {
				r, w = rng.IntN(5), rng.IntN(3)
			}
			for range r {
				access(it, false)
			}
			for range w {
				access(it, true)
			}
		}
		if outOfOrder && viaTracker {
			for range 20 {
				it := 1 + rng.IntN(iters)
				tk.Start(int64(it))
				access(it, rng.IntN(3) == 0)
			}
		}
		if tr.Len() != iters {
			t.Fatalf("run %d: %d iterations traced, want %d", run, tr.Len(), iters)
		}
		got := tr.Iters()
		for i := range ref {
			if !slices.Equal(got[i].Reads, ref[i].Reads) || !slices.Equal(got[i].Writes, ref[i].Writes) {
				t.Fatalf("run %d: iteration %d traced %v %v, want %v %v", run, i+1, got[i].Reads, got[i].Writes, ref[i].Reads, ref[i].Writes)
			}
			a := tr.At(i + 1)
			if !slices.Equal(a.Reads, ref[i].Reads) || !slices.Equal(a.Writes, ref[i].Writes) {
				t.Fatalf("run %d: At(%d) is %v %v, want %v %v", run, i+1, a.Reads, a.Writes, ref[i].Reads, ref[i].Writes)
			}
		}
		// The sets are capped: appending to one leaves the next alone.
		if iters >= 2 {
			next := slices.Clone(tr.At(2).Reads)
			_ = append(tr.At(1).Reads, Loc{9, 9})
			if !slices.Equal(tr.At(2).Reads, next) {
				t.Fatalf("run %d: appending to iteration 1's reads changed iteration 2's", run)
			}
		}
	}
}
