package semantics

// KernelTrace is a kernel's trace for --trace: each iteration's read set
// and write set, in the order the accesses were made, repeats kept.
//
// A big-step runs a kernel's iterations one after the other, so the trace
// is kept flat: the reads in one log and the writes in another, in the
// order made, cut into iterations only when a consumer asks (At, Iters).
// That is no set to grow per iteration and nothing for the collector to
// scan while the kernel runs. Where each iteration's accesses start is
// kept only once the iterations stop making the same number of reads and
// writes each (most kernels make the same: their starts are then
// multiples of those numbers).
//
// A small-step may interleave iterations (a schedule); for those the
// trace turns, once, into one read set and one write set per iteration
// (the sets form), which any order of accesses can grow.
type KernelTrace struct {
	// The flat form.
	reads, writes []Loc
	n             int   // the iterations started
	rk, wk        int   // the reads and writes of each iteration, while the same (from the second start)
	rs, ws        []int // where iteration i's reads and writes start, at i-1 (nil while the same)
	k             int   // the iterations expected (rs's capacity to be)

	// The sets form, once sets is set: iters[i-1] is iteration i's.
	sets  bool
	iters []IterAccess
	slab  []Loc // where the sets grow (setAppend)
	slabN int   // the size of the next slab
}

// IterAccess is one iteration's read set and write set.
type IterAccess struct{ Reads, Writes []Loc }

// NewKernelTrace is the trace of a kernel of up to n iterations, each of
// which makes at least reads and writes accesses (a hint: room for them
// is made at once rather than by doubling).
func NewKernelTrace(n int64, reads, writes int) *KernelTrace {
	k := min(n, 1<<20) // a bound is not a promise that the kernel gets that far
	return &KernelTrace{
		k:     int(k),
		reads: make([]Loc, 0, min(k*int64(reads), 1<<22)), writes: make([]Loc, 0, min(k*int64(writes), 1<<22)),
	}
}

// Len is the number of iterations traced.
func (t *KernelTrace) Len() int {
	if t.sets {
		return len(t.iters)
	}
	return t.n
}

// Next begins the next iteration (n+1, the first being 1) of a trace kept
// in order; the accesses Read and Write log from now on are its.
func (t *KernelTrace) Next() {
	if t.sets {
		t.iters = append(t.iters, IterAccess{})
		return
	}
	i := t.n
	t.n++
	if t.rs == nil {
		if i == 1 {
			// The first iteration's accesses: room for as many in each
			// (at once, rather than by doubling).
			t.rk, t.wk = len(t.reads), len(t.writes)
			t.reads = reserve(t.reads, t.k*t.rk)
			t.writes = reserve(t.writes, t.k*t.wk)
		}
		if len(t.reads) == i*t.rk && len(t.writes) == i*t.wk {
			return
		}
		// The first iteration to differ from the first one.
		t.rs, t.ws = make([]int, i, max(t.k, i+1)), make([]int, i, max(t.k, i+1))
		for j := range i {
			t.rs[j], t.ws[j] = j*t.rk, j*t.wk
		}
	}
	t.rs = append(t.rs, len(t.reads))
	t.ws = append(t.ws, len(t.writes))
}

// Read and Write log an access of the iteration begun last (Next).
func (t *KernelTrace) Read(loc Loc) {
	if t.sets {
		t.add(loc, false, int64(len(t.iters)))
		return
	}
	t.reads = append(t.reads, loc)
}

// Write logs a write of the iteration begun last (Next).
func (t *KernelTrace) Write(loc Loc) {
	if t.sets {
		t.add(loc, true, int64(len(t.iters)))
		return
	}
	t.writes = append(t.writes, loc)
}

// reserve is s with room for n locations (up to 1<<22).
func reserve(s []Loc, n int) []Loc {
	n = min(n, 1<<22)
	if cap(s) >= n {
		return s
	}
	r := make([]Loc, len(s), n)
	copy(r, s)
	return r
}

// at is where iteration i (from 0) starts in the flat logs.
func (t *KernelTrace) at(i int) (int, int) {
	if i == t.n {
		return len(t.reads), len(t.writes)
	}
	if t.rs == nil {
		return i * t.rk, i * t.wk
	}
	return t.rs[i], t.ws[i]
}

