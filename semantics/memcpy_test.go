package semantics

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// randomCopy is a copy for the Memcpy tests: two blocks of sizes, and a
// source and destination of one shape (the source may be the missing
// label 3) whose LMADs have random offsets (some outside the blocks) and
// strides (negative and zero among them).
type randomCopy struct {
	sizes    []int64
	src, dst Label
	ls, ld   LMAD
}

func newRandomCopy(r *rand.Rand) randomCopy {
	c := randomCopy{sizes: []int64{r.Int63n(12) + 1, r.Int63n(12) + 1}}
	var dims []int64
	for range r.Intn(4) {
		dims = append(dims, r.Int63n(4))
	}
	lmad := func(size int64) LMAD {
		l := LMAD{Offset: r.Int63n(size+4) - 2}
		for _, n := range dims {
			l.Dims = append(l.Dims, LDim{Elems: n, Stride: r.Int63n(7) - 2})
		}
		return l
	}
	c.src, c.dst = Label(r.Intn(3)+1), Label(r.Intn(2)+1)
	c.ls, c.ld = lmad(c.size(c.src)), lmad(c.size(c.dst))
	return c
}

// size is block l's size (1 for the missing one).
func (c randomCopy) size(l Label) int64 {
	if int(l) <= len(c.sizes) {
		return c.sizes[l-1]
	}
	return 1
}

func (c randomCopy) String() string {
	return fmt.Sprintf("Memcpy(ℓ%d %v, ℓ%d %v) on blocks of %v", c.src, c.ls, c.dst, c.ld, c.sizes)
}

// heap is a heap with c's two blocks, word i of block b holding 100b+i.
func (c randomCopy) heap(t *testing.T) *Heap {
	h := &Heap{}
	for b, n := range c.sizes {
		l, err := h.Alloc(n)
		if err != nil {
			t.Fatal(err)
		}
		for i := range h.Block(l) {
			h.Block(l)[i] = int64(100*b + i)
		}
	}
	return h
}

// blocks are the words of c's blocks in h.
func (c randomCopy) blocks(h *Heap) [][]int64 {
	var out [][]int64
	for b := range c.sizes {
		out = append(out, slices.Clone(h.Block(Label(b+1))))
	}
	return out
}

// TestMemcpyPlainAgrees: Memcpy on a plain heap (memcpyPlain, no callback
// per element) leaves the blocks and reports the errors that the general
// path does (taken here by recording the accesses, which makes the heap
// not plain), over random copies: overlapping ones within one block,
// negative and zero strides, empty shapes, offsets outside the blocks,
// and missing blocks.
func TestMemcpyPlainAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	run := func(plain bool, c randomCopy) ([][]int64, error) {
		h := c.heap(t)
		h.Record(!plain)
		if h.Plain() != plain {
			t.Fatalf("the heap is plain: %v, want %v", h.Plain(), plain)
		}
		err := h.Memcpy(c.src, c.ls, c.dst, c.ld)
		return c.blocks(h), err
	}
	fast := 0
	for k := 0; k < 5000; k++ {
		c := newRandomCopy(r)
		got, gerr := run(true, c)
		want, werr := run(false, c)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%v: plain %v, %v; general %v, %v", c, got, gerr, want, werr)
		}
		if gerr == nil {
			fast++
		}
	}
	if fast < 500 {
		t.Errorf("only %d of the copies succeeded: the cases hardly test the plain path", fast)
	}
}

// TestMemcpyTrackedAgrees: Memcpy on a heap with a tracker and no
// recording (memcpyTracked) against the general path (the same heap also
// recording), over random copies made by iteration 2 of a kernel whose
// iteration 1 touched random words before: the same words, the same
// error (the first race, a read or write outside a block), the same
// operations counted and the same accesses left in the tracker.
func TestMemcpyTrackedAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	type touch struct {
		loc   Loc
		write bool
	}
	run := func(record bool, c randomCopy, before []touch) (string, error) {
		h := c.heap(t)
		st := &Stats{}
		h.Count(st)
		tr := NewTracker(false)
		h.Push(tr)
		tr.Start(1)
		for _, a := range before {
			if a.write {
				_ = h.Write(a.loc, -1)
			} else {
				_, _ = h.Read(a.loc)
			}
		}
		tr.Start(2)
		h.Record(record)
		err := h.Memcpy(c.src, c.ls, c.dst, c.ld)
		out := c.blocks(h)
		// What the tracker holds: a third access by iteration 3 to every
		// word races with whatever iterations 1 and 2 wrote there.
		var seen []string
		tr.Start(3)
		for b, n := range c.sizes {
			for o := range n {
				if _, err := h.Read(Loc{Label(b + 1), o}); err != nil {
					seen = append(seen, err.Error())
				}
			}
		}
		return fmt.Sprint(out, st.Ops, seen), err
	}
	tracked, raced := 0, 0
	for k := 0; k < 5000; k++ {
		c := newRandomCopy(r)
		var before []touch
		for range r.Intn(7) {
			b := Label(r.Intn(2) + 1)
			before = append(before, touch{Loc{b, r.Int63n(c.size(b))}, r.Intn(2) == 0})
		}
		got, gerr := run(false, c, before)
		want, werr := run(true, c, before)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || got != want {
			t.Fatalf("%v after %v:\ntracked %v, %v\ngeneral %v, %v", c, before, got, gerr, want, werr)
		}
		var race ErrRace
		if errors.As(gerr, &race) {
			raced++
		} else if gerr == nil {
			tracked++
		}
	}
	if tracked < 500 || raced < 200 {
		t.Errorf("%d copies succeeded and %d raced: too few to test both", tracked, raced)
	}
}
