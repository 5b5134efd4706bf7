package semantics

import (
	"cmp"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/internal/mutant"
)

// Tracker records the accesses of a kernel's iterations and decides
// racefree of eq (4): no location written by one iteration is read or
// written by another. It keeps, per location, the first writer and two
// distinct accessing iterations, so tracking costs time and memory
// proportional to the accesses, however many iterations there are.
//
// The per-location records live in pages of pageSize consecutive offsets
// of one block, found through an open-addressing table of pages and a
// small cache of the pages last used per block: an access is an index
// into a page in the common case of neighbouring offsets, with no map
// operation and no allocation (pages are allocated by the chunk, and
// never moved).
type Tracker struct {
	Iter int64 // the iteration now running (from 1)

	pages [][]racePage // the pages in chunks of chunkPages, in the order first touched
	npage int          // how many pages there are
	slots []int32      // open addressing over pages: index+1, 0 for empty
	bits  uint         // len(slots) is 1<<bits
	cache [cacheSize]pageRef

	// Trace, when non-nil, receives the read and write sets of each
	// iteration (for --trace): Trace[i-1] is iteration i's.
	Trace []IterAccess
	slab  []Loc // where the trace's sets grow (traceAppend)
	slabN int   // the size of the next slab

	journal *[]func() // its heap's undo journal, when on (journal.go)
}

// IterAccess is one iteration's read set and write set.
type IterAccess struct{ Reads, Writes []Loc }

// pageShift gives the size of a page of locations: 8 offsets.
const (
	pageShift  = 3
	pageSize   = 1 << pageShift
	cacheSize  = 4 // pages cached, one per block label modulo 4
	chunkShift = 8 // chunks of 256 pages
	chunkPages = 1 << chunkShift
)

// pageKey names a page: a block and the offset of its first location,
// shifted right by pageShift.
type pageKey struct {
	block Label
	page  int64
}

// pageRef is a cached page: its key and its index in pages, plus one.
type pageRef struct {
	key pageKey
	idx int32
}

// racePage is the records of pageSize consecutive locations; seen has a
// bit per location that has been accessed.
type racePage struct {
	key  pageKey
	seen uint8
	locs [pageSize]locInfo
}

type locInfo struct {
	writer     int64 // first iteration that wrote, 0 if none
	acc1, acc2 int64 // two distinct iterations that accessed, 0 if none
}

// NewTracker makes a tracker; with trace, it also keeps each iteration's
// read and write sets.
func NewTracker(trace bool) *Tracker {
	t := &Tracker{}
	if trace {
		t.Trace = []IterAccess{}
	}
	return t
}

// Reset makes t a fresh tracker, as NewTracker(trace) would, keeping the
// memory of its table for the next kernel (a big-step reuses one tracker
// per kernel statement). The trace is always fresh: the last one may
// still be held by whoever received it.
func (t *Tracker) Reset(trace bool) {
	t.Iter, t.journal, t.Trace, t.slab, t.slabN = 0, nil, nil, nil, 0
	if trace {
		t.Trace = []IterAccess{}
	}
	t.cache = [cacheSize]pageRef{}
	// Clearing costs the table's size; a table much larger than the last
	// kernel needed goes, so that the clearing stays proportional to the
	// accesses of the kernel before.
	if len(t.slots) > 8*max(t.npage, 64) {
		t.slots, t.pages, t.bits = nil, nil, 0
	} else {
		clear(t.slots)
	}
	t.npage = 0
}

// pageAt is page i.
func (t *Tracker) pageAt(i int) *racePage {
	return &t.pages[i>>chunkShift][i&(chunkPages-1)]
}