// At is iteration i's (from 1) sets. They are the trace's own: capped,
// so that appending to one cannot write into another, but not to be
// changed in place.
func (t *KernelTrace) At(i int) IterAccess {
	if t.sets {
		return t.iters[i-1]
	}
	r0, w0 := t.at(i - 1)
	r1, w1 := t.at(i)
	var a IterAccess
	if r1 > r0 {
		a.Reads = t.reads[r0:r1:r1]
	}
	if w1 > w0 {
		a.Writes = t.writes[w0:w1:w1]
	}
	return a
}

// Iters is every iteration's sets: iteration i's at i-1, nil sets for
// none. Each is as At gives it.
func (t *KernelTrace) Iters() []IterAccess {
	if t.sets {
		return t.iters
	}
	tr := make([]IterAccess, t.n)
	for i := range tr {
		tr[i] = t.At(i + 1)
	}
	return tr
}

// toSets turns a flat trace into the sets form (once).
func (t *KernelTrace) toSets() {
	if t.sets {
		return
	}
	t.iters = t.Iters()
	t.sets = true
	t.reads, t.writes, t.rs, t.ws = nil, nil, nil, nil
}

// grow makes sure iterations up to i have sets (the sets form).
func (t *KernelTrace) grow(i int64) {
	for int64(len(t.iters)) < i {
		t.iters = append(t.iters, IterAccess{})
	}
}

// add logs an access of iteration it, in the sets form.
func (t *KernelTrace) add(loc Loc, write bool, it int64) {
	if it < 1 || it > int64(len(t.iters)) {
		return
	}
	hint := 0
	a := &t.iters[it-1]
	var prev *IterAccess // the iteration before, whose sets' sizes are a hint
	if it >= 2 {
		prev = &t.iters[it-2]
	}
	if write {
		if len(a.Writes) == cap(a.Writes) && prev != nil {
			hint = len(prev.Writes)
		}
		a.Writes = t.setAppend(a.Writes, loc, hint)
	} else {
		if len(a.Reads) == cap(a.Reads) && prev != nil {
			hint = len(prev.Reads)
		}
		a.Reads = t.setAppend(a.Reads, loc, hint)
	}
}

// setAppend is append(s, loc) for an iteration's set, with the sets'
// storage carved from slabs that grow with the trace: no allocation per
// access. A new set gets room for hint locations, the size of the same
// set of the iteration before (iterations of a kernel tend to make as
// many accesses; the room reserved is at most the accesses so far, plus
// one a set); a set that outgrows its region moves to one twice as large.
// The regions are capped, so that appending never writes into another
// set's.
func (t *KernelTrace) setAppend(s []Loc, loc Loc, hint int) []Loc {
	if len(s) < cap(s) {
		return append(s, loc)
	}
	n := max(1, hint)
	if len(s) > 0 {
		n = 2 * len(s)
	}
	if len(t.slab) < n {
		t.slabN = min(4096, max(64, 2*t.slabN))
		t.slab = make([]Loc, max(n, t.slabN))
	}
	r := t.slab[:len(s):n]
	t.slab = t.slab[n:]
	copy(r, s)
	return append(r, loc)
}

// start begins iteration i for a tracker: the next one of a flat trace,
// any other in the sets form (iterations may start in any order under a
// schedule of the small-step).
func (t *KernelTrace) start(i int64) {
	if !t.sets && i == int64(t.n)+1 {
		t.Next()
		return
	}
	t.toSets()
	t.grow(i)
}

// note logs a tracker's access by iteration it: to the flat logs when it
// is the iteration begun last, else in the sets form.
func (t *KernelTrace) note(loc Loc, write bool, it int64) {
	if it < 1 {
		return // before the first iteration: nobody's
	}
	if !t.sets && it == int64(t.n) {
		if write {
			t.writes = append(t.writes, loc)
		} else {
			t.reads = append(t.reads, loc)
		}
		return
	}
	t.toSets()
	t.add(loc, write, it)
}
