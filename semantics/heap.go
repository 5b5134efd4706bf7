package semantics

import "fmt"

// Label names a memory block of a Heap. Labels count from 1.
type Label int

// String renders a label as ℓ1, ℓ2, ….
func (l Label) String() string { return fmt.Sprintf("ℓ%d", int(l)) }

// Loc is a location: a block and an offset in it.
type Loc struct {
	Block  Label
	Offset int64
}

// String renders a location as ℓ2[5].
func (l Loc) String() string { return fmt.Sprintf("%v[%d]", l.Block, l.Offset) }

// Heap maps labels to blocks of integers (§3.3). Blocks are allocated
// zeroed (E-MEM-ALLOC) and never freed. Reads and writes are bounds
// checked; every access is reported to the active race trackers.
type Heap struct {
	blocks    [][]int64
	trackers  []*Tracker
	total     int64
	recording bool
	accesses  []Access
	scratch   []int64 // memcpyPlain's buffer, kept between copies
	stats     *Stats  // counts each word read and written (Count), when not nil
}

// Count makes the heap count each word read and written (by Read, Write
// and Memcpy) as an operation of st; nil stops it. FUNMEM's semantics
// count their element reads and writes so; IMP, which reads and writes
// block words itself on a Plain heap, counts its statements instead.
func (h *Heap) Count(st *Stats) { h.stats = st }

// Access is one read or write of a heap cell, as Record collects them.
type Access struct {
	Loc   Loc
	Write bool
}

// Record starts (or stops) collecting the heap's reads and writes, which
// TakeAccesses hands over: the REPL marks the cells a step touched.
func (h *Heap) Record(on bool) { h.recording, h.accesses = on, nil }

// TakeAccesses returns the accesses collected since the last call.
func (h *Heap) TakeAccesses() []Access {
	a := h.accesses
	h.accesses = nil
	return a
}

// Alloc adds a zeroed block of n integers and returns its label.
func (h *Heap) Alloc(n int64) (Label, error) {
	if n < 0 {
		return 0, fmt.Errorf("allocation of negative size %d", n)
	}
	if err := h.reserve(n); err != nil {
		return 0, err
	}
	return h.add(make([]int64, n)), nil
}

// Adopt adds a block holding data, which the heap then owns (nothing
// else may write it): a program's input array, bound without a copy.
// The limits are Alloc's.
func (h *Heap) Adopt(data []int64) (Label, error) {
	if err := h.reserve(int64(len(data))); err != nil {
		return 0, err
	}
	if data == nil {
		data = []int64{} // a block, if an empty one: nil is no block
	}
	return h.add(data), nil
}

// reserve counts n more integers against the heap's limit, MaxHeap.
func (h *Heap) reserve(n int64) error {
	if n > MaxHeap-h.total {
		if h.total == 0 {
			return tooBig("allocation", n)
		}
		return tooBig(fmt.Sprintf("allocation (after the %d elements, %s, the heap holds)", h.total, Bytes(8*h.total)), n)
	}
	if n > largest.elems.Load() {
		noteAlloc(func() string { return fmt.Sprintf("heap block ℓ%d of %d integers", len(h.blocks)+1, n) }, n)
	}
	return nil
}

// add appends a block whose integers reserve has counted.
func (h *Heap) add(data []int64) Label {
	n := int64(len(data))
	h.total += n
	h.blocks = append(h.blocks, data)
	return Label(len(h.blocks))
}

// Block is the contents of block l (shared, not copied).
func (h *Heap) Block(l Label) []int64 {
	if l < 1 || int(l) > len(h.blocks) {
		return nil
	}
	return h.blocks[l-1]
}

// Blocks is the number of blocks.
func (h *Heap) Blocks() int { return len(h.blocks) }

