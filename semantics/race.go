package semantics

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/arraysem/arraysem/internal/mutant"
)

// Tracker records the accesses of a kernel's iterations and decides
// racefree of eq (4): no location written by one iteration is read or
// written by another. It keeps, per location, the first writer and two
// distinct accessing iterations, so tracking costs time and memory
// proportional to the accesses, however many iterations there are.
//
// The records live in pages of pageSize consecutive offsets of one block,
// allocated by the chunk and never moved. Each block has a directory of
// its pages over a window of page numbers, which grows (doubling) while
// it stays at most 8 times the pages it holds, plus 64 entries; the page
// last used per block is at hand. So an access is an index into a page
// (with no hashing, map operation or allocation) for a kernel that sweeps
// its blocks, and the memory stays linear in the accesses. A page outside
// a directory that may not grow (sparse accesses, a gather) is found
// through an open-addressing table instead.
type Tracker struct {
	Iter int64 // the iteration now running (from 1)
	// TraceOnly, when set, keeps the trace but records
	// nothing for racefree: for a kernel its caller has shown cannot race,
	// whose records could never give an error. Reset clears it.
	TraceOnly bool
	// ReportOnly, when set, records the kernel's first race in Found and
	// lets the access go on, as hardware would run it, instead of
	// failing it (the REPL's :set races report). Reset clears it.
	ReportOnly bool
	Found      *ErrRace

	wins   map[Label]*blockWin // the blocks' directories
	wcache [8]*blockWin        // the directories last used, by label modulo 8
	spare  []*blockWin         // directories of a tracker reset, for reuse

	pages [][]racePage // the pages in chunks of chunkPages, in the order made
	npage int          // how many pages there are
	dirty int          // pages from here on have never been used (are zero)
	slots []int32      // open addressing over the pages outside directories: index+1, 0 for empty
	nslot int          // pages in slots
	bits  uint         // len(slots) is 1<<bits

	// Trace, when non-nil, receives the read and write sets of each
	// iteration (for --trace).
	Trace *KernelTrace
}

const (
	pageShift  = 3 // pages of 8 offsets
	pageSize   = 1 << pageShift
	chunkShift = 8 // chunks of 256 pages
	chunkPages = 1 << chunkShift
)

// pageKey names a page: a block and the offset of its first location,
// shifted right by pageShift.
type pageKey struct {
	block Label
	page  int64
}

// racePage is the records of pageSize consecutive locations.
type racePage struct {
	key  pageKey
	locs [pageSize]locInfo
}

// blockWin is a block's directory: dir[d] is page lo + d's index plus
// one, 0 for none yet.
type blockWin struct {
	block  Label
	lo     int64
	dir    []int32
	n      int   // pages in the directory
	frozen bool  // the block has pages in slots: the directory may not grow
	pg     int64 // the page last used
	page   int32 // and its index plus one (0: none)
}

type locInfo struct {
	writer     int64 // first iteration that wrote, 0 if none
	acc1, acc2 int64 // two distinct iterations that accessed, 0 if none
	seen       bool  // accessed at all
}

// NewTracker makes a tracker; with trace, it also keeps each iteration's
// read and write sets. It is one a run that has ended gave back
// (RecycleTrackers), reset, when there is one.
func NewTracker(trace bool) *Tracker {
	if t, ok := recycled.Get().(*Tracker); ok {
		t.Reset(trace)
		return t
	}
	t := &Tracker{}
	if trace {
		t.Trace = &KernelTrace{}
	}
	return t
}

// recycled holds the trackers of runs that have ended, for NewTracker.
var recycled sync.Pool

// RecycleTrackers gives the trackers of a run that has ended back for
// NewTracker: a run makes its kernels' trackers anew (a kernel reuses one
// that ended before it in the same run), and the property campaigns make
// thousands of small runs, whose trackers' tables were a few percent of
// the bytes they allocated. No kernel, fold or error may hold them still:
// a run gives them back only when it has ended without an error (whose
// race names its tracker).
func RecycleTrackers(ts []*Tracker) {
	for _, t := range ts {
		recycled.Put(t)
	}
}