// Expect says that iterations up to n will start, so that a trace can be
// allocated once rather than grown (up to 2^20 iterations: a bound is not
// a promise that the kernel gets that far).
func (t *Tracker) Expect(n int64) {
	if t.Trace != nil && n > int64(cap(t.Trace)) {
		tr := make([]IterAccess, len(t.Trace), min(n, 1<<20))
		copy(tr, t.Trace)
		t.Trace = tr
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
// schedule of the small-step); Trace[i-1] is still iteration i's.
func (t *Tracker) Start(i int64) {
	if t.journal != nil {
		prev, n := t.Iter, len(t.Trace)
		*t.journal = append(*t.journal, func() {
			t.Iter = prev
			if t.Trace != nil {
				t.Trace = t.Trace[:n]
			}
		})
	}
	t.Iter = i
	if t.Trace != nil {
		for int64(len(t.Trace)) < i {
			t.Trace = append(t.Trace, IterAccess{})
		}
	}
}

// hashPage spreads page keys over the table (Fibonacci hashing).
func hashPage(k pageKey, bits uint) uint64 {
	return (uint64(k.page) ^ uint64(k.block)*0x9E3779B97F4A7C15) * 0x9E3779B97F4A7C15 >> (64 - bits)
}

// lookup finds the page of key k: its index in pages, or -1.
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

// page is the page of key k, added (empty) when it is new.
func (t *Tracker) page(k pageKey) *racePage {
	c := &t.cache[int(k.block)&(cacheSize-1)]
	if c.idx != 0 && c.key == k {
		return t.pageAt(int(c.idx - 1))
	}
	i := t.lookup(k)
	if i < 0 {
		i = t.addPage(k)
	}
	*c = pageRef{key: k, idx: int32(i + 1)}
	return t.pageAt(i)
}

// addPage adds an empty page for k and returns its index.
func (t *Tracker) addPage(k pageKey) int {
	if 2*(t.npage+1) > len(t.slots) {
		t.grow()
	}
	i := t.npage
	c := i >> chunkShift
	if c == len(t.pages) {
		// The first chunk grows by appending (small trackers stay
		// small); the others are allocated whole.
		t.pages = append(t.pages, make([]racePage, 0, min(16, chunkPages)))
		if c > 0 {
			t.pages[c] = make([]racePage, 0, chunkPages)
		}
	}
	if ch := &t.pages[c]; len(*ch) <= i&(chunkPages-1) {
		*ch = append(*ch, racePage{})
	}
	*t.pageAt(i) = racePage{key: k}
	t.npage++
	t.insert(k, int32(i+1))
	return i
}

func (t *Tracker) insert(k pageKey, ref int32) {
	mask := uint64(len(t.slots) - 1)
	h := hashPage(k, t.bits)
	for t.slots[h] != 0 {
		h = (h + 1) & mask
	}
	t.slots[h] = ref
}

// grow doubles the table (at least 16 slots) and places the pages again.
func (t *Tracker) grow() {
	n := max(16, 2*len(t.slots))
	if len(t.slots) == n {
		clear(t.slots)
	} else {
		t.slots = make([]int32, n)
	}
	t.bits = uint(bits.TrailingZeros(uint(n)))
	for i := range t.npage {
		t.insert(t.pageAt(i).key, int32(i+1))
	}
}

// info is loc's record, and whether loc had been accessed before.
func (t *Tracker) info(loc Loc) (*locInfo, *racePage, uint8) {
	p := t.page(pageKey{loc.Block, loc.Offset >> pageShift})
	return &p.locs[loc.Offset&(pageSize-1)], p, 1 << (loc.Offset & (pageSize - 1))
}

func (t *Tracker) access(loc Loc, write bool) error {
	it := t.Iter
	if t.journal != nil {
		t.remember(loc, it)
	}
	if t.Trace != nil && it >= 1 && it <= int64(len(t.Trace)) {
		hint := 0
		a := &t.Trace[it-1]
		var prev *IterAccess // the iteration before, whose sets' sizes are a hint
		if it >= 2 {
			prev = &t.Trace[it-2]
		}
		if write {
			if len(a.Writes) == cap(a.Writes) && prev != nil {
				hint = len(prev.Writes)
			}
			a.Writes = t.traceAppend(a.Writes, loc, hint)
		} else {
			if len(a.Reads) == cap(a.Reads) && prev != nil {
				hint = len(prev.Reads)
			}
			a.Reads = t.traceAppend(a.Reads, loc, hint)
		}
	}
	info, p, bit := t.info(loc)
	if p.seen&bit == 0 {
		p.seen |= bit
		*info = locInfo{acc1: it}
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
		return ErrRace{I: info.writer, J: other, Loc: loc, Writer: info.writer, Tracker: t}
	}
	return nil
}

// traceAppend is append(s, loc) for an iteration's set, with the sets'
// storage carved from slabs that grow with the trace: no allocation per
// access. A new set gets room for hint locations, the size of the same
// set of the iteration before (iterations of a kernel tend to make as
// many accesses; the room reserved is at most the accesses so far, plus
// one a set); a set that outgrows its region moves to one twice as large.
// The regions are capped, so that appending never writes into another
// set's.
func (t *Tracker) traceAppend(s []Loc, loc Loc, hint int) []Loc {
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
