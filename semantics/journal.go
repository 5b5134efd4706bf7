package semantics

// The undo journal makes a heap's history persistent without copying it:
// every change the semantics makes to a journaled heap (an allocation, a
// write, a kernel's tracker pushed or popped, an access recorded for
// eq 4, an iteration started) logs how to undo itself, so that a stepper
// that keeps its (persistent) configurations can go back to an earlier
// step by undoing the heap to that step's mark, instead of running again
// from the start. Journaling costs a closure per change, so only the
// REPL's stepper turns it on.

// Journal turns the undo journal on or off (off drops it).
func (h *Heap) Journal(on bool) {
	if on {
		if h.journal == nil {
			h.journal = &[]func(){}
		}
		for _, t := range h.trackers {
			t.journal = h.journal
		}
		return
	}
	h.journal = nil
	for _, t := range h.trackers {
		t.journal = nil
	}
}

// Mark is the journal's position now, for Undo.
func (h *Heap) Mark() int {
	if h.journal == nil {
		return 0
	}
	return len(*h.journal)
}

// Undo undoes every change logged since mark, newest first.
func (h *Heap) Undo(mark int) {
	if h.journal == nil {
		return
	}
	j := *h.journal
	for i := len(j) - 1; i >= mark; i-- {
		j[i]()
	}
	*h.journal = j[:mark]
}

// log records how to undo a change, when the journal is on.
func (h *Heap) log(undo func()) {
	if h.journal != nil {
		*h.journal = append(*h.journal, undo)
	}
}

// remember logs how to undo an access about to be recorded for loc by
// iteration it: the location's record and the iteration's trace lengths.
func (t *Tracker) remember(loc Loc, it int64) {
	info := t.rec(loc)
	saved := *info
	var nr, nw int
	tr := t.Trace
	if tr != nil {
		tr.toSets() // a journaled trace must undo single accesses
	}
	traced := tr != nil && it >= 1 && it <= int64(tr.Len())
	if traced {
		nr, nw = len(tr.iters[it-1].Reads), len(tr.iters[it-1].Writes)
	}
	*t.journal = append(*t.journal, func() {
		// The record's page may have moved since (the first chunk
		// grows): find it again. A record not seen is as good as none.
		info := t.rec(loc)
		*info = saved
		if traced {
			a := &tr.iters[it-1]
			a.Reads, a.Writes = a.Reads[:nr], a.Writes[:nw]
		}
	})
}