// Reset makes t a fresh tracker, as NewTracker(trace) would, keeping the
// memory of its tables for the next kernel (a big-step reuses the tracker
// of a kernel that has ended). The trace is always fresh: the last one
// may still be held by whoever received it.
func (t *Tracker) Reset(trace bool) {
	t.Iter, t.Trace = 0, nil
	t.TraceOnly, t.ReportOnly, t.Found = false, false, nil
	if trace {
		t.Trace = &KernelTrace{}
	}
	t.wcache = [8]*blockWin{}
	for b, w := range t.wins {
		// A directory much larger than its use goes; the others are
		// kept, cleared, for the next kernel's blocks.
		if cap(w.dir) <= 8*(w.n+64) {
			clear(w.dir)
			*w = blockWin{dir: w.dir[:0]}
			t.spare = append(t.spare, w)
		}
		delete(t.wins, b)
	}
	// Clearing costs the table's size; a table much larger than the last
	// kernel needed goes, so that the clearing stays proportional to the
	// accesses of the kernel before.
	if len(t.slots) > 8*max(t.nslot, 64) {
		t.slots, t.bits = nil, 0
	} else {
		clear(t.slots)
	}
	if t.npage > 0 && len(t.pages) > 8*(t.npage/chunkPages+1) {
		t.pages, t.dirty = nil, 0
	}
	t.npage, t.nslot = 0, 0
}

// Expect says that iterations up to n will start, so that a trace can be
// allocated once rather than grown (up to 2^20 iterations: a bound is not
// a promise that the kernel gets that far).
func (t *Tracker) Expect(n int64) {
	if t.Trace != nil && t.Trace.Len() == 0 {
		t.Trace.k = int(min(n, 1<<20))
	}
}

// ErrRace is the violation of racefree: iterations I and J both touch Loc
// and at least one of them (Writer) writes it.
type ErrRace struct {
	I, J    int64
	Loc     Loc
	Writer  int64
	Tracker *Tracker // the kernel's tracker that saw it
}

func (e ErrRace) Error() string {
	other := e.I
	if other == e.Writer {
		other = e.J
	}
	return fmt.Sprintf("race: iteration %d writes %v, which iteration %d also uses (racefree, eq 4)", e.Writer, e.Loc, other)
}

// Start begins iteration i. Iterations may start in any order (a
// schedule of the small-step); the trace's iteration i is still its.
func (t *Tracker) Start(i int64) {
	t.Iter = i
	if t.Trace != nil {
		t.Trace.start(i)
	}
}

// pageAt is page i.
func (t *Tracker) pageAt(i int) *racePage {
	return &t.pages[i>>chunkShift][i&(chunkPages-1)]
}

// rec is loc's record (zero, not seen, when loc is new).
func (t *Tracker) rec(loc Loc) *locInfo {
	c := &t.wcache[loc.Block&7]
	w := *c
	if w == nil || w.block != loc.Block {
		if w = t.wins[loc.Block]; w == nil {
			w = t.newWin(loc.Block)
		}
		*c = w
	}
	pg := loc.Offset >> pageShift
	if w.page == 0 || pg != w.pg {
		w.pg, w.page = pg, int32(t.pageOf(w, pg)+1)
	}
	return &t.pageAt(int(w.page - 1)).locs[loc.Offset&(pageSize-1)]
}

// pageOf is the index of page pg of w's block, made when new.
func (t *Tracker) pageOf(w *blockWin, pg int64) int {
	d := pg - w.lo
	if uint64(d) >= uint64(len(w.dir)) && !w.grow(pg) {
		// Outside a directory that may not grow: the table.
		w.frozen = true
		k := pageKey{w.block, pg}
		if i := t.lookup(k); i >= 0 {
			return i
		}
		i := t.newPage(k)
		if 2*(t.nslot+1) > len(t.slots) {
			t.growSlots()
		}
		t.insert(k, int32(i+1))
		t.nslot++
		return i
	}
	d = pg - w.lo
	if w.dir[d] == 0 {
		w.dir[d] = int32(t.newPage(pageKey{w.block, pg}) + 1)
		w.n++
	}
	return int(w.dir[d] - 1)
}

// newWin makes block b's directory (empty).
func (t *Tracker) newWin(b Label) *blockWin {
	if t.wins == nil {
		t.wins = map[Label]*blockWin{}
	}
	var w *blockWin
	if n := len(t.spare); n > 0 {
		w, t.spare = t.spare[n-1], t.spare[:n-1]
	} else {
		w = &blockWin{}
	}
	w.block = b
	t.wins[b] = w
	return w
}

// grow makes the directory cover page pg, if it may: to at least twice
// its size, and at most 8 times its pages plus 64 entries.
func (w *blockWin) grow(pg int64) bool {
	if w.frozen {
		return false
	}
	n := int64(len(w.dir))
	if n == 0 {
		w.lo = pg
		w.resize(pg, 16)
		return true
	}
	lo, hi := w.lo, w.lo+n
	size := max(max(hi, pg+1)-min(lo, pg), 2*n)
	if size > 8*int64(w.n+1)+64 {
		return false
	}
	nlo := lo
	if pg < lo {
		nlo = max(0, hi-size)
	}
	w.resize(nlo, int(size))
	return true
}