func (h *Heap) check(loc Loc) error {
	b := h.Block(loc.Block)
	if b == nil {
		return fmt.Errorf("no block %v", loc.Block)
	}
	if loc.Offset < 0 || loc.Offset >= int64(len(b)) {
		return fmt.Errorf("offset %d is outside block %v of size %d", loc.Offset, loc.Block, len(b))
	}
	return nil
}

// Read is H[ℓ, i]. A read outside the block is an error.
func (h *Heap) Read(loc Loc) (int64, error) {
	b := h.Block(loc.Block)
	if uint64(loc.Offset) >= uint64(len(b)) {
		return 0, h.check(loc)
	}
	for _, t := range h.trackers {
		if err := t.access(loc, false); err != nil {
			return 0, err
		}
	}
	if h.recording {
		h.accesses = append(h.accesses, Access{Loc: loc})
	}
	if h.stats != nil {
		h.stats.Ops++
	}
	return b[loc.Offset], nil
}

// Write is H[ℓ, i] ↦ k. A write outside the block is an error.
func (h *Heap) Write(loc Loc, k int64) error {
	b := h.Block(loc.Block)
	if uint64(loc.Offset) >= uint64(len(b)) {
		return h.check(loc)
	}
	for _, t := range h.trackers {
		if err := t.access(loc, true); err != nil {
			return err
		}
	}
	if h.recording {
		h.accesses = append(h.accesses, Access{Loc: loc, Write: true})
	}
	b[loc.Offset] = k
	if h.stats != nil {
		h.stats.Ops++
	}
	return nil
}

// Memcpy is eq (5) for arrays: it copies the elements of the source, taken
// in row-major order of its domain, to the destination's, element for
// element. The two LMADs must have the same shape.
func (h *Heap) Memcpy(src Label, ls LMAD, dst Label, ld LMAD) error {
	if !sameDims(ls, ld) {
		return fmt.Errorf("memcpy from shape %s to shape %s", ShapeString(ls.Shape()), ShapeString(ld.Shape()))
	}
	if h.Plain() && h.memcpyPlain(src, ls, dst, ld) {
		return nil
	}
	if done, err := h.memcpyTracked(src, ls, dst, ld); done {
		return err
	}
	// Read everything first: the source and destination may overlap, and
	// eq (5) defines the result from the heap before the copy.
	var vals []int64
	if err := ls.Image(func(off int64) error {
		v, err := h.Read(Loc{src, off})
		vals = append(vals, v)
		return err
	}); err != nil {
		return err
	}
	i := 0
	return ld.Image(func(off int64) error {
		err := h.Write(Loc{dst, off}, vals[i])
		i++
		return err
	})
}

// sameDims reports whether two LMADs have the same shape.
func sameDims(a, b LMAD) bool {
	if len(a.Dims) != len(b.Dims) {
		return false
	}
	for i := range a.Dims {
		if a.Dims[i].Elems != b.Dims[i].Elems {
			return false
		}
	}
	return true
}

// memcpyPlain is Memcpy on a Plain heap, with no callback per element: it
// lists the source's offsets and reads their words (all of them first,
// as eq (5) asks), lists the destination's, then writes. When a block is
// missing or an offset falls outside its block it changes nothing and
// reports false, so that Memcpy's general path reads and writes up to the
// failing access and reports it, as it always has.
func (h *Heap) memcpyPlain(src Label, ls LMAD, dst Label, ld LMAD) bool {
	sb, db, so, do, ok := h.copyOffsets(src, ls, dst, ld)
	if !ok {
		return false
	}
	defer h.keepScratch(so, do)
	for i, o := range so {
		so[i] = sb[o]
	}
	for i, o := range do {
		db[o] = so[i]
	}
	if h.stats != nil {
		h.stats.Ops += int64(len(so) + len(do)) // as Read and Write count
	}
	return true
}