// resize makes the directory [nlo, nlo + size), which covers the old one.
// dir[len:cap] is always zero.
func (w *blockWin) resize(nlo int64, size int) {
	shift := int(w.lo - nlo)
	if cap(w.dir) >= size {
		old, nd := w.dir, w.dir[:size]
		copy(nd[shift:], old)
		clear(nd[:min(shift, len(old))])
		w.dir = nd
	} else {
		nd := make([]int32, size, 2*size)
		copy(nd[shift:], w.dir)
		w.dir = nd
	}
	w.lo = nlo
}

// newPage makes an empty page for k and returns its index.
func (t *Tracker) newPage(k pageKey) int {
	i := t.npage
	c, j := i>>chunkShift, i&(chunkPages-1)
	switch {
	case c == len(t.pages):
		// The first chunk starts small (small trackers stay small: a
		// kernel of a few iterations, of which a run may start
		// thousands, touches a page or two); the others are allocated
		// whole.
		n := chunkPages
		if c == 0 {
			n = 2
		}
		t.pages = append(t.pages, make([]racePage, n))
	case j == len(t.pages[c]):
		ch := make([]racePage, min(chunkPages, 4*j))
		copy(ch, t.pages[c])
		t.pages[c] = ch
	}
	p := &t.pages[c][j]
	if i < t.dirty {
		*p = racePage{key: k}
	} else {
		// Never used since allocated: still zero.
		p.key = k
		t.dirty = i + 1
	}
	t.npage++
	return i
}

// hashPage spreads page keys over the table (Fibonacci hashing).
func hashPage(k pageKey, bits uint) uint64 {
	return (uint64(k.page) ^ uint64(k.block)*0x9E3779B97F4A7C15) * 0x9E3779B97F4A7C15 >> (64 - bits)
}

// lookup finds the page of key k in the table: its index, or -1.
func (t *Tracker) lookup(k pageKey) int {
	if len(t.slots) == 0 {
		return -1
	}
	mask := uint64(len(t.slots) - 1)
	for h := hashPage(k, t.bits); ; h = (h + 1) & mask {
		s := t.slots[h]
		if s == 0 {
			return -1
		}
		if t.pageAt(int(s-1)).key == k {
			return int(s - 1)
		}
	}
}

func (t *Tracker) insert(k pageKey, ref int32) {
	mask := uint64(len(t.slots) - 1)
	h := hashPage(k, t.bits)
	for t.slots[h] != 0 {
		h = (h + 1) & mask
	}
	t.slots[h] = ref
}

// growSlots doubles the table (at least 16 slots) and places its pages
// again.
func (t *Tracker) growSlots() {
	old := t.slots
	n := max(16, 2*len(t.slots))
	t.slots = make([]int32, n)
	t.bits = uint(bits.TrailingZeros(uint(n)))
	for _, s := range old {
		if s != 0 {
			t.insert(t.pageAt(int(s-1)).key, s)
		}
	}
}

func (t *Tracker) access(loc Loc, write bool) error {
	it := t.Iter
	if t.Trace != nil {
		t.Trace.note(loc, write, it)
	}
	if t.TraceOnly {
		return nil
	}
	info := t.rec(loc)
	if !info.seen {
		*info = locInfo{acc1: it, seen: true}
	} else if info.acc1 != it && info.acc2 == 0 {
		info.acc2 = it
	}
	if write && info.writer == 0 {
		info.writer = it
	}
	if info.writer != 0 && info.acc2 != 0 {
		if mutant.On("no-race-check") { // mutant: racefree (eq 4) always holds
			return nil
		}
		other := info.acc1
		if other == info.writer {
			other = info.acc2
		}
		race := ErrRace{I: info.writer, J: other, Loc: loc, Writer: info.writer, Tracker: t}
		if t.ReportOnly {
			if t.Found == nil {
				t.Found = &race
			}
			return nil
		}
		return race
	}
	return nil
}

// Sets renders an iteration's trace: R = {ℓ1[0], ℓ1[1]} W = {ℓ2[0]}, each
// set sorted and without repeats.
func (a IterAccess) Sets() string {
	return "R = " + locSet(a.Reads) + "  W = " + locSet(a.Writes)
}

func locSet(ls []Loc) string {
	seen := map[Loc]bool{}
	var u []Loc
	for _, l := range ls {
		if !seen[l] {
			seen[l] = true
			u = append(u, l)
		}
	}
	slices.SortFunc(u, func(a, b Loc) int { return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Offset, b.Offset)) })
	parts := make([]string, len(u))
	for i, l := range u {
		parts[i] = l.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