// memcpyTracked is Memcpy on a heap with trackers that does not record:
// the general path's accesses in its order (every source word read, then
// every destination word written, each shown to the trackers before it is
// made, up to the first they refuse), with the offsets listed as
// memcpyPlain lists them rather than by a callback per element. When a
// block is missing or an offset falls outside its block it changes
// nothing and reports not done, as memcpyPlain does.
func (h *Heap) memcpyTracked(src Label, ls LMAD, dst Label, ld LMAD) (done bool, err error) {
	if h.recording {
		return false, nil
	}
	sb, db, so, do, ok := h.copyOffsets(src, ls, dst, ld)
	if !ok {
		return false, nil
	}
	defer h.keepScratch(so, do)
	for i, o := range so {
		loc := Loc{src, o}
		for _, t := range h.trackers {
			if err := t.access(loc, false); err != nil {
				return true, err
			}
		}
		if h.stats != nil {
			h.stats.Ops++
		}
		so[i] = sb[o]
	}
	for i, o := range do {
		loc := Loc{dst, o}
		for _, t := range h.trackers {
			if err := t.access(loc, true); err != nil {
				return true, err
			}
		}
		if h.stats != nil {
			h.stats.Ops++
		}
		db[o] = so[i]
	}
	return true, nil
}

// copyOffsets are a copy's blocks and the offsets of its source and its
// destination, listed in a buffer the heap keeps (keepScratch gives it
// back), or false when a block is missing or an offset falls outside its
// block. The source's offsets are overwritten by its words as they are
// read.
func (h *Heap) copyOffsets(src Label, ls LMAD, dst Label, ld LMAD) (sb, db, so, do []int64, ok bool) {
	sb, db = h.Block(src), h.Block(dst)
	if sb == nil || db == nil {
		return nil, nil, nil, nil, false
	}
	if so, ok = appendOffsets(h.scratch[:0], ls, len(sb)); !ok {
		return nil, nil, nil, nil, false
	}
	if do, ok = appendOffsets(so[len(so):], ld, len(db)); !ok {
		return nil, nil, nil, nil, false
	}
	return sb, db, so, do, true
}

// keepScratch keeps the larger buffer of a copy's offsets for the next.
func (h *Heap) keepScratch(so, do []int64) {
	if cap(do) > cap(h.scratch) {
		h.scratch = do[:0]
	} else {
		h.scratch = so[:0]
	}
}

// appendOffsets appends the offsets of l's domain, in row-major order, to
// out (Image's order, by an odometer instead of a callback), or reports
// false when one lies outside [0, size).
func appendOffsets(out []int64, l LMAD, size int) ([]int64, bool) {
	for _, d := range l.Dims {
		if d.Elems <= 0 {
			return out, true
		}
	}
	var fixed [8]int64
	idx := fixed[:0]
	if len(l.Dims) > len(fixed) {
		idx = make([]int64, 0, len(l.Dims))
	}
	idx = idx[:len(l.Dims)]
	off := l.Offset
	for {
		if uint64(off) >= uint64(size) {
			return out, false
		}
		out = append(out, off)
		k := len(l.Dims) - 1
		for ; k >= 0; k-- {
			d := l.Dims[k]
			idx[k]++
			off += d.Stride
			if idx[k] < d.Elems {
				break
			}
			off -= idx[k] * d.Stride
			idx[k] = 0
		}
		if k < 0 {
			return out, true
		}
	}
}

// Push starts tracking accesses for a kernel; Pop stops it. Trackers nest:
// an access inside an inner kernel counts for every enclosing one, each
// with its own iteration number.
func (h *Heap) Push(t *Tracker) {
	h.trackers = append(h.trackers, t)
}

// Pop removes the innermost tracker.
func (h *Heap) Pop() {
	h.trackers = h.trackers[:len(h.trackers)-1]
}

// Plain reports whether an access to h needs nothing but its bounds
// check: no race tracker is pushed and no access is recorded. A big-step that sees it may then read and write the
// words of Block(l) itself (the same effect as Read and Write).
func (h *Heap) Plain() bool { return len(h.trackers) == 0 && !h.recording }
